/**
 * The parts of the register snapshot that every user of an organization shares, or that a few
 * kinds of users share (realm_users, realm_user_groups, user_status, stream objects): in a
 * large organization they are most of the answer and most of its cost, and they change far
 * less often than people register. They are kept between registers, each with what tells
 * whether it is still current (db/realm-data.ts watches the writes they are built from, by
 * this connection or another):
 * - sharedPart: a part built whole again after any write of the rows it is built from;
 * - RowChanges: a part that reads again only the rows a write named (./roster.ts, ./streams.ts).
 * Nothing is kept across a restart. A kept part is handed to every request as is: it must be
 * immutable (JSON, or data no one changes).
 */
import type { Db } from '../../db';
import { dataVersion, type WatchedWrites, watchRows, writeStamp } from '../../db/realm-data';

interface Kept {
  stamp: string;
  value: unknown;
}

const kept = new WeakMap<Db, Map<string, Kept>>();

/**
 * The part named `key`, built by `build` from the rows of `writes`. `version` names whatever
 * else the part depends on (the day, for figures counted over whole days): another version
 * builds it again too.
 */
export function sharedPart<T>(
  db: Db,
  key: string,
  writes: readonly WatchedWrites[],
  build: () => T,
  version = '',
): T {
  // The stamp is read before building: a write that lands while the part is built (none can,
  // the build is synchronous) would make it stale at once rather than kept as current.
  const stamp = `${writeStamp(db, writes)}|${version}`;
  let parts = kept.get(db);
  if (!parts) {
    parts = new Map();
    kept.set(db, parts);
  }
  const found = parts.get(key);
  if (found?.stamp === stamp) return found.value as T;
  const value = build();
  parts.set(key, { stamp, value });
  return value;
}

/**
 * The ids of the rows of some kinds written since the last `take`, for a part kept up to date
 * row by row: `take` answers null when the part must be built whole (at first, after another
 * connection's commit, after more than `limit` rows, when reading them all is cheaper).
 */
export class RowChanges {
  private changed = new Set<number>();
  private whole = true;
  private version: number;

  constructor(
    private readonly db: Db,
    kinds: readonly WatchedWrites[],
    limit: number,
  ) {
    this.version = dataVersion(db);
    for (const kind of kinds) {
      watchRows(db, kind, (rowId) => {
        if (this.whole) return;
        this.changed.add(rowId);
        if (this.changed.size > limit) this.wholeAgain();
      });
    }
  }

  /** The next take answers null. */
  wholeAgain(): void {
    this.whole = true;
    this.changed = new Set();
  }

  /** The rows written since the last take (which the caller reads now), or null: all of them. */
  take(): ReadonlySet<number> | null {
    const version = dataVersion(this.db);
    if (version !== this.version) {
      this.version = version;
      this.whole = true;
    }
    const changed = this.whole ? null : this.changed;
    this.whole = false;
    this.changed = new Set();
    return changed;
  }
}

const objects = new WeakMap<Db, Map<string, unknown>>();

/**
 * One object per database and key, made at first use and kept for the connection's life: the
 * parts kept row by row (RowChanges) of an organization, which keep themselves current.
 */
export function keptObject<T extends object>(db: Db, key: string, make: () => T): T {
  let byKey = objects.get(db);
  if (!byKey) {
    byKey = new Map();
    objects.set(db, byKey);
  }
  let found = byKey.get(key) as T | undefined;
  if (found === undefined) {
    found = make();
    byKey.set(key, found);
  }
  return found;
}

/**
 * A value already written as JSON, kept as UTF-8 bytes: the register answer splices them in as
 * they are, with neither writing nor encoding them again.
 */
export class RawJson {
  readonly bytes: Buffer;

  constructor(json: string) {
    this.bytes = Buffer.from(json, 'utf8');
  }

  /** Anything else that writes it as JSON (the router's JSON.stringify) still writes the value. */
  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}

/**
 * The JSON of an answer whose top-level values may be RawJson, as UTF-8 bytes in parts: what
 * JSON.stringify would write for the same values (keys in order, undefined values and
 * functions left out), with the kept parts as they are, neither written nor copied again.
 */
export function answerParts(fields: Record<string, unknown>): Buffer[] {
  const parts: Buffer[] = [];
  let text = '';
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    const written = value instanceof RawJson ? '' : JSON.stringify(value);
    if (written === undefined) continue;
    text += `${text === '' && parts.length === 0 ? '{' : ','}${JSON.stringify(key)}:${written}`;
    if (value instanceof RawJson) {
      parts.push(Buffer.from(text, 'utf8'), value.bytes);
      text = '';
    }
  }
  if (text === '' && parts.length === 0) text = '{';
  parts.push(Buffer.from(`${text}}`, 'utf8'));
  return parts;
}
