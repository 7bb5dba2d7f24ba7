/**
 * PATCH /messages/{message_id}: editing a message's content (its sender, within the
 * organization's limits; re-rendered, mention and alert-word flags recomputed) and moving
 * it, alone or with the later or all messages of its topic (propagate_mode), to another
 * topic or stream (per the organization's policies and time limits). Every edit is recorded
 * in the message's edit_history; one `update_message` event goes to everyone who can see the
 * messages after the move, `delete_message` to those who lose them, and a stream move may
 * leave notices in the old and new topics.
 */
import type { ServiceContext } from '../context';
import { FLAGS, flagNames } from '../db/flags';
import { type MessageSettings, messageSettings } from '../db/message-settings';
import {
  addCopies,
  copiesOf,
  type MessageRow,
  messagesByIds,
  moveMessages,
  removeCopies,
  setEditHistory,
  setFlagBits,
  setMessageContent,
  topicMessageIds,
} from '../db/messages';
import { firstMessageId, getStream, type StreamRow, streamSubscriberIds } from '../db/streams';
import { getUserById, type UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import type { OutgoingEvent } from '../events/queue';
import { TopicLinker } from '../formats/topic-links';
import { canAccessStream, canReadStreamHistory } from '../permissions';
import { accessMessage, accessStreamById } from './access';
import { alertWordUserIds } from './alert-words';
import { sendDeleteMessageEvents } from './message-delete';
import { pastMoveLimit, policyAllows } from './message-policy';
import {
  mentionFlags,
  normalizeContent,
  normalizeTopic,
  renderWithMentions,
  sendFirstMessageIdUpdate,
  sendMessageIn,
} from './messages';
import { notificationBot } from './subscriptions';
import { type EventBatch, runAction } from './transaction';
import { sendLinkedAttachmentUpdates } from './uploads';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface MessageEdit {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  /** Notices of a stream move in the old and the new topic (the family's defaults: both). */
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

/** The family's grace period on the content edit limit, for slow clients. */
const EDIT_LIMIT_GRACE_SECONDS = 20;

/** The flags an edit of the content recomputes for every holder of the message. */
const CONTENT_FLAG_BITS = FLAGS.mentioned | FLAGS.wildcard_mentioned | FLAGS.has_alert_word;

/** What an edit changes, after validation: absent fields stay as they are. */
interface Change {
  content?: { content: string; rendered: string; flags: (userId: number) => number };
  topic?: string;
  stream?: StreamRow;
}

const noPermission = () => badRequest("You don't have permission to edit this message");

/** The family's checks of the request itself, before any permission. */
function checkPayload(row: MessageRow, edit: MessageEdit): void {
  if (edit.topic === undefined && edit.content === undefined && edit.streamId === undefined)
    throw badRequest('Nothing to change');
  if (row.stream_id === null) {
    if (edit.streamId !== undefined) throw badRequest('Private messages cannot be moved to streams.');
    if (edit.topic !== undefined) throw badRequest('Private messages cannot have topics.');
  }
  if (edit.propagateMode !== 'change_one' && edit.topic === undefined && edit.streamId === undefined)
    throw badRequest('Invalid propagate_mode without topic edit');
  if (edit.streamId !== undefined && edit.content !== undefined)
    throw badRequest('Cannot change message content while changing stream');
}

function checkContentEdit(user: UserRow, row: MessageRow, settings: MessageSettings, now: number): void {
  if (!settings.allow_message_editing) throw badRequest('Your organization has turned off message editing');
  if (row.sender_id !== user.id) throw noPermission();
  const limit = settings.message_content_edit_limit_seconds;
  if (limit !== null && now - row.date_sent > limit + EDIT_LIMIT_GRACE_SECONDS)
    throw badRequest('The time limit for editing this message has past');
}

/** The policy, time limit and errors of each kind of move. */
const MOVES = {
  topic: {
    policy: 'edit_topic_policy',
    limit: 'move_messages_within_stream_limit_seconds',
    denied: "You don't have permission to edit this message",
    late: "The time limit for editing this message's topic has passed.",
  },
  stream: {
    policy: 'move_messages_between_streams_policy',
    limit: 'move_messages_between_streams_limit_seconds',
    denied: "You don't have permission to move this message",
    late: "The time limit for editing this message's stream has passed.",
  },
} as const;

function checkMove(
  user: UserRow,
  row: MessageRow,
  settings: MessageSettings,
  now: number,
  kind: keyof typeof MOVES,
): void {
  const move = MOVES[kind];
  if (!policyAllows(user, settings[move.policy])) throw badRequest(move.denied);
  if (pastMoveLimit(user, settings[move.limit], row.date_sent, now)) throw badRequest(move.late);
}

/** Checks the edit and works out what it changes. */
function planChange(
  ctx: ServiceContext,
  user: UserRow,
  row: MessageRow,
  edit: MessageEdit,
  now: number,
): Change {
  checkPayload(row, edit);
  const settings = messageSettings(ctx.db);
  const change: Change = {};
  if (edit.content !== undefined) {
    checkContentEdit(user, row, settings, now);
    // As the family does: emptying a message leaves "(deleted)".
    const content = edit.content.trim() === '' ? '(deleted)' : normalizeContent(edit.content);
    const rendered = renderWithMentions(ctx, content);
    const mentions = mentionFlags(rendered, row.sender_id);
    const alerted = alertWordUserIds(ctx.db, ctx.realmId, content);
    const flags = (id: number) => mentions(id) | (alerted.has(id) ? FLAGS.has_alert_word : 0);
    change.content = { content, rendered: rendered.html, flags };
  }
  if (edit.topic !== undefined) {
    const topic = normalizeTopic(edit.topic);
    if (topic !== row.topic) {
      checkMove(user, row, settings, now, 'topic');
      change.topic = topic;
    }
  }
  if (edit.streamId !== undefined && edit.streamId !== row.stream_id) {
    checkMove(user, row, settings, now, 'stream');
    const from = getStream(ctx.db, row.stream_id as number);
    if (!from || !canAccessStream(ctx.db, user, from))
      throw badRequest("You don't have permission to move this message due to missing access to its stream");
    change.stream = accessStreamById(ctx, user, edit.streamId);
  }
  if (!change.content && change.topic === undefined && !change.stream) throw badRequest('Nothing to change');
  return change;
}

/** The messages a move takes along: the one, or the later or all messages of its topic the user can see. */
function messagesToMove(ctx: ServiceContext, user: UserRow, row: MessageRow, mode: PropagateMode): number[] {
  if (mode === 'change_one') return [row.id];
  const stream = getStream(ctx.db, row.stream_id as number) as StreamRow;
  return topicMessageIds(ctx.db, {
    streamId: stream.id,
    topic: row.topic,
    fromId: mode === 'change_all' ? 0 : row.id,
    onlyCopiesOf: canReadStreamHistory(ctx.db, user, stream) ? null : user.id,
  });
}

/**
 * For change_all, the family refuses a move of a topic holding messages older than the
 * user's time limit, saying how much of it the user could move (change_later from there).
 */
function checkWholeTopicLimit(
  user: UserRow,
  rows: MessageRow[],
  change: Change,
  settings: MessageSettings,
  now: number,
): void {
  const limits = [
    change.topic !== undefined ? settings.move_messages_within_stream_limit_seconds : null,
    change.stream ? settings.move_messages_between_streams_limit_seconds : null,
  ];
  const allowed = rows.filter((r) => !limits.some((limit) => pastMoveLimit(user, limit, r.date_sent, now)));
  if (allowed.length === rows.length) return;
  throw new ApiFailure(
    400,
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    `You only have permission to move the ${allowed.length}/${rows.length} most recent messages in this topic.`,
    {
      first_message_id_allowed_to_move: allowed[0]?.id ?? null,
      total_messages_allowed_to_move: allowed.length,
      total_messages_in_topic: rows.length,
    },
  );
}

/** One edit_history entry (newest first in the stored list), for the message it is about. */
function historyEntry(user: UserRow, now: number, row: MessageRow, change: Change, target: boolean) {
  const entry: Record<string, unknown> = { user_id: user.id, timestamp: now };
  if (target && change.content) {
    entry.prev_content = row.content;
    entry.prev_rendered_content = row.rendered_content;
    entry.prev_rendered_content_version = row.rendered_content_version;
  }
  if (change.stream) {
    entry.prev_stream = row.stream_id;
    entry.stream = change.stream.id;
  }
  if (change.topic !== undefined) {
    entry.prev_topic = row.topic;
    entry.topic = change.topic;
  }
  return entry;
}

function recordHistory(
  ctx: ServiceContext,
  user: UserRow,
  now: number,
  rows: MessageRow[],
  change: Change,
  targetId: number,
): void {
  for (const row of rows) {
    const previous = row.edit_history ? (JSON.parse(row.edit_history) as unknown[]) : [];
    const entry = historyEntry(user, now, row, change, row.id === targetId);
    setEditHistory(ctx.db, row.id, now, JSON.stringify([entry, ...previous]));
  }
}

/**
 * Moves the copies along with a stream move: the new stream's subscribers get (read) copies,
 * holders who cannot read the new stream lose theirs.
 */
function moveCopies(ctx: ServiceContext, ids: number[], from: StreamRow, to: StreamRow): number[] {
  const db = ctx.db;
  const subscribers = new Set(streamSubscriberIds(db, to.id));
  const holders = new Set(copiesOf(db, ids).map((c) => c.user_id));
  const concerned = new Set([...holders, ...streamSubscriberIds(db, from.id)]);
  const lose = [...concerned].filter((id) => {
    const user = getUserById(db, id);
    return !subscribers.has(id) && (!user || !canReadStreamHistory(db, user, to));
  });
  removeCopies(db, lose, ids);
  const active = [...subscribers].filter((id) => getUserById(db, id)?.is_active === 1);
  addCopies(db, active, ids, FLAGS.read);
  return lose;
}

/**
 * Everyone the update_message event goes to, each with their flags on the target message:
 * the holders of the messages' copies and, for a move within a stream, its subscribers
 * without copies (they joined later); never those who lost the messages.
 */
function audienceOf(
  ctx: ServiceContext,
  ids: number[],
  targetId: number,
  subscribersOf: StreamRow | undefined,
  lose: number[],
): Map<number, string[]> {
  const gone = new Set(lose);
  const see = new Map<number, string[]>();
  if (subscribersOf)
    for (const id of streamSubscriberIds(ctx.db, subscribersOf.id)) if (!gone.has(id)) see.set(id, []);
  for (const copy of copiesOf(ctx.db, ids)) {
    if (copy.message_id === targetId) see.set(copy.user_id, flagNames(copy.flags));
    else if (!see.has(copy.user_id)) see.set(copy.user_id, []);
  }
  return see;
}

function updateEvent(
  ctx: ServiceContext,
  user: UserRow,
  now: number,
  row: MessageRow,
  ids: number[],
  change: Change,
  mode: PropagateMode,
  from: StreamRow | undefined,
) {
  const event: OutgoingEvent = {
    type: 'update_message',
    user_id: user.id,
    edit_timestamp: now,
    message_id: row.id,
    message_ids: ids,
    rendering_only: false,
  };
  if (from) Object.assign(event, { stream_name: from.name, stream_id: from.id });
  if (change.topic !== undefined || change.stream) {
    Object.assign(event, { propagate_mode: mode, orig_subject: row.topic });
    if (change.topic !== undefined) {
      const topicLinks = TopicLinker.forRealm(ctx.db, ctx.realmId).links(change.topic);
      Object.assign(event, { subject: change.topic, topic_links: topicLinks });
    }
    if (change.stream) event.new_stream_id = change.stream.id;
  }
  if (change.content)
    Object.assign(event, {
      orig_content: row.content,
      orig_rendered_content: row.rendered_content,
      content: change.content.content,
      rendered_content: change.content.rendered,
      is_me_message: change.content.content.startsWith('/me '),
    });
  return event;
}

/** The family's notices of a stream move, from the notification bot. */
function sendMoveNotices(
  ctx: ServiceContext,
  events: EventBatch,
  user: UserRow,
  from: { stream: StreamRow; topic: string },
  to: { stream: StreamRow; topic: string },
  edit: MessageEdit,
): void {
  const who = `@_**${user.full_name}|${user.id}**`;
  const where = (at: { stream: StreamRow; topic: string }) => `#**${at.stream.name}>${at.topic}**`;
  const notice = (at: { stream: StreamRow; topic: string }, content: string) =>
    sendMessageIn(ctx, events, {
      senderId: notificationBot(ctx, events, user).id,
      to: { type: 'stream', stream: at.stream.id, topic: at.topic },
      content,
      internal: true,
    });
  if (edit.notifyOldThread) notice(from, `This topic was moved by ${who} to ${where(to)}`);
  if (edit.notifyNewThread) notice(to, `This topic was moved here from ${where(from)} by ${who}`);
}

/** The messages the edit applies to: the target alone, or those a move takes along. */
function messagesOfEdit(
  ctx: ServiceContext,
  user: UserRow,
  row: MessageRow,
  change: Change,
  mode: PropagateMode,
  now: number,
): MessageRow[] {
  if (change.topic === undefined && !change.stream) return [row];
  const rows = messagesByIds(ctx.db, messagesToMove(ctx, user, row, mode));
  if (mode === 'change_all') checkWholeTopicLimit(user, rows, change, messageSettings(ctx.db), now);
  return rows;
}

/**
 * Moves the messages to their new topic and stream; for a stream move also their copies,
 * and both streams' first_message_id. Answers who lost the messages.
 */
function moveMessagesOf(
  ctx: ServiceContext,
  events: EventBatch,
  ids: number[],
  row: MessageRow,
  from: StreamRow,
  change: Change,
): number[] {
  const db = ctx.db;
  const to = change.stream ?? from;
  const firstBefore = [firstMessageId(db, from.id), firstMessageId(db, to.id)];
  moveMessages(db, ids, to.id, change.topic ?? row.topic);
  if (!change.stream) return [];
  const lose = moveCopies(ctx, ids, from, to);
  [from, to].forEach((stream, i) => {
    const after = firstMessageId(db, stream.id);
    if (after !== firstBefore[i]) sendFirstMessageIdUpdate(ctx, events, stream, after);
  });
  return lose;
}

/** Edits the message; events go out after the commit. */
export function updateMessage(
  ctx: ServiceContext,
  user: UserRow,
  messageId: number,
  edit: MessageEdit,
): void {
  runAction(ctx, (events) => {
    const now = Math.floor(Date.now() / 1000);
    const { row } = accessMessage(ctx, user, messageId);
    const change = planChange(ctx, user, row, edit, now);
    const rows = messagesOfEdit(ctx, user, row, change, edit.propagateMode, now);
    const ids = rows.map((r) => r.id);

    recordHistory(ctx, user, now, rows, change, row.id);
    if (change.content) {
      setMessageContent(ctx.db, row.id, change.content.content, change.content.rendered);
      setFlagBits(ctx.db, row.id, CONTENT_FLAG_BITS, change.content.flags);
      sendLinkedAttachmentUpdates(ctx, events, row.sender_id, change.content.content, row.content);
    }
    const from = row.stream_id === null ? undefined : (getStream(ctx.db, row.stream_id) as StreamRow);
    const moving = change.topic !== undefined || change.stream !== undefined;
    const lose = from && moving ? moveMessagesOf(ctx, events, ids, row, from, change) : [];
    if (from && lose.length > 0)
      sendDeleteMessageEvents(events, lose, { stream_id: from.id, topic: row.topic }, ids);

    // After a stream move every subscriber of the new stream holds copies.
    const event = updateEvent(ctx, user, now, row, ids, change, edit.propagateMode, from);
    for (const [userId, flags] of audienceOf(ctx, ids, row.id, change.stream ? undefined : from, lose))
      events.send({ ...event, flags }, [userId]);
    if (from && change.stream) {
      const to = { stream: change.stream, topic: change.topic ?? row.topic };
      sendMoveNotices(ctx, events, user, { stream: from, topic: row.topic }, to, edit);
    }
  });
}
