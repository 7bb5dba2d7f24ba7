/**
 * All event queues of the service: registration, delivery, long-polling with heartbeats,
 * and garbage collection of queues no client has been connected to for a while.
 *
 * A user's queues are grouped by their settings (register parameters): queues of one group
 * share one settings object, and an event is built and checked once per group, then the same
 * object is queued in each of its queues. A user with a thousand idle queues that take no
 * messages costs a message one check, and an idle queue holds little besides its id.
 */
import { performance } from 'node:perf_hooks';
import { badEventQueueId } from '../errors';
import {
  EventQueue,
  type OutgoingEvent,
  PollAnswer,
  type QueueDump,
  type QueuedEvent,
  type QueueSettings,
  type Waiter,
} from './queue';

/**
 * One turn of answering waiting polls (answerWaiting) ends after this long, or this many
 * polls. Each poll's response is written once the turn's own work is over (the route resumes
 * after it), at 50 to 200 µs a poll as measured in the bulk bench: 64 of them stay near 10 ms.
 */
const ANSWER_BUDGET_MS = 10;
const ANSWER_CHUNK = 64;

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

/**
 * Builds an event for one kind of client: it may read `queue.settings` and `queue.userId`
 * only (sendBuilt calls it once for all of a user's queues of equal settings, with one of
 * them). null: these clients get nothing.
 */
export type EventBuilder = (queue: EventQueue) => OutgoingEvent | null;

/** One queue's own variant of an event built for its group (the sender's echo of a message). */
export interface QueueVariant {
  queueId: string;
  userId: number;
  adjust: (event: OutgoingEvent) => OutgoingEvent;
}

/** The queues of one user with equal settings; they share `settings`. */
interface QueueGroup {
  readonly settings: QueueSettings;
  readonly queues: Set<EventQueue>;
}

/** One user's queues, by the key of their settings. */
interface UserQueues {
  readonly groups: Map<string, QueueGroup>;
  size: number;
}

/** Equal settings give equal keys (event types in any order). */
function settingsKey(settings: QueueSettings): string {
  return JSON.stringify([
    settings.realmId,
    settings.eventTypes === null ? null : [...settings.eventTypes].sort(),
    Object.entries(settings.capabilities).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    settings.allPublicStreams,
    settings.narrow,
    settings.applyMarkdown,
    settings.clientExtavatar,
  ]);
}

/** A waiting GET /events: one object (no closures, no timer of its own) per waiting client. */
class WaitingPoll implements Waiter {
  constructor(
    private readonly manager: QueueManager,
    readonly queue: EventQueue,
    /** performance.now() when it started waiting. */
    readonly since: number,
    private readonly resolve: (answer: PollAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  finish(answer: PollAnswer): void {
    if (this.manager.detach(this)) this.resolve(answer);
  }

  fail(error: Error): void {
    if (this.manager.detach(this)) this.reject(error);
  }
}

export class QueueManager {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, UserQueues>();
  /** Users with queues registered with all_public_streams, and how many each has. */
  private readonly allPublicStreams = new Map<number, number>();
  /** Queues with a waiting poll that got events since the last delivery. */
  private readonly toAnswer = new Set<EventQueue>();
  private deliveryScheduled = false;
  /** Polls waiting for their heartbeat, oldest first. */
  private readonly waiting = new Set<WaitingPoll>();
  private heartbeatTimer: NodeJS.Timeout | null = null;
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
    const group = this.groupFor(settings);
    return this.add(new EventQueue(group.settings, this.now()), group);
  }

  /** The user's group for these settings, made if there is none (not yet holding a queue). */
  private groupFor(settings: QueueSettings): QueueGroup {
    let mine = this.byUser.get(settings.userId);
    if (!mine) {
      mine = { groups: new Map(), size: 0 };
      this.byUser.set(settings.userId, mine);
    }
    const key = settingsKey(settings);
    let group = mine.groups.get(key);
    if (!group) {
      group = { settings, queues: new Set() };
      mine.groups.set(key, group);
    }
    return group;
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
      const byAge = this.queuesOf(userId).sort((a, b) => a.lastConnectedMs - b.lastConnectedMs);
      const oldest = byAge.find((queue) => queue.waiter === null) ?? byAge[0];
      if (!oldest) return;
      this.delete(oldest);
    }
  }

