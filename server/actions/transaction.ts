/**
 * Actions change state in one transaction and notify clients only once it has committed:
 * a client must never see an event for a change that was rolled back.
 */
import type { ServiceContext } from '../context';
import type { EventQueue, OutgoingEvent } from '../events/queue';

type Pending =
  | { kind: 'plain'; event: OutgoingEvent; userIds: number[] }
  | { kind: 'built'; userIds: number[]; build: (queue: EventQueue) => OutgoingEvent | null };

export class EventBatch {
  private readonly pending: Pending[] = [];

  send(event: OutgoingEvent, userIds: Iterable<number>): void {
    this.pending.push({ kind: 'plain', event, userIds: [...userIds] });
  }

  /** For events whose shape depends on the receiving client's capabilities. */
  sendBuilt(userIds: Iterable<number>, build: (queue: EventQueue) => OutgoingEvent | null): void {
    this.pending.push({ kind: 'built', userIds: [...userIds], build });
  }

  get length(): number {
    return this.pending.length;
  }

  /** Queues every event, in the order the action emitted them. */
  deliver(ctx: ServiceContext): void {
    for (const item of this.pending) {
      if (item.kind === 'plain') ctx.queues.send(item.event, item.userIds);
      else ctx.queues.sendBuilt(item.userIds, item.build);
    }
  }
}

/** Runs `work` in a transaction; its events go out after the commit, none on a rollback. */
export function runAction<T>(ctx: ServiceContext, work: (events: EventBatch) => T): T {
  const events = new EventBatch();
  const result = ctx.db.transaction(() => work(events)).immediate();
  events.deliver(ctx);
  return result;
}
