/**
 * DELETE /users/me/subscriptions naming thousands of people, in slices (issue 11): everything
 * is checked in the first slice's transaction (a refused request changes nothing); then each
 * slice of about UNSUBSCRIBE_SLICE_ROWS subscriptions is its own transaction, its events sent
 * after its commit, with a turn of the event loop between slices (a waiting poll is answered
 * with one slice's events before the next runs). The answer is the one transaction's. A server
 * killed between slices leaves whole people done, in the order named; repeating finishes.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { loginAs, startServerProcess } from '../../test/support/server';
import { UNSUBSCRIBE_SLICE_ROWS } from '../actions/subscriptions';
import { DB_FILE_NAME } from '../db';
import { authOf, call, everyone, query, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc } = await serviceWith([]);
const { clients, ids } = await everyone(svc);

type Run = (sql: string, ...params: unknown[]) => void;
type Read = (sql: string, ...params: unknown[]) => number[];

/** Adds `count` members to the organization straight in the database (no password, no events). */
function insertMembers(run: Run, read: Read, count: number, prefix: string): number[] {
  run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role, date_joined_ms)
     SELECT (SELECT id FROM realm), ? || i || '@leave.example', ? || i || '@leave.example',
       'Leaver ' || i, ? || '-key-' || i, 400, 0 FROM n`,
    count,
    prefix,
    prefix,
    prefix,
  );
  return read('SELECT id FROM users WHERE email LIKE ? ORDER BY id', `${prefix}%`);
}

/**
 * A public stream created by the admin (through `admin`), with these subscribers besides,
 * written straight in the database; answers its id.
 */
async function makeStream(
  admin: ApiClient,
  run: Run,
  read: Read,
  name: string,
  subscribers: number[],
): Promise<number> {
  await admin.request('POST', '/users/me/subscriptions', { subscriptions: [{ name }] });
  const [streamId] = read('SELECT id FROM streams WHERE name = ?', name) as [number];
  run(
    `INSERT INTO subscriptions (user_id, stream_id, active, color)
     SELECT value, ?, 1, '#c2c2c2' FROM json_each(?) WHERE true
     ON CONFLICT (user_id, stream_id) DO UPDATE SET active = 1`,
    streamId,
    JSON.stringify(subscribers),
  );
  return streamId;
}

const run: Run = (sql, ...params) => svc.sql(sql, ...params);
const read: Read = (sql, ...params) => query<{ id: number }>(svc, sql, ...params).map((r) => r.id);

const subscribedAmong = (streamId: number, userIds: number[]) =>
  read(
    `SELECT user_id AS id FROM subscriptions WHERE stream_id = ? AND active = 1
     AND user_id IN (SELECT value FROM json_each(?)) ORDER BY user_id`,
    streamId,
    JSON.stringify(userIds),
  );

const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
const peerRemove = (streamId: number, userIds: number[]) => ({
  type: 'subscription',
  op: 'peer_remove',
  stream_ids: [streamId],
  user_ids: userIds,
});

describe('DELETE /users/me/subscriptions in slices', () => {
  // As many principals as a slice's rows: checking them fills the first slice, which then
  // takes only the first person (alice); the second slice takes everyone else (bob last).
  const others = insertMembers(run, read, UNSUBSCRIBE_SLICE_ROWS - 2, 'slices');
  const principals = [ids.alice, ...others, ids.bob];

  it('commits each slice with its own events, which leave every client with the right state', async () => {
    const streamId = await makeStream(clients.admin, run, read, 'leave one', [
      ids.admin,
      ids.moderator,
      ...principals,
    ]);
    // People who leave in one slice are not told of each other (as one transaction did not
    // tell them), so bob's view of the members he left with is not compared: his events are.
    const bobQueue = await clients.bob.registerQueue({ event_types: ['subscription'] });
    const { events, result } = await verifyAction({
      clients: [clients.alice, clients.moderator],
      stateKeys: ['subscriptions', 'unsubscribed', 'never_subscribed'],
      action: () =>
        clients.admin.request('DELETE', '/users/me/subscriptions', {
          subscriptions: ['leave one'],
          principals,
        }),
    });
    expect(result).toEqual({ result: 'success', msg: '', removed: ['leave one'], not_removed: [] });
    expect(subscribedAmong(streamId, [ids.admin, ids.moderator, ...principals])).toEqual(
      sorted([ids.admin, ids.moderator]),
    );
    const remove = {
      type: 'subscription',
      op: 'remove',
      subscriptions: [{ name: 'leave one', stream_id: streamId }],
    };
    const [alice = [], moderator = []] = events as Record<string, unknown>[][];
    // Alice, alone in the first slice, leaves, and then (a member who may see the stream's
    // subscribers) hears of the second slice's people leaving.
    expect(alice).toEqual([
      { ...remove, id: 0 },
      { ...peerRemove(streamId, [...others, ids.bob]), id: 1 },
    ]);
    // Someone who stays gets one peer_remove per slice.
    expect(moderator).toEqual([
      { ...peerRemove(streamId, [ids.alice]), id: 0 },
      { ...peerRemove(streamId, [...others, ids.bob]), id: 1 },
    ]);
    // Bob, in the second slice, hears of alice first, then leaves.
    const bob = await clients.bob.getEvents({
      queue_id: bobQueue.queue_id as string,
      last_event_id: bobQueue.last_event_id,
      dont_block: true,
    });
    expect(bob.events).toEqual([
      { ...peerRemove(streamId, [ids.alice]), id: 0 },
      { ...remove, id: 1 },
    ]);
  });

  it('answers a waiting poll with the first slice before the next one runs', async () => {
    const streamId = await makeStream(clients.admin, run, read, 'leave two', [ids.admin, ...principals]);
    const queue = await clients.alice.registerQueue({ event_types: ['subscription'] });
    const queueId = queue.queue_id as string;
    const poll = clients.alice.getEvents({ queue_id: queueId, last_event_id: queue.last_event_id });
    await svc.service.events.whenWaiting(queueId);
    const done = clients.admin.request('DELETE', '/users/me/subscriptions', {
      subscriptions: ['leave two'],
      principals,
    });
    const first = await poll;
    await done;
    expect(first.events).toEqual([
      {
        type: 'subscription',
        op: 'remove',
        subscriptions: [{ name: 'leave two', stream_id: streamId }],
        id: 0,
      },
    ]);
    const rest = await clients.alice.getEvents({ queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(rest.events).toEqual([{ ...peerRemove(streamId, [...others, ids.bob]), id: 1 }]);
  });

  it('answers removed and not_removed as one transaction would, over three slices', async () => {
    // Two streams: each person weighs two rows, so the rest takes two slices after alice's.
    const a = await makeStream(clients.admin, run, read, 'leave a', [ids.admin, ids.alice, ...others]);
    const b = await makeStream(clients.admin, run, read, 'leave b', [ids.admin, ...others]);
    const r = await call(svc.url, 'DELETE', '/users/me/subscriptions', {
      auth: authOf(clients.admin),
      params: { subscriptions: ['leave a', 'leave b'], principals },
    });
    // Alice left a and was not in b; the others left both; bob was in neither.
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      removed: ['leave a', 'leave b'],
      not_removed: ['leave b', 'leave a'],
    });
    expect(subscribedAmong(a, [ids.admin, ...principals])).toEqual([ids.admin]);
    expect(subscribedAmong(b, [ids.admin, ...principals])).toEqual([ids.admin]);
  });

  it('refuses a request it may not do whole, changing nothing', async () => {
    const streamId = await makeStream(clients.admin, run, read, 'leave refused', [ids.admin, ...principals]);
    // Alice, a member, may leave herself but not remove others.
    const r = await call(svc.url, 'DELETE', '/users/me/subscriptions', {
      auth: authOf(clients.alice),
      params: { subscriptions: ['leave refused'], principals },
    });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' },
    });
    expect(subscribedAmong(streamId, principals)).toEqual(sorted(principals));
  });
});

const server = await startServerProcess();
afterAll(() => server.dispose());

describe('a server killed between slices', () => {
  it('leaves whole people done, in the order named, and repeating the request finishes', async () => {
    const db = new Database(join(server.dataDir, DB_FILE_NAME));
    db.pragma('busy_timeout = 5000');
    const runHere: Run = (sql, ...params) => {
      db.prepare(sql).run(...params);
    };
    const readHere: Read = (sql, ...params) =>
      db
        .prepare(sql)
        .pluck()
        .all(...params) as number[];
    try {
      const admin = await loginAs(server, 'admin');
      const alice = await loginAs(server, 'alice');
      const aliceId = (await alice.getOwnUser()).user_id;
      const people = [aliceId, ...insertMembers(runHere, readHere, 3 * UNSUBSCRIBE_SLICE_ROWS, 'killed')];
      const streams: number[] = [];
      for (const name of ['killed a', 'killed b'])
        streams.push(await makeStream(admin, runHere, readHere, name, people));
      const params = { subscriptions: ['killed a', 'killed b'], principals: people };

      const queue = await alice.registerQueue({ event_types: ['subscription'] });
      const poll = alice.getEvents({
        queue_id: queue.queue_id as string,
        last_event_id: queue.last_event_id,
      });
      const sent = call(server.url, 'DELETE', '/users/me/subscriptions', { auth: authOf(admin), params });
      sent.catch(() => {});
      // Alice's slice (the first) is committed: the server dies while later slices may run.
      const told = await poll;
      await server.kill9();
      expect(told.events.map((e) => e.op)).toEqual(['remove']);

      const stillIn = (streamId: number) =>
        new Set(readHere('SELECT user_id FROM subscriptions WHERE stream_id = ? AND active = 1', streamId));
      const [inA, inB] = streams.map(stillIn) as [Set<number>, Set<number>];
      // Everyone done left both streams, and they are the first people named.
      const done = people.filter((id) => !inA.has(id));
      expect(people.filter((id) => !inB.has(id))).toEqual(done);
      expect(done).toEqual(people.slice(0, done.length));
      expect(done.length).toBeGreaterThanOrEqual(1);

      await server.restart();
      const again = await call(server.url, 'DELETE', '/users/me/subscriptions', {
        auth: authOf(await loginAs(server, 'admin')),
        params,
      });
      expect(again.body).toEqual({
        result: 'success',
        msg: '',
        removed: done.length < people.length ? ['killed a', 'killed b'] : [],
        not_removed: ['killed a', 'killed b'],
      });
      for (const streamId of streams) expect(people.filter((id) => stillIn(streamId).has(id))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
