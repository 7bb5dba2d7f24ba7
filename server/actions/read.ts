/**
 * Read state: mark all / a stream / a topic as read. mark_all_as_read can touch a great many
 * rows, so it works in batches, newest first, each batch its own transaction: progress made
 * before the time budget runs out is kept and the client repeats the request for the rest.
 */
import type { ServiceContext } from '../context';
import { hasCopyInTopic, markNewestUnreadAsRead, markStreamUnreadAsRead } from '../db/flags';
import type { StreamRow } from '../db/streams';
import { badRequest } from '../errors';
import { runAction } from './transaction';

export const MARK_ALL_BATCH_SIZE = 2000;

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
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function readEvent(messages: number[], all: boolean) {
  return { type: 'update_message_flags', op: 'add', flag: 'read', messages, all };
}

/**
 * POST /mark_all_as_read. Each unfinished batch tells the user's clients which messages it
 * marked; the batch that finishes sends `all: true`.
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
 * POST /mark_stream_as_read and /mark_topic_as_read: one transaction, one event. A topic
 * the user has no message of is refused.
 */
export function markStreamAsRead(
  ctx: ServiceContext,
  userId: number,
  stream: StreamRow,
  topic?: string,
): void {
  if (topic !== undefined && !hasCopyInTopic(ctx.db, userId, stream.id, topic))
    throw badRequest(`No such topic '${topic}'`);
  runAction(ctx, (events) => {
    const ids = markStreamUnreadAsRead(ctx.db, userId, stream.id, topic);
    events.send(readEvent(ids, false), [userId]);
  });
}
