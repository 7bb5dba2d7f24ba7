/**
 * All event queues of the service: registration, delivery, long-polling with heartbeats,
 * and garbage collection of queues no client has been connected to for a while.
 */
import { badEventQueueId } from '../errors';
import {
  EventQueue,
  type OutgoingEvent,
  type QueueDump,
  type QueuedEvent,
  type QueueSettings,
} from './queue';

export interface QueueManagerOptions {
  heartbeatMs: number;
  queueIdleMs: number;
  /** Registering past this many queues of one user drops their longest-idle queue first. */
  maxQueuesPerUser?: number;
  now?: () => number;
}

/** How a waiting GET /events learns that its client went away. */
export interface Connection {
  onClose(listener: () => void): void;
}

export class QueueManager {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  private readonly now: () => number;
  private sweepTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Who awaits whenWaiting, by queue id, until a poll of that queue waits (or it is gone). */
  private readonly waitingCallbacks = new Map<
    string,
    { resolve: () => void; reject: (e: Error) => void }[]
  >();

  constructor(private readonly options: QueueManagerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts the idle sweep: every minute, or twice per idle lifetime when that is shorter. */
  start(): void {
    const interval = Math.max(10, Math.min(60_000, this.options.queueIdleMs / 2));
    this.sweepTimer = setInterval(() => this.sweep(), interval);
    this.sweepTimer.unref();
  }

  register(settings: QueueSettings): EventQueue {
    this.makeRoomFor(settings.userId);
    return this.add(new EventQueue(settings, this.now()));
  }

  /**
   * Keeps a user under the queue cap: while they have as many queues as it allows, the one
   * whose client was connected least recently goes, a queue nobody polls now before one
   * with a waiting poll (which is answered, and learns of the loss at its next poll).
   */
  private makeRoomFor(userId: number): void {
    const cap = this.options.maxQueuesPerUser;
    if (cap === undefined) return;
    const mine = this.byUser.get(userId);
    while (mine && mine.size >= cap) {
      const byAge = [...mine].sort((a, b) => a.lastConnectedMs - b.lastConnectedMs);
      const oldest = byAge.find((queue) => queue.waiter === null) ?? byAge[0];
      if (!oldest) return;
      this.delete(oldest);
    }
  }

  private add(queue: EventQueue): EventQueue {
    const settings = queue.settings;
    this.queues.set(queue.id, queue);
    let mine = this.byUser.get(settings.userId);
    if (!mine) {
      mine = new Set();
      this.byUser.set(settings.userId, mine);
    }
    mine.add(queue);
    return queue;
  }

  /** The queue if it exists and belongs to this user; otherwise BAD_EVENT_QUEUE_ID, alike. */
  get(queueId: string, userId: number): EventQueue {
    const queue = this.queues.get(queueId);
    if (!queue || queue.userId !== userId) throw badEventQueueId(queueId);
    return queue;
  }

  /**
   * Drops the queue. A poll waiting on it is answered with no events, or, given `ending`, with
   * that error: what a new request would get now (a deactivated user's poll ends with their
   * authentication error at once, not with an empty success).
   */
  delete(queue: EventQueue, ending?: Error): void {
    this.queues.delete(queue.id);
    const mine = this.byUser.get(queue.userId);
    mine?.delete(queue);
    if (mine && mine.size === 0) this.byUser.delete(queue.userId);
    if (ending === undefined) queue.waiter?.finish([]);
    else queue.waiter?.fail(ending);
    this.abandonWaiting(queue.id);
  }

  queuesOf(userId: number): EventQueue[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  get size(): number {
    return this.queues.size;
  }

  /** The users with at least one queue that matches (e.g. registered with all_public_streams). */
  userIdsWithQueue(matches: (queue: EventQueue) => boolean): Set<number> {
    const ids = new Set<number>();
    for (const queue of this.queues.values()) if (matches(queue)) ids.add(queue.userId);
    return ids;
  }

  /**
   * Queues a copy of the event for every queue of these users that wants its type.
   * Call only after the transaction that caused it has committed.
   */
  send(event: OutgoingEvent, userIds: Iterable<number>): void {
    this.sendBuilt(userIds, () => event);
  }

  /** Like send, for events whose shape depends on the queue (client capabilities). */
  sendBuilt(userIds: Iterable<number>, build: (queue: EventQueue) => OutgoingEvent | null): void {
    for (const userId of new Set(userIds)) {
      for (const queue of this.byUser.get(userId) ?? []) {
        const event = build(queue);
        if (event && queue.accepts(event)) this.enqueue(queue, event);
      }
    }
  }

  private enqueue(queue: EventQueue, event: OutgoingEvent): void {
    queue.push(event);
    const waiter = queue.waiter;
    if (waiter) {
      // Deliver after the current synchronous work, so that the events one action emits
      // together reach a waiting client in one response.
      setImmediate(() => {
        if (queue.waiter === waiter) waiter.finish(queue.pending());
      });
    }
  }

  /**
   * GET /events on a queue: acknowledges, ends any earlier poll on the queue (it gets no
   * events), and returns pending events at once, or waits for one, or for the heartbeat.
   */
  poll(
    queue: EventQueue,
    request: { lastEventId?: number | undefined; dontBlock: boolean },
    connection: Connection,
  ): Promise<QueuedEvent[]> {
    if (request.lastEventId !== undefined) queue.acknowledge(request.lastEventId);
    queue.waiter?.finish([]);
    queue.lastConnectedMs = this.now();
    if (queue.hasPending || request.dontBlock || this.closed) return Promise.resolve(queue.pending());

    return new Promise((resolve, reject) => {
      const heartbeat = setTimeout(() => {
        if (queue.waiter === waiter) this.enqueue(queue, { type: 'heartbeat' });
      }, this.options.heartbeatMs);
      /** Detaches the poll; false when it is no longer the queue's waiting one. */
      const detach = (): boolean => {
        if (queue.waiter !== waiter) return false;
        clearTimeout(heartbeat);
        queue.waiter = null;
        queue.lastConnectedMs = this.now();
        return true;
      };
      const waiter = {
        finish: (events: QueuedEvent[]) => {
          if (detach()) resolve(events);
        },
        fail: (error: Error) => {
          if (detach()) reject(error);
        },
      };
      queue.waiter = waiter;
      this.notifyWaiting(queue.id);
      // A client that hangs up is no longer connected; its idle time starts now.
      connection.onClose(() => waiter.finish([]));
    });
  }

  /**
   * Resolves once a client's GET /events waits on the queue (at once if one waits now): from
   * then on, an event sent to the queue reaches that client without another request.
   */
  whenWaiting(queueId: string): Promise<void> {
    const queue = this.queues.get(queueId);
    // A queue that does not exist, or goes away first, can never be waited on: say so
    // rather than leave the caller hanging.
    if (!queue || this.closed) return Promise.reject(new Error(`No event queue ${queueId}`));
    if (queue.waiter) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waitingCallbacks.set(queueId, [
        ...(this.waitingCallbacks.get(queueId) ?? []),
        { resolve, reject },
      ]);
    });
  }

