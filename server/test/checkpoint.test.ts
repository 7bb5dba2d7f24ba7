/**
 * The WAL checkpointed on a thread of its own (server/db/checkpointer.ts): the database file
 * gets what was committed without the connection's help, the WAL stays bounded under a steady
 * stream of commits, nothing the service caches by data_version is disturbed, and closing
 * leaves no connection or file behind.
 */
import { copyFileSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, type Db, openDatabase } from '../db';
import {
  CHECKPOINT_INTERVAL_MS,
  FALLBACK_CHECKPOINT_PAGES,
  HAND_OVER_PAGES,
  START_DELAY_MS,
  startCheckpointer,
} from '../db/checkpointer';
import { authOf, call, startTestService } from './support/service';

const dirs: string[] = [];
const open: { close(): unknown }[] = [];

afterEach(async () => {
  for (const db of open.splice(0)) db.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'confab-checkpoint-'));
  dirs.push(dir);
  return dir;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What the database file holds by itself, without its WAL: what checkpoints have copied. */
function fileAlone(dataDir: string, query: string): unknown {
  const copyDir = mkdtempSync(join(tmpdir(), 'confab-checkpoint-copy-'));
  dirs.push(copyDir);
  copyFileSync(join(dataDir, DB_FILE_NAME), join(copyDir, DB_FILE_NAME));
  const copy = new Database(join(copyDir, DB_FILE_NAME), { readonly: true });
  try {
    return copy.prepare(query).pluck().get();
  } finally {
    copy.close();
  }
}

/**
 * Polls until the database file alone answers `expected` (or the time is up). A copy taken
 * while a checkpoint writes may miss the table yet, or be torn: such a look counts as not yet.
 */
async function untilInFile(dataDir: string, query: string, expected: unknown, ms = 10_000): Promise<unknown> {
  const deadline = Date.now() + ms;
  const look = () => {
    try {
      return fileAlone(dataDir, query);
    } catch (error) {
      return error instanceof Error ? error.message : error;
    }
  };
  let got = look();
  while (got !== expected && Date.now() < deadline) {
    await sleep(CHECKPOINT_INTERVAL_MS);
    got = look();
  }
  return got;
}

function openWithTable(dataDir: string): Db {
  const db = openDatabase(dataDir);
  open.push(db);
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  return db;
}

function insertRows(db: Db, count: number): void {
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(`row ${i} `.padEnd(400, '.'));
  })();
}

const autocheckpoint = (db: Db) => db.pragma('wal_autocheckpoint', { simple: true });

