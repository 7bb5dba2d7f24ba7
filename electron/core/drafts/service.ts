/**
 * One account's drafts: written to the local log first, then synced to the server by an
 * outbox. The outbox is not a separate queue: it is the difference between each draft and the
 * version the server is known to hold (both in the log), so it survives restarts with the
 * drafts themselves and never sends a stale edit. One request at a time, with back-off: only
 * the account's connection coming back cuts a back-off short, never a local edit, so typing
 * through an outage does not hammer the server.
 */
import { randomUUID } from 'node:crypto';
import { type ApiClient, ApiError, type CallOptions } from '../../../shared/client';
import type { DraftInput, LocalDraft } from '../../../shared/ipc';
import type { RegisterState, ServerEvent } from '../../../shared/protocol';
import { isTransient, retryDelayMs } from '../backoff';
import { defaultSleep, type Sleep } from '../update-machine';
import { DraftLog, type DraftRecord, type LogContents, type LogEntry, type OpenLogFile } from './log';
import {
  applyServerList,
  Changes,
  changedLocally,
  detachAll,
  isBlank,
  mergeServerDraft,
  removeServerDraft,
  sameTime,
} from './merge';

/** A request that hangs must not hold the outbox forever. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Typing appends a line per save: compact the log once it is mostly history. */
const COMPACT_AFTER_ENTRIES = 2_000;

export interface DraftsServiceOptions {
  file: string;
  /** Called with the whole list after every change of what `list()` shows. */
  onChange?: (drafts: LocalDraft[]) => void;
  /**
   * The account's enable_drafts_synchronization as the core knows it now (its event loop's
   * state, which reaches this service only through a queue); null when unknown. It tells a
   * refusal because synchronization is off from a refusal of the draft itself.
   */
  syncSetting?: () => boolean | null;
  /** Opens the log file for appending (tests: to count or fail its writes). */
  openLogFile?: OpenLogFile;
  random?: () => number;
  sleep?: Sleep;
  /** Epoch ms. */
  now?: () => number;
}

/**
 * How a change reaches the disk. `durable`: fsynced before it returns (what the user typed, and
 * what a crash must not lose). `lazy`: written without fsync; losing it to a crash only repeats
 * an idempotent request or a GET /drafts. `memory`: not written at all (the next write of the
 * draft, or a compaction, carries it along).
 */
type Persistence = 'durable' | 'lazy' | 'memory';

type Op =
  | { kind: 'list' }
  | { kind: 'create'; draft: DraftRecord }
  | { kind: 'edit'; draft: DraftRecord }
  | { kind: 'delete'; draft: DraftRecord };

export class DraftsService {
  private drafts: Map<string, DraftRecord>;
  private syncEnabled: boolean | null;
  private readonly onChange: (drafts: LocalDraft[]) => void;
  private readonly syncSetting: () => boolean | null;
  private readonly random: () => number;
  private readonly sleep: Sleep;
  private readonly now: () => number;

  private client: ApiClient | null = null;
  private loop: Promise<void> | null = null;
  private closed = false;
  private readonly closing = new AbortController();
  /** Wakes the outbox from waiting for work: a change, wake(), close(). */
  private work = new AbortController();
  /** Cuts a back-off short: wake() (the connection is back) and close(), never a local edit. */
  private retry = new AbortController();
  /** The outbox loop has ended (closed, or stopped by a bug): nothing will be sent any more. */
  private loopEnded = false;
  /** Callers of whenIdle() waiting for the outbox to have nothing to send. */
  private idleWaiters: (() => void)[] = [];
  private failures = 0;
  /** Fetch the server's full list before anything else (a lost answer, a new snapshot). */
  private needList: boolean;
  /** The current change() turned synchronization on or off (to be logged). */
  private syncChanged = false;
  /** The outbox is performing a request. */
  private busy = false;
  /** Serializes state changes and their log writes. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Entries appended since the log was last compacted. */
  private appended = 0;
  /** What onChange was last called with (JSON), to call it only when the list changed. */
  private lastPushed: string | null = null;

