/**
 * Read state: mark all / a stream / a topic as read. Each can touch a great many rows, so
 * each works in batches, newest first, each batch its own transaction with its own event,
 * and yields to the event loop between batches. mark_all_as_read stops when the time budget
 * runs out and the client repeats the request for the rest; marking a stream or a topic has
 * no such answer in the spec, so it runs to the end.
 */
import type { ServiceContext } from '../context';
import { hasCopyInTopic, markNewestUnreadAsRead, setFlag } from '../db/flags';
import { newestUnreadInStream, type StreamRow } from '../db/streams';
import { badRequest } from '../errors';
import { runAction } from './transaction';

export const MARK_ALL_BATCH_SIZE = 2000;
/** The batch of mark_stream_as_read and mark_topic_as_read: a few milliseconds of work. */
export const MARK_STREAM_BATCH_SIZE = 2000;

/** Lets the event loop run what waits (other requests, long-polls, heartbeats) before going on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * yieldToEventLoop, sure to let new input in: two turns of setImmediate. Called from a
 * request's handler (the loop's poll phase), one turn runs in the same iteration's check
 * phase, before any new input is read, so the work before and after would hold the loop as
 * one piece; and the answers to waiting polls that a slice's events scheduled (setImmediate
 * too) then get a turn of their own before the next slice.
 */
export async function yieldToInput(): Promise<void> {
  await yieldToEventLoop();
  await yieldToEventLoop();
}

/**
 * Runs `step` (one batch, its own transaction; answers whether the work is done) at least
 * once and then again while the time budget lasts. Answers whether the work was finished.
 * Between batches it yields to the event loop (setImmediate), so other requests, long-polls
 * and heartbeats are served while a long job runs.
 */
export async function runBatched(ctx: ServiceContext, step: () => boolean): Promise<boolean> {
  const deadline = performance.now() + ctx.config.workBudgetSeconds * 1000;
  for (;;) {
    if (step()) return true;
    if (performance.now() >= deadline) return false;
    await yieldToEventLoop();
  }
}

function readEvent(messages: number[], all: boolean) {
  return { type: 'update_message_flags', op: 'add', flag: 'read', messages, all };
}

/**
 * POST /mark_all_as_read. Each unfinished batch tells the user's clients which messages it
 * marked; the batch that finishes sends `all: true`. If the server stops between batches, the
 * newest messages are read and the older ones not; repeating the request finishes the job.
 */
export async function markAllAsRead(ctx: ServiceContext, userId: number): Promise<{ complete: boolean }> {
  const complete = await runBatched(ctx, () =>
    runAction(ctx, (events) => {
      const ids = markNewestUnreadAsRead(ctx.db, userId, MARK_ALL_BATCH_SIZE);
      const done = ids.length < MARK_ALL_BATCH_SIZE;
      events.send(readEvent(ids, done), [userId]);
      return done;
    }),
  );
  return { complete };
}

/**
 * POST /mark_stream_as_read and /mark_topic_as_read: batches of MARK_STREAM_BATCH_SIZE,
 * newest first, each batch its own transaction and event (a stream with fewer unread messages
 * is one of each, as before), until every message that was unread when the request came is
 * read: each batch starts below the last one, so messages arriving meanwhile are left unread,
 * as one transaction would have left them. A topic the user has no message of is refused.
 *
 * If the server stops between batches, the newest messages are read and the older ones not,
 * each client told of those it marked; repeating the request finishes the job.
 */
export async function markStreamAsRead(
  ctx: ServiceContext,
  userId: number,
  stream: StreamRow,
  topic?: string,
): Promise<void> {
  if (topic !== undefined && !hasCopyInTopic(ctx.db, userId, stream.id, topic))
    throw badRequest(`No such topic '${topic}'`);
  let beforeId: number | null = null;
  for (let first = true; ; first = false) {
    if (!first) await yieldToEventLoop();
    const done = runAction(ctx, (events) => {
      const batch = newestUnreadInStream(ctx.db, {
        userId,
        streamId: stream.id,
        topic,
        beforeId,
        limit: MARK_STREAM_BATCH_SIZE,
      });
      const ids = setFlag(ctx.db, userId, batch, 'read', true);
      beforeId = batch.at(-1) ?? beforeId;
      // One event for the first batch even when it marks nothing, as the single transaction sent.
      if (first || ids.length > 0) events.send(readEvent(ids, false), [userId]);
      return batch.length < MARK_STREAM_BATCH_SIZE;
    });
    if (done) return;
  }
}
