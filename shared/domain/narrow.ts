/**
 * Narrows: which messages a view shows. One small union the whole app speaks (routes, the
 * renderer's message lists, the main process's cache, the outbox's local echo), turned into the
 * service's narrow terms (`GET /messages?narrow=`) in one place, and matched against a live
 * message in one place, so a view and the cache agree on what belongs where.
 */

export type Narrow =
  /** Every message the user receives (the combined feed). */
  | { kind: 'all' }
  | { kind: 'stream'; streamId: number }
  | { kind: 'topic'; streamId: number; topic: string }
  /** A private conversation by the other people in it (sorted ids; [] or [self] is with oneself). */
  | { kind: 'dm'; userIds: number[] }
  /** Every private message. */
  | { kind: 'dms' }
  | { kind: 'starred' }
  | { kind: 'mentions' }
  /** A search, in the family's operator syntax ("stream:design topic:logo sender:7 has:link text"). */
  | { kind: 'search'; query: string };

/** One term of the service's narrow. */
export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}

/** A stable key of a narrow (maps, caches, React keys): equal narrows have equal keys. */
export function narrowKey(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'stream':
      return `stream:${narrow.streamId}`;
    case 'topic':
      return `topic:${narrow.streamId}:${narrow.topic.toLowerCase()}`;
    case 'dm':
      return `dm:${dmUserIds(narrow.userIds).join(',')}`;
    case 'search':
      return `search:${narrow.query.trim()}`;
    default:
      return narrow.kind;
  }
}

/** The other people of a private conversation, sorted and without duplicates. */
export function dmUserIds(userIds: readonly number[]): number[] {
  return [...new Set(userIds)].sort((a, b) => a - b);
}

/**
 * The service's terms for a narrow. A search's query is parsed by `parseSearchQuery`
 * (shared/domain/search.ts) and passed in, since operands such as `stream:design` are resolved
 * against the account's streams and users.
 */
export function narrowTerms(narrow: Narrow, searchTerms: NarrowTerm[] = []): NarrowTerm[] {
  switch (narrow.kind) {
    case 'all':
      return [];
    case 'stream':
      return [{ operator: 'stream', operand: narrow.streamId }];
    case 'topic':
      return [
        { operator: 'stream', operand: narrow.streamId },
        { operator: 'topic', operand: narrow.topic },
      ];
    case 'dm':
      return [{ operator: 'dm', operand: dmUserIds(narrow.userIds) }];
    case 'dms':
      return [{ operator: 'is', operand: 'private' }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'mentions':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'search':
      return searchTerms;
  }
}

/** The fields of a message a narrow looks at (a Message, or a message still in the outbox). */
export interface NarrowableMessage {
  type: 'stream' | 'private';
  stream_id?: number | undefined;
  subject: string;
  sender_id: number;
  /** Private messages: everyone in the conversation, sender included. */
  display_recipient?: unknown;
}

/** The ids of a private message's people (display_recipient is a list of {id}). */
export function privateRecipientIds(message: NarrowableMessage): number[] {
  const list = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  const ids = list
    .map((r) => (typeof r === 'object' && r !== null ? (r as { id?: unknown }).id : undefined))
    .filter((id): id is number => typeof id === 'number');
  return dmUserIds([...ids, message.sender_id]);
}

/** A private message's conversation, as the other people in it (the `dm` narrow's ids). */
export function dmPeersOf(message: NarrowableMessage, ownUserId: number): number[] {
  const others = privateRecipientIds(message).filter((id) => id !== ownUserId);
  return others.length === 0 ? [ownUserId] : others;
}

/**
 * Whether a live message belongs in a narrow, from what the client knows: `flags` are the
 * message's flags for this user. A search is never matched locally (the service decides: a
 * search view refetches), so it answers false.
 */
export function messageInNarrow(
  narrow: Narrow,
  message: NarrowableMessage,
  flags: readonly string[],
  ownUserId: number,
): boolean {
  switch (narrow.kind) {
    case 'all':
      return true;
    case 'stream':
      return message.type === 'stream' && message.stream_id === narrow.streamId;
    case 'topic':
      return (
        message.type === 'stream' &&
        message.stream_id === narrow.streamId &&
        message.subject.toLowerCase() === narrow.topic.toLowerCase()
      );
    case 'dm': {
      if (message.type !== 'private') return false;
      const peers = dmPeersOf(message, ownUserId);
      const wanted = dmUserIds(narrow.userIds.length === 0 ? [ownUserId] : narrow.userIds);
      return peers.length === wanted.length && peers.every((id, i) => id === wanted[i]);
    }
    case 'dms':
      return message.type === 'private';
    case 'starred':
      return flags.includes('starred');
    case 'mentions':
      return (
        flags.includes('mentioned') ||
        flags.includes('wildcard_mentioned') ||
        flags.includes('stream_wildcard_mentioned') ||
        flags.includes('topic_wildcard_mentioned')
      );
    case 'search':
      return false;
  }
}

/** Whether a narrow shows one conversation (a topic or a private conversation). */
export const isConversationNarrow = (narrow: Narrow): boolean =>
  narrow.kind === 'topic' || narrow.kind === 'dm';