  private constructor(
    private readonly log: DraftLog,
    contents: LogContents,
    options: DraftsServiceOptions,
  ) {
    this.drafts = contents.drafts;
    this.syncEnabled = contents.syncEnabled;
    this.onChange = options.onChange ?? (() => {});
    this.syncSetting = options.syncSetting ?? (() => null);
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? Date.now;
    // A create from the last run may have reached the server with its answer lost.
    this.needList = [...this.drafts.values()].some((d) => d.sent !== null);
  }

  static async open(options: DraftsServiceOptions): Promise<DraftsService> {
    const { log, contents } = await DraftLog.open(options.file, options.openLogFile);
    return new DraftsService(log, contents, options);
  }

  get file(): string {
    return this.log.file;
  }

  // ---- what the renderer sees -----------------------------------------------------------------

  list(): LocalDraft[] {
    return [...this.drafts.values()]
      .filter((d) => !d.deleted)
      .sort((a, b) => b.timestamp - a.timestamp || a.localId.localeCompare(b.localId))
      .map((d) => this.view(d));
  }

  /** Drafts with text the server does not have (what sign-out would leave behind). */
  unsyncedCount(): number {
    return this.list().filter((d) => d.status !== 'synced' && !isBlank(d.content)).length;
  }

  private view(d: DraftRecord): LocalDraft {
    let status: LocalDraft['status'];
    if (this.syncEnabled === false || d.syncError !== null) status = 'local-only';
    else if (d.serverId === null && isBlank(d.content)) status = 'local-only';
    else status = d.serverId !== null && !changedLocally(d) ? 'synced' : 'pending';
    return {
      localId: d.localId,
      serverId: d.serverId,
      type: d.type,
      to: [...d.to],
      topic: d.topic,
      content: d.content,
      timestamp: d.timestamp,
      status,
      syncError: d.syncError,
    };
  }

  // ---- local edits: durable before they return ----------------------------------------------

  /** Creates or updates a draft; resolves once it is on disk. */
  async save(input: DraftInput): Promise<LocalDraft> {
    const localId = input.localId ?? randomUUID();
    await this.change((ch) => {
      const previous = ch.get(localId);
      const fields = { type: input.type, to: [...input.to], topic: input.topic, content: input.content };
      // Saving the same text again (a flush on leaving the editor) is not a new version.
      if (previous && !previous.deleted && sameFields(previous, fields)) return;
      const timestamp = this.nextTimestamp(previous?.timestamp ?? 0);
      if (previous && !previous.deleted) {
        ch.put({ ...previous, ...fields, timestamp, syncError: null });
      } else {
        // New, or deleted here with a save still on its way: the typed text wins, and the
        // pending deletion of the server's copy moves to an id of its own.
        if (previous?.deleted) ch.put({ ...previous, localId: ch.newId() });
        ch.put({
          localId,
          serverId: null,
          ...fields,
          timestamp,
          syncedTimestamp: null,
          sent: null,
          deleted: false,
          syncError: null,
        });
      }
    });
    return this.view(this.drafts.get(localId) as DraftRecord);
  }

  async delete(localId: string): Promise<void> {
    await this.change((ch) => {
      const d = ch.get(localId);
      if (!d) return;
      if (this.syncEnabled !== false && (d.serverId !== null || d.sent !== null))
        ch.put({ ...d, deleted: true });
      else ch.forget(localId);
    });
  }

  /** Edit timestamps: milliseconds (the server keeps microseconds), strictly rising per draft. */
  private nextTimestamp(previous: number): number {
    const now = Math.round(this.now()) / 1000;
    return now > previous ? now : Math.round(previous * 1000 + 1) / 1000;
  }

  // ---- the server's side --------------------------------------------------------------------

  /** A (re-)register: the user's setting and the server's drafts at that moment. */
  async onSnapshot(state: RegisterState): Promise<void> {
    const enabled = state.user_settings?.enable_drafts_synchronization;
    await this.change((ch) => {
      if (typeof enabled === 'boolean') this.setSync(ch, enabled);
      if (this.syncEnabled !== true || !state.drafts) return;
      for (const s of state.drafts) mergeServerDraft(ch, s);
      // A synced draft missing here may have been created after the register: the outbox
      // checks against GET /drafts (which follows all our writes) before removing anything.
      this.needList = true;
    });
    this.wake();
  }

