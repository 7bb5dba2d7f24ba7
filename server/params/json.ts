/**
 * The one JSON reader of request parameters. It is JSON.parse, except for numerals: the
 * interface family reads JSON with Python, where `1`, `1.0` and `1e0` are an int, a float and a
 * float, and a float is refused wherever an integer is expected. JavaScript reads all three as
 * the number 1, so this reader keeps the difference: a numeral written with a fraction, an
 * exponent or as `-0` whose value is a whole number becomes a FloatNumeral, not a number.
 * Every integer check (`Number.isSafeInteger`, zod's `.int()`, a list of ids, a narrow's
 * operand) then refuses it as it refuses any other value of the wrong type, with the same
 * text. A numeral whose value is not whole (`1.5`) stays a number: every integer check
 * refuses it already.
 *
 * Where any number is welcome (a draft's timestamp) read it with jsonNumber(). Written back
 * as JSON, a FloatNumeral is its number again; as a text (String()), it is what was sent.
 *
 * The reader is iterative, so nesting depth costs no stack, and strings are decoded by
 * JSON.parse itself, so escapes, lone surrogates and raw control characters are taken or
 * refused exactly as JSON.parse does.
 */

/** A whole-valued numeral written as a float (`1.0`, `1e0`, `-0`): a float to the family. */
export class FloatNumeral {
  constructor(
    readonly value: number,
    readonly text: string,
  ) {}

  toJSON(): number {
    return this.value;
  }

  toString(): string {
    return this.text;
  }
}

/** A number of any kind as sent: a JSON number, or a FloatNumeral's value; otherwise undefined. */
export function jsonNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  return value instanceof FloatNumeral ? value.value : undefined;
}

export const isJsonNumber = (value: unknown): boolean => jsonNumber(value) !== undefined;

class JsonSyntaxError extends Error {}

const NUMERAL = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

type Frame = { list: unknown[] } | { object: Record<string, unknown>; key: string };

class Reader {
  private i = 0;

  constructor(private readonly text: string) {}

  private fail(): never {
    throw new JsonSyntaxError(`Unexpected input at position ${this.i}`);
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.i;
    WHITESPACE.test(this.text);
    this.i = WHITESPACE.lastIndex;
  }

  /** The next character after whitespace, consumed when it is `expected`. */
  private take(expected: string): boolean {
    this.skipWhitespace();
    if (this.text[this.i] !== expected) return false;
    this.i++;
    return true;
  }

  private string(): string {
    const start = this.i;
    if (this.text[start] !== '"') this.fail();
    let end = start + 1;
    for (;;) {
      const c = this.text[end];
      if (c === undefined) this.fail();
      if (c === '"') break;
      end += c === '\\' ? 2 : 1;
    }
    this.i = end + 1;
    // JSON.parse judges the escapes and control characters of the token.
    return JSON.parse(this.text.slice(start, this.i)) as string;
  }

  private numeral(): number | FloatNumeral {
    NUMERAL.lastIndex = this.i;
    const m = NUMERAL.exec(this.text);
    if (!m) this.fail();
    this.i = NUMERAL.lastIndex;
    const text = m[0];
    const value = Number(text);
    const writtenAsInteger = m[1] === undefined && m[2] === undefined && text !== '-0';
    return writtenAsInteger || !Number.isInteger(value) ? value : new FloatNumeral(value, text);
  }

  private literal(word: string, value: unknown): unknown {
    if (!this.text.startsWith(word, this.i)) this.fail();
    this.i += word.length;
    return value;
  }

  /** A scalar value, or the start of a container (pushed on the stack, its first member read next). */
  private scalar(c: string | undefined): unknown {
    switch (c) {
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        return this.numeral();
    }
  }

  private key(): string {
    this.skipWhitespace();
    const key = this.string();
    if (!this.take(':')) this.fail();
    return key;
  }

  read(): unknown {
    const stack: Frame[] = [];
    for (;;) {
      // A value: an empty container, a scalar, or a container whose members come first.
      this.skipWhitespace();
      const c = this.text[this.i];
      let value: unknown;
      if (c === '[') {
        this.i++;
        if (this.take(']')) value = [];
        else {
          stack.push({ list: [] });
          continue;
        }
      } else if (c === '{') {
        this.i++;
        if (this.take('}')) value = {};
        else {
          stack.push({ object: {}, key: this.key() });
          continue;
        }
      } else {
        value = this.scalar(c);
      }
      // The value is complete: it ends its containers, or another member follows.
      for (;;) {
        const top = stack.at(-1);
        if (top === undefined) {
          this.skipWhitespace();
          if (this.i !== this.text.length) this.fail();
          return value;
        }
        if ('list' in top) {
          top.list.push(value);
          if (this.take(',')) break;
          if (!this.take(']')) this.fail();
          value = top.list;
        } else {
          // As JSON.parse: an own property even for `__proto__`; a repeated key keeps its place.
          Object.defineProperty(top.object, top.key, {
            value,
            writable: true,
            enumerable: true,
            configurable: true,
          });
          if (this.take(',')) {
            top.key = this.key();
            break;
          }
          if (!this.take('}')) this.fail();
          value = top.object;
        }
        stack.pop();
      }
    }
  }
}

/** JSON text as a value, numerals kept apart as above; undefined when the text is not JSON. */
export function readJson(text: string): { value: unknown } | undefined {
  try {
    return { value: new Reader(text).read() };
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof SyntaxError) return undefined;
    throw error;
  }
}
