/**
 * Flag changes on thousands of messages in slices (issue 11): every message is checked, a
 * slice at a time, before anything changes; then each slice of FLAGS_SLICE_SIZE messages is
 * its own transaction with its own event, oldest first, with a turn of the event loop between
 * (a waiting poll is answered with one slice's event before the next slice runs). Historical
 * copies are made in the slice that flags their message. A server killed between slices
 * leaves whole slices done, oldest first, each with its copies; repeating the request
 * finishes the job.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { loginAs, startServerProcess } from '../../test/support/server';
import { FLAGS_SLICE_SIZE } from '../actions/flags';
import { DB_FILE_NAME } from '../db';
import { authOf, call, demoIds, everyone, query, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc } = await serviceWith([]);
const { clients, ids } = await everyone(svc);
const streams = demoIds(svc).streams;

const READ = 1;
const STARRED = 2;
const HISTORICAL = 64;

/**
 * `count` messages from the admin to a topic of a stream, written straight into the database
 * through `run`, each with a copy for every user of `copies` (with those flag bits); answers
 * their ids, ascending.
 */
function insertMessages(
  run: (sql: string, ...params: unknown[]) => void,
  read: (sql: string, ...params: unknown[]) => number[],
  o: { streamId: number; senderId: number; topic: string; count: number; copies: [number, number][] },
): number[] {
  run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent)
     SELECT (SELECT id FROM realm), ?, (SELECT id FROM recipients WHERE type = 2 AND type_id = ?), ?,
       ?, 'm' || i, '<p>m</p>', 1000 + i FROM n`,
    o.count,
    o.senderId,
    o.streamId,
    o.streamId,
    o.topic,
  );
  for (const [userId, flags] of o.copies) {
    run(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT ?, id, ? FROM messages WHERE stream_id = ? AND topic = ?`,
      userId,
      flags,
      o.streamId,
      o.topic,
    );
  }
  return read('SELECT id FROM messages WHERE stream_id = ? AND topic = ? ORDER BY id', o.streamId, o.topic);
}

const inService = (topic: string, count: number, copies: [number, number][]) =>
  insertMessages(
    (sql, ...params) => svc.sql(sql, ...params),
    (sql, ...params) => query<{ id: number }>(svc, sql, ...params).map((r) => r.id),
    { streamId: streams.engineering as number, senderId: ids.admin, topic, count, copies },
  );

/** The user's flag bits on each of these messages that they have a copy of, by message id. */
function copiesOf(userId: number, messageIds: number[]): Map<number, number> {
  const rows = query<{ message_id: number; flags: number }>(
    svc,
    'SELECT message_id, flags FROM user_messages WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))',
    userId,
    JSON.stringify(messageIds),
  );
  return new Map(rows.map((r) => [r.message_id, r.flags]));
}

const inSlices = (list: number[]) => {
  const slices: number[][] = [];
  for (let i = 0; i < list.length; i += FLAGS_SLICE_SIZE) slices.push(list.slice(i, i + FLAGS_SLICE_SIZE));
  return slices;
};

const narrowOf = (topic: string) => [
  { operator: 'stream', operand: 'engineering' },
  { operator: 'topic', operand: topic },
];

/** POST /messages/flags/narrow over the newest 5 000 messages of an engineering topic. */
const flagNarrow = (client: ApiClient, topic: string, op: string, flag: string) =>
  call(svc.url, 'POST', '/messages/flags/narrow', {
    auth: authOf(client),
    params: { anchor: 'newest', num_before: 5000, num_after: 0, narrow: narrowOf(topic), op, flag },
  });

const unreadEvent = (messageIds: number[], topic: string) => ({
  type: 'update_message_flags',
  op: 'remove',
  flag: 'read',
  messages: messageIds,
  all: false,
  message_details: Object.fromEntries(
    messageIds.map((id) => [
      id,
      { type: 'stream', stream_id: streams.engineering, topic, unmuted_stream_msg: true },
    ]),
  ),
});

