/**
 * A password's strength, estimated the simple way: the bits of entropy of its length over the
 * alphabet it draws from, less what repeats, runs and common words give away.
 */

export type StrengthLevel = 0 | 1 | 2 | 3 | 4;

export interface Strength {
  bits: number;
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
  if (chars.length === 0) return { bits: 0, level: 0, label: LABELS[0] };
  const perChar = Math.log2(Math.max(poolSize(password), 2));
  let effective = chars.length - predictableCount(chars) * 0.75;
  const lower = password.toLowerCase();
  for (const word of COMMON) if (lower.includes(word)) effective -= word.length - 1;
  const bits = Math.max(0, Math.round(effective * perChar));
  const level: StrengthLevel = bits < 28 ? 0 : bits < 40 ? 1 : bits < 60 ? 2 : bits < 80 ? 3 : 4;
  return { bits, level, label: LABELS[level] };
}