  async onEvents(events: readonly ServerEvent[]): Promise<void> {
    const relevant = events.filter(
      (e) =>
        e.type === 'drafts' || (e.type === 'user_settings' && e.property === 'enable_drafts_synchronization'),
    );
    if (relevant.length === 0) return;
    await this.change((ch) => {
      for (const e of relevant) {
        if (e.type === 'user_settings') {
          if (typeof e.value === 'boolean') this.setSync(ch, e.value);
        } else if (e.type === 'drafts' && this.syncEnabled === true) {
          if (e.op === 'add') for (const s of e.drafts) mergeServerDraft(ch, s);
          else if (e.op === 'update') mergeServerDraft(ch, e.draft);
          else removeServerDraft(ch, e.draft_id);
        }
      }
    });
  }

  /**
   * The server acknowledged our own write of the setting: apply it now rather than when its
   * event arrives, so that no draft saved meanwhile goes to a server that refuses it.
   */
  async syncSettingWritten(enabled: boolean): Promise<void> {
    await this.change((ch) => this.setSync(ch, enabled));
  }

  private setSync(ch: Changes, enabled: boolean): void {
    if (this.syncEnabled === enabled) return;
    // Off: the server deletes its copies itself (and sends no event), so nothing is synced now.
    if (!enabled) detachAll(ch);
    this.syncEnabled = enabled;
    this.syncChanged = true;
    if (enabled) this.needList = true;
  }

  // ---- applying changes ---------------------------------------------------------------------

