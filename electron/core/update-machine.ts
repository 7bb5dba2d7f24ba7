/**
 * One account's event loop: register a queue, long-poll it, keep the account's state, and
 * recover from everything the network and the server can do to us.
 *
 * - Transient failures (network, 5xx, 429) back off with full jitter and keep the queue; the
 *   first poll after recovering is `dont_block` so the UI learns at once that we are back.
 * - `BAD_EVENT_QUEUE_ID` (queue collected or lost), an event that fails validation or a reducer
 *   that throws re-register and replace the whole state: never go on from state that may be wrong.
 * - A `restart` event comes on a queue the server restored after a graceful restart: the queue
 *   holds every event since our last poll, so the state is right and polling goes on at once.
 *   The event's version and feature level update the account. Only when the feature level
 *   changed do we re-register (the snapshot may now have another shape), after a random delay
 *   of up to 5 minutes, as the interface family asks of its clients, so that a fleet of clients
 *   does not re-register in one burst; meanwhile the restored queue keeps us live.
 * - 401 means the key is no longer valid: stop, and tell the user why.
 */
import { type ApiClient, ApiError, NetworkError } from '../../shared/client';
import {
  type AccountState,
  accountStateFromSnapshot,
  applyEvents,
  snapshotFromAccountState,
} from '../../shared/domain';
import type { AccountSnapshot, ConnectionState, PushPayloads } from '../../shared/ipc';
import {
  CLIENT_CAPABILITIES,
  type ClientCapabilities,
  DEFAULT_LONGPOLL_TIMEOUT_SECONDS,
  MIN_SUPPORTED_FEATURE_LEVEL,
  parseEvent,
  type RawEvent,
  type RegisterParams,
  type RegisterState,
  type ServerEvent,
} from '../../shared/protocol';
import { isTransient, retryDelayMs } from './backoff';

/**
 * No event_types / fetch_event_types: the snapshot has every part and the queue every event
 * type (the domain ignores the types it does not know). Presence in the modern form, keyed by
 * user id (slim_presence; shared/domain/presence.ts reads either form).
 */
export const REGISTER_PARAMS: RegisterParams = {
  apply_markdown: true,
  slim_presence: true,
  client_capabilities: Object.fromEntries(CLIENT_CAPABILITIES.map((c) => [c, true])) as ClientCapabilities,
};

/** Register is a plain request (no long-poll); this only bounds a stalled connection. */
const REGISTER_TIMEOUT_MS = 60_000;
/** A re-register after a feature-level change is spread uniformly over this window. */
export const RESTART_RESYNC_SPREAD_MS = 5 * 60_000;
/** Deleting a queue on sign-out is a courtesy to the server; never hold sign-out up for it. */
const DELETE_QUEUE_TIMEOUT_MS = 5_000;

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface UpdateMachineOptions {
  accountId: string;
  /** A client carrying the account's credentials. */
  client: ApiClient;
  /** Generation of the first snapshot; later ones count up (the core keeps it rising per account). */
  firstGeneration?: number;
  /** Uniform in [0, 1): the jitter of the back-off. */
  random?: () => number;
  /** Waits `ms`, or less when `signal` aborts (then it resolves, never rejects). */
  sleep?: Sleep;
  now?: () => number;
}

export interface UpdateMachineEvents {
  snapshot: AccountSnapshot;
  events: PushPayloads['account.events'];
  connection: ConnectionState;
}

type Listener<K extends keyof UpdateMachineEvents> = (payload: UpdateMachineEvents[K]) => void;

/** The server is older than the oldest interface this app speaks. */
export class UnsupportedServerError extends Error {
  override readonly name = 'UnsupportedServerError';
}

/** A poll result we cannot apply: a malformed event, or a reducer that threw. */
export class EventsRejectedError extends Error {
  override readonly name = 'EventsRejectedError';
}

class RequestTimeout extends Error {}

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

