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
import { MIGRATIONS, type Migration } from './migrations';

export type Db = Database.Database;

export const DB_FILE_NAME = 'confab.sqlite3';

export function openDatabase(dataDir: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DB_FILE_NAME));
  try {
    // WAL lets readers run beside the writer; synchronous=FULL fsyncs every commit, so an
    // acknowledged write survives kill -9 and power loss alike.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
  } catch (error) {
    db.close();
    throw error;
  }
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