  private notifyWaiting(queueId: string): void {
    const callbacks = this.waitingCallbacks.get(queueId) ?? [];
    this.waitingCallbacks.delete(queueId);
    for (const { resolve } of callbacks) resolve();
  }

  private abandonWaiting(queueId: string): void {
    const callbacks = this.waitingCallbacks.get(queueId) ?? [];
    this.waitingCallbacks.delete(queueId);
    for (const { reject } of callbacks) reject(new Error(`Event queue ${queueId} was deleted`));
  }

  /** Drops queues whose idle lifetime has passed since a client was last connected. */
  sweep(): number {
    const cutoff = this.now() - this.options.queueIdleMs;
    let dropped = 0;
    for (const queue of this.queues.values()) {
      if (queue.waiter === null && queue.lastConnectedMs <= cutoff) {
        this.delete(queue);
        dropped++;
      }
    }
    return dropped;
  }

  /** Every queue as written over a restart (call after close(), when no poll waits). */
  dump(): QueueDump[] {
    const now = this.now();
    return [...this.queues.values()].map((queue) => queue.dump(now));
  }

  /** Takes back queues written by dump(), each getting `restartEvent` as its newest event. */
  restore(dumps: readonly QueueDump[], restartEvent: OutgoingEvent): void {
    const now = this.now();
    for (const dump of dumps) {
      if (this.queues.has(dump.id)) continue;
      const queue = this.add(EventQueue.restore(dump, now));
      queue.push(restartEvent);
    }
  }

  /** Ends every waiting poll (with no events) and stops the sweep; used at shutdown. */
  close(): void {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    for (const queue of this.queues.values()) queue.waiter?.finish([]);
    for (const queueId of [...this.waitingCallbacks.keys()]) this.abandonWaiting(queueId);
  }
}
