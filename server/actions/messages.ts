/**
 * Sending messages. `sendMessage` is the one way any part of the service posts a message
 * (POST /messages, stream announcements, incoming webhooks): it validates, stores the message
 * with a copy per recipient, and sends `message` events. Who may post where is checked by
 * actions/access.ts; who may read what is server/permissions.ts.
 */
import type { ServiceContext } from '../context';
import { FLAGS, messageFlagsByUser } from '../db/flags';
import { getMessage, insertMessage } from '../db/messages';
import { mutingUserIds } from '../db/muted-users';
import { firstMessageId, getStream, getStreamByName, type StreamRow } from '../db/streams';
import { activeUserNames, getUserByDisplayEmail, getUserById } from '../db/users';
import { badRequest } from '../errors';
import { formatMessage, messageFlags, UserCache } from '../formats/messages';
import { avatarUrl } from '../formats/users';
import { type MentionTarget, renderMessage } from '../markdown';
import { isGuest, streamViewerIds } from '../permissions';
import { accessStreamForSendMessage, accessUserById, invalidRecipientId, streamNotFound } from './access';
import { alertWordUserIds } from './alert-words';
import { type EventBatch, runAction } from './transaction';
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
  const chars = [...trimmed];
  if (chars.length <= MAX_MESSAGE_LENGTH) return trimmed;
  const suffix = '\n[message truncated]';
  return chars.slice(0, MAX_MESSAGE_LENGTH - suffix.length).join('') + suffix;
}

export function normalizeTopic(topic: string): string {
  if (topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
  const trimmed = topic.trim();
  if (trimmed === '') throw badRequest("Topic can't be empty!");
  const chars = [...trimmed];
  return chars.length <= MAX_TOPIC_LENGTH ? trimmed : `${chars.slice(0, MAX_TOPIC_LENGTH - 3).join('')}...`;
}

/**
 * Sends a message inside the caller's transaction; its events go out with the caller's
 * batch (after the commit). Throws an ApiFailure (400) for anything the sender got wrong.
 */
export function sendMessageIn(ctx: ServiceContext, events: EventBatch, input: SendMessageInput): SentMessage {
  const db = ctx.db;
  const sender = getUserById(db, input.senderId);
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
  let sent: SentMessage;
  let stream: StreamRow | undefined;
  if (input.to.type === 'stream') {
    stream = resolveStream(ctx, input.to.stream);
    const topic = normalizeTopic(input.to.topic);
    if (!input.internal) accessStreamForSendMessage(ctx, sender, stream);
    const firstBefore = firstMessageId(db, stream.id);
    sent = insertMessage(db, {
      realmId: ctx.realmId,
      senderId: sender.id,
      to: { stream: stream.id, topic },
      content,
      renderedContent: rendered.html,
      extraFlags: recipientFlags,
      dateSent: now,
      client: input.client ?? 'Internal',
    });
    sent.stream = stream;
    if (firstBefore === null) sendFirstMessageIdUpdate(ctx, events, stream, sent.id);
  } else {
    const userIds = resolveUsers(ctx, input.to.users);
    sent = insertMessage(db, {
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

  // The sender's files it links now list it (`attachment` update events, before the message's).
  sendLinkedAttachmentUpdates(ctx, events, sender.id, content);
  const row = getMessage(db, sent.id);
  if (!row) throw new Error('message vanished');
  // Built now, inside the transaction, once; the four shapes differ only in content and
  // avatar_url, and queues pick theirs after the commit.
  const users = new UserCache(db);
  const base = formatMessage(db, row, { applyMarkdown: true, clientExtavatar: false }, users);
  const senderRow = users.get(row.sender_id);
  const shapes = new Map<string, Record<string, unknown>>();
  for (const applyMarkdown of [true, false])
    for (const clientExtavatar of [true, false])
      shapes.set(`${applyMarkdown}/${clientExtavatar}`, {
        ...base,
        content: applyMarkdown ? row.rendered_content : row.content,
        content_type: applyMarkdown ? 'text/html' : 'text/x-markdown',
        avatar_url: senderRow ? avatarUrl(senderRow, clientExtavatar) : null,
      });
  const flagsOf = new Map<number, string[]>();
  for (const [userId, bits] of messageFlagsByUser(db, sent.id)) flagsOf.set(userId, messageFlags(bits));

  const eventFor = (applyMarkdown: boolean, clientExtavatar: boolean, flags: string[]) => ({
    type: 'message',
    message: shapes.get(`${applyMarkdown}/${clientExtavatar}`),
    flags,
  });
  const echo = input.localEcho;
  events.sendBuilt(sent.userIds, (queue) => {
    const event = eventFor(
      queue.settings.applyMarkdown,
      queue.settings.clientExtavatar,
      flagsOf.get(queue.userId) ?? [],
    );
    // Lets the sending client replace its local echo with the real message.
    return echo && queue.id === echo.queueId && queue.userId === sender.id
      ? { ...event, local_message_id: echo.localId }
      : event;
  });
  // Clients registered with all_public_streams also see public stream messages they did not get.
  // Only users with such a queue need looking at (most sends have none).
  if (stream && stream.invite_only === 0) {
    const have = new Set(sent.userIds);
    const others = [...ctx.queues.userIdsWithQueue((queue) => queue.settings.allPublicStreams)].filter(
      (id) => {
        if (have.has(id)) return false;
        const user = users.get(id);
        return user !== undefined && user.realm_id === ctx.realmId && user.is_active === 1 && !isGuest(user);
      },
    );
    if (others.length > 0)
      events.sendBuilt(others, (queue) =>
        queue.settings.allPublicStreams
          ? eventFor(queue.settings.applyMarkdown, queue.settings.clientExtavatar, [])
          : null,
      );
  }
  return sent;
}

/** Sends a message in its own transaction; events go out after the commit. */
export function sendMessage(ctx: ServiceContext, input: SendMessageInput): SentMessage {
  return runAction(ctx, (events) => sendMessageIn(ctx, events, input));
}
