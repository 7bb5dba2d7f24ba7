/**
 * A narrow's title in words (the conversation screen's heading, the window's title, the
 * command palette): "All messages", "#design", "#design > logo", "Alice Smith, Bob" …
 */
import type { AccountState } from '../../../../shared/domain';
import { dmUserIds, type Narrow } from '../../../../shared/domain/narrow';

/** A stream's name as the account knows it (every stream it can see, then its subscriptions). */
export function streamNameOf(state: AccountState, streamId: number): string | null {
  return state.streams[streamId]?.name ?? state.subscriptions.subscribed[streamId]?.name ?? null;
}

/** A person's full name as the account knows them. */
export function userNameOf(state: AccountState, userId: number): string | null {
  return (state.users.active[userId] ?? state.users.nonActive[userId])?.full_name ?? null;
}

const UNKNOWN_STREAM = '(unknown stream)';
const UNKNOWN_USER = 'Unknown user';

/** The names of a private conversation's people: the others, sorted by name; oneself alone: own name. */
export function dmNames(state: AccountState, userIds: readonly number[]): string[] {
  const own = state.userId;
  const others = dmUserIds(userIds).filter((id) => id !== own);
  const ids = others.length === 0 && own !== null ? [own] : others;
  return ids.map((id) => userNameOf(state, id) ?? UNKNOWN_USER).sort((a, b) => a.localeCompare(b));
}

export function narrowTitle(narrow: Narrow, state: AccountState): string {
  switch (narrow.kind) {
    case 'all':
      return 'All messages';
    case 'starred':
      return 'Starred messages';
    case 'mentions':
      return 'Mentions';
    case 'dms':
      return 'Private messages';
    case 'search':
      return 'Search results';
    case 'stream':
      return `#${streamNameOf(state, narrow.streamId) ?? UNKNOWN_STREAM}`;
    case 'topic':
      return `#${streamNameOf(state, narrow.streamId) ?? UNKNOWN_STREAM} > ${narrow.topic}`;
    case 'dm':
      return dmNames(state, narrow.userIds).join(', ');
  }
}
