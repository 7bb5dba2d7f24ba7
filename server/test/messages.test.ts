/** POST /messages and GET /messages: targets, permissions, limits, message events, anchors, narrows. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { makeTempDir, removeDir } from '../../test/support/server';
import { DB_FILE_NAME, openDatabase } from '../db';
import { directMessageUserIds, directRecipientId } from '../db/messages';
import { authOf, call, demoIds, eventsAfter, query, serviceWith, startTestService } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob, admin, moderator, guest } = await serviceWith(
  ['alice', 'bob', 'admin', 'moderator', 'guest'],
  { rateLimits: { user: 0, ip: 0 } },
);
const { users: ids, streams } = demoIds(svc);

const messageCount = () => query<{ n: number }>(svc, 'SELECT COUNT(*) AS n FROM messages')[0]?.n;

async function send(client: ApiClient, params: Record<string, unknown>) {
  return call(svc.url, 'POST', '/messages', { auth: authOf(client), params: params as never });
}

/** The error envelopes of the tables below, without `result`. */
const bad = (msg: string) => ({ msg, code: 'BAD_REQUEST' });
const missing = (name: string) => ({
  msg: `Missing '${name}' argument`,
  code: 'REQUEST_VARIABLE_MISSING',
  var_name: name,
});

const userId = (client: ApiClient) => {
  const local = client.credentials?.email.split('@')[0] ?? '';
  const id = ids[local];
  if (id === undefined) throw new Error(`no id for ${local}`);
  return id;
};

