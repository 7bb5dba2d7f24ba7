/**
 * What the endpoint catalogue's parameters decode to, as TypeScript types derived from the
 * catalogue itself (endpoints.ts): `ParamsOf<'GET /streams'>` has `include_public: boolean |
 * undefined`, a required parameter has no `undefined`, a str-enum is the union of its values.
 * The server's router decodes every request by the catalogue and hands its handlers exactly
 * these types, so the catalogue, the handlers and the catalogue-driven tests cannot drift.
 *
 * Formats: a parameter whose value needs more than its kind's generic rule (a list of drafts,
 * a narrow, a setting checked by the settings table) names a format; the server holds one
 * decoder per format (server/params.ts), with the interface family's error texts, and the
 * value types are declared here so that shared code can name them.
 */
import type { z } from 'zod';
import type { ApiEntry, EndpointSpec, PageEntry, ParamKind, ParamSpec } from './endpoints';
import type { Draft } from './events';
import type { SettingValue } from './settings';

/** One term of a GET /messages narrow, in either of its wire forms. */
export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated: boolean;
}

/** A draft as a client sends it: the Draft resource without its id; the timestamp optional. */
export type DraftParam = Omit<Draft, 'id' | 'timestamp'> & { timestamp?: number };

/** What each format decodes to (the decoders: server/params.ts, FORMAT_DECODERS). */
export interface FormatValues {
  /** A text without NUL characters (no stored text may hold one). */
  text: string;
  /** Any JSON value; its shape is the action's to check (field_data depends on the field type). */
  json: unknown;
  /** A user setting, decoded and checked by the settings table (settings.ts, checkSettingValue). */
  setting: SettingValue;
  /** POST /drafts: a list of drafts. */
  drafts: DraftParam[];
  /** PATCH /drafts/{draft_id}: one draft. */
  draft: DraftParam;
  /** POST /users/me/subscriptions: the streams, by name, with a description for new ones. */
  'stream-specs': { name: string; description?: string }[];
  /** POST /users/me/subscriptions/properties: property changes. */
  'property-changes': { stream_id: number; property: string; value: unknown }[];
  /** PATCH /users/me/profile_data: values by field id. */
  'profile-data': { id: number; value: unknown }[];
  /** GET /messages: the narrow, as pairs or as operator objects. */
  'message-narrow': NarrowTerm[];
}
export type ParamFormat = keyof FormatValues;

/** What each kind decodes to when no format or schema says more. */
interface KindValues {
  string: string;
  bool: boolean;
  int: number;
  'int-enum': number;
  'str-enum': string;
  'int-list': number[];
  'string-list': string[];
  'json-array': unknown[];
  'json-object': Record<string, unknown>;
  /** Days; null: the organization's default; -1: unlimited. */
  retention: number | null;
}

/** The decoded value of one parameter, by its format, schema, values or kind. */
export type ParamValue<P extends ParamSpec> = P extends { format: infer F extends ParamFormat }
  ? FormatValues[F]
  : P extends { schema: infer S extends z.ZodType }
    ? z.infer<S>
    : P extends { kind: 'str-enum'; values: readonly (infer V)[] }
      ? V
      : P extends { kind: infer K extends ParamKind }
        ? KindValues[K]
        : never;

type Decoded<P extends ParamSpec> = P extends { required: true } ? ParamValue<P> : ParamValue<P> | undefined;

/** The decoded parameters of a catalogue entry, by name. */
export type ParamsOfSpec<E extends EndpointSpec> = {
  -readonly [P in E['params'][number] as P['name']]: Decoded<P>;
};

type Entry = ApiEntry | PageEntry;
type NameOf<E> = E extends { method: infer M extends string; path: infer P extends string }
  ? `${M} ${P}`
  : never;

/** `METHOD /path` of every endpoint of the catalogue (and of the pages outside /api/v1). */
export type EndpointName = NameOf<Entry>;

/** The catalogue entry of an endpoint name. */
export type EndpointNamed<N extends EndpointName> = Entry extends infer E
  ? E extends Entry
    ? NameOf<E> extends N
      ? E
      : never
    : never
  : never;

/** The decoded parameters of an endpoint, by name: `ParamsOf<'GET /streams'>`. */
export type ParamsOf<N extends EndpointName> = ParamsOfSpec<EndpointNamed<N>>;