export class UpdateMachine {
  readonly accountId: string;
  private readonly client: ApiClient;
  private readonly random: () => number;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly listeners: { [K in keyof UpdateMachineEvents]: Set<Listener<K>> } = {
    snapshot: new Set(),
    events: new Set(),
    connection: new Set(),
  };

  private generation: number;
  private queueId: string | null = null;
  private lastEventId = -1;
  private longpollMs = DEFAULT_LONGPOLL_TIMEOUT_SECONDS * 1000;
  private raw: RegisterState | null = null;
  private state: AccountState | null = null;
  private conn: ConnectionState = { status: 'connecting', nextRetryAt: null, lastError: null };

  private loop: Promise<void> | null = null;
  private stopped = false;
  /** Aborts whatever the loop is waiting on: a request or a back-off sleep. */
  private current: AbortController | null = null;
  /** wake() or a due re-register cut the current request or sleep short on purpose. */
  private interrupted = false;
  /** A re-register scheduled after a restart with another feature level. */
  private resyncTimer: ReturnType<typeof setTimeout> | null = null;
  private resyncDue = false;
  /** Consecutive network / 5xx / 429 failures: the back-off exponent. */
  private transientFailures = 0;
  /** Consecutive re-registers forced by errors without a good poll in between. */
  private resyncFailures = 0;
  /** The next poll must not block (we just recovered and want to know at once). */
  private recovering = false;

  constructor(options: UpdateMachineOptions) {
    this.accountId = options.accountId;
    this.client = options.client;
    this.generation = (options.firstGeneration ?? 0) - 1;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? Date.now;
  }

