/**
 * Request parameters, read by the endpoint catalogue (shared/protocol/endpoints.ts): the
 * router decodes every parameter an entry declares, in the entry's order, before the handler
 * runs (paramDecoder), and hands the handler the values typed as shared/protocol/params.ts
 * derives them. The raw texts stay available (RequestParams) for what the catalogue does not
 * declare: the names of parameters an endpoint ignores (ignored_parameters_unsupported), the
 * options an incoming-webhook integration declares for itself, and POST /messages' free-text
 * local-echo hints.
 */
import type { EndpointSpec, ParamSpec } from '../../shared/protocol';
import { missingArgument } from '../errors';
import { FORMAT_DECODERS } from './formats';
import {
  bool,
  type Decoder,
  int,
  intAtLeast,
  intEnum,
  intList,
  jsonArray,
  jsonObject,
  jsonOf,
  pathId,
  retention,
  str,
  strEnum,
  stringList,
} from './kinds';

/** The texts a request carries, by name: query parameters and form fields. */
export class RequestParams {
  private readonly values: Map<string, string>;

  /** Later entries win, so a form body overrides a query parameter of the same name. */
  constructor(...sources: Iterable<[string, string]>[]) {
    this.values = new Map();
    for (const source of sources) for (const [k, v] of source) this.values.set(k, v);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  raw(name: string): string | undefined {
    return this.values.get(name);
  }

  /** Parameter names in request order. */
  names(): string[] {
    return [...this.values.keys()];
  }
}

/** The decoder a parameter's spec calls for: its format, its schema, else its kind's rule. */
function decoderFor(p: ParamSpec): Decoder<unknown> {
  if (p.in === 'path') return p.kind === 'int' ? pathId(p.invalid) : str;
  if (p.format !== undefined) return FORMAT_DECODERS[p.format];
  if (p.schema !== undefined) return jsonOf(p.schema, p.invalid);
  switch (p.kind) {
    case 'string':
      return str;
    case 'bool':
      return bool;
    case 'int':
      return p.min === undefined ? int : intAtLeast(p.min);
    case 'int-enum':
      return intEnum(p.values ?? [], p.invalid);
    case 'str-enum':
      return strEnum(p.values ?? [], p.invalid);
    case 'int-list':
      return intList;
    case 'string-list':
      return stringList;
    case 'json-array':
      return jsonArray;
    case 'json-object':
      return jsonObject;
    case 'retention':
      return retention;
  }
}

/** The name a value came under and its text: the parameter's own name first, then its aliases. */
function rawValue(
  p: ParamSpec,
  raw: RequestParams,
  path: Record<string, string>,
): { name: string; text: string } | undefined {
  if (p.in === 'path') return { name: p.name, text: path[p.name] ?? '' };
  for (const name of [p.name, ...(p.aliases ?? [])]) {
    const text = raw.raw(name);
    if (text !== undefined) return { name, text };
  }
  return undefined;
}

/** Decoded parameters by name; an absent optional one is absent. */
export type DecodedParams = Record<string, unknown>;

/**
 * Builds, once per endpoint, the function that gives a request's parameters as the catalogue
 * decodes them. Each is decoded when the handler first reads it (and then kept), so a route's
 * own order of reads and checks decides which error a request with several faults gets, as
 * it did when routes decoded by hand: a drafts request with synchronization off is refused
 * for that before its body is judged, and GET /events with a queue_id never reads the
 * register parameters it does not use. A missing required parameter throws when read.
 */
export function paramDecoder(
  endpoint: EndpointSpec,
): (raw: RequestParams, path: Record<string, string>) => DecodedParams {
  const decoders = endpoint.params.map((p) => ({ p, decode: decoderFor(p) }));
  return (raw, path) => {
    const values: DecodedParams = {};
    for (const { p, decode } of decoders) {
      const found = rawValue(p, raw, path);
      if (found === undefined && !p.required) continue;
      let decoded: { value: unknown } | undefined;
      Object.defineProperty(values, p.name, {
        enumerable: true,
        get() {
          if (found === undefined) throw missingArgument(p.name);
          decoded ??= { value: decode(found.name, found.text) };
          return decoded.value;
        },
      });
    }
    return values;
  };
}
