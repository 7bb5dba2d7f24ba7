/**
 * The one rule for names people pick (streams, user full names, user groups, custom profile
 * fields and their choices): no control characters (NUL among them), no lone surrogates, no
 * unassigned code points, as the interface family's check_string_is_printable.
 */
import { badRequest } from './errors';

const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Cn}]/u;

/** The 1-based position (in code points) of the first character no name may hold, or null. */
export function unprintablePosition(text: string): number | null {
  if (!UNPRINTABLE.test(text)) return null;
  const index = [...text].findIndex((ch) => UNPRINTABLE.test(ch));
  return index === -1 ? null : index + 1;
}

/** Refuses a name holding such a character: `Invalid character in <what>, at position N!`. */
export function checkPrintable(text: string, what: string): void {
  const position = unprintablePosition(text);
  if (position !== null) throw badRequest(`Invalid character in ${what}, at position ${position}!`);
}