describe('POST /messages to a stream', () => {
  it('sends by stream name and delivers message events with per-recipient flags', async () => {
    const { events, result, states } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        alice.request('POST', '/messages', {
          type: 'stream',
          to: 'general',
          topic: 'lunch',
          content: 'Pizza **today**?',
        }),
    });
    const id = result.id as number;
    expect(result).toEqual({ result: 'success', msg: '', id });
    const message = {
      id,
      type: 'stream',
      stream_id: streams.general,
      subject: 'lunch',
      topic_links: [],
      content: '<p>Pizza <strong>today</strong>?</p>',
      content_type: 'text/html',
      display_recipient: 'general',
      recipient_id: expect.any(Number),
      sender_id: userId(alice),
      sender_email: alice.credentials?.email,
      sender_full_name: 'Alice Doe',
      sender_realm_str: '',
      timestamp: expect.any(Number),
      is_me_message: false,
      client: 'node',
      // The app registers with client_extavatar: it computes external avatar URLs itself.
      avatar_url: null,
      reactions: [],
      submessages: [],
    };
    expect(events[0]).toEqual([{ type: 'message', message, flags: ['read'], id: 0 }]);
    expect(events[1]).toEqual([{ type: 'message', message, flags: [], id: 0 }]);
    expect(states[1]?.max_message_id).toBe(id);
    // register's unread_msgs (server/events/initial-state/messages.ts) now lists it for bob.
    const unread = states[1]?.unread_msgs as { count: number; streams: Record<string, unknown>[] };
    expect(unread.streams).toContainEqual({
      stream_id: streams.general,
      topic: 'lunch',
      unread_message_ids: [id],
    });
    const aliceUnread = (states[0]?.unread_msgs ?? { streams: [] }) as {
      streams: { unread_message_ids: number[] }[];
    };
    expect(aliceUnread.streams.flatMap((s) => s.unread_message_ids)).not.toContain(id);
  });

  it('accepts a stream id as JSON, a JSON-quoted name, a one-element list and the legacy subject', async () => {
    for (const to of [String(streams.general), '"general"', '["general"]', `[${streams.general}]`]) {
      const r = await send(alice, { type: 'stream', to, subject: 'forms', content: `to=${to}` });
      expect(r.status).toBe(200);
      const [row] = query<{ stream_id: number; topic: string }>(
        svc,
        'SELECT stream_id, topic FROM messages WHERE id = ?',
        r.body.id,
      );
      expect(row).toEqual({ stream_id: streams.general, topic: 'forms' });
    }
  });

  it('gives the sender a read copy even without a subscription, and guests no events', async () => {
    const r = await send(bob, { type: 'stream', to: 'engineering', topic: 'drive-by', content: 'hi' });
    expect(r.status).toBe(200);
    const copies = query<{ user_id: number; flags: number }>(
      svc,
      'SELECT user_id, flags FROM user_messages WHERE message_id = ? ORDER BY user_id',
      r.body.id,
    );
    expect(copies).toEqual(
      [
        { user_id: ids.admin, flags: 0 },
        { user_id: ids.alice, flags: 0 },
        { user_id: ids.bob, flags: 1 },
      ].sort((a, b) => (a.user_id ?? 0) - (b.user_id ?? 0)),
    );
  });

  it('honours stream_post_policy for each value', async () => {
    svc.sql("UPDATE streams SET stream_post_policy = 4 WHERE name = 'engineering'");
    try {
      expect(
        (await send(alice, { type: 'stream', to: 'engineering', topic: 't', content: 'x' })).body,
      ).toEqual({
        result: 'error',
        msg: 'Only organization administrators and moderators can send to this stream.',
        code: 'BAD_REQUEST',
      });
      expect(
        (await send(moderator, { type: 'stream', to: 'engineering', topic: 't', content: 'x' })).status,
      ).toBe(200);
      svc.sql("UPDATE streams SET stream_post_policy = 3 WHERE name = 'general'");
      expect((await send(guest, { type: 'stream', to: 'general', topic: 't', content: 'x' })).body).toEqual({
        result: 'error',
        msg: 'Guests cannot send to this stream.',
        code: 'BAD_REQUEST',
      });
      expect((await send(bob, { type: 'stream', to: 'general', topic: 't', content: 'x' })).status).toBe(200);
    } finally {
      svc.sql("UPDATE streams SET stream_post_policy = 1 WHERE name IN ('engineering', 'general')");
    }
    // announce is administrators-only in the demo organization.
    expect((await send(admin, { type: 'stream', to: 'announce', topic: 'news', content: 'x' })).status).toBe(
      200,
    );
  });

  it('truncates overlong topics and content like the interface family', async () => {
    const r = await send(alice, {
      type: 'stream',
      to: 'general',
      topic: 't'.repeat(70),
      content: 'y'.repeat(10_050),
    });
    expect(r.status).toBe(200);
    const [row] = query<{ topic: string; content: string }>(
      svc,
      'SELECT topic, content FROM messages WHERE id = ?',
      r.body.id,
    );
    expect(row?.topic).toBe(`${'t'.repeat(57)}...`);
    expect(row?.content.length).toBe(10_000);
    expect(row?.content.endsWith('\n[message truncated]')).toBe(true);
  });

  it('sends raw Markdown to queues registered without apply_markdown, and public messages to all_public_streams', async () => {
    const raw = await bob.registerQueue({ apply_markdown: false, event_types: ['message'] });
    const watcher = await moderator.registerQueue({ all_public_streams: true, event_types: ['message'] });
    const plain = await moderator.registerQueue({ event_types: ['message'] });
    const r = await send(alice, { type: 'stream', to: 'general', topic: 'raw', content: '*hi*' });
    const e1 = await eventsAfter(bob, raw.queue_id as string, -1);
    expect(e1[0]?.message).toMatchObject({ content: '*hi*', content_type: 'text/x-markdown' });
    // engineering: the moderator is not subscribed; only the all_public_streams queue hears it.
    const e = await send(alice, { type: 'stream', to: 'engineering', topic: 'pub', content: 'x' });
    const got = await eventsAfter(moderator, watcher.queue_id as string, -1);
    expect(got.map((ev) => [(ev.message as { id: number }).id, ev.flags])).toEqual([
      [r.body.id, []],
      [e.body.id, []],
    ]);
    const plainGot = await eventsAfter(moderator, plain.queue_id as string, -1);
    expect(plainGot.map((ev) => (ev.message as { id: number }).id)).toEqual([r.body.id]);
  });
});

