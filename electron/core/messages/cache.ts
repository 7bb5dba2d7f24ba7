/**
 * One account's offline cache: a SQLite database in the profile
 * (`<profile>/cache/<account>.sqlite`, better-sqlite3, WAL) holding what the app needs to open
 * without a network: the last register snapshot (the state as the renderer builds it; never the
 * queue id, never a key) and, per narrow, a bounded window of its messages.
 *
 * A narrow's window is an id interval [lo, hi] of which the cache holds *every* message of the
 * narrow (lo = 0: the window reaches the narrow's oldest message; hi = NEWEST: its newest), so a
 * page read from it is as complete as the server's within the window. Messages are stored once
 * by id; which narrows hold them is a table of its own. Pages fetched from the server merge into
 * the window when they overlap it (a newer page that does not replaces it; an older one that
 * does not is left out), each window keeps its newest MAX_PER_NARROW messages, and the least
 * recently used narrows beyond MAX_NARROWS go.
 *
 * A window reaches the newest message only while the queue that kept it current lives: a new
 * register ends every window at its newest message held (`newQueue`). Event batches keep it
 * current: the stored messages change with the shared reducer
 * (shared/domain/message-list.ts), then every window that covers a changed message is told
 * whether it belongs (`messageInNarrow`); a message that joins a window but is not stored (one
 * starred elsewhere, one moved in) shrinks that window to above it, so the window never claims
 * a message it lacks. Searches are never cached.
 *
 * It is a cache: any failure is logged and answered as "nothing cached"; a damaged file is set
 * aside (`.damaged-<ms>`) and a fresh one started, never a crash.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  applyMessageEvents,
  type MessageListState,
  messageInNarrow,
  type Narrow,
  type NarrowableMessage,
  narrowKey,
} from '../../../shared/domain';
import type { MessageAnchor, MessagePage } from '../../../shared/ipc';
import type { Message, RegisterState, ServerEvent } from '../../../shared/protocol';

/** A window's upper bound when it reaches the narrow's newest message. */
export const NEWEST = Number.MAX_SAFE_INTEGER;
/** The anchor GET /messages answers for `newest` (larger than any message id). */
export const NEWEST_ANCHOR = 10_000_000_000_000_000;
/** Messages kept per narrow (the newest). */
export const MAX_PER_NARROW = 1000;
/** Narrows kept (the most recently fetched). */
export const MAX_NARROWS = 300;

