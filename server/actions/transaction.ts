/**
 * Actions change state in one transaction and notify clients only once it has committed:
 * a client must never see an event for a change that was rolled back.
 */
import type { ServiceContext } from '../context';
import type { EventBuilder, QueueVariant } from '../events/manager';
import type { OutgoingEvent } from '../events/queue';

type Pending =
  | { kind: 'plain'; event: OutgoingEvent; userIds: number[] }
  | { kind: 'built'; userIds: number[]; build: EventBuilder; variant: QueueVariant | undefined };

export class EventBatch {
  private readonly pending: Pending[] = [];
  private readonly committed: (() => void)[] = [];

  send(event: OutgoingEvent, userIds: Iterable<number>): void {
    this.pending.push({ kind: 'plain', event, userIds: [...userIds] });
  }

  /**
   * For events whose shape depends on the receiving client's settings (capabilities): `build`
   * reads only `queue.settings` and `queue.userId`, and runs once per kind of client
   * (QueueManager.sendBuilt); `variant` is one queue's own form of the event.
   */
  sendBuilt(userIds: Iterable<number>, build: EventBuilder, variant?: QueueVariant): void {
    this.pending.push({ kind: 'built', userIds: [...userIds], build, variant });
  }

  /**
   * Runs `fn` once the transaction has committed (after the events are queued), never on a
   * rollback: for side effects outside the database, such as email.
   */
  afterCommit(fn: () => void): void {
    this.committed.push(fn);
  }

  get length(): number {
    return this.pending.length;
  }

  /** Queues every event, in the order the action emitted them. */
  deliver(ctx: ServiceContext): void {
    for (const item of this.pending) {
      if (item.kind === 'plain') ctx.queues.send(item.event, item.userIds);
      else ctx.queues.sendBuilt(item.userIds, item.build, item.variant);
    }
  }

  /** Runs the afterCommit callbacks in order; one that throws does not stop the others. */
  runCommitted(): void {
    for (const fn of this.committed) {
      try {
        fn();
      } catch (error) {
        console.error(`After-commit task failed: ${String(error)}`);
      }
    }
  }
}

/**
 * Runs `work` in a transaction; its events and afterCommit callbacks run after the commit,
 * none on a rollback.
 */
export function runAction<T>(ctx: ServiceContext, work: (events: EventBatch) => T): T {
  const events = new EventBatch();
  const result = ctx.db.transaction(() => work(events)).immediate();
  events.deliver(ctx);
  events.runCommitted();
  return result;
}