describe('POST /messages event shapes', () => {
  it('each apply_markdown/client_extavatar shape of the event equals what GET /messages answers', async () => {
    const shapes = [
      [true, false],
      [true, true],
      [false, false],
      [false, true],
    ] as const;
    const queues = [];
    for (const [applyMarkdown, gravatar] of shapes)
      queues.push(
        await bob.registerQueue({
          apply_markdown: applyMarkdown,
          client_extavatar: gravatar,
          event_types: ['message'],
        }),
      );
    const sent = await send(alice, {
      type: 'stream',
      to: 'general',
      topic: 'shapes',
      content: '**bold** no mention',
    });
    for (const [i, [applyMarkdown, gravatar]] of shapes.entries()) {
      const [event] = await eventsAfter(bob, queues[i]?.queue_id as string, -1);
      const fetched = await call(svc.url, 'GET', '/messages', {
        auth: authOf(bob),
        params: {
          anchor: String(sent.body.id),
          num_before: 0,
          num_after: 0,
          apply_markdown: applyMarkdown,
          client_extavatar: gravatar,
        } as never,
      });
      const { flags, ...message } = (fetched.body.messages as Record<string, unknown>[])[0] ?? {};
      expect(event?.message).toEqual(message);
      expect(event?.flags).toEqual(flags);
      expect(message.content_type).toBe(applyMarkdown ? 'text/html' : 'text/x-markdown');
    }
  });
});

describe('POST /messages mentions', () => {
  it('sets mentioned for a named user and wildcard_mentioned for @**all**; the unread mentions follow', async () => {
    const { events, result, states } = await verifyAction({
      clients: [alice, bob, admin],
      action: () =>
        alice.request('POST', '/messages', {
          type: 'stream',
          to: 'general',
          topic: 'mentions',
          content: 'ping @**Bob Smith** and @_**Adam Reyes**',
        }),
    });
    const id = result.id as number;
    expect(events[1]?.[0]).toMatchObject({ type: 'message', flags: ['mentioned'] });
    expect(events[2]?.[0]).toMatchObject({ type: 'message', flags: [] });
    expect(events[1]?.[0]?.message).toMatchObject({
      content:
        `<p>ping <span class="user-mention" data-user-id="${userId(bob)}">@Bob Smith</span> and ` +
        `<span class="user-mention silent" data-user-id="${userId(admin)}">Adam Reyes</span></p>`,
    });
    expect(states[1]?.unread_msgs).toMatchObject({ mentions: expect.arrayContaining([id]) });
    expect(states[2]?.unread_msgs).toMatchObject({ mentions: expect.not.arrayContaining([id]) });

    const all = await verifyAction({
      clients: [alice, bob],
      action: () =>
        alice.request('POST', '/messages', {
          type: 'stream',
          to: 'general',
          topic: 'mentions',
          content: '@**all** hi',
        }),
    });
    expect(all.events[0]?.[0]).toMatchObject({ flags: ['read'] });
    expect(all.events[1]?.[0]).toMatchObject({ flags: ['wildcard_mentioned'] });
  });
});

describe('POST /messages local echo', () => {
  it('echoes local_id as local_message_id to the sending queue only', async () => {
    const mine = await alice.registerQueue({ event_types: ['message'] });
    const other = await alice.registerQueue({ event_types: ['message'] });
    const bobs = await bob.registerQueue({ event_types: ['message'] });
    const r = await send(alice, {
      type: 'stream',
      to: 'general',
      topic: 'echo',
      content: 'x',
      queue_id: mine.queue_id,
      local_id: '12.01',
    });
    const [echoed] = await eventsAfter(alice, mine.queue_id as string, -1);
    expect(echoed).toMatchObject({
      type: 'message',
      local_message_id: '12.01',
      flags: ['read'],
      message: { id: r.body.id },
    });
    const [plain] = await eventsAfter(alice, other.queue_id as string, -1);
    expect(plain).not.toHaveProperty('local_message_id');
    const [bobEvent] = await eventsAfter(bob, bobs.queue_id as string, -1);
    expect(bobEvent).not.toHaveProperty('local_message_id');
  });
});

