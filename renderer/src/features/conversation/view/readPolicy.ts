/**
 * When seeing a message marks it as read, per the user's `web_mark_read_on_scroll_policy`
 * (1 always, 2 only in conversation views: a topic or a private conversation, 3 never), as
 * the family does. A search never marks anything read: its results are not a reading of the
 * conversation (the family does the same).
 */
import { isConversationNarrow, type Narrow } from '../../../../../shared/domain/narrow';

export const MARK_READ_ALWAYS = 1;
export const MARK_READ_CONVERSATIONS = 2;
export const MARK_READ_NEVER = 3;

export function marksReadOnScroll(policy: unknown, narrow: Narrow): boolean {
  if (narrow.kind === 'search') return false;
  if (policy === MARK_READ_NEVER) return false;
  if (policy === MARK_READ_CONVERSATIONS) return isConversationNarrow(narrow);
  return true;
}

/** A message row's place on screen: its id, whether unread, and its top and bottom (px, list coordinates). */
export interface SeenCandidate {
  id: number;
  unread: boolean;
  start: number;
  end: number;
}

/**
 * The unread messages seen in a viewport [top, top + height): a message counts once its
 * bottom is on screen, or it fills the whole viewport (a message taller than the screen is
 * read once the reader is inside it). Ids not already asked for (`pending`), ascending.
 */
export function seenUnreadIds(
  rows: readonly SeenCandidate[],
  top: number,
  height: number,
  pending: ReadonlySet<number>,
): number[] {
  const bottom = top + height;
  const ids: number[] = [];
  for (const row of rows) {
    if (!row.unread || pending.has(row.id)) continue;
    const bottomVisible = row.end > top && row.end <= bottom + 1;
    const coversViewport = row.start <= top && row.end >= bottom;
    if (bottomVisible || coversViewport) ids.push(row.id);
  }
  return ids.sort((a, b) => a - b);
}
