/**
 * Messages in the main process, per account: the offline cache (cache.ts) that `messages.fetch`
 * fills and falls back on, and the outbox (outbox.ts) that sends what the user writes. Both
 * follow the account's session (its snapshots, event batches and connection states) and are
 * deleted with the account on sign-out.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type ApiClient, NetworkError } from '../../../shared/client';
import { narrowTerms } from '../../../shared/domain';
import type { AccountSnapshot, InvokeRequest, MessagePage, OutboxItem } from '../../../shared/ipc';
import type { Message } from '../../../shared/protocol';
import { isTransient } from '../backoff';
import type { Push } from '../push';
import type { Sessions } from '../sessions';
import type { UpdateMachine } from '../update-machine';
import { MessageCache } from './cache';
import { Outbox } from './outbox';

export { MAX_NARROWS, MAX_PER_NARROW, MessageCache, NEWEST, NEWEST_ANCHOR } from './cache';
export { OUTBOX_ITEM_BUSY, OUTBOX_ITEM_NOT_FOUND, Outbox, type OutboxLink, SENT_LINGER_MS } from './outbox';

/** A messages.fetch that hangs is answered from the cache (or fails) after this. */
export const FETCH_TIMEOUT_MS = 30_000;
/** The saved snapshot follows the account's events at most this often (and at every stop). */
export const SNAPSHOT_SAVE_INTERVAL_MS = 30_000;

/** A file name for an account id (ids are file-safe; anything else is hashed). */
function safeName(accountId: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(accountId)
    ? accountId
    : createHash('sha256').update(accountId).digest('hex').slice(0, 32);
}

/** `<profileDir>/cache/<account>.sqlite` */
export const cacheFileFor = (profileDir: string, accountId: string) =>
  join(profileDir, 'cache', `${safeName(accountId)}.sqlite`);

/** `<profileDir>/outbox/<account>.json` */
export const outboxFileFor = (profileDir: string, accountId: string) =>
  join(profileDir, 'outbox', `${safeName(accountId)}.json`);

export interface MessageServicesOptions {
  profileDir: string;
  push: Push;
  sessions: Sessions;
  /** The account's own user id (from its session, else its stored summary). */
  ownUserId: (accountId: string) => number | null;
}

export type FetchRequest = InvokeRequest<'messages.fetch'>;