describe('POST /messages, direct', () => {
  it('sends to user ids; both sides get the event, nobody else', async () => {
    const { events, result } = await verifyAction({
      clients: [alice, bob, moderator],
      action: () =>
        alice.request('POST', '/messages', { type: 'private', to: [userId(bob)], content: 'psst' }),
    });
    const id = result.id as number;
    expect(events[0]?.map((e) => [e.type, (e.message as { id: number }).id, e.flags])).toEqual([
      ['message', id, ['read']],
    ]);
    expect(events[1]?.map((e) => [e.type, (e.message as { id: number }).id, e.flags])).toEqual([
      ['message', id, []],
    ]);
    expect(events[2]).toEqual([]);
    const message = events[1]?.[0]?.message as Record<string, unknown>;
    expect(message.type).toBe('private');
    expect(message.subject).toBe('');
    expect(message).not.toHaveProperty('stream_id');
    expect(message.display_recipient).toEqual(
      [
        {
          id: userId(alice),
          email: alice.credentials?.email,
          full_name: 'Alice Doe',
          is_mirror_dummy: false,
        },
        { id: userId(bob), email: bob.credentials?.email, full_name: 'Bob Smith', is_mirror_dummy: false },
      ].sort((a, b) => a.id - b.id),
    );
  });

  it('accepts emails as a JSON list or comma-separated, and groups', async () => {
    const bobEmail = bob.credentials?.email ?? '';
    const modEmail = moderator.credentials?.email ?? '';
    for (const to of [JSON.stringify([bobEmail]), bobEmail, `${bobEmail}, ${modEmail}`]) {
      const r = await send(alice, { type: 'direct', to, content: 'hello' });
      expect(r.status).toBe(200);
    }
    const groups = query<{ n: number }>(svc, 'SELECT COUNT(*) AS n FROM direct_groups')[0]?.n;
    expect(groups).toBeGreaterThanOrEqual(1);
  });
});

