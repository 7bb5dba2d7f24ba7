/** Per-user message flags, stored as a bit set in user_messages.flags. */
export const FLAGS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  wildcard_mentioned: 16,
  has_alert_word: 32,
  historical: 64,
} as const;
export type FlagName = keyof typeof FLAGS;

export function flagNames(bits: number): FlagName[] {
  return (Object.keys(FLAGS) as FlagName[]).filter((name) => (bits & FLAGS[name]) !== 0);
}
