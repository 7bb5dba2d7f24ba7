/**
 * How SQLite runs GET /messages' queries for a stream narrow (db/narrow.ts): a window walks
 * the stream's messages in id order on messages_recipient and stops at its LIMIT, never reading
 * and sorting the whole stream (no "USE TEMP B-TREE FOR ORDER BY"); with a topic it walks that
 * topic on messages_stream_topic; first_unread walks the user's unread copies only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../db';
import { firstUnreadMessageId, type MessageQuery, messageWindow, messageWindowIds } from '../db/narrow';

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'confab-narrow-plan-'));
  db = openDatabase(dir);
});

afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

/** The SQL texts `run` prepares. */
function statementsOf(run: () => void): string[] {
  const prepare = db.prepare;
  const seen: string[] = [];
  db.prepare = ((sql: string) => {
    seen.push(sql);
    return prepare.call(db, sql);
  }) as Db['prepare'];
  try {
    run();
  } finally {
    db.prepare = prepare;
  }
  return seen;
}

/** EXPLAIN QUERY PLAN's lines for a statement (the plan does not depend on the values bound). */
function planOf(sql: string): string[] {
  const params = Array((sql.match(/\?/g) ?? []).length).fill(null);
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
    (r) => r.detail,
  );
}

const STREAM = 7;
const stream = (historyStreamId: number | null, ...more: MessageQuery['filters']): MessageQuery => ({
  userId: 3,
  realmId: 1,
  filters: [{ filter: { kind: 'stream', streamId: STREAM }, negated: false }, ...more],
  historyStreamId,
});
const NEWEST = { anchor: 10_000_000_000_000_000, numBefore: 100, numAfter: 100, includeAnchor: true };

/**
 * Expects the plan to start with `walk` (how the messages are read), to sort nothing and to
 * scan no table (the user's copy, the stream's recipient: each one seek).
 */
function expectPlan(sql: string | undefined, walk: string): void {
  const plan = planOf(sql as string);
  expect(plan[0]).toBe(walk);
  expect(plan.filter((line) => line.includes('TEMP B-TREE') || line.startsWith('SCAN'))).toEqual([]);
}

describe('query plans of a stream narrow', () => {
  it('walk messages_recipient in id order on both sides of the anchor, with or without history', () => {
    for (const query of [stream(STREAM), stream(null)]) {
      const [before, after, atAnchor, ...rest] = statementsOf(() => messageWindow(db, query, NEWEST));
      expect(rest).toEqual([]);
      expectPlan(before, 'SEARCH m USING INDEX messages_recipient (recipient_id=? AND id<?)');
      expectPlan(after, 'SEARCH m USING INDEX messages_recipient (recipient_id=? AND id>?)');
      expectPlan(atAnchor, 'SEARCH m USING INTEGER PRIMARY KEY (rowid=?)');
    }
  });

  it('walk it likewise for flags/narrow, which reads ids only', () => {
    const [before, after, ...rest] = statementsOf(() =>
      messageWindowIds(db, stream(STREAM), { ...NEWEST, includeAnchor: false }),
    );
    expect(rest).toEqual([]);
    expectPlan(before, 'SEARCH m USING INDEX messages_recipient (recipient_id=? AND id<?)');
    expectPlan(after, 'SEARCH m USING INDEX messages_recipient (recipient_id=? AND id>?)');
  });

  it('walk messages_stream_topic in id order with a topic', () => {
    const topic = stream(STREAM, { filter: { kind: 'topic', topic: 'lunch' }, negated: false });
    const [before, after] = statementsOf(() => messageWindow(db, topic, NEWEST));
    expectPlan(before, 'SEARCH m USING INDEX messages_stream_topic (stream_id=? AND topic=? AND id<?)');
    expectPlan(after, 'SEARCH m USING INDEX messages_stream_topic (stream_id=? AND topic=? AND id>?)');
  });

  it('find the first unread message from the unread copies, oldest first', () => {
    for (const query of [stream(STREAM), { ...stream(null), filters: [] }]) {
      const [first, ...rest] = statementsOf(() => firstUnreadMessageId(db, query));
      expect(rest).toEqual([]);
      expectPlan(first, 'SEARCH um USING INDEX user_messages_unread (user_id=?)');
      expect(planOf(first as string)[1]).toBe('SEARCH m USING INTEGER PRIMARY KEY (rowid=?)');
    }
  });
});
