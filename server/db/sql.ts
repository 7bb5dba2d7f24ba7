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
