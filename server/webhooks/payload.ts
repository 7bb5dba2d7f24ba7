/**
 * Read access to a webhook's JSON payload that turns a missing or mistyped key into a clear
 * 400 naming it (`payload['featured_title'] is missing`), as the interface family does.
 */
import { badRequest } from '../errors';

export class Payload {
  constructor(
    readonly value: unknown,
    readonly path = 'payload',
  ) {}

  private dict(): Record<string, unknown> {
    if (typeof this.value !== 'object' || this.value === null || Array.isArray(this.value)) {
      throw badRequest(`${this.path} is not a dict`);
    }
    return this.value as Record<string, unknown>;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.dict(), key);
  }

  /** The value under `key`; throws `<path>['key'] is missing` when absent. */
  get(key: string): Payload {
    const dict = this.dict();
    const path = `${this.path}['${key}']`;
    if (!Object.hasOwn(dict, key)) throw badRequest(`${path} is missing`);
    return new Payload(dict[key], path);
  }

  string(): string {
    if (typeof this.value !== 'string') throw badRequest(`${this.path} is not a string`);
    return this.value;
  }

  int(): number {
    if (typeof this.value !== 'number' || !Number.isSafeInteger(this.value)) {
      throw badRequest(`${this.path} is not an integer`);
    }
    return this.value;
  }

  bool(): boolean {
    if (typeof this.value !== 'boolean') throw badRequest(`${this.path} is not a boolean`);
    return this.value;
  }
}

/** Parses the request body as JSON, whatever its Content-Type said. */
export function parseJsonPayload(text: string): Payload {
  try {
    return new Payload(JSON.parse(text));
  } catch {
    throw badRequest('Malformed JSON');
  }
}
