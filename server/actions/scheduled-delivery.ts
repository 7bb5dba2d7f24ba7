/**
 * Sending scheduled messages at their time. One timer per running service, armed from the
 * database (the earliest undelivered, unfailed message) when the service starts and again
 * after every change, so scheduled messages survive a restart: one that fell due while the
 * service was down goes out as soon as it is back. Each delivery is one transaction: the
 * message is sent as its sender and the scheduled message marked delivered (`remove` event
 * to the sender); if sending is refused now (the stream is gone, the sender lost access), the
 * scheduled message is marked failed instead (`update` event, failed: true), as in the family.
 */
import type { ServiceContext } from '../context';
import {
  dueScheduledMessageIds,
  getScheduledMessage,
  markScheduledMessageDelivered,
  markScheduledMessageFailed,
  nextScheduledTimestamp,
  type ScheduledMessageFields,
  type ScheduledMessageRow,
} from '../db/scheduled-messages';
import { getUserById } from '../db/users';
import { ApiFailure } from '../errors';
import { formatScheduledMessage } from '../formats/scheduled-messages';
import { updateMessageFlags } from './flags';
import { type SendTarget, sendMessageIn } from './messages';
import { runAction } from './transaction';

/** What a scheduled message would send, as sendMessageIn takes it. */
export function sendTargetOf(
  fields: Pick<ScheduledMessageFields, 'type' | 'streamId' | 'userIds' | 'topic'>,
) {
  const target: SendTarget =
    fields.type === 'stream'
      ? { type: 'stream', stream: fields.streamId ?? -1, topic: fields.topic }
      : { type: 'private', users: fields.userIds ?? [] };
  return target;
}

/** Timers re-check at least this often, so a clock change cannot delay a delivery for long. */
const MAX_WAIT_MS = 60 * 60 * 1000;

/** The services whose delivery runs, and their armed timer (null: nothing scheduled). */
const timers = new Map<ServiceContext, NodeJS.Timeout | null>();

/** Starts delivering: what is already due goes out now. */
export function startScheduledDelivery(ctx: ServiceContext): void {
  timers.set(ctx, null);
  armScheduledDelivery(ctx);
}

export function stopScheduledDelivery(ctx: ServiceContext): void {
  const timer = timers.get(ctx);
  if (timer) clearTimeout(timer);
  timers.delete(ctx);
}

/** (Re)arms the service's timer for the earliest scheduled message; a no-op once stopped. */
export function armScheduledDelivery(ctx: ServiceContext): void {
  if (!timers.has(ctx)) return;
  const previous = timers.get(ctx);
  if (previous) clearTimeout(previous);
  const next = nextScheduledTimestamp(ctx.db);
  if (next === null) {
    timers.set(ctx, null);
    return;
  }
  const wait = Math.min(Math.max(next * 1000 - Date.now(), 0), MAX_WAIT_MS);
  const timer = setTimeout(() => {
    timers.set(ctx, null);
    deliverDueMessages(ctx);
    armScheduledDelivery(ctx);
  }, wait);
  timer.unref();
  timers.set(ctx, timer);
}

/** Sends every scheduled message due now, oldest first. */
export function deliverDueMessages(ctx: ServiceContext): void {
  for (const id of dueScheduledMessageIds(ctx.db, Math.floor(Date.now() / 1000))) {
    try {
      deliver(ctx, id);
    } catch (error) {
      const reason = error instanceof ApiFailure ? error.message : 'Internal server error';
      if (!(error instanceof ApiFailure)) console.error(`Scheduled message ${id} failed: ${String(error)}`);
      markFailed(ctx, id, reason);
    }
  }
}

function deliver(ctx: ServiceContext, id: number): void {
  const sent = runAction(ctx, (events) => {
    const row = getScheduledMessage(ctx.db, id) as ScheduledMessageRow;
    const message = sendMessageIn(ctx, events, {
      senderId: row.sender_id,
      to: sendTargetOf({
        type: row.type,
        streamId: row.stream_id,
        userIds: JSON.parse(row.user_ids ?? 'null'),
        topic: row.topic,
      }),
      content: row.content,
    });
    markScheduledMessageDelivered(ctx.db, id, message.id);
    events.send({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [row.sender_id]);
    return { row, messageId: message.id };
  });
  const sender = getUserById(ctx.db, sent.row.sender_id);
  // Sent messages start read by their sender, unless the sender asked otherwise.
  if (sender && sent.row.read_by_sender === 0)
    updateMessageFlags(ctx, sender, { op: 'remove', flag: 'read' }, [sent.messageId]);
}

function markFailed(ctx: ServiceContext, id: number, reason: string): void {
  runAction(ctx, (events) => {
    markScheduledMessageFailed(ctx.db, id, reason);
    const row = getScheduledMessage(ctx.db, id) as ScheduledMessageRow;
    events.send(
      { type: 'scheduled_messages', op: 'update', scheduled_message: formatScheduledMessage(row) },
      [row.sender_id],
    );
  });
}