const SCHEMA_VERSION = 1;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS narrows (
    key TEXT PRIMARY KEY,
    narrow TEXT NOT NULL,
    lo INTEGER NOT NULL,
    hi INTEGER NOT NULL,
    used INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS members (
    narrow_key TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (narrow_key, message_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS members_by_message ON members (message_id);
`;

/** What a fetched page tells the cache: its messages and what the server said of its ends. */
export interface FetchedPage {
  messages: Message[];
  /** The anchor the server resolved, as a message id. */
  anchor: number;
  numBefore: number;
  numAfter: number;
  foundOldest: boolean;
  foundNewest: boolean;
}

interface Window {
  key: string;
  narrow: Narrow;
  lo: number;
  hi: number;
}

type Db = Database.Database;

const isCorruption = (error: unknown) =>
  error instanceof Error && /^SQLITE_(CORRUPT|NOTADB)/.test((error as Error & { code?: string }).code ?? '');

export class MessageCache {
  private db: Db | null = null;
  /** Members were deleted in the current transaction: some messages may be held by no window. */
  private orphans = false;

  private constructor(
    readonly file: string,
    private readonly now: () => number,
  ) {}

  /** Opens (or creates) the cache file; a damaged one is set aside and a fresh one started. */
  static open(file: string, options: { now?: () => number } = {}): MessageCache {
    const cache = new MessageCache(file, options.now ?? Date.now);
    cache.db = cache.openDb();
    return cache;
  }

  /** Deletes an account's cache file (with its WAL), open or not. */
  static remove(file: string): void {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }

  close(): void {
    try {
      this.db?.close();
    } catch (error) {
      console.error(`Closing the message cache ${this.file} failed:`, error);
    }
    this.db = null;
  }

  // ---- the snapshot ------------------------------------------------------------------------

  /** Saves the account's last known state (the queue id is left out). */
  saveSnapshot(state: RegisterState): void {
    const { queue_id: _queue, ...rest } = state as RegisterState & { queue_id?: unknown };
    this.guard(undefined, (db) => {
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(
        'snapshot',
        JSON.stringify(rest),
      );
    });
  }

  snapshot(): RegisterState | null {
    return this.guard(null, (db) => {
      const row = db.prepare('SELECT value FROM meta WHERE key = ?').get('snapshot') as
        | { value: string }
        | undefined;
      return row ? (JSON.parse(row.value) as RegisterState) : null;
    });
  }

  /**
   * A new event queue (a register): messages sent since the last one were never seen live, so
   * no window can claim the narrow's newest any more; each ends at its newest message held.
   */
  newQueue(): void {
    this.guard(undefined, (db) => {
      db.prepare(
        `UPDATE narrows SET hi = COALESCE(
           (SELECT MAX(message_id) FROM members WHERE narrow_key = narrows.key), lo)
         WHERE hi = ?`,
      ).run(NEWEST);
    });
  }

  // ---- pages -------------------------------------------------------------------------------

  /** Merges a page the server answered into the narrow's window (searches are not cached). */
  storePage(narrow: Narrow, page: FetchedPage): void {
    if (narrow.kind === 'search') return;
    this.guard(undefined, (db) => db.transaction(() => this.merge(db, narrow, page))());
  }

  /**
   * A page around the anchor from the narrow's window, as the server would answer it within
   * the window; null when the narrow has no window.
   */
  readPage(narrow: Narrow, anchor: MessageAnchor, numBefore: number, numAfter: number): MessagePage | null {
    if (narrow.kind === 'search') return null;
    return this.guard(null, (db) => {
      const window = this.window(db, narrowKey(narrow));
      if (!window) return null;
      const messages = this.membersOf(db, window.key);
      let at: number;
      if (anchor === 'newest') at = NEWEST_ANCHOR;
      else if (anchor === 'oldest') at = 0;
      else if (anchor === 'first_unread')
        at = messages.find((m) => !m.flags.includes('read'))?.id ?? NEWEST_ANCHOR;
      else at = anchor;
      const before = messages.filter((m) => m.id < at);
      const atAnchor = messages.find((m) => m.id === at);
      const after = messages.filter((m) => m.id > at);
      return {
        messages: [
          ...before.slice(Math.max(0, before.length - numBefore)),
          ...(atAnchor ? [atAnchor] : []),
          ...after.slice(0, numAfter),
        ],
        anchor: at,
        foundOldest: before.length <= numBefore && window.lo === 0,
        foundNewest: after.length <= numAfter && window.hi === NEWEST,
        foundAnchor: atAnchor !== undefined,
        fromCache: true,
      };
    });
  }

  /** The narrows the cache has a window of (for tests and diagnostics). */
  narrows(): { key: string; lo: number; hi: number; count: number }[] {
    return this.guard(
      [],
      (db) =>
        db
          .prepare(
            `SELECT n.key, n.lo, n.hi, (SELECT COUNT(*) FROM members m WHERE m.narrow_key = n.key) AS count
           FROM narrows n ORDER BY n.key`,
          )
          .all() as { key: string; lo: number; hi: number; count: number }[],
    );
  }

  /** How many messages are stored (each once, whatever the narrows holding it). */
  messageCount(): number {
    return this.guard(0, (db) => (db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n);
  }

  // ---- events ------------------------------------------------------------------------------

  /** Applies one event batch of the account to the stored messages and the windows. */
  applyEvents(events: readonly ServerEvent[], ownUserId: number): void {
    const relevant = events.filter(
      (e) =>
        e.type === 'message' ||
        e.type === 'update_message' ||
        e.type === 'delete_message' ||
        e.type === 'reaction' ||
        e.type === 'update_message_flags',
    );
    if (relevant.length === 0) return;
    this.guard(undefined, (db) => db.transaction(() => this.absorb(db, relevant, ownUserId))());
  }

  // ---- internals ---------------------------------------------------------------------------

  /**
   * The database, or null when the cache cannot run at all (then nothing is cached and every
   * read answers "nothing cached"): e.g. a driver built for another Node ABI, as in an
   * unpackaged Electron run (electron-builder rebuilds it for Electron when packaging).
   */
  private openDb(): Db | null {
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      return this.tryOpen();
    } catch (error) {
      if (!isCorruption(error)) {
        console.error(`The message cache ${this.file} cannot be opened; running without it:`, error);
        return null;
      }
      console.error(`The message cache ${this.file} is unreadable; starting a fresh one:`, error);
      this.setAside();
      try {
        return this.tryOpen();
      } catch (again) {
        console.error(`The message cache ${this.file} cannot be started afresh:`, again);
        return null;
      }
    }
  }

  private tryOpen(): Db {
    const db = new Database(this.file);
    try {
      db.pragma('journal_mode = WAL');
      // A cache: a commit lost in a power cut is fetched again.
      db.pragma('synchronous = NORMAL');
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version !== SCHEMA_VERSION) {
        // Another layout (older or newer app): a cache is simply started over.
        db.exec('DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS messages; DROP TABLE IF EXISTS narrows;');
        db.exec('DROP TABLE IF EXISTS members;');
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }
      db.exec(SCHEMA);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Moves a damaged file (and its WAL) out of the way, for a human to look at. */
  private setAside(): void {
    const stamp = this.now();
    for (const suffix of ['', '-wal', '-shm']) {
      const file = `${this.file}${suffix}`;
      if (!existsSync(file)) continue;
      try {
        renameSync(file, `${this.file}.damaged-${stamp}${suffix}`);
      } catch {
        rmSync(file, { force: true });
      }
    }
  }

  /**
   * Runs a cache operation; a failure is logged and answered with `fallback`. A damaged
   * database is set aside and started afresh (what it held is fetched again).
   */
  private guard<T>(fallback: T, task: (db: Db) => T): T {
    if (!this.db) return fallback;
    try {
      return task(this.db);
    } catch (error) {
      console.error(`Message cache ${this.file}:`, error);
      if (isCorruption(error)) {
        this.close();
        this.setAside();
        try {
          this.db = this.tryOpen();
        } catch (again) {
          console.error(`Message cache ${this.file} could not start afresh:`, again);
        }
      }
      return fallback;
    }
  }

  private window(db: Db, key: string): Window | null {
    const row = db.prepare('SELECT key, narrow, lo, hi FROM narrows WHERE key = ?').get(key) as
      | { key: string; narrow: string; lo: number; hi: number }
      | undefined;
    return row ? { key: row.key, narrow: JSON.parse(row.narrow) as Narrow, lo: row.lo, hi: row.hi } : null;
  }

  private windows(db: Db): Window[] {
    const rows = db.prepare('SELECT key, narrow, lo, hi FROM narrows').all() as {
      key: string;
      narrow: string;
      lo: number;
      hi: number;
    }[];
    return rows.map((r) => ({ key: r.key, narrow: JSON.parse(r.narrow) as Narrow, lo: r.lo, hi: r.hi }));
  }

  private membersOf(db: Db, key: string): Message[] {
    const rows = db
      .prepare(
        `SELECT m.json FROM members x JOIN messages m ON m.id = x.message_id
         WHERE x.narrow_key = ? ORDER BY m.id`,
      )
      .all(key) as { json: string }[];
    return rows.map((r) => JSON.parse(r.json) as Message);
  }

  private putMessage(db: Db, message: Message): void {
    db.prepare('INSERT OR REPLACE INTO messages (id, json) VALUES (?, ?)').run(
      message.id,
      JSON.stringify(message),
    );
  }

  private merge(db: Db, narrow: Narrow, page: FetchedPage): void {
    this.orphans = false;
    const key = narrowKey(narrow);
    const ids = page.messages.map((m) => m.id).sort((a, b) => a - b);
    const first = ids[0];
    const last = ids[ids.length - 1];
    // The interval the page covers in full: every message of the narrow in it is in the page.
    const lo = page.foundOldest ? 0 : page.numBefore === 0 ? page.anchor : first;
    const hi = page.foundNewest ? NEWEST : page.numAfter === 0 ? page.anchor : last;
    if (lo === undefined || hi === undefined || lo > hi) return;
    const old = this.window(db, key);
    let window: { lo: number; hi: number };
    if (old && old.lo <= hi && lo <= old.hi) {
      // Overlapping: one window. Members of the old one inside the page's interval that the
      // page lacks have left the narrow (deleted, moved) while we were not looking.
      this.deleted(
        db
          .prepare('DELETE FROM members WHERE narrow_key = ? AND message_id BETWEEN ? AND ?')
          .run(key, lo, hi),
      );
      window = { lo: Math.min(lo, old.lo), hi: Math.max(hi, old.hi) };
    } else if (old && hi < old.lo) {
      // Older than the window and apart from it: the newest are what an offline start needs.
      return;
    } else {
      this.deleted(db.prepare('DELETE FROM members WHERE narrow_key = ?').run(key));
      window = { lo, hi };
    }
    db.prepare('INSERT OR REPLACE INTO narrows (key, narrow, lo, hi, used) VALUES (?, ?, ?, ?, ?)').run(
      key,
      JSON.stringify(narrow),
      window.lo,
      window.hi,
      this.now(),
    );
    const member = db.prepare('INSERT OR IGNORE INTO members (narrow_key, message_id) VALUES (?, ?)');
    for (const message of page.messages) {
      this.putMessage(db, message);
      member.run(key, message.id);
    }
    this.trim(db, key);
    this.evictNarrows(db);
    this.dropOrphans(db);
  }

  /** Keeps the window's newest MAX_PER_NARROW messages; its lower bound moves up with them. */
  private trim(db: Db, key: string): void {
    const count = (
      db.prepare('SELECT COUNT(*) AS n FROM members WHERE narrow_key = ?').get(key) as { n: number }
    ).n;
    if (count <= MAX_PER_NARROW) return;
    const cut = db
      .prepare(
        'SELECT message_id FROM members WHERE narrow_key = ? ORDER BY message_id DESC LIMIT 1 OFFSET ?',
      )
      .get(key, MAX_PER_NARROW - 1) as { message_id: number };
    this.deleted(
      db.prepare('DELETE FROM members WHERE narrow_key = ? AND message_id < ?').run(key, cut.message_id),
    );
    db.prepare('UPDATE narrows SET lo = ? WHERE key = ?').run(cut.message_id, key);
  }

  private evictNarrows(db: Db): void {
    const stale = db
      .prepare('SELECT key FROM narrows ORDER BY used DESC LIMIT -1 OFFSET ?')
      .all(MAX_NARROWS) as { key: string }[];
    for (const { key } of stale) {
      this.deleted(db.prepare('DELETE FROM members WHERE narrow_key = ?').run(key));
      db.prepare('DELETE FROM narrows WHERE key = ?').run(key);
    }
  }

  private deleted(result: Database.RunResult): void {
    if (result.changes > 0) this.orphans = true;
  }

  /** Drops the messages no window holds any more (a scan: only after members were deleted). */
  private dropOrphans(db: Db): void {
    if (!this.orphans) return;
    this.orphans = false;
    db.exec(
      'DELETE FROM messages WHERE NOT EXISTS (SELECT 1 FROM members x WHERE x.message_id = messages.id)',
    );
  }

  /** Moves a window's lower bound above `id` (it would have to hold a message it lacks). */
  private shrinkAbove(db: Db, window: Window, id: number): void {
    window.lo = id + 1;
    db.prepare('UPDATE narrows SET lo = ? WHERE key = ?').run(window.lo, window.key);
    this.deleted(
      db.prepare('DELETE FROM members WHERE narrow_key = ? AND message_id <= ?').run(window.key, id),
    );
  }

  private absorb(db: Db, events: readonly ServerEvent[], own: number): void {
    this.orphans = false;
    // The stored messages the batch touches, changed by the shared reducer as one list.
    const touched = new Set<number>();
    let all = false;
    for (const e of events) {
      if (e.type === 'update_message')
        for (const id of e.message_ids ?? (e.message_id === undefined ? [] : [e.message_id])) touched.add(id);
      else if (e.type === 'delete_message')
        for (const id of e.message_ids ?? (e.message_id === undefined ? [] : [e.message_id])) touched.add(id);
      else if (e.type === 'reaction') touched.add(e.message_id);
      else if (e.type === 'update_message_flags') {
        if (e.all) all = true;
        for (const id of e.messages) touched.add(id);
      }
    }
    const select = db.prepare('SELECT json FROM messages WHERE id = ?');
    const loaded: Message[] = all
      ? (db.prepare('SELECT json FROM messages ORDER BY id').all() as { json: string }[]).map(
          (r) => JSON.parse(r.json) as Message,
        )
      : [...touched]
          .sort((a, b) => a - b)
          .map((id) => select.get(id) as { json: string } | undefined)
          .filter((r): r is { json: string } => r !== undefined)
          .map((r) => JSON.parse(r.json) as Message);
    const list: MessageListState = {
      narrow: { kind: 'all' },
      messages: loaded,
      foundOldest: false,
      foundNewest: true,
    };
    const next = applyMessageEvents(list, events, own);
    const stored = new Set(loaded.map((m) => m.id));
    const windows = this.windows(db);

    // Deleted: gone from every window.
    const kept = new Set(next.messages.map((m) => m.id));
    for (const id of stored) {
      if (kept.has(id)) continue;
      db.prepare('DELETE FROM members WHERE message_id = ?').run(id);
      db.prepare('DELETE FROM messages WHERE id = ?').run(id);
    }

    // Changed or new: stored again, and each window that covers it told whether it belongs.
    const before = new Map(loaded.map((m) => [m.id, m]));
    const add = db.prepare('INSERT OR IGNORE INTO members (narrow_key, message_id) VALUES (?, ?)');
    const remove = db.prepare('DELETE FROM members WHERE narrow_key = ? AND message_id = ?');
    const added = new Set<string>();
    for (const message of next.messages) {
      if (before.get(message.id) === message) continue;
      let left = false;
      this.putMessage(db, message);
      for (const w of windows) {
        if (w.narrow.kind === 'search' || message.id < w.lo || message.id > w.hi) continue;
        if (messageInNarrow(w.narrow, message, message.flags, own)) {
          add.run(w.key, message.id);
          added.add(w.key);
        } else if (remove.run(w.key, message.id).changes > 0) left = true;
      }
      // A message no window holds (a new one none took, one that left its windows) is not kept.
      if (!stored.has(message.id) || left) {
        const held = db.prepare('SELECT 1 FROM members WHERE message_id = ? LIMIT 1').get(message.id);
        if (!held) db.prepare('DELETE FROM messages WHERE id = ?').run(message.id);
      }
    }

    // Messages that join a window without being stored: the window shrinks to above them.
    for (const e of events) {
      const unknown = (id: number) => !kept.has(id) && !stored.has(id);
      if (e.type === 'update_message_flags' && e.op === 'add' && !e.all) {
        for (const id of e.messages.filter(unknown)) {
          for (const w of windows) {
            if (id < w.lo || id > w.hi) continue;
            const joins =
              w.narrow.kind === 'starred' || w.narrow.kind === 'mentions'
                ? messageInNarrow(w.narrow, { type: 'stream', subject: '', sender_id: 0 }, [e.flag], own)
                : false;
            if (joins) this.shrinkAbove(db, w, id);
          }
        }
      } else if (e.type === 'update_message' && (e.new_stream_id !== undefined || e.subject !== undefined)) {
        const streamId = e.new_stream_id ?? e.stream_id;
        const subject = e.subject ?? e.orig_subject;
        if (streamId === undefined || subject === undefined) continue;
        const moved: NarrowableMessage = { type: 'stream', stream_id: streamId, subject, sender_id: 0 };
        const ids = e.message_ids ?? (e.message_id === undefined ? [] : [e.message_id]);
        for (const id of ids.filter(unknown)) {
          for (const w of windows) {
            if (id < w.lo || id > w.hi) continue;
            if (
              (w.narrow.kind === 'stream' || w.narrow.kind === 'topic') &&
              messageInNarrow(w.narrow, moved, [], own)
            )
              this.shrinkAbove(db, w, id);
          }
        }
      }
    }
    for (const key of added) this.trim(db, key);
    this.dropOrphans(db);
  }
}
