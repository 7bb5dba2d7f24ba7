/**
 * The generic rule of each parameter kind of the catalogue (shared/protocol/endpoints.ts):
 * every value is one text (query parameter, form field or path segment). Strings are used as
 * they are; booleans, integers, lists and objects are JSON text, read by json.ts, where a
 * numeral written as a float (`1e0`, `1.0`, `-0`) is no integer. Errors use the interface
 * family's wording (NOTES.md) and change nothing.
 */
import type { z } from 'zod';
import { RETAIN_FOREVER } from '../db/streams';
import { badRequest } from '../errors';
import { readJson } from './json';

/** Turns one raw text into a value, or throws an ApiFailure naming the parameter. */
export type Decoder<T> = (name: string, raw: string) => T;

export function parseJsonText(name: string, raw: string): unknown {
  const json = readJson(raw);
  if (json === undefined) throw badRequest(`${name} is not valid JSON`);
  return json.value;
}

/** An integer as JSON writes one: a FloatNumeral (`1e0`) is no number, so none. */
export const isInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

/** A JSON object (`{...}`): not a list, nor a FloatNumeral. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

export const str: Decoder<string> = (_name, raw) => raw;

export const bool: Decoder<boolean> = (name, raw) => {
  const value = parseJsonText(name, raw);
  if (typeof value !== 'boolean') throw badRequest(`${name} is not a boolean`);
  return value;
};

export const int: Decoder<number> = (name, raw) => {
  const value = parseJsonText(name, raw);
  if (!isInteger(value)) throw badRequest(`${name} is not an integer`);
  return value;
};

export function intAtLeast(min: number): Decoder<number> {
  return (name, raw) => {
    const value = int(name, raw);
    if (value < min) throw badRequest(`${name} is too small`);
    return value;
  };
}

export function intEnum(values: readonly unknown[], invalid: string | undefined): Decoder<number> {
  return (name, raw) => {
    const value = int(name, raw);
    if (!values.includes(value)) throw badRequest(invalid ?? `Invalid ${name}`);
    return value;
  };
}

export function strEnum(values: readonly unknown[], invalid: string | undefined): Decoder<string> {
  return (name, raw) => {
    if (!values.includes(raw)) throw badRequest(invalid ?? `Invalid ${name}`);
    return raw;
  };
}

/** A JSON list, each item checked by `item` (which throws with the item's own name). */
export function listOf<T>(name: string, raw: string, item: (value: unknown, itemName: string) => T): T[] {
  const value = parseJsonText(name, raw);
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  return value.map((v, i) => item(v, `${name}[${i}]`));
}

export const stringList: Decoder<string[]> = (name, raw) =>
  listOf(name, raw, (item, itemName) => {
    if (typeof item !== 'string') throw badRequest(`${itemName} is not a string`);
    return item;
  });

export const intList: Decoder<number[]> = (name, raw) =>
  listOf(name, raw, (item, itemName) => {
    if (!isInteger(item)) throw badRequest(`${itemName} is not an integer`);
    return item;
  });

export const jsonArray: Decoder<unknown[]> = (name, raw) => listOf(name, raw, (item) => item);

export const jsonObject: Decoder<Record<string, unknown>> = (name, raw) => {
  const value = parseJsonText(name, raw);
  if (!isPlainObject(value)) throw badRequest(`${name} is not a dict`);
  return value;
};

/** JSON text checked by a zod schema; any mismatch is `invalid`, else `Invalid <name>`. */
export function jsonOf<T>(schema: z.ZodType<T>, invalid?: string): Decoder<T> {
  return (name, raw) => {
    const result = schema.safeParse(parseJsonText(name, raw));
    if (!result.success) throw badRequest(invalid ?? `Invalid ${name}`);
    return result.data;
  };
}

/**
 * message_retention_days: a JSON number of days, or `realm_default` / `unlimited` as a JSON
 * string or a bare word. Returns the stored value (null inherits, -1 forever).
 */
export const retention: Decoder<number | null> = (name, raw) => {
  // A bare word is kept as the text.
  const value = readJson(raw)?.value ?? raw;
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return RETAIN_FOREVER;
  if (isInteger(value) && value > 0) return value;
  throw badRequest(`Bad value for '${name}': ${raw}`);
};

/** A numeric path segment such as `{draft_id}`: digits only, not JSON. */
export function pathId(invalid: string | undefined): Decoder<number> {
  return (name, raw) => {
    const id = Number(raw);
    if (!/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(id)) {
      throw badRequest(invalid ?? `${name} is not an integer`);
    }
    return id;
  };
}
