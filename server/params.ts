/**
 * Request parameters per the spec's encoding: every value is one text (query parameter or
 * form field). Strings are used as they are; booleans, integers, arrays and objects are JSON
 * text. Errors use the interface family's wording (NOTES.md) and change nothing.
 */
import type { z } from 'zod';
import { badRequest, missingArgument } from './errors';

/** Turns one raw text into a value, or throws an ApiFailure naming the parameter. */
export type Decoder<T> = (name: string, raw: string) => T;

export function parseJsonText(name: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
}

export const str: Decoder<string> = (_name, raw) => raw;

export const bool: Decoder<boolean> = (name, raw) => {
  const value = parseJsonText(name, raw);
  if (typeof value !== 'boolean') throw badRequest(`${name} is not a boolean`);
  return value;
};

export const int: Decoder<number> = (name, raw) => {
  const value = parseJsonText(name, raw);
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw badRequest(`${name} is not an integer`);
  return value;
};

export const stringList: Decoder<string[]> = (name, raw) => {
  const value = parseJsonText(name, raw);
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  value.forEach((item, i) => {
    if (typeof item !== 'string') throw badRequest(`${name}[${i}] is not a string`);
  });
  return value as string[];
};

export const intList: Decoder<number[]> = (name, raw) => {
  const value = parseJsonText(name, raw);
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  value.forEach((item, i) => {
    if (typeof item !== 'number' || !Number.isSafeInteger(item))
      throw badRequest(`${name}[${i}] is not an integer`);
  });
  return value as number[];
};

/** JSON text checked by a zod schema; any mismatch is `Invalid <name>`. */
export function jsonOf<T>(schema: z.ZodType<T>): Decoder<T> {
  return (name, raw) => {
    const result = schema.safeParse(parseJsonText(name, raw));
    if (!result.success) throw badRequest(`Invalid ${name}`);
    return result.data;
  };
}

/** Entries of a parsed query object; for a repeated key (an array) the last value wins. */
export function queryEntries(query: unknown): [string, string][] {
  const entries: [string, string][] = [];
  if (query && typeof query === 'object') {
    for (const [key, value] of Object.entries(query)) {
      const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
      if (typeof last === 'string') entries.push([key, last]);
    }
  }
  return entries;
}

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

  required<T>(name: string, decode: Decoder<T>): T {
    const raw = this.values.get(name);
    if (raw === undefined) throw missingArgument(name);
    return decode(name, raw);
  }

  optional<T>(name: string, decode: Decoder<T>): T | undefined;
  optional<T>(name: string, decode: Decoder<T>, fallback: T): T;
  optional<T>(name: string, decode: Decoder<T>, fallback?: T): T | undefined {
    const raw = this.values.get(name);
    return raw === undefined ? fallback : decode(name, raw);
  }
}
