/**
 * Deleting drafts with Undo. A deletion hides the drafts at once and is carried out when its
 * Undo banner goes (UNDO_MS later), so Undo puts back the very same draft (its time, its copy on
 * the server) instead of a new one. Kept outside React: leaving the screen does not cancel a
 * deletion, and coming back within the delay still offers Undo. One deletion waits at a time;
 * a new one carries out the previous first. Closing the window carries out what waits.
 */
import { useSyncExternalStore } from 'react';

export const UNDO_MS = 8000;

export interface PendingDelete {
  id: number;
  accountId: string;
  localIds: readonly string[];
}

export interface DeleteFailure {
  accountId: string;
  message: string;
}

type Commit = (localIds: readonly string[]) => Promise<void>;

interface Entry extends PendingDelete {
  timer: ReturnType<typeof setTimeout> | null;
  commit: Commit;
  /** Carried out, waiting for the answer: still hidden, no longer undoable. */
  committing: boolean;
}

export interface Snapshot {
  /** Undoable deletions, oldest first. */
  pending: readonly PendingDelete[];
  /** Drafts hidden per account (undoable or being deleted). */
  hidden: ReadonlyMap<string, ReadonlySet<string>>;
  failure: DeleteFailure | null;
}

export class PendingDeletes {
  private entries: Entry[] = [];
  private nextId = 1;
  private failure: DeleteFailure | null = null;
  private snapshot: Snapshot = { pending: [], hidden: new Map(), failure: null };
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly delayMs = UNDO_MS,
    private readonly timers: {
      set: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;
      clear: (t: ReturnType<typeof setTimeout>) => void;
    } = { set: (fn, ms) => setTimeout(fn, ms), clear: (t) => clearTimeout(t) },
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): Snapshot => this.snapshot;

  /** Hides the drafts and deletes them after the delay unless undone; returns the deletion's id. */
  schedule(accountId: string, localIds: readonly string[], commit: Commit): number {
    for (const entry of this.entries) if (!entry.committing) this.carryOut(entry);
    const entry: Entry = {
      id: this.nextId++,
      accountId,
      localIds: [...localIds],
      commit,
      timer: null,
      committing: false,
    };
    entry.timer = this.timers.set(() => this.carryOut(entry), this.delayMs);
    this.entries.push(entry);
    this.failure = null;
    this.changed();
    return entry.id;
  }

  /** Undo: the drafts come back as they were. False when it is too late. */
  undo(id: number): boolean {
    const entry = this.entries.find((e) => e.id === id);
    if (!entry || entry.committing) return false;
    if (entry.timer !== null) this.timers.clear(entry.timer);
    this.entries = this.entries.filter((e) => e !== entry);
    this.changed();
    return true;
  }

  /** Carries out every waiting deletion now (the window is closing). */
  flush(): void {
    for (const entry of this.entries) if (!entry.committing) this.carryOut(entry);
  }

  dismissFailure(): void {
    this.failure = null;
    this.changed();
  }

  private carryOut(entry: Entry): void {
    if (entry.timer !== null) this.timers.clear(entry.timer);
    entry.timer = null;
    entry.committing = true;
    this.changed();
    entry.commit(entry.localIds).then(
      () => this.finish(entry, null),
      (e: unknown) =>
        this.finish(entry, {
          accountId: entry.accountId,
          message: `Could not delete: ${e instanceof Error ? e.message : String(e)}`,
        }),
    );
  }

  private finish(entry: Entry, failure: DeleteFailure | null): void {
    this.entries = this.entries.filter((e) => e !== entry);
    if (failure) this.failure = failure;
    this.changed();
  }

  private changed(): void {
    const hidden = new Map<string, Set<string>>();
    for (const e of this.entries) {
      const set = hidden.get(e.accountId) ?? new Set<string>();
      for (const id of e.localIds) set.add(id);
      hidden.set(e.accountId, set);
    }
    this.snapshot = {
      pending: this.entries
        .filter((e) => !e.committing)
        .map(({ id, accountId, localIds }) => ({ id, accountId, localIds })),
      hidden,
      failure: this.failure,
    };
    for (const listener of this.listeners) listener();
  }
}

/** The app's one instance. */
export const pendingDeletes = new PendingDeletes();

if (typeof window !== 'undefined') window.addEventListener('pagehide', () => pendingDeletes.flush());

const EMPTY: ReadonlySet<string> = new Set();

export function usePendingDeletes(accountId: string): {
  /** The newest undoable deletion of this account, for the banner. */
  latest: PendingDelete | null;
  hidden: ReadonlySet<string>;
  failure: string | null;
} {
  const snapshot = useSyncExternalStore(pendingDeletes.subscribe, pendingDeletes.getSnapshot);
  const mine = snapshot.pending.filter((p) => p.accountId === accountId);
  return {
    latest: mine[mine.length - 1] ?? null,
    hidden: snapshot.hidden.get(accountId) ?? EMPTY,
    failure: snapshot.failure?.accountId === accountId ? snapshot.failure.message : null,
  };
}