describe('POST /messages errors change nothing', () => {
  /** A stream message's parameters, and a direct message's. */
  const toStream = (to: string, topic: string, content = 'x') => ({ type: 'stream', to, topic, content });
  const direct = (to: string) => ({ type: 'private', to, content: 'x' });
  const noStream = (msg: string, extra: Record<string, unknown>) => ({
    msg,
    code: 'STREAM_DOES_NOT_EXIST',
    ...extra,
  });
  const rows: [string, Record<string, unknown>, 'alice' | 'bob' | 'guest', Record<string, unknown>][] = [
    ['missing type', { to: 'general', topic: 't', content: 'x' }, 'alice', missing('type')],
    [
      'bad type',
      { type: 'email', to: 'general', topic: 't', content: 'x' },
      'alice',
      bad('Invalid message type'),
    ],
    ['missing to', { type: 'stream', topic: 't', content: 'x' }, 'alice', missing('to')],
    ['missing content', { type: 'stream', to: 'general', topic: 't' }, 'alice', missing('content')],
    ['missing topic', { type: 'stream', to: 'general', content: 'x' }, 'alice', bad('Missing topic')],
    ['empty topic', toStream('general', '  '), 'alice', bad("Topic can't be empty!")],
    ['empty content', toStream('general', 't', ' \n '), 'alice', bad('Message must not be empty')],
    [
      'null byte in content',
      toStream('general', 't', 'a\u0000b'),
      'alice',
      bad('Message must not contain null bytes'),
    ],
    ['null byte in topic', toStream('general', 'a\u0000'), 'alice', bad('Topic must not contain null bytes')],
    [
      'unknown stream name',
      toStream('nope', 't'),
      'alice',
      noStream("Stream 'nope' does not exist", { stream: 'nope' }),
    ],
    [
      'unknown stream id',
      toStream('9999', 't'),
      'alice',
      noStream("Stream with ID '9999' does not exist", { stream_id: 9999 }),
    ],
    ['two streams', toStream('["general","design"]', 't'), 'alice', bad('Cannot send to multiple streams')],
    [
      'private stream, not subscribed',
      toStream('design', 't'),
      'bob',
      bad("Not authorized to send to stream 'design'"),
    ],
    [
      'guest, public stream not subscribed',
      toStream('engineering', 't'),
      'guest',
      bad("Not authorized to send to stream 'engineering'"),
    ],
    [
      'admins-only stream',
      toStream('announce', 't'),
      'alice',
      bad('Only organization administrators can send to this stream.'),
    ],
    ['unknown user id', direct('[424242]'), 'alice', bad('Invalid user ID 424242')],
    ['unknown email', direct('nobody@example.com'), 'alice', bad("Invalid email 'nobody@example.com'")],
    [
      'mixed recipients',
      direct('[1, "a@b.c"]'),
      'alice',
      bad('Recipient lists may contain emails or user IDs, but not both.'),
    ],
    ['no recipients', direct('[]'), 'alice', bad('Message must have recipients')],
  ];
  it.each(rows)('%s', async (_name, params, who, expected) => {
    const client = { alice, bob, guest }[who];
    const before = messageCount();
    const r = await send(client, params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', ...expected });
    expect(messageCount()).toBe(before);
  });

  it('needs authentication', async () => {
    const r = await call(svc.url, 'POST', '/messages', {
      params: { type: 'stream', to: 'general', topic: 't', content: 'x' },
    });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /messages', () => {
  let topicIds: number[] = [];

  beforeAll(async () => {
    topicIds = [];
    for (let i = 1; i <= 5; i++) {
      const r = await send(i % 2 ? alice : admin, {
        type: 'stream',
        to: 'engineering',
        topic: 'fetch-test',
        content: i === 3 ? 'needle in a haystack' : `message ${i}`,
      });
      topicIds.push(r.body.id as number);
    }
  });

  const get = (client: ApiClient, params: Record<string, unknown>) =>
    call(svc.url, 'GET', '/messages', { auth: authOf(client), params: params as never });
  const narrowTopic = [
    ['stream', 'engineering'],
    ['topic', 'fetch-test'],
  ];

  it('fetches around a numeric anchor with found_* flags', async () => {
    const r = await get(alice, {
      anchor: String(topicIds[2]),
      num_before: 1,
      num_after: 1,
      narrow: JSON.stringify(narrowTopic),
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      result: 'success',
      msg: '',
      anchor: topicIds[2],
      found_anchor: true,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    });
    expect((r.body.messages as { id: number }[]).map((m) => m.id)).toEqual(topicIds.slice(1, 4));
  });

  it('newest and oldest anchors, and the dict form of narrow', async () => {
    const dict = JSON.stringify([
      { operator: 'stream', operand: streams.engineering },
      { operator: 'topic', operand: 'FETCH-TEST' },
    ]);
    const newest = await get(alice, { anchor: 'newest', num_before: 10, num_after: 0, narrow: dict });
    expect(newest.body).toMatchObject({
      anchor: 10_000_000_000_000_000,
      found_anchor: false,
      found_oldest: true,
      found_newest: true,
    });
    expect((newest.body.messages as { id: number }[]).map((m) => m.id)).toEqual(topicIds);
    const oldest = await get(alice, { anchor: 'oldest', num_before: 0, num_after: 2, narrow: dict });
    expect(oldest.body).toMatchObject({
      anchor: 0,
      found_anchor: false,
      found_oldest: true,
      found_newest: false,
    });
    expect((oldest.body.messages as { id: number }[]).map((m) => m.id)).toEqual(topicIds.slice(0, 2));
  });

  it('first_unread, is:unread, sender and search', async () => {
    // alice sent 1, 3, 5 (read); admin sent 2 and 4 (unread for alice).
    const first = await get(alice, {
      anchor: 'first_unread',
      num_before: 0,
      num_after: 0,
      narrow: JSON.stringify(narrowTopic),
    });
    expect(first.body.anchor).toBe(topicIds[1]);
    expect((first.body.messages as { id: number }[]).map((m) => m.id)).toEqual([topicIds[1]]);
    const unread = await get(alice, {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: JSON.stringify([...narrowTopic, ['is', 'unread']]),
    });
    expect((unread.body.messages as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags])).toEqual([
      [topicIds[1], []],
      [topicIds[3], []],
    ]);
    const sender = await get(alice, {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: JSON.stringify([...narrowTopic, ['sender', admin.credentials?.email]]),
    });
    expect((sender.body.messages as { id: number }[]).map((m) => m.id)).toEqual([topicIds[1], topicIds[3]]);
    const search = await get(alice, {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: JSON.stringify([['search', 'NEEDLE']]),
    });
    expect((search.body.messages as { id: number }[]).map((m) => m.id)).toEqual([topicIds[2]]);
    const negated = await get(alice, {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: JSON.stringify([...narrowTopic, { operator: 'sender', operand: userId(admin), negated: true }]),
    });
    expect((negated.body.messages as { id: number }[]).map((m) => m.id)).toEqual([
      topicIds[0],
      topicIds[2],
      topicIds[4],
    ]);
  });

  it('shows a public stream history to a non-subscriber, as read and historical', async () => {
    const r = await get(bob, {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: JSON.stringify(narrowTopic),
    });
    expect((r.body.messages as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags])).toEqual(
      topicIds.map((id) => [id, ['read', 'historical']]),
    );
    // Without a stream narrow only the user's own copies count.
    const all = await get(bob, { anchor: 'newest', num_before: 5000, num_after: 0 });
    const got = new Set((all.body.messages as { id: number }[]).map((m) => m.id));
    expect(topicIds.some((id) => got.has(id))).toBe(false);
  });

  it('direct messages: is:dm and dm with', async () => {
    const sent = await send(bob, {
      type: 'private',
      to: JSON.stringify([userId(alice)]),
      content: 'dm-narrow',
    });
    const r = await get(alice, {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: JSON.stringify([['dm', bob.credentials?.email]]),
    });
    expect((r.body.messages as { id: number }[]).map((m) => m.id)).toEqual([sent.body.id]);
    const ids2 = await get(alice, {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'pm-with', operand: [userId(bob)] }]),
    });
    expect((ids2.body.messages as { id: number }[]).map((m) => m.id)).toEqual([sent.body.id]);
    const isDm = await get(moderator, {
      anchor: 'newest',
      num_before: 5000,
      num_after: 0,
      narrow: JSON.stringify([['is', 'private']]),
    });
    expect((isDm.body.messages as { id: number; type: string }[]).every((m) => m.type === 'private')).toBe(
      true,
    );
    expect((isDm.body.messages as { id: number }[]).some((m) => m.id === sent.body.id)).toBe(false);
  });

  it('dm narrow: each one-to-one conversation is its own (not shared with another pair)', async () => {
    // C has the highest id: before the fix both conversations were stored under C's recipient.
    const [a, b, c] = [alice, bob, admin, moderator].sort((x, y) => userId(x) - userId(y)).slice(1);
    if (!a || !b || !c) throw new Error('users');
    const fromA = await send(a, { type: 'private', to: JSON.stringify([userId(c)]), content: 'pair a->c' });
    const fromB = await send(b, { type: 'private', to: JSON.stringify([userId(c)]), content: 'pair b->c' });
    const toSelf = await send(c, { type: 'private', to: JSON.stringify([userId(c)]), content: 'pair c->c' });
    const narrowIds = async (client: ApiClient, operand: unknown) =>
      (
        (
          await get(client, {
            anchor: 'newest',
            num_before: 5000,
            num_after: 0,
            narrow: JSON.stringify([['dm', operand]]),
          })
        ).body.messages as { id: number }[]
      )
        .map((m) => m.id)
        .filter((id) => [fromA.body.id, fromB.body.id, toSelf.body.id].includes(id));
    expect(await narrowIds(c, [userId(a)])).toEqual([fromA.body.id]);
    expect(await narrowIds(c, [userId(b)])).toEqual([fromB.body.id]);
    expect(await narrowIds(a, [userId(c)])).toEqual([fromA.body.id]);
    expect(await narrowIds(c, [userId(c)])).toEqual([toSelf.body.id]);
    // recent_private_conversations: one entry per conversation, newest first.
    const state = await c.request('POST', '/register', {
      event_types: ['recent_private_conversations'],
    });
    const recent = (
      state as { recent_private_conversations: { max_message_id: number; user_ids: number[] }[] }
    ).recent_private_conversations;
    expect(recent.slice(0, 3)).toEqual([
      { max_message_id: toSelf.body.id, user_ids: [] },
      { max_message_id: fromB.body.id, user_ids: [userId(b)] },
      { max_message_id: fromA.body.id, user_ids: [userId(a)] },
    ]);
  });

  it('raw Markdown with apply_markdown=false', async () => {
    const r = await get(alice, {
      anchor: String(topicIds[2]),
      num_before: 0,
      num_after: 0,
      apply_markdown: false,
      narrow: JSON.stringify(narrowTopic),
    });
    expect((r.body.messages as Record<string, unknown>[])[0]).toMatchObject({
      content: 'needle in a haystack',
      content_type: 'text/x-markdown',
    });
  });

  const badNarrow = (what: string) => ({ msg: `Invalid narrow operator: ${what}`, code: 'BAD_NARROW' });
  /** The newest message and the one before, in a narrow. */
  const narrowed = (narrow: string) => ({ anchor: 'newest', num_before: 1, num_after: 0, narrow });
  const errors: [string, Record<string, unknown>, 'alice' | 'bob' | 'guest', Record<string, unknown>][] = [
    ['missing anchor', { num_before: 1, num_after: 1 }, 'alice', missing('anchor')],
    ['bad anchor', { anchor: 'latest', num_before: 1, num_after: 1 }, 'alice', bad('Invalid anchor')],
    ['missing num_before', { anchor: 'newest', num_after: 1 }, 'alice', missing('num_before')],
    [
      'negative num_after',
      { anchor: 'newest', num_before: 1, num_after: -1 },
      'alice',
      bad('num_after is too small'),
    ],
    [
      'too many',
      { anchor: 'newest', num_before: 5000, num_after: 1 },
      'alice',
      bad('Too many messages requested (maximum 5000).'),
    ],
    ['narrow not JSON', narrowed('[[stream'), 'alice', bad('narrow is not valid JSON')],
    ['narrow wrong shape', narrowed('[["stream"]]'), 'alice', bad('Invalid narrow')],
    ['unknown operator', narrowed('[["color","red"]]'), 'alice', badNarrow('unknown operator')],
    ['private stream not visible', narrowed('[["stream","design"]]'), 'bob', badNarrow('unknown stream')],
    [
      'guest, unsubscribed public stream',
      narrowed('[["stream","engineering"]]'),
      'guest',
      badNarrow('unknown stream'),
    ],
    ['unknown sender', narrowed('[["sender","x@y.z"]]'), 'alice', badNarrow('unknown user')],
  ];
  it.each(errors)('error: %s', async (_name, params, who, expected) => {
    const r = await get({ alice, bob, guest }[who], params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', ...expected });
  });
});