describe('POST /messages/flags/narrow in slices', () => {
  it('marks 2 050 messages unread in three slices, one event each, as one request would leave them', async () => {
    const topic = 'unread slices';
    const messages = inService(topic, 2 * FLAGS_SLICE_SIZE + 50, [[ids.alice, READ]]);
    const { events, result, states } = await verifyAction({
      clients: [clients.alice],
      stateKeys: ['unread_msgs'],
      action: () =>
        clients.alice.request('POST', '/messages/flags/narrow', {
          anchor: 'newest',
          num_before: 5000,
          num_after: 0,
          narrow: narrowOf(topic),
          op: 'remove',
          flag: 'read',
        }),
    });
    expect(result).toEqual({
      result: 'success',
      msg: '',
      processed_count: messages.length,
      updated_count: messages.length,
      first_processed_id: messages[0],
      last_processed_id: messages.at(-1),
      found_oldest: true,
      found_newest: true,
    });
    // Marking unread is never merged in the queue: one event per slice, oldest slice first.
    expect(events[0]).toEqual(
      inSlices(messages).map((slice, i) => ({ ...unreadEvent(slice, topic), id: i })),
    );
    const unread = states[0]?.unread_msgs as { streams: { topic: string; unread_message_ids: number[] }[] };
    expect(unread.streams.find((s) => s.topic === topic)?.unread_message_ids).toEqual(messages);
    expect([...copiesOf(ids.alice, messages).values()].every((bits) => bits === 0)).toBe(true);
  });

  it('answers a waiting poll with the first slice before the next one runs', async () => {
    const topic = 'unread poll';
    const messages = inService(topic, FLAGS_SLICE_SIZE + 10, [[ids.alice, READ]]);
    const queue = await clients.alice.registerQueue({ event_types: ['update_message_flags'] });
    const queueId = queue.queue_id as string;
    const poll = clients.alice.getEvents({ queue_id: queueId, last_event_id: queue.last_event_id });
    await svc.service.events.whenWaiting(queueId);
    const done = flagNarrow(clients.alice, topic, 'remove', 'read');
    const first = await poll;
    expect((await done).status).toBe(200);
    const [older, newer] = inSlices(messages) as [number[], number[]];
    expect(first.events).toEqual([{ ...unreadEvent(older, topic), id: 0 }]);
    const rest = await clients.alice.getEvents({ queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(rest.events).toEqual([{ ...unreadEvent(newer, topic), id: 1 }]);
  });

  it('gives historical copies slice by slice, each counted as updated', async () => {
    // Bob is not subscribed to engineering, whose history he may read: he has no copies.
    const topic = 'history slices';
    const messages = inService(topic, FLAGS_SLICE_SIZE + 500, [[ids.alice, 0]]);
    const queue = await clients.bob.registerQueue({ event_types: ['update_message_flags'] });
    const queueId = queue.queue_id as string;
    const poll = clients.bob.getEvents({ queue_id: queueId, last_event_id: queue.last_event_id });
    await svc.service.events.whenWaiting(queueId);
    const response = await flagNarrow(clients.bob, topic, 'add', 'starred');
    expect(response.body).toEqual({
      result: 'success',
      msg: '',
      processed_count: messages.length,
      updated_count: messages.length,
      first_processed_id: messages[0],
      last_processed_id: messages.at(-1),
      found_oldest: true,
      found_newest: true,
    });
    const [older, newer] = inSlices(messages) as [number[], number[]];
    const starEvent = (messageIds: number[]) => ({
      type: 'update_message_flags',
      op: 'add',
      flag: 'starred',
      messages: messageIds,
      all: false,
    });
    expect((await poll).events).toEqual([{ ...starEvent(older), id: 0 }]);
    // The second slice's event, merged with the first while that was not acknowledged.
    const rest = await clients.bob.getEvents({ queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(rest.events).toHaveLength(1);
    expect(rest.events[0]).toMatchObject({ ...starEvent(expect.arrayContaining(newer) as never), id: 1 });
    const copies = copiesOf(ids.bob, messages);
    expect(copies.size).toBe(messages.length);
    expect(new Set(copies.values())).toEqual(new Set([READ | STARRED | HISTORICAL]));
  });
});

describe('a message the user may not read, in the last slice checked', () => {
  const refusals: [string, () => Promise<number>][] = [
    [
      'a message of a private stream',
      async () =>
        (
          await clients.admin.request('POST', '/messages', {
            type: 'stream',
            to: 'design',
            topic: 'secret',
            content: 'only subscribers',
          })
        ).id as number,
    ],
    ['a message that does not exist', async () => 987654321],
  ];
  it.each(refusals)('%s: the request is refused and changes nothing', async (label, make) => {
    // Bob may read engineering's history, but has no copies: each would get a historical one.
    const messages = inService(`refused: ${label}`, 2 * FLAGS_SLICE_SIZE + 50, [[ids.alice, 0]]);
    const refused = await make();
    const queue = await clients.bob.registerQueue({ event_types: ['update_message_flags'] });
    const response = await call(svc.url, 'POST', '/messages/flags', {
      auth: authOf(clients.bob),
      params: { messages: [...messages, refused], op: 'add', flag: 'starred' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
    expect(copiesOf(ids.bob, [...messages, refused]).size).toBe(0);
    const after = await clients.bob.getEvents({
      queue_id: queue.queue_id as string,
      last_event_id: queue.last_event_id,
      dont_block: true,
    });
    expect(after.events).toEqual([]);
  });
});

const server = await startServerProcess();
afterAll(() => server.dispose());

describe('a server killed between slices', () => {
  const dbPath = join(server.dataDir, DB_FILE_NAME);
  const withDb = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(dbPath);
    try {
      db.pragma('busy_timeout = 5000');
      return fn(db);
    } finally {
      db.close();
    }
  };

  it('leaves whole slices done, oldest first, each with its historical copies; repeating finishes', async () => {
    const bob = await loginAs(server, 'bob');
    const admin = await loginAs(server, 'admin');
    const bobId = (await bob.getOwnUser()).user_id;
    const adminId = (await admin.getOwnUser()).user_id;
    const topic = 'killed';
    const count = 4 * FLAGS_SLICE_SIZE;
    const messages = withDb((db) =>
      insertMessages(
        (sql, ...params) => db.prepare(sql).run(...params),
        (sql, ...params) => (db.prepare(sql).all(...params) as { id: number }[]).map((r) => r.id),
        {
          streamId: (db.prepare("SELECT id FROM streams WHERE name = 'engineering'").get() as { id: number })
            .id,
          senderId: adminId,
          topic,
          count,
          copies: [[adminId, 0]],
        },
      ),
    );
    const bobsCopies = () =>
      withDb(
        (db) =>
          db
            .prepare(
              `SELECT um.message_id, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id
               WHERE um.user_id = ? AND m.topic = ? ORDER BY um.message_id`,
            )
            .all(bobId, topic) as { message_id: number; flags: number }[],
      );
    const request = {
      anchor: 'newest',
      num_before: 5000,
      num_after: 0,
      narrow: narrowOf(topic),
      op: 'add',
      flag: 'starred',
    };

    const queue = await bob.registerQueue({ event_types: ['update_message_flags'] });
    const poll = bob.getEvents({ queue_id: queue.queue_id as string, last_event_id: queue.last_event_id });
    const sent = call(server.url, 'POST', '/messages/flags/narrow', { auth: authOf(bob), params: request });
    sent.catch(() => {});
    // The first slice's event is out: the server dies while the later slices may still run.
    const told = (await poll).events.flatMap((e) => e.messages as number[]);
    await server.kill9();
    expect(told).toEqual(messages.slice(0, FLAGS_SLICE_SIZE));

    const copies = bobsCopies();
    const done = copies.length;
    // Whole slices, oldest first, each message flagged together with its historical copy.
    expect(done % FLAGS_SLICE_SIZE === 0 && done >= FLAGS_SLICE_SIZE).toBe(true);
    expect(copies.map((c) => c.message_id)).toEqual(messages.slice(0, done));
    expect(new Set(copies.map((c) => c.flags))).toEqual(new Set([READ | STARRED | HISTORICAL]));

    await server.restart();
    const again = await call(server.url, 'POST', '/messages/flags/narrow', {
      auth: authOf(await loginAs(server, 'bob')),
      params: request,
    });
    expect(again.body).toEqual({
      result: 'success',
      msg: '',
      processed_count: count,
      updated_count: count - done,
      first_processed_id: messages[0],
      last_processed_id: messages.at(-1),
      found_oldest: true,
      found_newest: true,
    });
    const finished = bobsCopies();
    expect(finished.map((c) => c.message_id)).toEqual(messages);
    expect(new Set(finished.map((c) => c.flags))).toEqual(new Set([READ | STARRED | HISTORICAL]));
  });
});
