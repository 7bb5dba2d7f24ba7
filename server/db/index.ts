/**
 * Opens the service's SQLite database and brings its schema up to date.
 *
 * db/ holds every SQL statement of the service, as named functions by area (users, streams,
 * messages, flags, narrow, realm, realm-data, user-data, email-changes, emoji): the rest of
 * the server calls them and never writes SQL itself. db/ imports nothing of the server but
 * markdown rendering and the wire contract's constants.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startCheckpointer } from './checkpointer';
import { MIGRATIONS, type Migration } from './migrations';

export type Db = Database.Database;

export const DB_FILE_NAME = 'confab.sqlite3';

export function openDatabase(dataDir: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DB_FILE_NAME));
  cacheStatements(db);
  try {
    // WAL lets readers run beside the writer. synchronous=NORMAL does not fsync each commit:
    // a commit is whole once its WAL frames are written to the file, that is, into the OS page
    // cache, which outlives the process, so every acknowledged write survives kill -9. The WAL
    // is fsynced at each checkpoint; an OS crash or power cut can lose the commits since the
    // last one that the kernel had not yet written back (it does within seconds), never the
    // database's consistency. FULL fsynced every commit, 2 ms or more each on a shared disk.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  // The WAL is checkpointed on a thread of its own, which stops before the connection closes
  // (the last connection to close folds the WAL into the file, as before).
  const stopCheckpointer = startCheckpointer(db);
  const close = db.close.bind(db);
  db.close = () => {
    stopCheckpointer();
    return close();
  };
  return db;
}

export function schemaVersion(db: Db): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

function migrate(db: Db, migrations: readonly Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at_ms INTEGER NOT NULL
  )`);
  const current = schemaVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(`The database has schema version ${current}, newer than this server knows (${latest})`);
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)');
  // Every migration not yet recorded runs, in order: one merged after a later one still runs.
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    })();
  }
}

/** How many compiled statements a database keeps: the service's SQL texts number a few hundred. */
export const STATEMENT_CACHE_SIZE = 1000;

type Statement = Database.Statement<unknown[], unknown>;
/** better-sqlite3's row shapes: objects (its default), the first column, arrays, tables' objects. */
type Mode = 'flat' | 'pluck' | 'raw' | 'expand';
const MODES = ['pluck', 'raw', 'expand'] as const;

/**
 * Makes `db.prepare` hand back compiled statements from a cache keyed by SQL text: compiling
 * costs about 40 µs where running a simple query costs 5, and db/ prepares at each call.
 *
 * A cached statement is shared by every caller that prepares the same text, so none may change
 * it for the others. Its row shape never changes: `pluck()`, `raw()` and `expand()` return
 * another cached statement of the same text compiled with that shape (better-sqlite3's rules
 * for switching shapes, errors included) and leave this one as it is, so a caller uses what
 * they return, as db/ always does (`db.prepare(sql).pluck().all()`); `bind()` and
 * `safeIntegers()` return a new statement that is not cached. A statement being iterated
 * cannot run again until the iteration ends, so preparing its text meanwhile (a query run from
 * inside a loop over its own rows) compiles a new one. Texts built at run time (lists of `?`,
 * a column name) are as many as their shapes; the cache keeps the most recently used
 * STATEMENT_CACHE_SIZE.
 */