describe('migration 3 (direct_pairs)', () => {
  it('moves existing one-to-one DMs stored the old way to a recipient per pair, keeping ids', async () => {
    const dataDir = await makeTempDir('confab-migrate-');
    try {
      const old = await startTestService({ dataDir });
      await old.close();
      // Rewrite the seeded DMs into the old storage: a one-to-one DM under the personal
      // recipient of the member with the higher id, no pair groups, migration 3 not recorded.
      const raw = new Database(join(dataDir, DB_FILE_NAME));
      const before = raw
        .prepare(
          `SELECT m.id, m.sender_id, m.recipient_id, m.content FROM messages m
           WHERE m.stream_id IS NULL ORDER BY m.id`,
        )
        .all() as { id: number; sender_id: number; recipient_id: number; content: string }[];
      const pairs = raw
        .prepare(
          `SELECT r.id AS recipient_id, g.id AS group_id, MAX(dgm.user_id) AS high
           FROM direct_groups g JOIN recipients r ON r.type = 3 AND r.type_id = g.id
           JOIN direct_group_members dgm ON dgm.group_id = g.id
           GROUP BY g.id HAVING COUNT(*) = 2`,
        )
        .all() as { recipient_id: number; group_id: number; high: number }[];
      expect(pairs.length).toBeGreaterThan(0);
      raw.transaction(() => {
        for (const p of pairs) {
          raw
            .prepare(
              'UPDATE messages SET recipient_id = (SELECT id FROM recipients WHERE type = 1 AND type_id = ?) WHERE recipient_id = ?',
            )
            .run(p.high, p.recipient_id);
          raw.prepare('DELETE FROM recipients WHERE id = ?').run(p.recipient_id);
          raw.prepare('DELETE FROM direct_groups WHERE id = ?').run(p.group_id);
        }
        raw.prepare('DELETE FROM schema_migrations WHERE version = 3').run();
      })();
      raw.close();

      const db = openDatabase(dataDir);
      try {
        const after = db
          .prepare(
            'SELECT id, sender_id, recipient_id, content FROM messages WHERE stream_id IS NULL ORDER BY id',
          )
          .all() as { id: number; sender_id: number; recipient_id: number }[];
        expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id));
        for (const m of after) {
          const members = (
            db
              .prepare('SELECT user_id FROM user_messages WHERE message_id = ? ORDER BY user_id')
              .all(m.id) as {
              user_id: number;
            }[]
          ).map((r) => r.user_id);
          expect(m.recipient_id).toBe(directRecipientId(db, members, false));
          expect(directMessageUserIds(db, m)).toEqual(members);
        }
        // Messages of one conversation share a recipient, as before the rewrite.
        const grouping = (rows: { recipient_id: number }[]) =>
          rows.map((m) => rows[0]?.recipient_id === m.recipient_id);
        expect(grouping(after)).toEqual(grouping(before));
      } finally {
        db.close();
      }
    } finally {
      await removeDir(dataDir);
    }
  }, 60_000);
});
