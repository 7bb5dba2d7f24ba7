/**
 * Sending messages. `sendMessageIn` is the one way any part of the service posts a message
 * (stream announcements, incoming webhooks and scheduled messages in their own transactions;
 * POST /messages through `sendMessageGrouped`, in group commits): it validates, stores the
 * message with a copy per recipient, and sends `message` events. Who may post where is checked
 * by actions/access.ts; who may read what is server/permissions.ts.
 */
import type { ServiceContext } from '../context';
import type { Db } from '../db';
import { keptRealmAlertWords } from '../db/alert-words';
import { FLAGS } from '../db/flags';
import { insertMessage } from '../db/messages';
import { mutingUserIds } from '../db/muted-users';
import { dataVersion, watching, watchRows } from '../db/realm-data';
import { firstMessageId, getStream, getStreamByName, type StreamRow } from '../db/streams';
import { activeUserNames, getUserByDisplayEmail, getUserById, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { formatMessage, messageFlags, UserCache } from '../formats/messages';
import { avatarUrl } from '../formats/users';
import { type MentionTarget, renderMessage } from '../markdown';
import { isGuest, streamViewerIds } from '../permissions';
import { accessStreamForSendMessage, accessUserById, invalidRecipientId, streamNotFound } from './access';
import { alertWordUserIds } from './alert-words';
import { EventBatch } from './transaction';
import { sendLinkedAttachmentUpdates } from './uploads';

/** The interface family's limits: longer content and topics are truncated, not refused. */
export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_TOPIC_LENGTH = 60;

export type SendTarget =
  /** A stream by id or by name (names compare case-insensitively). */
  | { type: 'stream'; stream: number | string; topic: string }
  /** A direct message to these users (ids or emails); the sender is added. */
  | { type: 'private'; users: (number | string)[] };

export interface SendMessageInput {
  senderId: number;
  to: SendTarget;
  content: string;
  /** The client name shown in the message's `client` field. Default 'Internal'. */
  client?: string;
  /**
   * Messages the service posts itself (announcements, notices to a bot's owner): skips the
   * stream access and posting-policy checks that apply to what users send.
   */
  internal?: boolean;
  /** The sending client's queue and its local id for the message: that queue's event echoes it. */
  localEcho?: { queueId: string; localId: string };
}

export interface SentMessage {
  id: number;
  /** Users who got a copy of the message. */
  userIds: number[];
  /** The flag bits of each user's copy, as stored. */
  flags: Map<number, number>;
  /** The stream of a stream message (as resolved from the target). */
  stream?: StreamRow;
}

/**
 * A stream's first_message_id changed (its first message arrived, or its oldest was deleted):
 * everyone who sees the stream holds that value in their stream lists.
 */
export function sendFirstMessageIdUpdate(
  ctx: ServiceContext,
  events: EventBatch,
  stream: StreamRow,
  value: number | null,
): void {
  events.send(
    {
      type: 'stream',
      op: 'update',
      stream_id: stream.id,
      name: stream.name,
      property: 'first_message_id',
      value,
    },
    streamViewerIds(ctx.db, stream),
  );
}

const WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel', 'topic']);

/**
 * Renders the content, resolving mentions against the organization's active users: by full
 * name (case-insensitive, when unambiguous) or `Name|id`; wildcards mention every recipient.
 */
export function renderWithMentions(ctx: ServiceContext, content: string) {
  // Mentions start with `@`: without one there is nothing to look up, and the organization's
  // users are loaded only at the first lookup.
  if (!content.includes('@')) return renderMessage(content, () => null);
  let loaded: { id: number; full_name: string }[] | undefined;
  const lookup = (name: string): MentionTarget => {
    if (WILDCARDS.has(name.toLowerCase())) return 'wildcard';
    loaded ??= activeUserNames(ctx.db, ctx.realmId);
    const users = loaded;
    const withId = /^(.*)\|(\d+)$/.exec(name);
    const found = withId
      ? users.filter((u) => u.id === Number(withId[2]))
      : users.filter((u) => u.full_name.toLowerCase() === name.toLowerCase());
    const user = found.length === 1 ? found[0] : undefined;
    return user ? { userId: user.id, fullName: user.full_name } : null;
  };
  return renderMessage(content, lookup);
}

/** Mention flag bits of a recipient (insertMessage applies them to each copy it makes). */
export function mentionFlags(
  rendered: { mentionedUserIds: Set<number>; wildcard: boolean },
  senderId: number,
): (userId: number) => number {
  return (id) =>
    (rendered.mentionedUserIds.has(id) ? FLAGS.mentioned : 0) |
    (rendered.wildcard && id !== senderId ? FLAGS.wildcard_mentioned : 0);
}

function resolveStream(ctx: ServiceContext, stream: number | string): StreamRow {
  const row =
    typeof stream === 'number' ? getStream(ctx.db, stream) : getStreamByName(ctx.db, ctx.realmId, stream);
  if (!row || row.realm_id !== ctx.realmId || row.deactivated === 1) throw streamNotFound(stream);
  return row;
}

function resolveUsers(ctx: ServiceContext, users: (number | string)[]): number[] {
  if (users.length === 0) throw badRequest('Message must have recipients');
  const ids: number[] = [];
  for (const ref of users) {
    if (typeof ref === 'number') {
      ids.push(accessUserById(ctx, ref, { error: invalidRecipientId }).id);
    } else {
      const user = getUserByDisplayEmail(ctx.db, ctx.realmId, ref.trim());
      if (user?.is_active !== 1) throw badRequest(`Invalid email '${ref.trim()}'`);
      ids.push(user.id);
    }
  }
  return ids;
}

/** Content as it will be stored: checked, and truncated like the interface family does. */
export function normalizeContent(content: string): string {
  if (content.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  const trimmed = content.trimEnd();
  if (trimmed.trim() === '') throw badRequest('Message must not be empty');
  // The limit counts code points; a string of no more UTF-16 units than that has no more of them.
  if (trimmed.length <= MAX_MESSAGE_LENGTH) return trimmed;
  const chars = [...trimmed];
  if (chars.length <= MAX_MESSAGE_LENGTH) return trimmed;
  const suffix = '\n[message truncated]';
  return chars.slice(0, MAX_MESSAGE_LENGTH - suffix.length).join('') + suffix;
}

export function normalizeTopic(topic: string): string {
  if (topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
  const trimmed = topic.trim();
  if (trimmed === '') throw badRequest("Topic can't be empty!");
  if (trimmed.length <= MAX_TOPIC_LENGTH) return trimmed;
  const chars = [...trimmed];
  return chars.length <= MAX_TOPIC_LENGTH ? trimmed : `${chars.slice(0, MAX_TOPIC_LENGTH - 3).join('')}...`;
}

interface KeptSenders {
  rows: Map<number, UserRow>;
  /** data_version when they were read: another connection's commit drops them. */
  version: number;
}

const keptSenders = new WeakMap<Db, KeptSenders>();

/**
 * The sender's row, kept between messages (a user's row holds over a kilobyte of settings):
 * dropped at any write of it through this connection (the `user_rows` watch) or another's
 * commit (data_version). Kept only from a read outside a transaction, which sees committed
 * rows only; commitSends reads its senders so before the group's transaction. A kept row is
 * shared: no one may change it.
 */
function senderRow(db: Db, userId: number): UserRow | undefined {
  let kept = keptSenders.get(db);
  if (kept === undefined) {
    if (!watching(db)) return getUserById(db, userId);
    const made: KeptSenders = { rows: new Map(), version: -1 };
    watchRows(db, 'user_rows', (id) => {
      made.rows.delete(id);
    });
    keptSenders.set(db, made);
    kept = made;
  }
  const version = dataVersion(db);
  if (kept.version !== version) {
    kept.rows.clear();
    kept.version = version;
  }
  const row = kept.rows.get(userId);
  if (row !== undefined) return row;
  const read = getUserById(db, userId);
  if (read !== undefined && !db.inTransaction) kept.rows.set(userId, Object.freeze(read));
  return read;
}

/**
 * Sends a message inside the caller's transaction; its events go out with the caller's
 * batch (after the commit). Throws an ApiFailure (400) for anything the sender got wrong.
 */
export function sendMessageIn(ctx: ServiceContext, events: EventBatch, input: SendMessageInput): SentMessage {
  const db = ctx.db;
  const sender = senderRow(db, input.senderId);
  if (!sender || sender.realm_id !== ctx.realmId) throw new Error(`Unknown sender ${input.senderId}`);
  const content = normalizeContent(input.content);
  const rendered = renderWithMentions(ctx, content);
  // Mention flags, has_alert_word for each user with an alert word in the content, and read
  // for users who muted the sender.
  const alerted = alertWordUserIds(db, ctx.realmId, content);
  const muting = mutingUserIds(db, sender.id);
  const mentions = mentionFlags(rendered, sender.id);
  const recipientFlags = (id: number) =>
    mentions(id) | (alerted.has(id) ? FLAGS.has_alert_word : 0) | (muting.has(id) ? FLAGS.read : 0);
  const now = Math.floor(Date.now() / 1000);
  let stored: ReturnType<typeof insertMessage>;
  let stream: StreamRow | undefined;
  if (input.to.type === 'stream') {
    stream = resolveStream(ctx, input.to.stream);
    const topic = normalizeTopic(input.to.topic);
    if (!input.internal) accessStreamForSendMessage(ctx, sender, stream);
    const firstBefore = firstMessageId(db, stream.id);
    stored = insertMessage(db, {
      realmId: ctx.realmId,
      senderId: sender.id,
      to: { stream: stream.id, topic },
      content,
      renderedContent: rendered.html,
      extraFlags: recipientFlags,
      dateSent: now,
      client: input.client ?? 'Internal',
    });
    if (firstBefore === null) sendFirstMessageIdUpdate(ctx, events, stream, stored.id);
  } else {
    const userIds = resolveUsers(ctx, input.to.users);
    stored = insertMessage(db, {
      realmId: ctx.realmId,
      senderId: sender.id,
      to: { users: userIds },
      content,
      renderedContent: rendered.html,
      extraFlags: recipientFlags,
      dateSent: now,
      client: input.client ?? 'Internal',
    });
  }
  const sent: SentMessage = { id: stored.id, userIds: stored.userIds, flags: stored.flags };
  if (stream) sent.stream = stream;

  // The sender's files it links now list it (`attachment` update events, before the message's).
  sendLinkedAttachmentUpdates(ctx, events, sender.id, content);
  // The row as stored (INSERT … RETURNING), defaults included: no need to read it back.
  const row = stored.row;
  // Built now, inside the transaction, once; the four shapes differ only in content and
  // avatar_url, and queues pick theirs after the commit.
  const users = new UserCache(db);
  // The sender and the stream were read in this transaction, and nothing since wrote them.
  users.keep(sender);
  const base = formatMessage(db, row, { applyMarkdown: true, clientExtavatar: false }, users, undefined, {
    stream,
  });
  const shapes = new Map<string, Record<string, unknown>>();
  for (const applyMarkdown of [true, false])
    for (const clientExtavatar of [true, false])
      shapes.set(`${applyMarkdown}/${clientExtavatar}`, {
        ...base,
        content: applyMarkdown ? row.rendered_content : row.content,
        content_type: applyMarkdown ? 'text/html' : 'text/x-markdown',
        avatar_url: avatarUrl(sender, clientExtavatar),
      });
  // Each copy's flags as insertMessage wrote them: nothing between there and here changes them.
  // Named once per set of bits (most recipients share one), and only for users with a queue.
  const flagNames = new Map<number, string[]>();
  const flagsOf = (userId: number): string[] => {
    const bits = sent.flags.get(userId);
    if (bits === undefined) return [];
    let names = flagNames.get(bits);
    if (!names) {
      names = messageFlags(bits);
      flagNames.set(bits, names);
    }
    return names;
  };

  // One event object per kind of client and flags, shared by every queue that gets it (most
  // recipients have the same flags), so that its text is made once for all of them.
  const built = new Map<string, { type: string; message: unknown; flags: string[] }>();
  const eventFor = (applyMarkdown: boolean, clientExtavatar: boolean, flags: string[]) => {
    const key = `${applyMarkdown}/${clientExtavatar}/${flags.join(',')}`;
    let event = built.get(key);
    if (!event) {
      event = { type: 'message', message: shapes.get(`${applyMarkdown}/${clientExtavatar}`), flags };
      built.set(key, event);
    }
    return event;
  };
  const echo = input.localEcho;
  events.sendBuilt(
    sent.userIds,
    (queue) => eventFor(queue.settings.applyMarkdown, queue.settings.clientExtavatar, flagsOf(queue.userId)),
    // Lets the sending client replace its local echo with the real message.
    echo && {
      queueId: echo.queueId,
      userId: sender.id,
      adjust: (event) => ({ ...event, local_message_id: echo.localId }),
    },
  );
  // Clients registered with all_public_streams also see public stream messages they did not get.
  // Only users with such a queue need looking at (most sends have none); the queues keep them.
  if (stream && stream.invite_only === 0) {
    const have = new Set(sent.userIds);
    const others = [...ctx.queues.allPublicStreamsUserIds()].filter((id) => {
      if (have.has(id)) return false;
      const user = users.get(id);
      return user !== undefined && user.realm_id === ctx.realmId && user.is_active === 1 && !isGuest(user);
    });
    if (others.length > 0)
      events.sendBuilt(others, (queue) =>
        queue.settings.allPublicStreams
          ? eventFor(queue.settings.applyMarkdown, queue.settings.clientExtavatar, [])
          : null,
      );
  }
  return sent;
}

interface WaitingSend {
  ctx: ServiceContext;
  input: SendMessageInput;
  resolve: (sent: SentMessage) => void;
  reject: (error: unknown) => void;
}

/** Sends waiting for their group's commit, per database. */
const waitingSends = new Map<Db, WaitingSend[]>();

/**
 * At most this many sends share a commit (a message to fifty people costs about half a
 * millisecond), so that a group holds the event loop for some 15 ms at most; the rest go in
 * the next group.
 */
export const MAX_SENDS_PER_COMMIT = 32;

/**
 * Sends a message in a group commit: the sends that arrive while the event loop is busy (those
 * of one turn) are stored in one transaction, one after the other as if each had its own (as
 * runAction would run them). Every message copy is a row in its recipient's part of
 * user_messages and of the unread index, and a commit writes each page it changed whole: fifty
 * recipients are a hundred pages (400 KiB), for one message or for sixteen. A group writes
 * them once.
 *
 * Nothing is answered before the commit: the promise settles (and the events go out, in the
 * order the sends came) only once the group is in the database, so an acknowledged message
 * survives kill -9 as any other write.
 */
export function sendMessageGrouped(ctx: ServiceContext, input: SendMessageInput): Promise<SentMessage> {
  return new Promise((resolve, reject) => {
    let group = waitingSends.get(ctx.db);
    if (!group) {
      group = [];
      waitingSends.set(ctx.db, group);
      setImmediate(() => commitSends(ctx.db));
    }
    group.push({ ctx, input, resolve, reject });
  });
}

function commitSends(db: Db): void {
  const waiting = waitingSends.get(db) ?? [];
  const group = waiting.splice(0, MAX_SENDS_PER_COMMIT);
  if (waiting.length === 0) waitingSends.delete(db);
  else setImmediate(() => commitSends(db));
  // Outside the transaction, the senders' rows and the alert words are read (or found still
  // kept) so that they may be kept: the sends below then find them without reading.
  if (!db.inTransaction)
    for (const { ctx, input } of group) {
      senderRow(db, input.senderId);
      keptRealmAlertWords(db, ctx.realmId);
    }
  // No savepoint per send: a savepoint keeps the former content of every page its send changes
  // (a hundred and more here), which costs more than the commit it saves. A send that fails (a
  // 400 for its sender) rolls the group back instead; it is answered with its error, as it
  // would have been after the sends before it, and the others run again without it.
  while (group.length > 0) {
    let running = -1;
    let sent: { sent: SentMessage; events: EventBatch }[];
    try {
      sent = db
        .transaction(() => {
          const done = group.map(({ ctx, input }, i) => {
            running = i;
            const events = new EventBatch();
            return { sent: sendMessageIn(ctx, events, input), events };
          });
          running = -1;
          return done;
        })
        .immediate();
    } catch (error) {
      if (running === -1) {
        // The transaction itself failed (its commit): no send of the group is stored.
        for (const send of group) send.reject(error);
        return;
      }
      group.splice(running, 1)[0]?.reject(error);
      continue;
    }
    group.forEach((send, i) => {
      const outcome = sent[i];
      try {
        if (!outcome) throw new Error('a send of the group has no outcome');
        outcome.events.deliver(send.ctx);
        outcome.events.runCommitted();
        send.resolve(outcome.sent);
      } catch (error) {
        send.reject(error);
      }
    });
    return;
  }
}
