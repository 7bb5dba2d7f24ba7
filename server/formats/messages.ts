/**
 * The spec's Message object. One builder serves GET /messages, GET /messages/{id} and message
 * events, so the three cannot drift apart.
 *
 * formats/ holds the wire objects of the spec (Message, User, Stream, Subscription), built
 * from db rows for one viewer: routes answer with them, events carry them, register's
 * snapshot is made of them. It reads through db/ and asks server/permissions.ts what the
 * viewer may see; it never changes anything and never imports actions/ or events/.
 */
import type { Db } from '../db';
import { flagNames } from '../db/flags';
import { messageSettings } from '../db/message-settings';
import { directMessageUserIds, type MessageRow, messageReactions } from '../db/messages';
import { getStream, type StreamRow } from '../db/streams';
import { getUserById, type UserRow } from '../db/users';
import { TopicLinker } from './topic-links';
import { avatarUrl } from './users';

export interface MessageView {
  /** Rendered HTML (true) or the Markdown source (false). */
  applyMarkdown: boolean;
  /** The client computes external-avatar URLs itself (avatar_url may be null). */
  clientExtavatar: boolean;
}

/** Users looked up once per request or event, not once per message. */
export class UserCache {
  private readonly users = new Map<number, UserRow | undefined>();
  constructor(private readonly db: Db) {}
  get(id: number): UserRow | undefined {
    if (!this.users.has(id)) this.users.set(id, getUserById(this.db, id));
    return this.users.get(id);
  }
  /** A row the caller has read already (as it is now in the database): get answers it unread. */
  keep(row: UserRow): void {
    this.users.set(row.id, row);
  }
}

/**
 * What the sender of a message just stored in this transaction holds already (sendMessageIn):
 * its stream's row (for a stream message), read in the same transaction. Such a message has
 * no reactions yet, and its stream's name is the row's.
 */
export interface JustStored {
  stream: StreamRow | undefined;
}

function displayRecipient(
  db: Db,
  row: MessageRow,
  users: UserCache,
  justStored: JustStored | undefined,
): string | Record<string, unknown>[] {
  if (row.stream_id !== null) {
    const known = justStored?.stream;
    return known?.id === row.stream_id ? known.name : (getStream(db, row.stream_id)?.name ?? '');
  }
  return directMessageUserIds(db, row).map((id) => {
    const user = users.get(id);
    return { id, email: user?.email ?? '', full_name: user?.full_name ?? '', is_mirror_dummy: false };
  });
}

function reactions(db: Db, messageId: number, users: UserCache): Record<string, unknown>[] {
  return messageReactions(db, messageId).map((r) => {
    const user = users.get(r.user_id);
    return {
      emoji_name: r.emoji_name,
      emoji_code: r.emoji_code,
      reaction_type: r.reaction_type,
      user_id: r.user_id,
      // Deprecated, kept for older clients.
      user: { id: r.user_id, email: user?.email ?? '', full_name: user?.full_name ?? '' },
    };
  });
}

/**
 * The Message object without `flags` (message events carry flags beside it). Pass one
 * UserCache and one TopicLinker (the realm's linkifiers) for all the messages of a request,
 * and `justStored` for a message stored in this very transaction (what it spares reading).
 */
export function formatMessage(
  db: Db,
  row: MessageRow,
  view: MessageView,
  users: UserCache = new UserCache(db),
  linker: TopicLinker = TopicLinker.forRealm(db, row.realm_id),
  justStored?: JustStored,
): Record<string, unknown> {
  const sender = users.get(row.sender_id);
  const message: Record<string, unknown> = {
    id: row.id,
    type: row.stream_id !== null ? 'stream' : 'private',
  };
  if (row.stream_id !== null) message.stream_id = row.stream_id;
  Object.assign(message, {
    subject: row.topic,
    topic_links: linker.links(row.topic),
    content: view.applyMarkdown ? row.rendered_content : row.content,
    content_type: view.applyMarkdown ? 'text/html' : 'text/x-markdown',
    display_recipient: displayRecipient(db, row, users, justStored),
    recipient_id: row.recipient_id,
    sender_id: row.sender_id,
    sender_email: sender?.email ?? '',
    sender_full_name: sender?.full_name ?? '',
    sender_realm_str: '',
    timestamp: row.date_sent,
    is_me_message: row.is_me_message === 1,
    client: row.client,
    avatar_url: sender ? avatarUrl(sender, view.clientExtavatar) : null,
    reactions: justStored ? [] : reactions(db, row.id, users),
    submessages: [],
  });
  if (row.last_edit_time !== null) {
    message.last_edit_timestamp = row.last_edit_time;
    // Absent where the organization does not let users view edit history.
    if (row.edit_history && messageSettings(db).allow_edit_history)
      message.edit_history = JSON.parse(row.edit_history) as unknown;
  }
  return message;
}

/**
 * The user's flags on a message. A message the user may read without having a copy (history
 * of a public stream) counts as read and `historical`, as in the interface family.
 */
export function messageFlags(bits: number | undefined): string[] {
  return bits === undefined ? ['read', 'historical'] : flagNames(bits);
}