  /** Runs `edit` on a working copy, writes what changed to the log, then makes it current. */
  private change(edit: (ch: Changes) => void, persistence: Persistence = 'durable'): Promise<void> {
    const run = async () => {
      const ch = new Changes(this.drafts, randomUUID);
      const syncBefore = this.syncEnabled;
      this.syncChanged = false;
      try {
        edit(ch);
      } catch (error) {
        this.syncEnabled = syncBefore;
        throw error;
      }
      const entries: LogEntry[] = [];
      if (this.syncChanged) entries.push({ op: 'sync', enabled: this.syncEnabled });
      for (const localId of ch.forgets) entries.push({ op: 'forget', localId });
      for (const draft of ch.puts.values()) entries.push({ op: 'put', draft });
      if (entries.length === 0) return;
      // Only drafts changes can stay in memory: a sync toggle or a forget is always written.
      const mode =
        persistence === 'memory' && (this.syncChanged || ch.forgets.size > 0) ? 'lazy' : persistence;
      if (mode !== 'memory') {
        try {
          await this.log.append(entries, { durable: mode === 'durable' });
        } catch (error) {
          this.syncEnabled = syncBefore;
          throw error;
        }
      }
      const next = new Map(this.drafts);
      for (const localId of ch.forgets) next.delete(localId);
      for (const draft of ch.puts.values()) next.set(draft.localId, draft);
      this.drafts = next;
      if (mode !== 'memory') this.appended += entries.length;
      if (this.appended > COMPACT_AFTER_ENTRIES && this.appended > 4 * next.size) {
        this.appended = 0;
        await this.log.compact({ drafts: next, syncEnabled: this.syncEnabled });
      }
      this.pushList();
      this.signal('work');
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Tells the listener the list, when it differs from what it was last told. */
  private pushList(): void {
    const list = this.list();
    const json = JSON.stringify(list);
    if (json === this.lastPushed) return;
    this.lastPushed = json;
    try {
      this.onChange(list);
    } catch (error) {
      console.error('drafts onChange listener failed:', error);
    }
  }

  // ---- the outbox ---------------------------------------------------------------------------

  /** Starts (or re-points, after a new sign-in) the outbox at the account's server. */
  connect(client: ApiClient): void {
    this.client = client;
    if (this.closed) return;
    // run() handles its own failures; this catch is the last line, so that a bug there can never
    // become an unhandled rejection (fatal to plain Node in browser mode) or a throwing close().
    this.loop ??= this.run()
      .catch((error: unknown) => {
        console.error('The drafts outbox stopped:', error);
      })
      .finally(() => {
        this.loopEnded = true;
        this.notifyIdle();
      });
    this.wake();
  }

  /** Retry now rather than after the back-off (the account's connection is back). */
  wake(): void {
    this.failures = 0;
    this.signal('retry');
    this.signal('work');
  }

  /**
   * Back from being cut off: other clients may have changed drafts meanwhile, and sending our
   * edits blind would overwrite theirs. Compare with the server's list first, then retry.
   */
  reconnected(): void {
    if (this.syncEnabled === true) this.needList = true;
    this.wake();
  }

  /** Ends the outbox's current wait of that kind (each signal fires once, then is replaced). */
  private signal(which: 'work' | 'retry'): void {
    this[which].abort();
    this[which] = new AbortController();
  }

  /**
   * Stops the outbox and closes the log; the file stays (nothing typed is deleted). Never
   * throws: sign-out and quit go on whatever the disk says (every save reported its own error).
   */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    this.signal('retry');
    this.signal('work');
    await this.loop;
    await this.tail;
    this.notifyIdle();
    try {
      await this.log.close();
    } catch (error) {
      console.error(`Closing the drafts log ${this.log.file} failed:`, error);
    }
  }

  /**
   * Resolves once the outbox has nothing to send and no request in flight: at once when that
   * is so now, else when the outbox gets there (or is closed). A back-off is not idle.
   */
  whenIdle(): Promise<void> {
    const idle = this.closed || this.loopEnded || (!this.busy && this.nextOp() === null);
    if (idle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private notifyIdle(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private nextOp(): Op | null {
    if (this.syncEnabled !== true || !this.client) return null;
    if (this.needList) return { kind: 'list' };
    for (const d of this.drafts.values()) {
      if (d.deleted) {
        if (d.serverId !== null) return { kind: 'delete', draft: d };
        continue;
      }
      if (d.syncError !== null) continue;
      if (isBlank(d.content)) {
        // The server refuses blank drafts: an emptied draft is taken off the server.
        if (d.serverId !== null) return { kind: 'delete', draft: d };
        continue;
      }
      if (d.serverId === null) return { kind: 'create', draft: d };
      if (changedLocally(d)) return { kind: 'edit', draft: d };
    }
    return null;
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      const op = this.nextOp();
      if (!op) {
        this.notifyIdle();
        await this.sleep(24 * 3600_000, this.work.signal);
        continue;
      }
      this.busy = true;
      try {
        await this.perform(op);
        this.failures = 0;
      } catch (error) {
        if (this.closed) break;
        try {
          await this.failed(op, error);
        } catch (recordError) {
          // Recording the outcome failed too (the log's disk is full, say): nothing changed,
          // so the same request is tried again after the back-off, and first the server's list.
          console.error('The drafts outbox could not record a failed request:', recordError);
          this.needList = true;
          await this.sleep(retryDelayMs(recordError, this.failures++, this.random), this.retry.signal);
        }
      } finally {
        this.busy = false;
      }
    }
  }

  private async failed(op: Op, error: unknown): Promise<void> {
    if (error instanceof ApiError && !isTransient(error) && error.status !== 401 && error.status !== 403) {
      if (this.refusedForSyncOff(error)) {
        // The event saying so may still be on its way to this service: go local-only now.
        await this.change((ch) => this.setSync(ch, false));
        return;
      }
      if (op.kind !== 'list' && error.status === 404) {
        // Deleted on the server by another client meanwhile.
        await this.change((ch) => {
          if (op.draft.serverId !== null) removeServerDraft(ch, op.draft.serverId);
        });
        return;
      }
      if (op.kind === 'delete') {
        // Refused for a reason a retry will not change: stop trying, keep nothing unsaved.
        await this.change((ch) => {
          const d = ch.get(op.draft.localId);
          if (d?.deleted) ch.forget(d.localId);
          else if (d) ch.put({ ...d, serverId: null, syncedTimestamp: null, sent: null });
        });
        return;
      }
      if (op.kind === 'create' || op.kind === 'edit') {
        // The server will never take this version: keep it here, say why, retry once edited.
        await this.change((ch) => {
          const d = ch.get(op.draft.localId);
          if (d && sameTime(d.timestamp, op.draft.timestamp))
            ch.put({ ...d, sent: null, syncError: error.message });
        });
        return;
      }
    }
    // The network, the server's health, its rate limit, or our credentials: try again later,
    // and first compare with the server's list (an answer may have been lost, and other
    // clients may have written meanwhile).
    this.needList = true;
    // A key the server no longer takes: wait for the account to connect again (a new sign-in).
    const delay =
      error instanceof ApiError && error.status === 401
        ? 24 * 3600_000
        : retryDelayMs(error, this.failures++, this.random);
    await this.sleep(delay, this.retry.signal);
  }

  /**
   * The server refuses every drafts request while the user has synchronization off, with the
   * code of any bad request: the account's own setting, as the client knows it, tells which
   * refusal this is (never the server's wording, which is not part of the interface).
   */
  private refusedForSyncOff(error: ApiError): boolean {
    return error.code === 'BAD_REQUEST' && (this.syncEnabled === false || this.syncSetting() === false);
  }

  /** Options of one outbox request: its timeout, and cut short by close(). */
  private call(): { client: ApiClient; options: CallOptions } {
    const client = this.client as ApiClient;
    const signal = AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), this.closing.signal]);
    return { client, options: { signal } };
  }

