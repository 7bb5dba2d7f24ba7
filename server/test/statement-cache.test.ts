/**
 * The statement cache of db/index.ts: one compiled statement per SQL text, shared by every
 * caller, so that no caller's pluck(), raw(), expand() or bind() reaches another's, a query run
 * inside a loop over its own rows still runs, and rows are the objects better-sqlite3 makes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, type Db, openDatabase, STATEMENT_CACHE_SIZE } from '../db';

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'confab-statements-'));
  db = openDatabase(dir);
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, data BLOB, score REAL);
    INSERT INTO t (id, name, data, score) VALUES (1, 'one', x'00ff', 1.5), (2, 'two', NULL, NULL),
      (3, 'three', x'', -0.25);`);
});

afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const SQL = 'SELECT id, name FROM t ORDER BY id';
const FIRST = { id: 1, name: 'one' };

describe('statement cache', () => {
  it('gives back the statement compiled the first time', () => {
    expect(db.prepare(SQL)).toBe(db.prepare(SQL));
  });

  it("keeps a caller's pluck() from reaching the statement others hold or prepare later", () => {
    const held = db.prepare(SQL);
    expect(db.prepare(SQL).pluck().all()).toEqual([1, 2, 3]);
    expect(held.get()).toEqual(FIRST);
    expect(db.prepare(SQL).get()).toEqual(FIRST);
    expect(db.prepare(SQL).all()).toEqual([FIRST, { id: 2, name: 'two' }, { id: 3, name: 'three' }]);
  });

  it("keeps a caller's raw() and expand() to itself too", () => {
    expect(db.prepare(SQL).raw().get()).toEqual([1, 'one']);
    expect(db.prepare(SQL).expand().get()).toEqual({ t: FIRST });
    expect(db.prepare(SQL).get()).toEqual(FIRST);
    expect(db.prepare(SQL).pluck().get()).toBe(1);
  });

  it("switches shapes by better-sqlite3's rules, in the statement it returns", () => {
    const plucked = db.prepare(SQL).pluck();
    expect(plucked.pluck().get()).toBe(1);
    // Turning off a shape the statement does not have leaves its shape.
    expect(plucked.raw(false).get()).toBe(1);
    expect(plucked.pluck(false).get()).toEqual(FIRST);
    expect(plucked.raw().pluck(false).get()).toEqual([1, 'one']);
    expect(plucked.get()).toBe(1);
  });

  it('refuses what better-sqlite3 refuses, with its errors', () => {
    const insert = db.prepare('INSERT INTO t (name) VALUES (?)');
    expect(() => insert.pluck()).toThrow(
      new TypeError('The pluck() method is only for statements that return data'),
    );
    expect(() => db.prepare(SQL).raw('yes' as never)).toThrow(
      new TypeError('Expected first argument to be a boolean'),
    );
    expect(db.prepare(SQL).get()).toEqual(FIRST);
  });

  it('binds parameters to a statement of their own', () => {
    const bound = db.prepare('SELECT name FROM t WHERE id = ?').bind(2);
    expect(bound.get()).toEqual({ name: 'two' });
    expect(db.prepare('SELECT name FROM t WHERE id = ?').get(3)).toEqual({ name: 'three' });
    expect(bound.get()).toEqual({ name: 'two' });
  });

  it('runs a query inside a loop over its own rows', () => {
    const seen: unknown[] = [];
    for (const row of db.prepare(SQL).iterate()) {
      seen.push(row, db.prepare(SQL).pluck().all(), db.prepare(SQL).get());
    }
    expect(seen).toEqual([
      FIRST,
      [1, 2, 3],
      FIRST,
      { id: 2, name: 'two' },
      [1, 2, 3],
      FIRST,
      { id: 3, name: 'three' },
      [1, 2, 3],
      FIRST,
    ]);
    // The iteration is over: the cached statement runs again.
    expect(db.prepare(SQL).busy).toBe(false);
    expect(db.prepare(SQL).get()).toEqual(FIRST);
  });

  it('makes the row objects better-sqlite3 makes', () => {
    const plain = new Database(join(dir, DB_FILE_NAME), { readonly: true });
    try {
      for (const sql of [
        'SELECT * FROM t ORDER BY id',
        // A name twice (the last value at the first place), names that are numerals.
        'SELECT a.id, b.id, a.name AS "2", b.name AS "1", a.score FROM t a JOIN t b ORDER BY a.id, b.id',
        'SELECT 1 AS "__proto__", 2 AS a',
        'SELECT * FROM users ORDER BY id',
        'SELECT * FROM realm',
      ]) {
        const ours = db.prepare(sql).all() as object[];
        const theirs = plain.prepare(sql).all() as object[];
        expect(ours).toStrictEqual(theirs);
        expect(ours.map((row) => [Object.getPrototypeOf(row), Object.keys(row)])).toEqual(
          theirs.map((row) => [Object.getPrototypeOf(row), Object.keys(row)]),
        );
        expect(db.prepare(sql).get()).toStrictEqual(plain.prepare(sql).get());
        expect([...db.prepare(sql).iterate()]).toStrictEqual(theirs);
      }
    } finally {
      plain.close();
    }
  });

  it("follows a change of a statement's columns", () => {
    db.exec('CREATE TABLE grows (a INTEGER); INSERT INTO grows VALUES (1)');
    const statement = db.prepare('SELECT * FROM grows');
    expect(statement.get()).toEqual({ a: 1 });
    db.exec("ALTER TABLE grows ADD COLUMN b TEXT DEFAULT 'x'");
    expect(db.prepare('SELECT * FROM grows').get()).toEqual({ a: 1, b: 'x' });
    expect(statement.all()).toEqual([{ a: 1, b: 'x' }]);
  });

  it('keeps the most recently used statements, at most STATEMENT_CACHE_SIZE', () => {
    const kept = db.prepare('SELECT 1 AS kept');
    const dropped = db.prepare('SELECT 1 AS dropped');
    expect(db.prepare('SELECT 1 AS kept')).toBe(kept);
    for (let i = 0; i < STATEMENT_CACHE_SIZE - 1; i++) db.prepare(`SELECT ${i} AS n`);
    expect(db.prepare('SELECT 1 AS kept')).toBe(kept);
    expect(db.prepare('SELECT 1 AS dropped')).not.toBe(dropped);
    // A statement that left the cache still works for whoever holds it.
    expect(dropped.get()).toEqual({ dropped: 1 });
  });
});
