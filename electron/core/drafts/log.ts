/**
 * The drafts of one account on disk: an append-only JSON-lines log, fsynced on every write that
 * must survive a crash (an edit is durable before the renderer hears "saved", and a crash, even
 * kill -9, loses nothing that was acknowledged). Writes the server can give back (a confirmation
 * of a write) may skip the fsync: a crash loses at most those, and the next durable write (or a
 * clean close) flushes them too, in order. A crash in the middle of a write can only leave a torn last line,
 * which replay skips. The log is compacted (rewritten atomically with one line per draft) each
 * time it is opened.
 *
 * Why not SQLite: better-sqlite3 is a native module built for Node's ABI; inside Electron it
 * needs a rebuild for Electron's ABI at packaging time (electron-rebuild), one more native
 * part per platform to get wrong. A few kilobytes of drafts need nothing but node:fs.
 */
import { createHash } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readTextIfExists, SerialQueue, writeFileAtomic } from '../files';

const sentSchema = z.object({ timestamp: z.number(), content: z.string() });

export const draftRecordSchema = z.object({
  localId: z.string(),
  serverId: z.number().int().nullable(),
  type: z.enum(['', 'stream', 'private']),
  to: z.array(z.number().int()),
  topic: z.string(),
  content: z.string(),
  /** Unix seconds of the last edit: the version of this draft. */
  timestamp: z.number(),
  /** The version the server is known to hold (null: none). */
  syncedTimestamp: z.number().nullable(),
  /**
   * The last version sent to the server and not yet confirmed. For a create it is how we find
   * our draft on the server when the answer was lost (same timestamp and text), so that a
   * retry never creates it twice (so a create's is fsynced before the POST); for an edit, how we
   * recognize the server's echo (kept in memory only: it reaches the disk, if at all, with the
   * draft's next write).
   */
  sent: sentSchema.nullable(),
  /** Deleted locally; the server's copy is still to be deleted. */
  deleted: z.boolean(),
  /** The server refused this version (e.g. an unknown stream): not retried until edited. */
  syncError: z.string().nullable(),
});
export type DraftRecord = z.infer<typeof draftRecordSchema>;

const entrySchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('put'), draft: draftRecordSchema }),
  z.object({ op: z.literal('forget'), localId: z.string() }),
  z.object({ op: z.literal('sync'), enabled: z.boolean().nullable() }),
]);
export type LogEntry = z.infer<typeof entrySchema>;

export interface LogContents {
  drafts: Map<string, DraftRecord>;
  /** The account's enable_drafts_synchronization as last seen (null: never seen). */
  syncEnabled: boolean | null;
}

/** `<profileDir>/drafts/<accountId>.jsonl`; kept after sign-out (nothing typed is deleted). */
export function draftsFileFor(profileDir: string, accountId: string): string {
  const safe = /^[A-Za-z0-9_-]{1,100}$/.test(accountId)
    ? accountId
    : createHash('sha256').update(accountId).digest('hex').slice(0, 32);
  return join(profileDir, 'drafts', `${safe}.jsonl`);
}

/** Replays log text; unreadable lines (a torn last write) are skipped. */
export function replay(text: string): LogContents {
  const contents: LogContents = { drafts: new Map(), syncEnabled: null };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: LogEntry;
    try {
      const parsed = entrySchema.safeParse(JSON.parse(line));
      if (!parsed.success) continue;
      entry = parsed.data;
    } catch {
      continue;
    }
    apply(contents, entry);
  }
  return contents;
}

export function apply(contents: LogContents, entry: LogEntry): void {
  if (entry.op === 'put') contents.drafts.set(entry.draft.localId, entry.draft);
  else if (entry.op === 'forget') contents.drafts.delete(entry.localId);
  else contents.syncEnabled = entry.enabled;
}

function compacted(contents: LogContents): string {
  const lines: LogEntry[] = [{ op: 'sync', enabled: contents.syncEnabled }];
  for (const draft of contents.drafts.values()) lines.push({ op: 'put', draft });
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}

/** What the log needs of its open file (node's FileHandle; tests wrap it to count or fail). */
export interface LogFile {
  appendFile(data: string, encoding: 'utf8'): Promise<void>;
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/** Opens the log file for appending. */
export type OpenLogFile = (file: string) => Promise<LogFile>;

export const openLogFile: OpenLogFile = (file) => open(file, 'a', 0o600);

export interface AppendOptions {
  /** Wait until the entries are on disk (fsync). Default true. */
  durable?: boolean;
}

export class DraftLog {
  private readonly queue = new SerialQueue();
  private closed = false;

  private constructor(
    readonly file: string,
    private handle: LogFile,
    private readonly openFile: OpenLogFile,
  ) {}

  /** Reads the log, rewrites it compacted, and opens it for appending. */
  static async open(
    file: string,
    openFile: OpenLogFile = openLogFile,
  ): Promise<{ log: DraftLog; contents: LogContents }> {
    const text = await readTextIfExists(file);
    const contents = text === null ? { drafts: new Map(), syncEnabled: null } : replay(text);
    await mkdir(join(file, '..'), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, compacted(contents), 0o600);
    const handle = await openFile(file);
    return { log: new DraftLog(file, handle, openFile), contents };
  }

  /** Appends the entries in one write and (unless not `durable`) waits until they are on disk. */
  append(entries: readonly LogEntry[], options: AppendOptions = {}): Promise<void> {
    return this.queue.run(async () => {
      if (this.closed) throw new Error('The drafts log is closed');
      if (entries.length === 0) return;
      await this.handle.appendFile(entries.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
      if (options.durable !== false) await this.handle.datasync();
    });
  }

  /** Rewrites the log as one line per draft (atomically), then goes on appending to it. */
  compact(contents: LogContents): Promise<void> {
    return this.queue.run(async () => {
      if (this.closed) return;
      await writeFileAtomic(this.file, compacted(contents), 0o600);
      // The rename replaced the file: the old handle appends to the unlinked one.
      const old = this.handle;
      this.handle = await this.openFile(this.file);
      await old.close();
    });
  }

  close(): Promise<void> {
    return this.queue.run(async () => {
      if (this.closed) return;
      this.closed = true;
      // Writes that skipped their fsync are flushed by a clean close too.
      try {
        await this.handle.datasync();
      } finally {
        await this.handle.close();
      }
    });
  }
}