  private add(queue: EventQueue, group: QueueGroup): EventQueue {
    this.queues.set(queue.id, queue);
    group.queues.add(queue);
    (this.byUser.get(queue.userId) as UserQueues).size++;
    if (queue.settings.allPublicStreams) {
      this.allPublicStreams.set(queue.userId, (this.allPublicStreams.get(queue.userId) ?? 0) + 1);
    }
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
    if (this.queues.get(queue.id) === queue) this.forget(queue);
    if (ending === undefined) queue.waiter?.finish(PollAnswer.empty);
    else queue.waiter?.fail(ending);
    this.abandonWaiting(queue.id);
  }

  private forget(queue: EventQueue): void {
    this.queues.delete(queue.id);
    this.toAnswer.delete(queue);
    const mine = this.byUser.get(queue.userId) as UserQueues;
    // The queue's group is the one whose settings it shares; a user has few groups.
    for (const [key, group] of mine.groups) {
      if (group.settings !== queue.settings) continue;
      group.queues.delete(queue);
      if (group.queues.size === 0) mine.groups.delete(key);
      break;
    }
    if (--mine.size === 0) this.byUser.delete(queue.userId);
    if (queue.settings.allPublicStreams) {
      const left = (this.allPublicStreams.get(queue.userId) ?? 1) - 1;
      if (left === 0) this.allPublicStreams.delete(queue.userId);
      else this.allPublicStreams.set(queue.userId, left);
    }
  }

  queuesOf(userId: number): EventQueue[] {
    const queues: EventQueue[] = [];
    for (const group of this.byUser.get(userId)?.groups.values() ?? []) queues.push(...group.queues);
    return queues;
  }

  get size(): number {
    return this.queues.size;
  }

  /** The users with at least one queue registered with all_public_streams (kept, not searched). */
  allPublicStreamsUserIds(): IterableIterator<number> {
    return this.allPublicStreams.keys();
  }

  /**
   * Queues the event in every queue of these users that accepts it.
   * Call only after the transaction that caused it has committed.
   */
  send(event: OutgoingEvent, userIds: Iterable<number>): void {
    this.sendBuilt(userIds, () => event);
  }

  /**
   * Like send, for events whose shape depends on the client (capabilities, settings): built
   * once per group of a user's queues with equal settings, and queued in each of them when
   * they accept it. `variant` gives one queue its own form of the event; whether the queue
   * takes it is decided on the common form.
   */
  sendBuilt(userIds: Iterable<number>, build: EventBuilder, variant?: QueueVariant): void {
    for (const userId of userIds instanceof Set ? userIds : new Set(userIds)) {
      const mine = this.byUser.get(userId);
      if (!mine) continue;
      for (const group of mine.groups.values()) {
        const first = group.queues.values().next().value as EventQueue;
        const event = build(first);
        if (!event || !first.accepts(event)) continue;
        for (const queue of group.queues) {
          const own = variant !== undefined && variant.userId === userId && variant.queueId === queue.id;
          this.enqueue(queue, own ? variant.adjust(event) : event);
        }
      }
    }
  }

  private enqueue(queue: EventQueue, event: OutgoingEvent): void {
    queue.push(event);
    if (queue.waiter === null) return;
    // Deliver after the current synchronous work, so that the events one action emits
    // together reach a waiting client in one response; one callback answers every poll.
    this.toAnswer.add(queue);
    if (!this.deliveryScheduled) {
      this.deliveryScheduled = true;
      setImmediate(() => this.answerWaiting());
    }
  }

  /**
   * Answers the waiting polls whose queues got events since the last time, in turns of at
   * most ANSWER_BUDGET_MS or ANSWER_CHUNK polls: one write reaching thousands of waiting
   * clients would otherwise hold the event loop for all of their answers at once. Queues are
   * answered in the order they got events; one that gets more before its turn comes is
   * answered once, with all of them (a poll's answer is its queue's pending events, in order).
   */
  private answerWaiting(): void {
    const deadline = performance.now() + ANSWER_BUDGET_MS;
    let answered = 0;
    // A Set's iterator survives the deletion of the entry it is on.
    for (const queue of this.toAnswer) {
      this.toAnswer.delete(queue);
      const waiter = queue.waiter;
      if (waiter === null || !queue.hasPending) continue;
      const answer = queue.answer();
      // Serialized now (kept by the answer for routes/events.ts), so the budget counts it:
      // the rest of the response is about the same for every poll, which ANSWER_CHUNK bounds.
      answer.json();
      waiter.finish(answer);
      if (++answered >= ANSWER_CHUNK || performance.now() >= deadline) break;
    }
    if (this.toAnswer.size > 0) setImmediate(() => this.answerWaiting());
    else this.deliveryScheduled = false;
  }

