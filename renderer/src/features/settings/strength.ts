/**
 * A password's strength, estimated the simple way: the bits of entropy of its length over the
 * alphabet it draws from, less what repeats, runs and common words give away; and whether it
 * meets the organization's rules (register's `password_min_length` and `password_min_guesses`,
 * the latter compared with the estimate's 2^bits guesses).
 */

export type StrengthLevel = 0 | 1 | 2 | 3 | 4;

export interface Strength {
  bits: number;
  /** About how many guesses would find it: 2^bits. */
  guesses: number;
  level: StrengthLevel;
  label: string;
}

const LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;

const COMMON = [
  'password',
  'qwerty',
  'letmein',
  'welcome',
  'admin',
  'login',
  'monkey',
  'dragon',
  'abc123',
  'iloveyou',
];

function poolSize(password: string): number {
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/[0-9]/.test(password)) pool += 10;
  if (/[^A-Za-z0-9\s]/.test(password)) pool += 33;
  if (/\s/.test(password)) pool += 1;
  // Letters of other scripts: a large alphabet.
  if (/[^\p{ASCII}]/u.test(password)) pool += 100;
  return pool;
}

/** Characters that add little: a repeat of the one before, or the next in a run (abc, 123, cba). */
function predictableCount(chars: readonly string[]): number {
  let count = 0;
  for (let i = 1; i < chars.length; i++) {
    const step = (chars[i]?.codePointAt(0) ?? 0) - (chars[i - 1]?.codePointAt(0) ?? 0);
    if (step === 0 || step === 1 || step === -1) count++;
  }
  return count;
}

export function passwordStrength(password: string): Strength {
  const chars = [...password];
  if (chars.length === 0) return { bits: 0, guesses: 1, level: 0, label: LABELS[0] };
  const perChar = Math.log2(Math.max(poolSize(password), 2));
  let effective = chars.length - predictableCount(chars) * 0.75;
  const lower = password.toLowerCase();
  for (const word of COMMON) if (lower.includes(word)) effective -= word.length - 1;
  const bits = Math.max(0, Math.round(effective * perChar));
  const level: StrengthLevel = bits < 28 ? 0 : bits < 40 ? 1 : bits < 60 ? 2 : bits < 80 ? 3 : 4;
  return { bits, guesses: 2 ** bits, level, label: LABELS[level] };
}

/** What the server accepts as a new password. */
export interface PasswordRules {
  minLength: number;
  minGuesses: number;
}

/** For a server that does not say: the family's usual minimum length, and no guesses rule. */
export const DEFAULT_PASSWORD_RULES: PasswordRules = { minLength: 6, minGuesses: 0 };

/** The rules from the organization's settings (register), each falling back to the default. */
export function passwordRules(minLength: unknown, minGuesses: unknown): PasswordRules {
  const count = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
  return {
    minLength: count(minLength, DEFAULT_PASSWORD_RULES.minLength),
    minGuesses: count(minGuesses, DEFAULT_PASSWORD_RULES.minGuesses),
  };
}

/** Why the server would refuse `password` (null: it meets the rules). */
export function passwordProblem(password: string, rules: PasswordRules): string | null {
  const length = [...password].length;
  if (length < rules.minLength) {
    return `Too short: at least ${rules.minLength} characters (${length} so far).`;
  }
  if (passwordStrength(password).guesses < rules.minGuesses) {
    return 'Too easy to guess: add words or characters that do not follow a pattern.';
  }
  return null;
}