export class MessageServices {
  private readonly caches = new Map<string, MessageCache>();
  private readonly outboxes = new Map<string, Promise<Outbox>>();
  /** The machine each account's cache and outbox follow now. */
  private readonly machines = new Map<string, UpdateMachine>();
  private readonly saveTimers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly options: MessageServicesOptions) {}

  /** The account's cache, opened on first use. */
  cache(id: string): MessageCache {
    let cache = this.caches.get(id);
    if (!cache) {
      cache = MessageCache.open(cacheFileFor(this.options.profileDir, id));
      this.caches.set(id, cache);
    }
    return cache;
  }

  /** The account's outbox, opened on first use (also without a session: it waits). */
  outbox(id: string): Promise<Outbox> {
    let outbox = this.outboxes.get(id);
    if (!outbox) {
      outbox = Outbox.open({
        file: outboxFileFor(this.options.profileDir, id),
        onChange: (items: OutboxItem[]) => this.options.push('outbox.changed', { accountId: id, items }),
      });
      this.outboxes.set(id, outbox);
      outbox.catch(() => this.outboxes.delete(id));
    }
    return outbox;
  }

  /**
   * The last known state from the cache, for an account whose session has none (yet): shown
   * as possibly out of date, generation -1 so that no event batch applies to it.
   */
  cachedSnapshot(id: string): AccountSnapshot | null {
    const state = this.cache(id).snapshot();
    return state ? { accountId: id, generation: -1, state, cached: true } : null;
  }

  /**
   * The account's new machine: its snapshots and events keep the cache, its queue and
   * connection drive the outbox. When its first register fails, the windows get the cached state.
   */
  follow(id: string, machine: UpdateMachine, client: ApiClient): void {
    this.machines.set(id, machine);
    const cache = this.cache(id);
    // The saved state only once the first register has failed: a start with the server
    // reachable goes straight to the fresh state, without a flash of the saved one.
    let offeredCached = false;
    machine.on('connection', (state) => {
      if (offeredCached || this.machines.get(id) !== machine || machine.snapshot() !== null) return;
      if (state.status !== 'reconnecting' && state.status !== 'offline') return;
      offeredCached = true;
      const cached = this.cachedSnapshot(id);
      if (cached) this.options.push('account.snapshot', cached);
    });
    machine.on('snapshot', (snapshot) => {
      if (this.machines.get(id) !== machine) return;
      cache.newQueue();
      cache.saveSnapshot(snapshot.state);
    });
    machine.on('events', (batch) => {
      if (this.machines.get(id) !== machine) return;
      const own = this.options.ownUserId(id);
      if (own !== null) cache.applyEvents(batch.events, own);
      this.scheduleSave(id, machine);
      void this.outbox(id)
        .then((outbox) => outbox.onEvents(batch.events))
        .catch((error) => console.error(`Outbox of ${id}:`, error));
    });
    const withOutbox = (task: (outbox: Outbox) => void) =>
      void this.outbox(id)
        .then(task)
        .catch((error) => console.error(`Outbox of ${id}:`, error));
    withOutbox((outbox) =>
      outbox.connect({
        client,
        queueId: () => machine.currentQueueId(),
        connected: () => machine.connection().status === 'connected',
        ownUserId: () => this.options.ownUserId(id),
      }),
    );
    machine.on('connection', (state) => {
      if (this.machines.get(id) === machine)
        withOutbox((o) => o.connectionChanged(state.status === 'connected'));
    });
  }

  /**
   * A page of a narrow from the server, kept in the cache; from the cache when the server
   * cannot be reached (the session is not connected, or the request fails on the way).
   */
  async fetch(id: string, request: FetchRequest): Promise<MessagePage> {
    const { narrow, anchor, numBefore, numAfter } = request;
    const cache = this.cache(id);
    const fromCache = () => cache.readPage(narrow, anchor, numBefore, numAfter);
    const status = this.options.sessions.connection(id).status;
    if (status === 'reconnecting' || status === 'offline') {
      const page = fromCache();
      if (page) return page;
    }
    let client: ApiClient;
    try {
      client = this.options.sessions.client(id);
    } catch (error) {
      const page = fromCache();
      if (page) return page;
      throw error;
    }
    let body: Record<string, unknown>;
    try {
      body = await client.request(
        'GET',
        '/messages',
        {
          anchor: typeof anchor === 'number' ? String(anchor) : anchor,
          num_before: numBefore,
          num_after: numAfter,
          apply_markdown: true,
          narrow: narrowTerms(narrow, request.terms ?? []),
        },
        { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) },
      );
    } catch (error) {
      if (error instanceof NetworkError || isTransient(error)) {
        const page = fromCache();
        if (page) return page;
      }
      throw error;
    }
    const page: MessagePage = {
      messages: (body.messages ?? []) as Message[],
      anchor: typeof body.anchor === 'number' ? body.anchor : null,
      foundOldest: body.found_oldest === true,
      foundNewest: body.found_newest === true,
      foundAnchor: body.found_anchor === true,
      fromCache: false,
    };
    if (page.anchor !== null)
      cache.storePage(narrow, {
        messages: page.messages,
        anchor: page.anchor,
        numBefore,
        numAfter,
        foundOldest: page.foundOldest,
        foundNewest: page.foundNewest,
      });
    return page;
  }

  /** Signed out: the account's cache and outbox are closed and deleted. */
  async drop(id: string): Promise<void> {
    this.machines.delete(id);
    clearTimeout(this.saveTimers.get(id));
    this.saveTimers.delete(id);
    const outbox = this.outboxes.get(id);
    this.outboxes.delete(id);
    await (await outbox?.catch(() => null))?.close();
    this.caches.get(id)?.close();
    this.caches.delete(id);
    MessageCache.remove(cacheFileFor(this.options.profileDir, id));
    await rm(outboxFileFor(this.options.profileDir, id), { force: true });
  }

  /** Quit: each account's latest state is saved, its outbox stopped (it goes on next start). */
  async closeAll(): Promise<void> {
    for (const [id, machine] of this.machines) this.saveNow(id, machine);
    for (const timer of this.saveTimers.values()) clearTimeout(timer);
    this.saveTimers.clear();
    this.machines.clear();
    const outboxes = [...this.outboxes.values()];
    this.outboxes.clear();
    await Promise.all(outboxes.map(async (o) => (await o.catch(() => null))?.close()));
    for (const cache of this.caches.values()) cache.close();
    this.caches.clear();
  }

  private scheduleSave(id: string, machine: UpdateMachine): void {
    if (this.saveTimers.has(id)) return;
    const timer = setTimeout(() => {
      this.saveTimers.delete(id);
      if (this.machines.get(id) === machine) this.saveNow(id, machine);
    }, SNAPSHOT_SAVE_INTERVAL_MS);
    timer.unref?.();
    this.saveTimers.set(id, timer);
  }

  private saveNow(id: string, machine: UpdateMachine): void {
    const snapshot = machine.snapshot();
    if (snapshot) this.caches.get(id)?.saveSnapshot(snapshot.state);
  }
}