  on<K extends keyof UpdateMachineEvents>(type: K, listener: Listener<K>): () => void {
    const set = this.listeners[type] as Set<Listener<K>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  start(): void {
    if (this.loop || this.stopped) return;
    this.emit('connection', this.conn);
    this.loop = this.run();
  }

  /** Stops at once: the in-flight request is aborted. Optionally deletes the queue (sign-out). */
  async stop(options: { deleteQueue?: boolean } = {}): Promise<void> {
    this.stopped = true;
    this.cancelResync();
    this.current?.abort(new Error('stopped'));
    await this.loop;
    const queueId = this.queueId;
    this.queueId = null;
    if (options.deleteQueue && queueId !== null) await this.deleteQueue(queueId);
    if (this.conn.status !== 'offline')
      this.setConnection({ status: 'offline', nextRetryAt: null, lastError: null });
  }

  /** The network came back or the machine woke from sleep: drop a stalled wait and try now. */
  wake(): void {
    if (this.stopped) return;
    // Whatever failed before says nothing about the network now: start the back-off afresh,
    // and do not block on the first poll, to learn at once whether we are through.
    this.transientFailures = 0;
    this.recovering = true;
    this.interrupted = true;
    this.current?.abort(new Error('wake'));
  }

  /**
   * The account's current state as a register snapshot, so a window opened later starts
   * exactly where the others are: the snapshot of this generation with the parts the domain
   * reducers keep up to date replaced by their current values. Every other field is one that
   * no reducer changes, so it is as current in the open windows as it is here.
   */
  snapshot(): AccountSnapshot | null {
    if (!this.raw || !this.state) return null;
    const state = { ...snapshotFromAccountState(this.raw, this.state), last_event_id: this.lastEventId };
    return { accountId: this.accountId, generation: this.generation, state };
  }

  /**
   * The account's state as the domain reducers keep it, with its snapshot generation; null
   * before the first register. Read-only for the caller (the main process's badge and
   * notifications read it rather than keeping a second copy).
   */
  accountState(): { generation: number; state: AccountState } | null {
    return this.state ? { generation: this.generation, state: this.state } : null;
  }

  connection(): ConnectionState {
    return { ...this.conn };
  }

  /** The event queue registered now (null before a register and after a loss), for local echo. */
  currentQueueId(): string | null {
    return this.queueId;
  }

  // ---- the loop -----------------------------------------------------------------------------

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.interrupted = false;
      try {
        if (this.resyncDue) {
          this.resyncDue = false;
          this.dropQueue(true);
        }
        if (this.queueId === null) {
          await this.register();
        } else {
          await this.poll();
          this.resyncFailures = 0;
        }
        this.transientFailures = 0;
      } catch (error) {
        // stop() or wake() cut the request short: not a failure of the server.
        if (this.stopped || this.interrupted) continue;
        await this.recover(error);
      }
    }
  }

  private async recover(error: unknown): Promise<void> {
    if (error instanceof UnsupportedServerError) return this.halt(error.message);
    if (error instanceof ApiError && error.status === 401) {
      return this.halt(`Signed out by the server: ${error.message}`);
    }
    let delay: number;
    const transient = isTransient(error);
    if (transient) {
      this.recovering = true;
      delay = retryDelayMs(error, this.transientFailures++, this.random);
    } else {
      // The queue is gone or our state may be wrong: start over from a fresh snapshot. The
      // server did answer, so at once the first time; if that keeps failing, back off.
      this.transientFailures = 0;
      const gone = error instanceof ApiError && error.code === 'BAD_EVENT_QUEUE_ID';
      this.dropQueue(!gone);
      const attempt = this.resyncFailures++;
      delay = attempt === 0 ? 0 : retryDelayMs(error, attempt - 1, this.random);
    }
    // A lost queue with a server that answers is not a lost connection: no "reconnecting".
    if (delay === 0 && !transient) return;
    this.setConnection({
      status: 'reconnecting',
      nextRetryAt: Math.round(this.now() + delay),
      lastError: describeError(error),
    });
    await this.wait(delay);
  }

  private halt(message: string): void {
    this.stopped = true;
    this.setConnection({ status: 'offline', nextRetryAt: null, lastError: message });
  }

  private async register(): Promise<void> {
    const response = await this.request(REGISTER_TIMEOUT_MS, (signal) =>
      this.client.registerQueue(REGISTER_PARAMS, { signal }),
    );
    const { queue_id: queueId, result: _result, msg: _msg, ...state } = response;
    if (response.service_feature_level < MIN_SUPPORTED_FEATURE_LEVEL) {
      if (queueId !== null) void this.deleteQueue(queueId);
      throw new UnsupportedServerError(
        `This server runs version ${response.service_version} (feature level ${response.service_feature_level}); ` +
          `Confab needs feature level ${MIN_SUPPORTED_FEATURE_LEVEL} or later.`,
      );
    }
    if (queueId === null) throw new Error('The server did not create an event queue');
    this.cancelResync();
    this.generation += 1;
    this.queueId = queueId;
    this.lastEventId = response.last_event_id;
    this.longpollMs =
      (response.event_queue_longpoll_timeout_seconds ?? DEFAULT_LONGPOLL_TIMEOUT_SECONDS) * 1000;
    this.raw = state;
    this.state = accountStateFromSnapshot(state);
    this.setConnection({ status: 'connected', nextRetryAt: null, lastError: null });
    const snapshot = this.snapshot();
    if (snapshot) this.emit('snapshot', snapshot);
  }

  private async poll(): Promise<void> {
    const queueId = this.queueId as string;
    const params = {
      queue_id: queueId,
      last_event_id: this.lastEventId,
      ...(this.recovering && { dont_block: true }),
    };
    // The server's long-poll hold is our timeout: no answer by then means a dead connection.
    const response = await this.request(this.longpollMs, (signal) =>
      this.client.getEvents(params, { signal }),
    );
    this.recovering = false;
    this.setConnection({ status: 'connected', nextRetryAt: null, lastError: null });
    this.absorb(response.events);
  }

  /** Validates and applies one poll's events, then hands them on as one batch. */
  private absorb(rawEvents: readonly RawEvent[]): void {
    let lastEventId = this.lastEventId;
    const events: ServerEvent[] = [];
    let next: AccountState;
    try {
      for (const raw of rawEvents) {
        // Already applied (a repeated answer): applying twice could corrupt state.
        if (raw.id <= lastEventId) continue;
        lastEventId = raw.id;
        const event = parseEvent(raw);
        if (event === null || event.type === 'heartbeat') continue;
        events.push(event);
      }
      next = applyEvents(this.state as AccountState, events);
    } catch (error) {
      throw new EventsRejectedError(`Could not apply events: ${describeError(error)}`, { cause: error });
    }
    this.state = next;
    this.lastEventId = lastEventId;
    if (events.length > 0) {
      this.emit('events', { accountId: this.accountId, generation: this.generation, events });
    }
    const restart = events.findLast((e) => e.type === 'restart');
    if (restart && restart.service_feature_level !== this.raw?.service_feature_level) {
      // Below our minimum, register says so at once; otherwise spread the re-registers.
      const supported = restart.service_feature_level >= MIN_SUPPORTED_FEATURE_LEVEL;
      this.scheduleResync(supported ? this.random() * RESTART_RESYNC_SPREAD_MS : 0);
    }
  }

  /** Re-registers after `ms` (unless a register happens first), cutting a waiting poll short. */
  private scheduleResync(ms: number): void {
    this.cancelResync();
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = null;
      if (this.stopped) return;
      this.resyncDue = true;
      this.interrupted = true;
      this.current?.abort(new Error('resync'));
    }, ms);
  }

  private cancelResync(): void {
    if (this.resyncTimer !== null) clearTimeout(this.resyncTimer);
    this.resyncTimer = null;
    this.resyncDue = false;
  }

  private dropQueue(deleteOnServer: boolean): void {
    const queueId = this.queueId;
    this.queueId = null;
    if (deleteOnServer && queueId !== null) void this.deleteQueue(queueId);
  }

  private async deleteQueue(queueId: string): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), DELETE_QUEUE_TIMEOUT_MS);
    try {
      await this.client.deleteQueue(queueId, { signal: controller.signal });
    } catch {
      // Best effort: the server collects idle queues anyway.
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs one request that stop(), wake() and the timeout can abort. */
  private async request<T>(timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.current = controller;
    const timer = setTimeout(() => controller.abort(new RequestTimeout()), timeoutMs);
    try {
      return await call(controller.signal);
    } catch (error) {
      if (controller.signal.reason instanceof RequestTimeout) {
        throw new NetworkError(
          `No answer from the server in ${Math.round(timeoutMs / 1000)} s`,
          controller.signal.reason,
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
      if (this.current === controller) this.current = null;
    }
  }

  private async wait(ms: number): Promise<void> {
    if (this.stopped) return;
    const controller = new AbortController();
    this.current = controller;
    try {
      await this.sleep(ms, controller.signal);
    } finally {
      if (this.current === controller) this.current = null;
    }
  }

  private setConnection(next: ConnectionState): void {
    const c = this.conn;
    if (c.status === next.status && c.nextRetryAt === next.nextRetryAt && c.lastError === next.lastError)
      return;
    this.conn = next;
    this.emit('connection', { ...next });
  }

  private emit<K extends keyof UpdateMachineEvents>(type: K, payload: UpdateMachineEvents[K]): void {
    for (const listener of this.listeners[type] as Set<Listener<K>>) {
      try {
        listener(payload);
      } catch (error) {
        // A listener's bug must not stop the account's event loop.
        console.error(`UpdateMachine ${type} listener failed:`, error);
      }
    }
  }
}

function describeError(error: unknown): string {
  if (error instanceof NetworkError) {
    const cause =
      error.cause instanceof Error && error.cause.cause instanceof Error ? error.cause.cause : null;
    // Node's fetch says "fetch failed"; the useful part (ECONNREFUSED ...) is in its cause.
    return cause?.message ? `${error.message} (${cause.message})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
