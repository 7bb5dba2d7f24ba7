/**
 * Scheduled messages ("send later"), after the interface family's check_schedule_message and
 * edit_scheduled_message: a scheduled message is checked as sending it now would be (a dry
 * run of sendMessageIn, rolled back), stored with its rendering, and the sender's clients get
 * `scheduled_messages` add / update / remove events. Delivery is scheduled-delivery.ts.
 */
import type { ServiceContext } from '../context';
import {
  deleteScheduledMessage,
  getScheduledMessage,
  insertScheduledMessage,
  type ScheduledMessageFields,
  type ScheduledMessageRow,
  updateScheduledMessage,
} from '../db/scheduled-messages';
import type { UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import { formatScheduledMessage } from '../formats/scheduled-messages';
import { normalizeContent, normalizeTopic, renderWithMentions, sendMessageIn } from './messages';
import { armScheduledDelivery, sendTargetOf } from './scheduled-delivery';
import { EventBatch, runAction } from './transaction';

/** The request's message type in the stored form: `direct` is `private`, `channel` is `stream`. */
export function scheduledType(type: string): 'stream' | 'private' {
  return type === 'stream' || type === 'channel' ? 'stream' : 'private';
}

/**
 * `to` as sent: its text, and its value when the text is JSON (read by the route with the
 * parameters' JSON reader, server/params/json.ts, so `[1e0]` holds no integer).
 */
export interface TargetText {
  text: string;
  json: { value: unknown } | undefined;
}

/** `to` of a scheduled stream message: one stream id. */
function streamIdOf({ text }: TargetText): number {
  const id = /^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw badRequest('Invalid data type for stream ID');
  return id;
}

/** `to` of a scheduled direct message: a JSON list of user ids. */
function userIdsOf(to: TargetText): number[] {
  const value = to.json === undefined ? to.text : to.json.value;
  if (!Array.isArray(value)) throw badRequest('Invalid data type for recipients');
  if (!value.every((v) => Number.isSafeInteger(v)))
    throw badRequest('Recipient list may only contain user IDs');
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

const DRY_RUN = new Error('dry run');

/** Checks the message as sending it now would, then rolls the send back. */
function checkSendable(ctx: ServiceContext, sender: UserRow, fields: ScheduledMessageFields): void {
  try {
    ctx.db.transaction(() => {
      sendMessageIn(ctx, new EventBatch(), {
        senderId: sender.id,
        to: sendTargetOf(fields),
        content: fields.content,
      });
      throw DRY_RUN;
    })();
  } catch (error) {
    if (error !== DRY_RUN) throw error;
  }
}

function checkDeliveryTime(timestamp: number): number {
  if (timestamp * 1000 <= Date.now()) throw badRequest('Scheduled delivery time must be in the future.');
  return timestamp;
}

/** The request as a scheduled message: its target parsed, content normalized and rendered. */
export interface ScheduleRequest {
  type: string;
  to: TargetText;
  topic?: string | undefined;
  content: string;
  scheduledDeliveryTimestamp: number;
}

function fieldsOf(ctx: ServiceContext, sender: UserRow, request: ScheduleRequest): ScheduledMessageFields {
  const type = scheduledType(request.type);
  if (type === 'stream' && request.topic === undefined) throw badRequest('Missing topic');
  const content = normalizeContent(request.content);
  const fields: ScheduledMessageFields = {
    type,
    streamId: type === 'stream' ? streamIdOf(request.to) : null,
    userIds: type === 'private' ? userIdsOf(request.to) : null,
    topic: type === 'stream' ? normalizeTopic(request.topic ?? '') : '',
    content,
    renderedContent: renderWithMentions(ctx, content).html,
    scheduledTimestamp: request.scheduledDeliveryTimestamp,
  };
  checkSendable(ctx, sender, fields);
  return fields;
}

/** The user's own scheduled message, not yet sent; else the family's 404. */
function accessScheduledMessage(ctx: ServiceContext, user: UserRow, id: number): ScheduledMessageRow {
  const row = getScheduledMessage(ctx.db, id);
  if (!row || row.sender_id !== user.id || row.delivered === 1)
    throw new ApiFailure(404, 'BAD_REQUEST', 'Scheduled message does not exist');
  return row;
}

/** POST /scheduled_messages: answers the new id. */
export function scheduleMessage(
  ctx: ServiceContext,
  sender: UserRow,
  request: ScheduleRequest,
  readBySender: boolean | undefined,
): number {
  checkDeliveryTime(request.scheduledDeliveryTimestamp);
  return runAction(ctx, (events) => {
    const fields = fieldsOf(ctx, sender, request);
    const id = insertScheduledMessage(ctx.db, ctx.realmId, sender.id, fields, readBySender);
    const row = getScheduledMessage(ctx.db, id) as ScheduledMessageRow;
    events.send(
      { type: 'scheduled_messages', op: 'add', scheduled_messages: [formatScheduledMessage(row)] },
      [sender.id],
    );
    events.afterCommit(() => armScheduledDelivery(ctx));
    return id;
  });
}

/** PATCH /scheduled_messages/{id}: only what was sent changes; a new type needs `to` (and a topic). */
export interface ScheduleEdit {
  type?: string | undefined;
  to?: TargetText | undefined;
  topic?: string | undefined;
  content?: string | undefined;
  scheduledDeliveryTimestamp?: number | undefined;
}

function checkEdit(edit: ScheduleEdit): void {
  if (edit.type !== undefined) {
    if (scheduledType(edit.type) === 'stream' && edit.topic === undefined)
      throw badRequest('Topic required when updating scheduled message type to stream.');
    if (edit.to === undefined)
      throw badRequest('Recipient required when updating type of scheduled message.');
  }
  if (edit.scheduledDeliveryTimestamp !== undefined) checkDeliveryTime(edit.scheduledDeliveryTimestamp);
}

/** The stored message as the request that would make it, with the edit applied. */
function editedRequest(row: ScheduledMessageRow, edit: ScheduleEdit): ScheduleRequest {
  const type = edit.type ?? row.type;
  const stored = row.type === 'stream' ? String(row.stream_id) : (row.user_ids ?? '[]');
  const to: TargetText = { text: stored, json: { value: JSON.parse(stored) as unknown } };
  return {
    type,
    to: edit.to ?? to,
    topic: edit.topic ?? (row.type === 'stream' ? row.topic : undefined),
    content: edit.content ?? row.content,
    scheduledDeliveryTimestamp: edit.scheduledDeliveryTimestamp ?? row.scheduled_timestamp,
  };
}

export function editScheduledMessage(
  ctx: ServiceContext,
  sender: UserRow,
  id: number,
  edit: ScheduleEdit,
): void {
  checkEdit(edit);
  runAction(ctx, (events) => {
    const row = accessScheduledMessage(ctx, sender, id);
    // A message the service failed to send needs a new time.
    if (row.failed === 1 && edit.scheduledDeliveryTimestamp === undefined)
      throw badRequest('Scheduled delivery time must be in the future.');
    updateScheduledMessage(ctx.db, id, fieldsOf(ctx, sender, editedRequest(row, edit)));
    const updated = getScheduledMessage(ctx.db, id) as ScheduledMessageRow;
    events.send(
      { type: 'scheduled_messages', op: 'update', scheduled_message: formatScheduledMessage(updated) },
      [sender.id],
    );
    events.afterCommit(() => armScheduledDelivery(ctx));
  });
}

/** DELETE /scheduled_messages/{id}: cancels it. */
export function unscheduleMessage(ctx: ServiceContext, sender: UserRow, id: number): void {
  runAction(ctx, (events) => {
    accessScheduledMessage(ctx, sender, id);
    deleteScheduledMessage(ctx.db, id);
    events.send({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [sender.id]);
    events.afterCommit(() => armScheduledDelivery(ctx));
  });
}
