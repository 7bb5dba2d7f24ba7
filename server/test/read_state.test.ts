import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { runBatched } from '../actions/read';
import type { ServiceContext } from '../context';
import { authOf, call, query, startWith, type TestService } from './support/service';
import { verifyAction } from './support/verify-action';

const idOf = (svc: TestService, name: string, table: 'users' | 'streams') =>
  (table === 'users'
    ? query<{ id: number }>(svc, "SELECT id FROM users WHERE email LIKE ? || '@%'", name)
    : query<{ id: number }>(svc, 'SELECT id FROM streams WHERE name = ?', name))[0]?.id as number;
const unreadIds = (svc: TestService, userId: number) =>
  query<{ message_id: number }>(
    svc,
    'SELECT message_id FROM user_messages WHERE user_id = ? AND (flags & 1) = 0 ORDER BY message_id',
    userId,
  ).map((r) => r.message_id);

/** `count` messages from the sender to the stream's topic, unread for the reader (fast: one statement each). */
function insertUnread(
  svc: TestService,
  o: { sender: number; reader: number; stream: number; topic: string; count: number },
) {
  svc.sql(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent)
     SELECT (SELECT id FROM realm), ?, (SELECT id FROM recipients WHERE type = 2 AND type_id = ?), ?, ?, 'm' || i, '<p>m</p>', 1000 + i FROM n`,
    o.count,
    o.sender,
    o.stream,
    o.stream,
    o.topic,
  );
  svc.sql(
    `INSERT INTO user_messages (user_id, message_id, flags)
     SELECT ?, id, 0 FROM messages WHERE stream_id = ? AND topic = ? AND sender_id = ?
     AND id NOT IN (SELECT message_id FROM user_messages WHERE user_id = ?)`,
    o.reader,
    o.stream,
    o.topic,
    o.sender,
    o.reader,
  );
}

const PARTIAL = { result: 'partially_completed', msg: '', code: 'REQUEST_TIMEOUT' };

describe('mark_stream_as_read and mark_topic_as_read', () => {
  let svc: TestService;
  let alice: ApiClient;
  let bob: ApiClient;
  let admin: ApiClient;
  let guest: ApiClient;
  let aliceId: number;
  beforeAll(async () => {
    ({ svc, alice, bob, admin, guest } = await startWith(['alice', 'bob', 'admin', 'guest'], {
      rateLimits: { user: 0, ip: 0 },
    }));
    aliceId = idOf(svc, 'alice', 'users');
  }, 60_000);
  afterAll(() => svc.close());

  async function post(client: ApiClient, path: string, params: Record<string, unknown> = {}) {
    return call(svc.url, 'POST', path, { auth: authOf(client), params: params as never });
  }
  async function sendAs(client: ApiClient, topic: string, n: number): Promise<number[]> {
    const sent: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await post(client, '/messages', {
        type: 'stream',
        to: 'engineering',
        topic,
        content: `${topic} ${i}`,
      });
      sent.push(r.body.id as number);
    }
    return sent;
  }

  it('mark_topic_as_read marks that topic only, with one event listing the ids', async () => {
    const inTopic = await sendAs(admin, 'read-me', 2);
    const other = await sendAs(admin, 'keep-unread', 1);
    const { events, result } = await verifyAction({
      clients: [alice],
      action: () =>
        alice.request('POST', '/mark_topic_as_read', {
          stream_id: idOf(svc, 'engineering', 'streams'),
          topic_name: 'READ-ME',
        }),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    expect(events[0]).toEqual([
      { type: 'update_message_flags', op: 'add', flag: 'read', messages: inTopic, all: false, id: 0 },
    ]);
    const unread = unreadIds(svc, aliceId);
    expect(inTopic.some((id) => unread.includes(id))).toBe(false);
    expect(unread).toContain(other[0]);
  });

  it('mark_stream_as_read marks the whole stream', async () => {
    const sent = await sendAs(admin, 'stream-wide', 2);
    const before = unreadIds(svc, aliceId);
    const engineering = idOf(svc, 'engineering', 'streams');
    const inStream = query<{ id: number }>(
      svc,
      'SELECT id FROM messages WHERE stream_id = ?',
      engineering,
    ).map((r) => r.id);
    const expected = before.filter((id) => inStream.includes(id));
    expect(expected).toEqual(expect.arrayContaining(sent));
    const { events } = await verifyAction({
      clients: [alice],
      action: () => alice.request('POST', '/mark_stream_as_read', { stream_id: engineering }),
    });
    expect(events[0]).toEqual([
      { type: 'update_message_flags', op: 'add', flag: 'read', messages: expected, all: false, id: 0 },
    ]);
    expect(unreadIds(svc, aliceId)).toEqual(before.filter((id) => !inStream.includes(id)));
  });

  const errors: [
    string,
    string,
    Record<string, unknown>,
    'alice' | 'bob' | 'guest',
    Record<string, unknown>,
  ][] = [
    [
      'stream: missing stream_id',
      '/mark_stream_as_read',
      {},
      'alice',
      { msg: "Missing 'stream_id' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'stream_id' },
    ],
    [
      'stream: not an integer',
      '/mark_stream_as_read',
      { stream_id: 'general' },
      'alice',
      { msg: 'stream_id is not valid JSON', code: 'BAD_REQUEST' },
    ],
    [
      'stream: unknown',
      '/mark_stream_as_read',
      { stream_id: 9999 },
      'alice',
      { msg: 'Invalid stream ID', code: 'BAD_REQUEST' },
    ],
    [
      'stream: private without access',
      '/mark_stream_as_read',
      { stream_id: 'DESIGN' },
      'bob',
      { msg: 'Invalid stream ID', code: 'BAD_REQUEST' },
    ],
    [
      'stream: guest, public stream not subscribed',
      '/mark_stream_as_read',
      { stream_id: 'ENGINEERING' },
      'guest',
      { msg: 'Invalid stream ID', code: 'BAD_REQUEST' },
    ],
    [
      'topic: missing topic_name',
      '/mark_topic_as_read',
      { stream_id: 'GENERAL' },
      'alice',
      { msg: "Missing 'topic_name' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic_name' },
    ],
    [
      'topic: no such topic',
      '/mark_topic_as_read',
      { stream_id: 'GENERAL', topic_name: 'nothing here' },
      'alice',
      { msg: "No such topic 'nothing here'", code: 'BAD_REQUEST' },
    ],
  ];
  it.each(errors)('error: %s', async (_name, path, params, who, expected) => {
    const client = { alice, bob, guest }[who];
    // Stream names in capitals stand for their ids.
    const resolved = Object.fromEntries(
      Object.entries(params).map(([k, v]) =>
        typeof v === 'string' && /^[A-Z]+$/.test(v) ? [k, idOf(svc, v.toLowerCase(), 'streams')] : [k, v],
      ),
    );
    await sendAs(admin, 'error-rows', 1);
    const before = query(
      svc,
      'SELECT user_id, message_id, flags FROM user_messages ORDER BY user_id, message_id',
    );
    const r = await post(client, path, resolved);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', ...expected });
    expect(
      query(svc, 'SELECT user_id, message_id, flags FROM user_messages ORDER BY user_id, message_id'),
    ).toEqual(before);
  });

  it('mark_all_as_read finishes within the default budget with one all:true event', async () => {
    await sendAs(admin, 'all', 2);
    const before = unreadIds(svc, aliceId);
    expect(before.length).toBeGreaterThan(0);
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('POST', '/mark_all_as_read'),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    expect(events[0]).toEqual([
      { type: 'update_message_flags', op: 'add', flag: 'read', messages: before, all: true, id: 0 },
    ]);
    expect(events[1]).toEqual([]);
    expect(unreadIds(svc, aliceId)).toEqual([]);
  });
});

describe('mark_all_as_read in batches under a time budget', () => {
  let svc: TestService;
  let alice: ApiClient;
  beforeAll(async () => {
    // A budget of 0 does one batch per request: the timeout path without waiting for it.
    ({ svc, alice } = await startWith(['alice'], { rateLimits: { user: 0, ip: 0 }, workBudgetSeconds: 0 }));
  }, 60_000);
  afterAll(() => svc.close());

  it('marks the newest 2000 first, answers partially_completed, and finishes when repeated', async () => {
    const aliceId = idOf(svc, 'alice', 'users');
    insertUnread(svc, {
      sender: idOf(svc, 'admin', 'users'),
      reader: aliceId,
      stream: idOf(svc, 'engineering', 'streams'),
      topic: 'bulk',
      count: 2100,
    });
    const before = unreadIds(svc, aliceId);
    expect(before.length).toBeGreaterThan(2000);
    const newest = before.slice(-2000);

    const first = await verifyAction({
      clients: [alice],
      action: () => call(svc.url, 'POST', '/mark_all_as_read', { auth: authOf(alice) }),
    });
    expect(first.result.status).toBe(200);
    expect(first.result.body).toEqual(PARTIAL);
    expect(first.events[0]).toEqual([
      { type: 'update_message_flags', op: 'add', flag: 'read', messages: newest, all: false, id: 0 },
    ]);
    expect(unreadIds(svc, aliceId)).toEqual(before.slice(0, -2000));

    const second = await verifyAction({
      clients: [alice],
      action: () => call(svc.url, 'POST', '/mark_all_as_read', { auth: authOf(alice) }),
    });
    expect(second.result.body).toEqual({ result: 'success', msg: '' });
    expect(second.events[0]).toEqual([
      {
        type: 'update_message_flags',
        op: 'add',
        flag: 'read',
        messages: before.slice(0, -2000),
        all: true,
        id: 0,
      },
    ]);
    expect(unreadIds(svc, aliceId)).toEqual([]);
  });
});

describe('runBatched yields to the event loop between batches', () => {
  it('other callbacks run between batches, not only after the whole job', async () => {
    let ticks = 0;
    const tick = () => {
      ticks++;
      if (ticks < 1000) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: number[] = [];
    const ctx = { config: { workBudgetSeconds: 60 } } as unknown as ServiceContext;
    const complete = await runBatched(ctx, () => {
      seen.push(ticks);
      return seen.length === 5;
    });
    ticks = 1000;
    expect(complete).toBe(true);
    // A synchronous loop would see [0, 0, 0, 0, 0].
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('stops after the first unfinished batch when the budget is spent', async () => {
    let steps = 0;
    const ctx = { config: { workBudgetSeconds: 0 } } as unknown as ServiceContext;
    expect(await runBatched(ctx, () => ++steps > 10)).toBe(false);
    expect(steps).toBe(1);
  });
});