  private async perform(op: Op): Promise<void> {
    const { client, options } = this.call();
    if (op.kind === 'list') {
      const list = await client.getDrafts(options);
      this.needList = false;
      await this.change((ch) => applyServerList(ch, list));
      return;
    }
    const d = op.draft;
    const wire = { type: d.type, to: d.to, topic: d.type === 'stream' ? d.topic : '', content: d.content };
    if (op.kind === 'delete') {
      await client.deleteDraft(d.serverId as number, options);
      // Not fsynced: lost to a crash, the DELETE is repeated and its 404 ends it.
      await this.change((ch) => {
        const now = ch.get(d.localId);
        if (!now) return;
        if (now.deleted) ch.forget(d.localId);
        else ch.put({ ...now, serverId: null, syncedTimestamp: null, sent: null });
      }, 'lazy');
      return;
    }
    const sent = { timestamp: d.timestamp, content: d.content };
    // Remembered before sending. A create's must be on disk: if the answer is lost (and the
    // app with it), this is how we find the draft on the server rather than create it twice.
    // An edit's only recognizes the server's echo of it: memory is enough.
    await this.change(
      (ch) => {
        const now = ch.get(d.localId);
        if (now) ch.put({ ...now, sent });
      },
      op.kind === 'create' ? 'durable' : 'memory',
    );
    const draft = { ...wire, timestamp: d.timestamp };
    if (op.kind === 'create') {
      const [id] = await client.createDrafts([draft], options);
      await this.confirm(d.localId, sent, id as number);
    } else {
      await client.editDraft(d.serverId as number, draft, options);
      await this.confirm(d.localId, sent, d.serverId as number);
    }
  }

  /**
   * The server holds version `sent` of the draft under `serverId`. Not fsynced: lost to a crash,
   * a create is found again by its `sent` marker (on disk), an edit is sent again (idempotent).
   */
  private confirm(localId: string, sent: NonNullable<DraftRecord['sent']>, serverId: number): Promise<void> {
    return this.change((ch) => {
      const now = ch.get(localId);
      if (!now) return;
      // Adopted already by the server's event: nothing to add.
      if (now.serverId === serverId && now.sent === null && !changedLocally(now)) return;
      const other = ch.byServerId(serverId);
      if (other && other.localId !== localId) return;
      ch.put({
        ...now,
        serverId,
        syncedTimestamp:
          now.syncedTimestamp !== null && now.syncedTimestamp > sent.timestamp
            ? now.syncedTimestamp
            : sent.timestamp,
        sent: null,
      });
    }, 'lazy');
  }
}

function sameFields(d: DraftRecord, f: Pick<DraftRecord, 'type' | 'to' | 'topic' | 'content'>): boolean {
  return (
    d.type === f.type &&
    d.topic === f.topic &&
    d.content === f.content &&
    d.to.length === f.to.length &&
    d.to.every((id, i) => id === f.to[i])
  );
}
