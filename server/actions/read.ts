/**
 * Read state: mark all / a stream / a topic as read. mark_all_as_read can touch a great many
 * rows, so it works in batches, newest first, each batch its own transaction: progress made
 * before the time budget runs out is kept and the client repeats the request for the rest.
 */
import type { ServiceContext } from '../context';
import { FLAGS } from '../db/flags';
import type { StreamRow } from '../db/streams';
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

/** Marks a set of the user's copies read; answers the ids that were unread. */
function markRead(ctx: ServiceContext, userId: number, idsSql: string, args: unknown[]): number[] {
  const ids = (
    ctx.db
      .prepare(
        `SELECT um.message_id AS id FROM user_messages um ${idsSql}
         AND um.user_id = ? AND (um.flags & ${FLAGS.read}) = 0 ORDER BY um.message_id DESC`,
      )
      .all(...args, userId) as { id: number }[]
  ).map((r) => r.id);
  const update = ctx.db.prepare(
    `UPDATE user_messages SET flags = flags | ${FLAGS.read} WHERE user_id = ? AND message_id = ?`,
  );
  for (const id of ids) update.run(userId, id);
  return ids.sort((a, b) => a - b);
}

/**
 * POST /mark_all_as_read. Each unfinished batch tells the user's clients which messages it
 * marked; the batch that finishes sends `all: true`.
 */
export async function markAllAsRead(ctx: ServiceContext, userId: number): Promise<{ complete: boolean }> {
  const complete = await runBatched(ctx, () =>
    runAction(ctx, (events) => {
      const ids = markRead(
        ctx,
        userId,
        `JOIN (SELECT message_id FROM user_messages WHERE user_id = ? AND (flags & ${FLAGS.read}) = 0
               ORDER BY message_id DESC LIMIT ${MARK_ALL_BATCH_SIZE}) b ON b.message_id = um.message_id WHERE 1`,
        [userId],
      );
      const done = ids.length < MARK_ALL_BATCH_SIZE;
      events.send(readEvent(ids, done), [userId]);
      return done;
    }),
  );
  return { complete };
}

/** POST /mark_stream_as_read and /mark_topic_as_read: one transaction, one event. */
export function markStreamAsRead(
  ctx: ServiceContext,
  userId: number,
  stream: StreamRow,
  topic?: string,
): void {
  runAction(ctx, (events) => {
    const ids =
      topic === undefined
        ? markRead(ctx, userId, 'JOIN messages m ON m.id = um.message_id WHERE m.stream_id = ?', [stream.id])
        : markRead(
            ctx,
            userId,
            'JOIN messages m ON m.id = um.message_id WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE',
            [stream.id, topic],
          );
    events.send(readEvent(ids, false), [userId]);
  });
}

/** Whether the user has any copy of a message in this topic (mark_topic_as_read's check). */
export function topicExists(ctx: ServiceContext, userId: number, streamId: number, topic: string): boolean {
  return (
    ctx.db
      .prepare(
        `SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
         WHERE um.user_id = ? AND m.stream_id = ? AND m.topic = ? COLLATE NOCASE LIMIT 1`,
      )
      .get(userId, streamId, topic) !== undefined
  );
}