function cacheStatements(db: Db, capacity = STATEMENT_CACHE_SIZE): void {
  const compile = db.prepare.bind(db) as (sql: string) => Statement;
  const cache = new Map<string, Statement>();

  const compiled = (sql: string, mode: Mode): Statement => {
    const statement = compile(sql);
    return mode === 'flat' ? statement : statement[mode](true);
  };

  const take = (sql: string, mode: Mode): Statement => {
    // The flat shape, by far the most used, is keyed by the text alone; NUL never starts SQL.
    const key = mode === 'flat' ? sql : `\0${mode}\0${sql}`;
    const cached = cache.get(key);
    if (cached !== undefined) {
      if (cached.busy) return compiled(sql, mode);
      // Map keeps insertion order: moving the entry last makes the first the least recently used.
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    const statement = share(compile(sql), sql, mode);
    cache.set(key, statement);
    if (cache.size > capacity) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return statement;
  };

  /** Compiles a statement of the shape to be cached, with the methods that leave it as it is. */
  const share = (statement: Statement, sql: string, mode: Mode): Statement => {
    if (mode === 'flat') {
      if (statement.reader) objectRowsInJs(statement);
    } else {
      statement[mode](true);
    }
    for (const shape of MODES) {
      const own = Object.getPrototypeOf(statement)[shape] as (
        this: Statement,
        ...args: unknown[]
      ) => Statement;
      Object.defineProperty(statement, shape, {
        value(...args: unknown[]) {
          // Whatever better-sqlite3 refuses (a statement that returns no rows, one being
          // iterated, a toggle that is not a boolean), it refuses before changing anything.
          if (!statement.reader || statement.busy || (args.length > 0 && typeof args[0] !== 'boolean')) {
            return own.apply(statement, args);
          }
          const use = args.length === 0 || args[0] === true;
          return take(sql, use ? shape : mode === shape ? 'flat' : mode);
        },
      });
    }
    Object.defineProperty(statement, 'bind', {
      value: (...params: unknown[]) => compiled(sql, mode).bind(...params),
    });
    Object.defineProperty(statement, 'safeIntegers', {
      value: (...args: [boolean?]) => compiled(sql, mode).safeIntegers(...args),
    });
    return statement;
  };

  db.prepare = ((sql: string) => take(sql, 'flat')) as Db['prepare'];
  const close = db.close.bind(db);
  db.close = () => {
    cache.clear();
    return close();
  };
}

type RowBuilder = (row: unknown[]) => Record<string, unknown>;

/**
 * Gives a statement that returns rows as objects the same objects, built in JavaScript from its
 * rows as arrays. better-sqlite3 (on Node 20) makes each row's object by adding one property
 * at a time, each name looked up in V8's string table again: for a user's row that is most of
 * the cost of reading it, and a row twice as dear as its array. A function that returns one
 * object literal of the statement's columns makes every object of one shape at once.
 *
 * The objects are the same: plain objects, the columns' names in their order, a name that
 * recurs holding its last column's value at its first place, as better-sqlite3's. The builder
 * follows the statement's columns, which a change of the schema can change under it.
 */
function objectRowsInJs(statement: Statement): void {
  const proto = Object.getPrototypeOf(statement) as Statement;
  let names: string[] = [];
  let build: RowBuilder = () => ({});
  const refresh = () => {
    names = statement.columns().map((column) => column.name);
    build = rowBuilder(names);
  };
  refresh();
  const object = (row: unknown): Record<string, unknown> => {
    const values = row as unknown[];
    if (values.length !== names.length) refresh();
    return build(values);
  };
  proto.raw.call(statement, true);
  Object.defineProperties(statement, {
    get: {
      value(...params: unknown[]) {
        const row = proto.get.apply(statement, params);
        return row === undefined ? undefined : object(row);
      },
    },
    all: {
      value(...params: unknown[]) {
        const rows = proto.all.apply(statement, params);
        for (let i = 0; i < rows.length; i++) rows[i] = object(rows[i]);
        return rows;
      },
    },
    iterate: {
      value(...params: unknown[]) {
        // Started at once, as better-sqlite3's: the statement is busy from this call on.
        const rows = proto.iterate.apply(statement, params);
        return {
          next() {
            const next = rows.next();
            return next.done ? next : { done: false, value: object(next.value) };
          },
          return(value?: unknown) {
            return rows.return?.(value) ?? { done: true, value };
          },
          [Symbol.iterator]() {
            return this;
          },
        };
      },
    },
  });
}

function rowBuilder(names: readonly string[]): RowBuilder {
  // A literal may not name `__proto__` twice (and gives it no place among the properties):
  // such a statement's rows are built by assignments, as better-sqlite3 builds them.
  if (names.includes('__proto__')) {
    return (row) => {
      const object: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) object[names[i] as string] = row[i];
      return object;
    };
  }
  const fields = names.map((name, i) => `${JSON.stringify(name)}: row[${i}]`);
  return new Function('row', `return { ${fields.join(', ')} };`) as RowBuilder;
}
