/**
 * The status editor's rules: the text limit, what a save sends (POST /users/me/status passes
 * only what changed, and an empty string clears), and the usual statuses offered in one click.
 */
import type { EmojiChoice } from './emojiCatalog';

export const STATUS_TEXT_MAX = 60;

/** Characters as the server counts them (code points). */
export const statusLength = (text: string): number => [...text.trim()].length;

/** Why the text cannot be saved, or null. */
export function statusTextProblem(text: string): string | null {
  const over = statusLength(text) - STATUS_TEXT_MAX;
  return over > 0
    ? `The status is ${over} ${over === 1 ? 'character' : 'characters'} too long (at most ${STATUS_TEXT_MAX}).`
    : null;
}

export type StatusEmoji = Pick<EmojiChoice, 'name' | 'code' | 'type'>;

export interface StatusDraft {
  text: string;
  emoji: StatusEmoji | null;
  away: boolean;
}

/** The parameters of POST /users/me/status that turn `before` into `after`. */
export function statusParams(before: StatusDraft, after: StatusDraft): Record<string, unknown> {
  const params: Record<string, unknown> = { status_text: after.text.trim() };
  const emojiChanged =
    before.emoji?.name !== after.emoji?.name ||
    before.emoji?.code !== after.emoji?.code ||
    before.emoji?.type !== after.emoji?.type;
  if (emojiChanged) {
    if (after.emoji) {
      params.emoji_name = after.emoji.name;
      params.emoji_code = after.emoji.code;
      params.reaction_type = after.emoji.type;
    } else {
      params.emoji_name = '';
    }
  }
  if (before.away !== after.away) params.away = after.away;
  return params;
}

/** The parameters that clear text and emoji (away stays as it is). */
export const CLEAR_STATUS_PARAMS = { status_text: '', emoji_name: '' } as const;

/** The usual statuses, as the interface family's web app offers them. */
export const STATUS_PRESETS: readonly { text: string; emoji: StatusEmoji }[] = [
  { text: 'In a meeting', emoji: { name: 'spiral_calendar', code: '1f5d3', type: 'unicode_emoji' } },
  { text: 'Commuting', emoji: { name: 'bus', code: '1f68c', type: 'unicode_emoji' } },
  { text: 'Out sick', emoji: { name: 'face_with_thermometer', code: '1f912', type: 'unicode_emoji' } },
  { text: 'Vacationing', emoji: { name: 'palm_tree', code: '1f334', type: 'unicode_emoji' } },
  { text: 'Working remotely', emoji: { name: 'house', code: '1f3e0', type: 'unicode_emoji' } },
];
