/**
 * Long writes cut into slices (issue 11): a subscription request naming thousands of people,
 * marking a stream with thousands of unread messages as read, and a flag change on thousands
 * of messages each commit in slices of bounded size, send each slice's events after its
 * commit, and let the event loop run between slices (a waiting poll is answered with one
 * slice's events before the next slice runs).
 */
import { describe, expect, it } from 'vitest';
import { FLAGS_SLICE_SIZE } from '../actions/flags';
import { MARK_STREAM_BATCH_SIZE } from '../actions/read';
import { SUBSCRIBE_SLICE_ROWS } from '../actions/subscriptions';
import { authOf, call, demoIds, everyone, query, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc } = await serviceWith([]);
const { clients, ids } = await everyone(svc);

/** Adds `count` members to the organization straight in the database (no password, no events). */
function insertMembers(count: number, prefix: string): number[] {
  svc.sql(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role, date_joined_ms)
     SELECT (SELECT id FROM realm), ? || i || '@bulk.example', ? || i || '@bulk.example',
       'Bulk ' || i, ? || '-key-' || i, 400, 0 FROM n`,
    count,
    prefix,
    prefix,
    prefix,
  );
  return query<{ id: number }>(svc, 'SELECT id FROM users WHERE email LIKE ? ORDER BY id', `${prefix}%`).map(
    (r) => r.id,
  );
}

const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

describe('POST /users/me/subscriptions in slices', () => {
  // SUBSCRIBE_SLICE_ROWS principals: checking them fills the first slice, which then takes
  // only the first person (alice); the second slice takes everyone else (bob last).
  const others = insertMembers(SUBSCRIBE_SLICE_ROWS - 2, 'slices');
  const principals = [ids.alice, ...others, ids.bob];

  it('commits each slice with its own events, which leave every client with the right state', async () => {
    await clients.admin.request('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'bulk one' }] });
    const streamId = demoIds(svc).streams['bulk one'] as number;
    const { events, result } = await verifyAction({
      clients: [clients.alice, clients.bob, clients.moderator],
      stateKeys: ['subscriptions', 'unsubscribed', 'never_subscribed'],
      action: () =>
        clients.admin.request('POST', '/users/me/subscriptions', {
          subscriptions: [{ name: 'bulk one' }],
          principals,
        }),
    });
    expect(Object.keys(result.subscribed as object)).toHaveLength(principals.length);
    expect(result.already_subscribed).toEqual({});
    const added = (
      query<{ n: number }>(
        svc,
        'SELECT COUNT(*) AS n FROM subscriptions WHERE stream_id = ? AND active = 1',
        streamId,
      )[0] as { n: number }
    ).n;
    expect(added).toBe(principals.length + 1);

    const peerAdd = (userIds: number[]) => ({
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [streamId],
      user_ids: userIds,
    });
    const [alice = [], bob = [], moderator = []] = events as Record<string, unknown>[][];
    const subscribersIn = (event: Record<string, unknown> | undefined) =>
      (event?.subscriptions as Record<string, unknown>[] | undefined)?.[0]?.subscribers;
    // Alice, in the first slice, learns of the members as they were then, and later of the
    // second slice's people as peers.
    expect(alice.map((e) => e.op)).toEqual(['add', 'peer_add']);
    expect(subscribersIn(alice[0])).toEqual(sorted([ids.admin, ids.alice]));
    expect(alice[1]).toMatchObject(peerAdd([...others, ids.bob]));
    // Bob, in the second slice, hears of alice first, then gets every member.
    expect(bob.map((e) => e.op)).toEqual(['peer_add', 'add']);
    expect(bob[0]).toMatchObject(peerAdd([ids.alice]));
    expect(subscribersIn(bob[1])).toEqual(sorted([ids.admin, ...principals]));
    // Someone who only watches gets one peer_add per slice.
    expect(moderator).toMatchObject([peerAdd([ids.alice]), peerAdd([...others, ids.bob])]);
  });

  it('answers a waiting poll with the first slice before the next one runs', async () => {
    await clients.admin.request('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'bulk two' }] });
    const queue = await clients.alice.registerQueue({ event_types: ['subscription'] });
    const queueId = queue.queue_id as string;
    const poll = clients.alice.getEvents({ queue_id: queueId, last_event_id: queue.last_event_id });
    await svc.service.events.whenWaiting(queueId);
    const done = clients.admin.request('POST', '/users/me/subscriptions', {
      subscriptions: [{ name: 'bulk two' }],
      principals,
    });
    const first = await poll;
    await done;
    expect(first.events.map((e) => e.op)).toEqual(['add']);
    const rest = await clients.alice.getEvents({
      queue_id: queueId,
      last_event_id: Math.max(...first.events.map((e) => e.id)),
      dont_block: true,
    });
    expect(rest.events.map((e) => [e.op, (e.user_ids as number[]).length])).toEqual([
      ['peer_add', principals.length - 1],
    ]);
  });
});

/** `count` messages from the admin to a topic of engineering, each with an unread copy for alice. */
function insertUnread(topic: string, count: number): number {
  const streamId = demoIds(svc).streams.engineering as number;
  svc.sql(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent)
     SELECT (SELECT id FROM realm), ?, (SELECT id FROM recipients WHERE type = 2 AND type_id = ?), ?,
       ?, 'm' || i, '<p>m</p>', 1000 + i FROM n`,
    count,
    ids.admin,
    streamId,
    streamId,
    topic,
  );
  svc.sql(
    `INSERT INTO user_messages (user_id, message_id, flags)
     SELECT ?, id, 0 FROM messages WHERE stream_id = ? AND topic = ?`,
    ids.alice,
    streamId,
    topic,
  );
  return streamId;
}