  /**
   * GET /events on a queue: acknowledges, ends any earlier poll on the queue (it gets no
   * events), and returns pending events at once, or waits for one, or for the heartbeat.
   */
  async poll(
    queue: EventQueue,
    request: { lastEventId?: number | undefined; dontBlock: boolean },
    connection: Connection,
  ): Promise<QueuedEvent[]> {
    return (await this.wait(queue, request, connection)).list();
  }

  /** poll, answered as the events' JSON text can be made from (routes/events.ts). */
  wait(
    queue: EventQueue,
    request: { lastEventId?: number | undefined; dontBlock: boolean },
    connection: Connection,
  ): Promise<PollAnswer> {
    if (request.lastEventId !== undefined) queue.acknowledge(request.lastEventId);
    queue.waiter?.finish(PollAnswer.empty);
    queue.lastConnectedMs = this.now();
    if (queue.hasPending || request.dontBlock || this.closed) return Promise.resolve(queue.answer());

    return new Promise((resolve, reject) => {
      const poll = new WaitingPoll(this, queue, performance.now(), resolve, reject);
      queue.waiter = poll;
      this.waiting.add(poll);
      this.heartbeatTimer ??= setTimeout(() => this.beat(), this.options.heartbeatMs);
      this.notifyWaiting(queue.id);
      // A client that hangs up is no longer connected; its idle time starts now.
      connection.onClose(() => poll.finish(PollAnswer.empty));
    });
  }

  /** Detaches a poll from its queue; false when it is no longer the queue's waiting one. */
  detach(poll: WaitingPoll): boolean {
    const queue = poll.queue;
    if (queue.waiter !== poll) return false;
    queue.waiter = null;
    queue.lastConnectedMs = this.now();
    this.waiting.delete(poll);
    if (this.waiting.size === 0 && this.heartbeatTimer !== null) {
      clearTimeout(this.heartbeatTimer);
      this.heartbeatTimer = null;
    }
    return true;
  }

  /**
   * The heartbeat: every poll that has waited heartbeatMs gets a heartbeat event. One timer
   * serves them all (polls wait in the order they started), set for the oldest poll's turn.
   */
  private beat(): void {
    this.heartbeatTimer = null;
    const now = performance.now();
    for (const poll of this.waiting) {
      const due = poll.since + this.options.heartbeatMs - now;
      if (due > 0) {
        this.heartbeatTimer = setTimeout(() => this.beat(), Math.ceil(due));
        return;
      }
      // It stays its queue's waiter until the heartbeat answers it, but is not beaten twice.
      this.waiting.delete(poll);
      this.enqueue(poll.queue, { type: 'heartbeat' });
    }
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
    if (this.waitingCallbacks.size === 0) return;
    const callbacks = this.waitingCallbacks.get(queueId) ?? [];
    this.waitingCallbacks.delete(queueId);
    for (const { resolve } of callbacks) resolve();
  }

  private abandonWaiting(queueId: string): void {
    if (this.waitingCallbacks.size === 0) return;
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
      const { eventTypes, ...rest } = dump.settings;
      const group = this.groupFor({ ...rest, eventTypes: eventTypes === null ? null : new Set(eventTypes) });
      const queue = this.add(EventQueue.restore(dump, now, group.settings), group);
      queue.push(restartEvent);
    }
  }

  /** Ends every waiting poll (with no events) and stops the sweep; used at shutdown. */
  close(): void {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = null;
    // Every poll at once, those whose answers answerWaiting has yet to make too (their
    // events stay queued, and are written with the queue).
    this.toAnswer.clear();
    for (const queue of this.queues.values()) queue.waiter?.finish(PollAnswer.empty);
    for (const queueId of [...this.waitingCallbacks.keys()]) this.abandonWaiting(queueId);
  }
}
