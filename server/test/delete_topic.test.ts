/** POST /streams/{stream_id}/delete_topic: administrators only, batches under a time budget, delete_message events. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { loginAs, REPO_ROOT, startServerProcess } from '../../test/support/server';
import { DB_FILE_NAME } from '../db';
import { authOf, call, query, startWith, type TestService } from './support/service';
import { DEFAULT_REGISTER_PARAMS, verifyAction } from './support/verify-action';

const streamId = (svc: TestService, name: string) =>
  query<{ id: number }>(svc, 'SELECT id FROM streams WHERE name = ?', name)[0]?.id as number;
const topicIds = (svc: TestService, stream: number, topic: string) =>
  query<{ id: number }>(
    svc,
    'SELECT id FROM messages WHERE stream_id = ? AND topic = ? ORDER BY id',
    stream,
    topic,
  ).map((r) => r.id);

const LEGACY_DELETION = {
  ...DEFAULT_REGISTER_PARAMS,
  client_capabilities: {
    ...(DEFAULT_REGISTER_PARAMS.client_capabilities as Record<string, boolean>),
    bulk_message_deletion: false,
  },
};

describe('delete_topic', () => {
  let svc: TestService;
  let alice: ApiClient;
  let bob: ApiClient;
  let admin: ApiClient;
  beforeAll(async () => {
    ({ svc, alice, bob, admin } = await startWith(['alice', 'bob', 'admin'], {
      rateLimits: { user: 0, ip: 0 },
    }));
  }, 60_000);
  afterAll(() => svc.close());

  const post = (client: ApiClient, id: number | string, params: Record<string, unknown>) =>
    call(svc.url, 'POST', `/streams/${id}/delete_topic`, { auth: authOf(client), params: params as never });

  async function fill(topic: string, n: number): Promise<number[]> {
    const sent: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await call(svc.url, 'POST', '/messages', {
        auth: authOf(i % 2 ? alice : admin),
        params: { type: 'stream', to: 'engineering', topic, content: `${topic} ${i}` },
      });
      sent.push(r.body.id as number);
    }
    return sent;
  }

  it('deletes every message of the topic; bulk clients get one event, others one per message', async () => {
    const engineering = streamId(svc, 'engineering');
    const sent = await fill('doomed', 3);
    const kept = await fill('kept', 1);
    const { events, result } = await verifyAction({
      clients: [alice, alice, bob],
      registerParams: [DEFAULT_REGISTER_PARAMS, LEGACY_DELETION, DEFAULT_REGISTER_PARAMS],
      action: () => admin.request('POST', `/streams/${engineering}/delete_topic`, { topic_name: 'Doomed' }),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    const base = { type: 'delete_message', message_type: 'stream', stream_id: engineering, topic: 'doomed' };
    expect(events[0]).toEqual([{ ...base, message_ids: sent, id: 0 }]);
    expect(events[1]).toEqual(sent.map((message_id, i) => ({ ...base, message_id, id: i })));
    // bob is not subscribed and had no copies.
    expect(events[2]).toEqual([]);
    expect(topicIds(svc, engineering, 'doomed')).toEqual([]);
    expect(query(svc, `SELECT * FROM user_messages WHERE message_id IN (${sent.join(',')})`)).toEqual([]);
    expect(topicIds(svc, engineering, 'kept')).toEqual(kept);
  });

  it("deleting a stream's oldest messages updates first_message_id for everyone who sees the stream", async () => {
    svc.sql(
      `INSERT INTO streams (realm_id, name, date_created, can_remove_subscribers_group_id)
       SELECT realm_id, 'fresh', 0, can_remove_subscribers_group_id FROM streams WHERE name = 'general'`,
    );
    const fresh = streamId(svc, 'fresh');
    svc.sql('INSERT INTO recipients (type, type_id) VALUES (2, ?)', fresh);
    svc.sql(
      "INSERT INTO subscriptions (user_id, stream_id, active, color) SELECT id, ?, 1, '#c2c2c2' FROM users WHERE email LIKE 'alice@%'",
      fresh,
    );
    const postTo = async (topic: string) =>
      (
        await call(svc.url, 'POST', '/messages', {
          auth: authOf(alice),
          params: { type: 'stream', to: 'fresh', topic, content: 'x' },
        })
      ).body.id as number;
    // The first message of an empty stream sets first_message_id.
    const sent = await verifyAction({ clients: [alice, bob], action: () => postTo('oldest') });
    const oldest = sent.result;
    expect(sent.events[1]).toEqual([
      {
        type: 'stream',
        op: 'update',
        stream_id: fresh,
        name: 'fresh',
        property: 'first_message_id',
        value: oldest,
        id: 0,
      },
    ]);
    expect(sent.events[0]?.map((e) => e.type)).toEqual(['stream', 'message']);
    const later = await postTo('later');
    const first = await verifyAction({
      clients: [alice, bob],
      action: () => admin.request('POST', `/streams/${fresh}/delete_topic`, { topic_name: 'oldest' }),
    });
    const update = {
      type: 'stream',
      op: 'update',
      stream_id: fresh,
      name: 'fresh',
      property: 'first_message_id',
    };
    expect(first.events[0]).toEqual([
      {
        type: 'delete_message',
        message_type: 'stream',
        stream_id: fresh,
        topic: 'oldest',
        message_ids: [oldest],
        id: 0,
      },
      { ...update, value: later, id: 1 },
    ]);
    expect(first.events[1]).toEqual([{ ...update, value: later, id: 0 }]);
    const last = await verifyAction({
      clients: [alice, bob],
      action: () => admin.request('POST', `/streams/${fresh}/delete_topic`, { topic_name: 'later' }),
    });
    expect(last.events[1]).toEqual([{ ...update, value: null, id: 0 }]);
  });

  it('a topic without messages is a success that changes nothing', async () => {
    const r = await post(admin, streamId(svc, 'engineering'), { topic_name: 'never existed' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '' });
  });

  const errors: [
    string,
    'alice' | 'admin',
    string,
    Record<string, unknown>,
    number,
    Record<string, unknown>,
  ][] = [
    [
      'member',
      'alice',
      'ENGINEERING',
      { topic_name: 'guarded' },
      400,
      { msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' },
    ],
    [
      'missing topic_name',
      'admin',
      'ENGINEERING',
      {},
      400,
      { msg: "Missing 'topic_name' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic_name' },
    ],
    [
      'unknown stream',
      'admin',
      '9999',
      { topic_name: 'guarded' },
      400,
      { msg: 'Invalid stream ID', code: 'BAD_REQUEST' },
    ],
    [
      'stream id not a number',
      'admin',
      'abc',
      { topic_name: 'guarded' },
      400,
      // The same path-id rule as /streams/{stream_id} (the catalogue's stream_id path parameter).
      { msg: 'Invalid stream ID', code: 'BAD_REQUEST' },
    ],
    [
      'stream id in exponent form (not accepted as the number)',
      'admin',
      'ENGINEERINGe0',
      { topic_name: 'guarded' },
      400,
      { msg: 'Invalid stream ID', code: 'BAD_REQUEST' },
    ],
    [
      'stream id with a sign',
      'admin',
      '+ENGINEERING',
      { topic_name: 'guarded' },
      400,
      { msg: 'Invalid stream ID', code: 'BAD_REQUEST' },
    ],
  ];

  it('an administrator not subscribed to a private stream gets "Invalid stream ID"; nothing deleted', async () => {
    const design = streamId(svc, 'design');
    const r0 = await call(svc.url, 'POST', '/messages', {
      auth: authOf(alice),
      params: { type: 'stream', to: 'design', topic: 'private-topic', content: 'x' },
    });
    expect(r0.status).toBe(200);
    const owner = await svc.login('owner');
    const r = await post(owner, design, { topic_name: 'private-topic' });
    expect(r.body).toEqual({ result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
    expect(topicIds(svc, design, 'private-topic')).toEqual([r0.body.id]);
    // A subscribed administrator can.
    expect((await post(admin, design, { topic_name: 'private-topic' })).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect(topicIds(svc, design, 'private-topic')).toEqual([]);
  });
  it.each(errors)('error: %s, nothing deleted', async (_name, who, stream, params, status, expected) => {
    const engineering = streamId(svc, 'engineering');
    if (topicIds(svc, engineering, 'guarded').length === 0) await fill('guarded', 2);
    const before = topicIds(svc, engineering, 'guarded');
    const r = await post({ alice, admin }[who], stream.replace('ENGINEERING', String(engineering)), params);
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ result: 'error', ...expected });
    expect(topicIds(svc, engineering, 'guarded')).toEqual(before);
  });
});

describe('delete_topic in batches under a time budget', () => {
  let svc: TestService;
  let alice: ApiClient;
  let admin: ApiClient;
  beforeAll(async () => {
    ({ svc, alice, admin } = await startWith(['alice', 'admin'], {
      rateLimits: { user: 0, ip: 0 },
      workBudgetSeconds: 0,
    }));
  }, 60_000);
  afterAll(() => svc.close());

  it('deletes the newest 100 first, answers partially_completed, and finishes when repeated', async () => {
    const engineering = streamId(svc, 'engineering');
    svc.sql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
       INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent)
       SELECT (SELECT id FROM realm), (SELECT id FROM users WHERE email LIKE 'admin@%'),
         (SELECT id FROM recipients WHERE type = 2 AND type_id = ?), ?, 'big', 'm' || i, '<p>m</p>', 1000 + i FROM n`,
      engineering,
      engineering,
    );
    svc.sql(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT u.id, m.id, 0 FROM messages m JOIN users u ON u.email LIKE 'alice@%' OR u.email LIKE 'admin@%'
       WHERE m.stream_id = ? AND m.topic = 'big'`,
      engineering,
    );
    const all = topicIds(svc, engineering, 'big');
    expect(all.length).toBe(150);

    const first = await verifyAction({
      clients: [alice],
      action: () =>
        call(svc.url, 'POST', `/streams/${engineering}/delete_topic`, {
          auth: authOf(admin),
          params: { topic_name: 'big' },
        }),
    });
    expect(first.result.status).toBe(200);
    expect(first.result.body).toEqual({ result: 'partially_completed', msg: '', code: 'REQUEST_TIMEOUT' });
    const base = { type: 'delete_message', message_type: 'stream', stream_id: engineering, topic: 'big' };
    expect(first.events[0]).toEqual([{ ...base, message_ids: all.slice(50), id: 0 }]);
    expect(topicIds(svc, engineering, 'big')).toEqual(all.slice(0, 50));

    const second = await verifyAction({
      clients: [alice],
      action: () =>
        call(svc.url, 'POST', `/streams/${engineering}/delete_topic`, {
          auth: authOf(admin),
          params: { topic_name: 'big' },
        }),
    });
    expect(second.result.body).toEqual({ result: 'success', msg: '' });
    expect(second.events[0]).toEqual([{ ...base, message_ids: all.slice(0, 50), id: 0 }]);
    expect(topicIds(svc, engineering, 'big')).toEqual([]);
  });
});

describe('the --work-budget-seconds server option', () => {
  it('sets the budget of a real server process (0: one batch per request)', async () => {
    const server = await startServerProcess({ args: ['--work-budget-seconds', '0'] });
    try {
      const admin = await loginAs(server, 'admin');
      const db = new Database(join(server.dataDir, DB_FILE_NAME));
      let engineering: number;
      try {
        engineering = (
          db.prepare("SELECT id FROM streams WHERE name = 'engineering'").get() as { id: number }
        ).id;
        db.prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 101)
           INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent)
           SELECT (SELECT id FROM realm), (SELECT id FROM users WHERE email LIKE 'admin@%'),
             (SELECT id FROM recipients WHERE type = 2 AND type_id = ?), ?, 'cli', 'm', '<p>m</p>', 1000 FROM n`,
        ).run(engineering, engineering);
      } finally {
        db.close();
      }
      const once = () =>
        call(server.url, 'POST', `/streams/${engineering}/delete_topic`, {
          auth: authOf(admin),
          params: { topic_name: 'cli' },
        });
      expect((await once()).body).toEqual({
        result: 'partially_completed',
        msg: '',
        code: 'REQUEST_TIMEOUT',
      });
      expect((await once()).body).toEqual({ result: 'success', msg: '' });
    } finally {
      await server.dispose();
    }
  }, 60_000);

  it('refuses a value that is not a number of seconds', () => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'server/main.ts', '--data-dir', '/nonexistent', '--work-budget-seconds', 'soon'],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--work-budget-seconds must be a number of seconds, not 'soon'");
  }, 60_000);
});