describe('mark_stream_as_read in batches', () => {
  it('marks the newest batch first, tells the client after each batch, and marks the rest', async () => {
    const count = MARK_STREAM_BATCH_SIZE + 100;
    const streamId = insertUnread('batches', count);
    const unread = () =>
      query<{ id: number }>(
        svc,
        `SELECT um.message_id AS id FROM user_messages um JOIN messages m ON m.id = um.message_id
         WHERE um.user_id = ? AND m.stream_id = ? AND (um.flags & 1) = 0 ORDER BY um.message_id`,
        ids.alice,
        streamId,
      ).map((r) => r.id);
    const before = unread();
    expect(before.length).toBeGreaterThanOrEqual(count);

    const queue = await clients.alice.registerQueue({ event_types: ['update_message_flags'] });
    const queueId = queue.queue_id as string;
    const poll = clients.alice.getEvents({ queue_id: queueId, last_event_id: queue.last_event_id });
    await svc.service.events.whenWaiting(queueId);
    const response = await call(svc.url, 'POST', '/mark_stream_as_read', {
      auth: authOf(clients.alice),
      params: { stream_id: streamId },
    });
    expect(response.body).toEqual({ result: 'success', msg: '' });
    const first = await poll;
    const event = (messages: number[]) => ({
      type: 'update_message_flags',
      op: 'add',
      flag: 'read',
      messages,
      all: false,
    });
    expect(first.events).toMatchObject([event(before.slice(-MARK_STREAM_BATCH_SIZE))]);
    const rest = await clients.alice.getEvents({
      queue_id: queueId,
      last_event_id: Math.max(...first.events.map((e) => e.id)),
      dont_block: true,
    });
    // The second batch's event (which the queue may merge with the first, unacknowledged one).
    expect(rest.events).toHaveLength(1);
    expect(rest.events[0]?.messages).toEqual(
      expect.arrayContaining(before.slice(0, -MARK_STREAM_BATCH_SIZE)),
    );
    expect(unread()).toEqual([]);
  });
});

describe('POST /messages/flags in slices', () => {
  it('changes the oldest slice first, tells the client after each slice, and changes the rest', async () => {
    insertUnread('flag slices', FLAGS_SLICE_SIZE + 50);
    const messages = query<{ id: number }>(
      svc,
      "SELECT id FROM messages WHERE topic = 'flag slices' ORDER BY id",
    ).map((r) => r.id);
    const queue = await clients.alice.registerQueue({ event_types: ['update_message_flags'] });
    const queueId = queue.queue_id as string;
    const poll = clients.alice.getEvents({ queue_id: queueId, last_event_id: queue.last_event_id });
    await svc.service.events.whenWaiting(queueId);
    // Newest first, as sent: the answer repeats them; the slices go by id.
    const sent = [...messages].reverse();
    const response = await call(svc.url, 'POST', '/messages/flags', {
      auth: authOf(clients.alice),
      params: { messages: sent, op: 'add', flag: 'starred' },
    });
    expect(response.body).toEqual({ result: 'success', msg: '', messages: sent });
    const first = await poll;
    expect(first.events).toMatchObject([
      {
        type: 'update_message_flags',
        op: 'add',
        flag: 'starred',
        messages: messages.slice(0, FLAGS_SLICE_SIZE),
        all: false,
      },
    ]);
    const rest = await clients.alice.getEvents({
      queue_id: queueId,
      last_event_id: Math.max(...first.events.map((e) => e.id)),
      dont_block: true,
    });
    // The second slice's event (which the queue may merge with the first, unacknowledged one).
    expect(rest.events).toHaveLength(1);
    expect(rest.events[0]?.messages).toEqual(expect.arrayContaining(messages.slice(FLAGS_SLICE_SIZE)));
    const starred = query<{ n: number }>(
      svc,
      `SELECT COUNT(*) AS n FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND m.topic = 'flag slices' AND (um.flags & 2) != 0`,
      ids.alice,
    );
    expect(starred[0]?.n).toBe(messages.length);
  });
});
