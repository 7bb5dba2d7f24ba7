/**
 * How the server's drafts (events, the register snapshot, GET /drafts) merge into the local
 * ones. Pure: every function works on a Changes set that the service then writes to the log.
 *
 * The draft's timestamp is its version: we send our edit's timestamp with every write, and the
 * server keeps it, so a server draft with the timestamp we last synced is the version we know.
 * A newer server version over an unchanged local draft simply wins; over a draft changed
 * locally too (both sides edited while apart) both texts are kept: the newer stays the draft,
 * the older becomes a new draft.
 */
import type { Draft } from '../../../shared/protocol';
import type { DraftRecord } from './log';

/** Timestamps are compared with a margin: the server rounds them to microseconds. */
export const sameTime = (a: number | null, b: number | null): boolean =>
  a !== null && b !== null && Math.abs(a - b) < 1e-5;

/** The server's normal form of a text (it trims the end and leading blank lines). */
export const normalizeContent = (content: string): string => content.trimEnd().replace(/^\n+/, '');

export const isBlank = (content: string): boolean => content.trim() === '';

/** The local draft has a version the server has not confirmed. */
export const changedLocally = (d: DraftRecord): boolean =>
  d.syncedTimestamp === null || !sameTime(d.timestamp, d.syncedTimestamp);

/** A working copy of the drafts plus what changed, to be written to the log in one go. */
export class Changes {
  readonly puts = new Map<string, DraftRecord>();
  readonly forgets = new Set<string>();

  constructor(
    private readonly base: ReadonlyMap<string, DraftRecord>,
    readonly newId: () => string,
  ) {}

  get(localId: string): DraftRecord | undefined {
    if (this.forgets.has(localId)) return undefined;
    return this.puts.get(localId) ?? this.base.get(localId);
  }

  all(): DraftRecord[] {
    const ids = new Set([...this.base.keys(), ...this.puts.keys()]);
    return [...ids].flatMap((id) => {
      const d = this.get(id);
      return d ? [d] : [];
    });
  }

  byServerId(serverId: number): DraftRecord | undefined {
    return this.all().find((d) => d.serverId === serverId);
  }

  put(draft: DraftRecord): void {
    this.forgets.delete(draft.localId);
    this.puts.set(draft.localId, draft);
  }

  forget(localId: string): void {
    this.puts.delete(localId);
    if (this.base.has(localId)) this.forgets.add(localId);
  }

  get empty(): boolean {
    return this.puts.size === 0 && this.forgets.size === 0;
  }
}

function fromServer(localId: string, s: Draft): DraftRecord {
  return {
    localId,
    serverId: s.id,
    type: s.type,
    to: [...s.to],
    topic: s.topic,
    content: s.content,
    timestamp: s.timestamp,
    syncedTimestamp: s.timestamp,
    sent: null,
    deleted: false,
    syncError: null,
  };
}

/** A local copy of some text that is on no server yet: the outbox will create it. */
function localCopy(ch: Changes, text: Pick<DraftRecord, 'type' | 'to' | 'topic' | 'content' | 'timestamp'>) {
  ch.put({
    localId: ch.newId(),
    serverId: null,
    type: text.type,
    to: [...text.to],
    topic: text.topic,
    content: text.content,
    timestamp: text.timestamp,
    syncedTimestamp: null,
    sent: null,
    deleted: false,
    syncError: null,
  });
}

/** One draft as the server has it now (an add or update event, or an entry of a full list). */
export function mergeServerDraft(ch: Changes, s: Draft): void {
  const local = ch.byServerId(s.id);
  if (!local) {
    // Our own create, whose answer we have not seen (yet, or ever): adopt the server's id.
    const ours = ch
      .all()
      .find(
        (d) =>
          d.serverId === null &&
          d.sent !== null &&
          sameTime(d.sent.timestamp, s.timestamp) &&
          normalizeContent(d.sent.content) === normalizeContent(s.content),
      );
    if (ours) {
      ch.put({ ...ours, serverId: s.id, syncedTimestamp: s.timestamp, sent: null });
      return;
    }
    ch.put(fromServer(ch.newId(), s));
    return;
  }
  // The echo of our own write, or the version we already know.
  if (local.sent !== null && sameTime(local.sent.timestamp, s.timestamp)) {
    ch.put({ ...local, syncedTimestamp: s.timestamp, sent: null });
    return;
  }
  if (sameTime(local.timestamp, s.timestamp)) {
    if (!sameTime(local.syncedTimestamp, s.timestamp)) ch.put({ ...local, syncedTimestamp: s.timestamp });
    return;
  }
  if (local.syncedTimestamp !== null && s.timestamp <= local.syncedTimestamp) return; // stale
  // The server has a newer version than the one we last synced: another client edited it.
  if (local.deleted) {
    // Deleted here, edited there after our last sync: keep their text rather than lose it.
    ch.put(fromServer(local.localId, s));
    return;
  }
  if (!changedLocally(local) || isBlank(local.content)) {
    ch.put(fromServer(local.localId, s));
    return;
  }
  // Both sides changed it: the newer stays the draft, the older becomes a new draft.
  if (s.timestamp >= local.timestamp) {
    ch.put(fromServer(local.localId, s));
    localCopy(ch, local);
  } else {
    // Ours is newer and will overwrite the server's on the next PATCH.
    ch.put({ ...local, syncedTimestamp: s.timestamp, sent: null });
    if (!isBlank(s.content)) localCopy(ch, s);
  }
}

/** The server no longer has this draft (deleted by another client, or collected). */
export function removeServerDraft(ch: Changes, serverId: number): void {
  const local = ch.byServerId(serverId);
  if (!local) return;
  if (local.deleted || (!changedLocally(local) && local.sent === null) || isBlank(local.content)) {
    ch.forget(local.localId);
    return;
  }
  // Edited here since: the text is not lost, it becomes a draft to create again.
  ch.put({ ...local, serverId: null, syncedTimestamp: null, sent: null });
}

/**
 * The server's complete list (GET /drafts, answered after all our writes so far): merge every
 * draft, and treat a synced draft missing from it as removed there.
 */
export function applyServerList(ch: Changes, list: readonly Draft[]): void {
  for (const s of list) mergeServerDraft(ch, s);
  const onServer = new Set(list.map((s) => s.id));
  for (const d of ch.all()) {
    if (d.serverId !== null && !onServer.has(d.serverId)) removeServerDraft(ch, d.serverId);
    // Deleted here before its create arrived: nothing left to do.
    else if (d.serverId === null && d.deleted) ch.forget(d.localId);
    // A create that never arrived: send it again.
    else if (d.serverId === null && d.sent !== null) ch.put({ ...d, sent: null });
  }
}

/** Synchronization turned off: the server deletes its copies, every draft becomes local only. */
export function detachAll(ch: Changes): void {
  for (const d of ch.all()) {
    if (d.deleted) ch.forget(d.localId);
    else if (d.serverId !== null || d.syncedTimestamp !== null || d.sent !== null || d.syncError !== null)
      ch.put({ ...d, serverId: null, syncedTimestamp: null, sent: null, syncError: null });
  }
}
