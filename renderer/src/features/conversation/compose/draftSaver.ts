/**
 * Saves what is typed as a draft of its conversation (the core's drafts store: on disk at once,
 * synced to the server when it can be), a moment after the last keystroke. One save at a time
 * per composer entry, so the first save's id is the one every later save updates; an emptied
 * box deletes its draft; a sent message's draft is deleted, also when a save was still on its
 * way as it was sent.
 */
import type { DraftInput, LocalDraft } from '../../../../../shared/ipc';
import type { ComposeEntry } from './store';
import { draftInputOf } from './target';

/** How long after the last keystroke the draft is saved. */
export const DRAFT_SAVE_DELAY_MS = 800;

export interface DraftSaverDeps {
  save(accountId: string, draft: DraftInput): Promise<LocalDraft>;
  remove(accountId: string, localId: string): Promise<void>;
  read(key: string): ComposeEntry | undefined;
  write(key: string, update: (entry: ComposeEntry) => ComposeEntry): void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface DraftSaver {
  /** The entry's text or recipient changed: save a moment later. */
  schedule(key: string): void;
  /** Save now what waits to be saved (leaving the conversation); resolves once saved. */
  flush(key: string): Promise<void>;
  /** The entry's text was sent: empty it and delete its draft. */
  sent(key: string): Promise<void>;
  /** Whether a draft was sent or emptied and is being deleted (never to be restored). */
  isForgotten(localId: string): boolean;
}

export function createDraftSaver({
  save,
  remove,
  read,
  write,
  setTimer = (fn, ms) => setTimeout(fn, ms),
  clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}: DraftSaverDeps): DraftSaver {
  const timers = new Map<string, unknown>();
  const chains = new Map<string, Promise<void>>();
  const forgotten = new Set<string>();

  const enqueue = (key: string, work: () => Promise<void>): Promise<void> => {
    const next = (chains.get(key) ?? Promise.resolve()).then(work).catch(() => {
      // A refused save leaves the text in the box; the next keystroke tries again.
    });
    chains.set(key, next);
    return next;
  };

  const forget = async (accountId: string, localId: string) => {
    forgotten.add(localId);
    await remove(accountId, localId);
  };

  const saveNow = async (key: string) => {
    const entry = read(key);
    if (!entry) return;
    const { generation, draftLocalId, accountId } = entry;
    if (entry.text.trim() === '') {
      if (draftLocalId === null) return;
      await forget(accountId, draftLocalId);
      write(key, (e) =>
        e.generation === generation && e.draftLocalId === draftLocalId ? { ...e, draftLocalId: null } : e,
      );
      return;
    }
    const saved = await save(accountId, draftInputOf(entry.fields, entry.text, draftLocalId));
    const now = read(key);
    if (!now || now.generation !== generation) {
      // Sent while this save was on its way: a draft it created belongs to the sent text.
      // (A draft it updated is deleted by `sent`, which knew its id.)
      if (draftLocalId === null) await forget(accountId, saved.localId);
      return;
    }
    if (now.draftLocalId !== saved.localId) write(key, (e) => ({ ...e, draftLocalId: saved.localId }));
  };

  const run = (key: string) => {
    timers.delete(key);
    return enqueue(key, () => saveNow(key));
  };

  return {
    schedule(key) {
      const timer = timers.get(key);
      if (timer !== undefined) clearTimer(timer);
      timers.set(
        key,
        setTimer(() => void run(key), DRAFT_SAVE_DELAY_MS),
      );
    },
    flush(key) {
      const timer = timers.get(key);
      if (timer === undefined) return chains.get(key) ?? Promise.resolve();
      clearTimer(timer);
      return run(key);
    },
    sent(key) {
      const timer = timers.get(key);
      if (timer !== undefined) clearTimer(timer);
      timers.delete(key);
      const entry = read(key);
      if (!entry) return Promise.resolve();
      const { draftLocalId, accountId } = entry;
      if (draftLocalId !== null) forgotten.add(draftLocalId);
      write(key, (e) => ({
        ...e,
        text: '',
        draftLocalId: null,
        generation: e.generation + 1,
        restorable: false,
      }));
      return draftLocalId === null
        ? (chains.get(key) ?? Promise.resolve())
        : enqueue(key, () => forget(accountId, draftLocalId));
    },
    isForgotten: (localId) => forgotten.has(localId),
  };
}