describe('checkpoints on a thread of their own', () => {
  it('copy what the connection commits into the database file, the connection checkpointing itself only past the fallback', async () => {
    const dataDir = await tempDir();
    const db = openWithTable(dataDir);
    // Until the worker starts, SQLite's own automatic checkpoint.
    expect(autocheckpoint(db)).toBe(1000);
    await sleep(START_DELAY_MS + 200);
    expect(autocheckpoint(db)).toBe(FALLBACK_CHECKPOINT_PAGES);
    insertRows(db, 50);
    insertRows(db, 50);
    // Far below the fallback: only the worker can have copied them.
    expect(await untilInFile(dataDir, 'SELECT COUNT(*) FROM t', 100)).toBe(100);
    insertRows(db, 1);
    expect(await untilInFile(dataDir, 'SELECT MAX(id) FROM t', 101)).toBe(101);
  });

  it("leave the connection's data_version as it is (the register caches key on it)", async () => {
    const dataDir = await tempDir();
    const db = openWithTable(dataDir);
    await sleep(START_DELAY_MS + 200);
    const dataVersion = db.prepare('PRAGMA data_version').pluck();
    insertRows(db, 20);
    const before = dataVersion.get();
    expect(await untilInFile(dataDir, 'SELECT COUNT(*) FROM t', 20)).toBe(20);
    expect(dataVersion.get()).toBe(before);
    // Another connection's commit still moves it.
    const other = new Database(join(dataDir, DB_FILE_NAME));
    other.prepare("INSERT INTO t (body) VALUES ('other')").run();
    other.close();
    expect(dataVersion.get()).not.toBe(before);
  });

  it('keep the WAL bounded under commits that never pause', async () => {
    const dataDir = await tempDir();
    const db = openWithTable(dataDir);
    await sleep(START_DELAY_MS + 200);
    // About 25 new pages a commit, 3 000 commits without a turn of the event loop: 75 000 pages,
    // with the worker copying beside them all the while.
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    const write = db.transaction(() => {
      for (let i = 0; i < 10; i++) insert.run('x'.repeat(8000));
    });
    for (let i = 0; i < 3000; i++) write();
    // The file is as long as the WAL ever was. The connection's own checkpoint starts it over
    // from the fallback on; it can only be kept waiting by one checkpoint of the worker's
    // (begun below HAND_OVER_PAGES), while which commits go on: never twice the fallback.
    const frame = 4096 + 24;
    const walPages = (statSync(join(dataDir, `${DB_FILE_NAME}-wal`)).size - 32) / frame;
    expect(walPages).toBeGreaterThan(HAND_OVER_PAGES);
    expect(walPages).toBeLessThan(2 * FALLBACK_CHECKPOINT_PAGES);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(30_000);
  });

  it('stop before the connection closes, which then folds the WAL in and removes it', async () => {
    const dataDir = await tempDir();
    const db = openWithTable(dataDir);
    await sleep(START_DELAY_MS + 200);
    insertRows(db, 100);
    expect(await untilInFile(dataDir, 'SELECT COUNT(*) FROM t', 100)).toBe(100);
    open.splice(open.indexOf(db), 1);
    db.close();
    // Only the last connection to close removes the WAL: the worker's was closed first.
    expect(existsSync(join(dataDir, `${DB_FILE_NAME}-wal`))).toBe(false);
    expect(existsSync(join(dataDir, `${DB_FILE_NAME}-shm`))).toBe(false);
    expect(fileAlone(dataDir, 'SELECT COUNT(*) FROM t')).toBe(100);
  });

  it('never start for a connection closed before their time', async () => {
    const dataDir = await tempDir();
    const db = openWithTable(dataDir);
    insertRows(db, 10);
    open.splice(open.indexOf(db), 1);
    db.close();
    await sleep(START_DELAY_MS + 300);
    // A worker would have opened the database again, WAL and all.
    expect(existsSync(join(dataDir, `${DB_FILE_NAME}-wal`))).toBe(false);
    expect(existsSync(join(dataDir, `${DB_FILE_NAME}-shm`))).toBe(false);
  });

  it("hand checkpoints back to the connection when the worker cannot load SQLite's driver", async () => {
    const dataDir = await tempDir();
    const db = new Database(join(dataDir, DB_FILE_NAME));
    open.push(db);
    db.pragma('journal_mode = WAL');
    const stop = startCheckpointer(db, { delayMs: 0, driverPath: join(dataDir, 'no-such-driver.js') });
    await sleep(0);
    // Started (a thread takes milliseconds to boot and fail)…
    expect(autocheckpoint(db)).toBe(FALLBACK_CHECKPOINT_PAGES);
    // …then failed: SQLite's default again.
    const deadline = Date.now() + 10_000;
    while (autocheckpoint(db) !== 1000 && Date.now() < deadline) await sleep(20);
    expect(autocheckpoint(db)).toBe(1000);
    stop();
  });
});

describe('the service', () => {
  it('has its messages copied into the database file while it runs', async () => {
    const svc = await startTestService();
    try {
      await sleep(START_DELAY_MS + 200);
      const alice = await svc.login('alice');
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const sent = await call(svc.url, 'POST', '/messages', {
          auth: authOf(alice),
          params: { type: 'stream', to: 'general', topic: 'checkpoints', content: `message ${i}` },
        });
        expect(sent.status).toBe(200);
        ids.push(sent.body.id as number);
      }
      expect(
        await untilInFile(svc.dataDir, "SELECT COUNT(*) FROM messages WHERE topic = 'checkpoints'", 5),
      ).toBe(5);
      expect(await untilInFile(svc.dataDir, 'SELECT MAX(id) FROM messages', ids.at(-1))).toBe(ids.at(-1));
    } finally {
      await svc.close();
    }
  });
});
