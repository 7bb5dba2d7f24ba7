/** Statement shapes the db/ modules share. */
import type { Db } from './index';

/** The first column of every row a query returns: a list of ids, say, in the query's order. */
export function selectColumn<T>(db: Db, sql: string, ...params: unknown[]): T[] {
  return db
    .prepare(sql)
    .pluck()
    .all(...params) as T[];
}

/** Runs one statement for each value, with `(key, value)` as its parameters. */
export function runForEach<T>(db: Db, sql: string, key: number, values: Iterable<T>): void {
  const statement = db.prepare(sql);
  for (const value of values) statement.run(key, value);
}

/**
 * Runs reads in one read transaction: they see one state of the database, and the read lock is
 * taken and dropped once (outside a transaction every statement takes and drops it itself: two
 * system calls or three, as dear as a simple query). Inside a transaction it just runs them.
 * Only for reads; it commits when they return and rolls back when they throw.
 */
export function inOneRead<T>(db: Db, reads: () => T): T {
  if (db.inTransaction) return reads();
  db.prepare('BEGIN').run();
  try {
    const value = reads();
    db.prepare('COMMIT').run();
    return value;
  } catch (error) {
    if (db.inTransaction) db.prepare('ROLLBACK').run();
    throw error;
  }
}
