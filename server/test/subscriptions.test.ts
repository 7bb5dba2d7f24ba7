/** POST, DELETE and GET /users/me/subscriptions: stream creation, access rules, events. */

import { describe, expect, it } from 'vitest';
import type { Params } from '../../shared/client';
import type { DemoUser } from '../../test/support/server';
import { authOf, call, everyone, serviceWith } from './support/service';
import { DEFAULT_REGISTER_PARAMS, verifyAction } from './support/verify-action';

const { svc } = await serviceWith([]);
const { clients, ids, emails } = await everyone(svc);

const post = (who: DemoUser, params: Params) =>
  call(svc.url, 'POST', '/users/me/subscriptions', { auth: authOf(clients[who]), params });
const del = (who: DemoUser, params: Params) =>
  call(svc.url, 'DELETE', '/users/me/subscriptions', { auth: authOf(clients[who]), params });
const subscribe = (who: DemoUser, params: Params) =>
  clients[who].request('POST', '/users/me/subscriptions', params);

/** Every stream of the organization, as an administrator sees them. */
async function allStreams(): Promise<Record<string, unknown>[]> {
  const r = await clients.admin.request('GET', '/streams', { include_all_active: true });
  return r.streams as Record<string, unknown>[];
}
const streamNamed = async (name: string) => (await allStreams()).find((s) => s.name === name);

const error = (msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => ({
  status: 400,
  body: { result: 'error', msg, code, ...extra },
});
const outcome = (r: { status: number; body: Record<string, unknown> }) => ({
  status: r.status,
  body: r.body,
});

describe('POST /users/me/subscriptions: creating streams', () => {
  it('creates a public stream with the defaults and tells everyone who can see it', async () => {
    const watched = [clients.alice, clients.bob, clients.guest, clients.admin];
    const { events, result, states } = await verifyAction({
      clients: watched,
      action: () => subscribe('alice', { subscriptions: [{ name: 'lounge', description: 'Chat **here**' }] }),
    });
    expect(result).toEqual({
      result: 'success',
      msg: '',
      subscribed: { [emails.alice]: ['lounge'] },
      already_subscribed: {},
    });
    const created = ((states[0]?.subscriptions ?? []) as Record<string, unknown>[]).find(
      (s) => s.name === 'lounge',
    );
    expect(created).toMatchObject({
      description: 'Chat **here**',
      rendered_description: '<p>Chat <strong>here</strong></p>',
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      stream_post_policy: 1,
      is_announcement_only: false,
      message_retention_days: null,
      first_message_id: null,
      subscribers: [ids.alice],
      is_muted: false,
      in_home_view: true,
    });
    const streamId = created?.stream_id;
    expect(events[0]?.map((e) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'add'],
    ]);
    const peer = { type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [ids.alice] };
    expect(events[1]?.map((e) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'peer_add'],
    ]);
    expect(events[1]?.[1]).toMatchObject(peer);
    // Guests do not see public streams they are not in.
    expect(events[2]).toEqual([]);
    expect(events[3]?.[1]).toMatchObject(peer);
  });

  it('creates a private stream for several principals (ids), history protected by default', async () => {
    const watched = [clients.alice, clients.bob, clients.admin, clients.moderator];
    const { events, result, states } = await verifyAction({
      clients: watched,
      action: () =>
        subscribe('alice', {
          subscriptions: [{ name: 'hush' }],
          invite_only: true,
          principals: [ids.alice, ids.bob],
        }),
    });
    expect(result).toMatchObject({
      subscribed: { [emails.alice]: ['hush'], [emails.bob]: ['hush'] },
      already_subscribed: {},
    });
    const hush = ((states[1]?.subscriptions ?? []) as Record<string, unknown>[]).find(
      (s) => s.name === 'hush',
    );
    expect(hush).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expect(events[0]?.map((e) => e.op)).toEqual(['create', 'add']);
    expect(events[1]?.map((e) => e.op)).toEqual(['create', 'add']);
    // Administrators see private streams and their members; others see nothing.
    expect(events[2]?.map((e) => e.op)).toEqual(['create', 'peer_add']);
    expect(events[2]?.[1]).toMatchObject({ user_ids: [ids.alice, ids.bob] });
    expect(events[3]).toEqual([]);
  });

  it('principals may be display emails', async () => {
    const r = await subscribe('alice', { subscriptions: [{ name: 'by-email' }], principals: [emails.bob] });
    expect(r.subscribed).toEqual({ [emails.bob]: ['by-email'] });
    const streams = await clients.bob.request('GET', '/users/me/subscriptions');
    expect((streams.subscriptions as { name: string }[]).map((s) => s.name)).toContain('by-email');
  });

  it('history_public_to_subscribers is honoured for private streams and always true for public ones', async () => {
    await subscribe('alice', {
      subscriptions: [{ name: 'open-history' }],
      invite_only: true,
      history_public_to_subscribers: true,
    });
    await subscribe('alice', {
      subscriptions: [{ name: 'public-history' }],
      history_public_to_subscribers: false,
    });
    expect(await streamNamed('open-history')).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: true,
    });
    expect(await streamNamed('public-history')).toMatchObject({
      invite_only: false,
      history_public_to_subscribers: true,
    });
  });

  it('takes stream_post_policy and message_retention_days (owner only) in every form', async () => {
    await subscribe('owner', {
      subscriptions: [{ name: 'ret-30' }],
      message_retention_days: 30,
      stream_post_policy: 3,
    });
    await subscribe('owner', {
      subscriptions: [{ name: 'ret-unlimited' }],
      message_retention_days: 'unlimited',
    });
    await subscribe('owner', {
      subscriptions: [{ name: 'ret-json' }],
      message_retention_days: '"unlimited"',
    });
    await subscribe('owner', {
      subscriptions: [{ name: 'ret-default' }],
      message_retention_days: 'realm_default',
    });
    expect(await streamNamed('ret-30')).toMatchObject({ message_retention_days: 30, stream_post_policy: 3 });
    expect(await streamNamed('ret-unlimited')).toMatchObject({ message_retention_days: -1 });
    expect(await streamNamed('ret-json')).toMatchObject({ message_retention_days: -1 });
    expect(await streamNamed('ret-default')).toMatchObject({
      message_retention_days: null,
      stream_post_policy: 1,
    });
    const r = await post('admin', { subscriptions: [{ name: 'ret-admin' }], message_retention_days: 5 });
    expect(outcome(r)).toEqual(error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    expect(await streamNamed('ret-admin')).toBeUndefined();
  });

  it('web-public streams need the organization setting and the permission', async () => {
    const params = { subscriptions: [{ name: 'on-the-web' }], is_web_public: true };
    expect(outcome(await post('admin', params))).toEqual(error('Web-public streams are not enabled.'));
    svc.sql('UPDATE realm SET enable_spectator_access = 1');
    try {
      expect(outcome(await post('alice', params))).toEqual(error('Insufficient permission'));
      expect(outcome(await post('admin', { ...params, invite_only: true }))).toEqual(
        error('Invalid parameters'),
      );
      expect(await streamNamed('on-the-web')).toBeUndefined();
      const { events } = await verifyAction({
        clients: [clients.guest],
        action: () => subscribe('admin', params),
      });
      // Guests see web-public streams.
      expect(events[0]?.map((e) => [e.type, e.op])).toEqual([
        ['stream', 'create'],
        ['subscription', 'peer_add'],
      ]);
      expect(await streamNamed('on-the-web')).toMatchObject({ is_web_public: true, invite_only: false });
    } finally {
      svc.sql('UPDATE realm SET enable_spectator_access = 0');
    }
  });

  it('guests cannot create streams', async () => {
    expect(outcome(await post('guest', { subscriptions: [{ name: 'guest-made' }] }))).toEqual(
      error('Insufficient permission'),
    );
    expect(await streamNamed('guest-made')).toBeUndefined();
  });
});

describe('POST /users/me/subscriptions: announce', () => {
  const rawContent = { ...DEFAULT_REGISTER_PARAMS, apply_markdown: false };

  it('the notification bot announces a new public stream in the announcement stream', async () => {
    const { events } = await verifyAction({
      clients: [clients.bob],
      registerParams: rawContent,
      action: () => subscribe('alice', { subscriptions: [{ name: 'announced' }], announce: true }),
    });
    const got = events[0] ?? [];
    expect(got.map((e) => `${e.type}:${e.op ?? ''}`)).toEqual([
      'stream:create',
      'subscription:peer_add',
      // The bot is created the first time it speaks, and introduced like any new user.
      'realm_user:add',
      'message:',
    ]);
    expect(got[2]).toMatchObject({ person: { full_name: 'Notification Bot', is_bot: true } });
    expect(got[3]).toMatchObject({
      message: {
        content: `@_**Alice Doe|${ids.alice}** created a new stream #**announced**.`,
        display_recipient: 'general',
        subject: 'new streams',
        sender_full_name: 'Notification Bot',
      },
    });
  });

  it('several streams in one message; private ones are not named; nothing without announce', async () => {
    const { events } = await verifyAction({
      clients: [clients.bob],
      registerParams: rawContent,
      action: () =>
        subscribe('alice', { subscriptions: [{ name: 'ann-1' }, { name: 'ann-2' }], announce: true }),
    });
    const messages = (events[0] ?? []).filter((e) => e.type === 'message');
    expect(messages).toMatchObject([
      {
        message: {
          content: `@_**Alice Doe|${ids.alice}** created the following streams: #**ann-1**, #**ann-2**.`,
        },
      },
    ]);
    const quiet = await verifyAction({
      clients: [clients.bob],
      action: async () => {
        await subscribe('alice', {
          subscriptions: [{ name: 'ann-private' }],
          invite_only: true,
          announce: true,
        });
        await subscribe('alice', { subscriptions: [{ name: 'ann-silent' }] });
      },
    });
    expect((quiet.events[0] ?? []).map((e) => e.type)).toEqual(['stream', 'subscription']);
  });
});

describe('POST /users/me/subscriptions: existing streams', () => {
  it('lists streams the user is already in, and sends nothing for them', async () => {
    const { events, result } = await verifyAction({
      clients: [clients.alice, clients.bob],
      action: () => subscribe('alice', { subscriptions: [{ name: 'general' }] }),
    });
    expect(result).toEqual({
      result: 'success',
      msg: '',
      subscribed: {},
      already_subscribed: { [emails.alice]: ['general'] },
    });
    expect(events).toEqual([[], []]);
  });

  it('a private stream without access: an error by default, nothing changes', async () => {
    const r = await post('bob', { subscriptions: [{ name: 'engineering' }, { name: 'design' }] });
    expect(outcome(r)).toEqual(error('Unable to access stream (design).'));
    const subs = await clients.bob.request('GET', '/users/me/subscriptions');
    expect((subs.subscriptions as { name: string }[]).map((s) => s.name)).not.toContain('engineering');
  });

  it('authorization_errors_fatal false: the rest is done and the stream listed', async () => {
    const { result, events } = await verifyAction({
      clients: [clients.bob, clients.alice],
      action: () =>
        subscribe('bob', {
          subscriptions: [{ name: 'engineering' }, { name: 'design' }],
          authorization_errors_fatal: false,
        }),
    });
    expect(result).toEqual({
      result: 'success',
      msg: '',
      subscribed: { [emails.bob]: ['engineering'] },
      already_subscribed: {},
      unauthorized: ['design'],
    });
    expect(events[0]?.map((e) => e.op)).toEqual(['add']);
    expect(events[1]).toMatchObject([{ type: 'subscription', op: 'peer_add', user_ids: [ids.bob] }]);
  });

  it('guests may not join public streams, but may join web-public ones', async () => {
    expect(outcome(await post('guest', { subscriptions: [{ name: 'engineering' }] }))).toEqual(
      error('Unable to access stream (engineering).'),
    );
    svc.sql("UPDATE streams SET is_web_public = 1 WHERE name = 'engineering'");
    try {
      // The one stream-access rule (permissions.ts canAccessStream): like any user of the
      // realm, a guest may post to a web-public stream and keep drafts for it, subscribed or not.
      const send = () =>
        call(svc.url, 'POST', '/messages', {
          auth: authOf(clients.guest),
          params: { type: 'stream', to: 'engineering', topic: 'guest post', content: 'hello' },
        });
      const streams = (await call(svc.url, 'GET', '/streams', { auth: authOf(clients.admin) })).body
        .streams as { stream_id: number; name: string }[];
      const engineering = streams.find((x) => x.name === 'engineering')?.stream_id;
      const draft = () =>
        call(svc.url, 'POST', '/drafts', {
          auth: authOf(clients.guest),
          params: {
            drafts: JSON.stringify([{ type: 'stream', to: [engineering], topic: 't', content: 'x' }]),
          },
        });
      expect((await send()).body).toMatchObject({ result: 'success' });
      expect((await draft()).body).toMatchObject({ result: 'success' });
      const r = await subscribe('guest', { subscriptions: [{ name: 'engineering' }] });
      expect(r.subscribed).toEqual({ [emails.guest]: ['engineering'] });
    } finally {
      svc.sql("UPDATE streams SET is_web_public = 0 WHERE name = 'engineering'");
    }
  });

  it('subscribing others: members may, guests may not; unknown users are refused', async () => {
    expect(
      outcome(await post('guest', { subscriptions: [{ name: 'general' }], principals: [ids.bob] })),
    ).toEqual(error('Insufficient permission'));
    expect(
      outcome(await post('alice', { subscriptions: [{ name: 'general' }], principals: [999999] })),
    ).toEqual(error('No such user'));
    expect(
      outcome(
        await post('alice', { subscriptions: [{ name: 'general' }], principals: ['nobody@example.com'] }),
      ),
    ).toEqual(error('No such user'));
    const r = await subscribe('alice', {
      subscriptions: [{ name: 'engineering' }],
      principals: [ids.moderator],
    });
    expect(r.subscribed).toEqual({ [emails.moderator]: ['engineering'] });
  });
});

describe('POST /users/me/subscriptions: subscribers who could not see the stream before', () => {
  it('a member added to an existing private stream is introduced to it first', async () => {
    await subscribe('owner', { subscriptions: [{ name: 'inner-circle' }], invite_only: true });
    const { events } = await verifyAction({
      clients: [clients.bob, clients.owner, clients.moderator],
      action: () => subscribe('owner', { subscriptions: [{ name: 'inner-circle' }], principals: [ids.bob] }),
    });
    expect(events[0]?.map((e) => `${e.type}:${e.op}`)).toEqual(['stream:create', 'subscription:add']);
    expect(events[1]).toMatchObject([{ type: 'subscription', op: 'peer_add', user_ids: [ids.bob] }]);
    expect(events[2]).toEqual([]);
  });

  it('a guest added to a public stream is introduced to it first', async () => {
    const { events } = await verifyAction({
      clients: [clients.guest],
      action: () => subscribe('alice', { subscriptions: [{ name: 'lounge' }], principals: [ids.guest] }),
    });
    expect(events[0]?.map((e) => `${e.type}:${e.op}`)).toEqual(['stream:create', 'subscription:add']);
  });
});

describe('POST /users/me/subscriptions: bad input changes nothing', () => {
  const cases: [string, Params | string, string, Record<string, unknown>?][] = [
    ['missing subscriptions', {}, "Missing 'subscriptions' argument"],
    ['not JSON', 'subscriptions=%5B', 'subscriptions is not valid JSON'],
    ['not a list', { subscriptions: { name: 'x' } }, 'subscriptions is not a list'],
    ['item not a dict', { subscriptions: ['bad-1'] }, 'subscriptions[0] is not a dict'],
    ['no name', { subscriptions: [{ description: 'x' }] }, 'name key is missing from subscriptions[0]'],
    ['name not a string', { subscriptions: [{ name: 5 }] }, 'subscriptions[0]["name"] is not a string'],
    ['empty name', { subscriptions: [{ name: 'ok-1' }, { name: '  ' }] }, "Stream name can't be empty!"],
    [
      'long name',
      { subscriptions: [{ name: 'x'.repeat(61) }] },
      'Stream name too long (limit: 60 characters).',
    ],
    [
      'NUL in name',
      { subscriptions: [{ name: 'bad\u0000name' }] },
      'Invalid character in stream name, at position 4!',
    ],
    [
      'long description',
      { subscriptions: [{ name: 'bad-2', description: 'd'.repeat(1025) }] },
      'Stream description too long (limit: 1024 characters).',
    ],
    [
      'principals not a list',
      { subscriptions: [{ name: 'bad-3' }], principals: 5 },
      'principals is not a list of user ids or emails',
    ],
    [
      'invite_only not a boolean',
      { subscriptions: [{ name: 'bad-4' }], invite_only: 'yes' },
      'invite_only is not valid JSON',
    ],
    [
      'announce not a boolean',
      { subscriptions: [{ name: 'bad-5' }], announce: 1 },
      'announce is not a boolean',
    ],
    [
      'policy out of range',
      { subscriptions: [{ name: 'bad-6' }], stream_post_policy: 5 },
      'Invalid stream_post_policy',
    ],
    [
      'policy not an integer',
      { subscriptions: [{ name: 'bad-7' }], stream_post_policy: 1.5 },
      'stream_post_policy is not an integer',
    ],
    [
      'retention zero',
      { subscriptions: [{ name: 'bad-8' }], message_retention_days: 0 },
      "Bad value for 'message_retention_days': 0",
    ],
    [
      'retention word',
      { subscriptions: [{ name: 'bad-9' }], message_retention_days: 'forever' },
      "Bad value for 'message_retention_days': forever",
    ],
  ];
  it.each(cases)('%s', async (_label, params, msg) => {
    const before = await allStreams();
    const r =
      typeof params === 'string'
        ? await call(svc.url, 'POST', '/users/me/subscriptions', {
            auth: authOf(clients.owner),
            body: params,
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          })
        : await post('owner', params);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ result: 'error', msg });
    expect(await allStreams()).toEqual(before);
  });
});

describe('DELETE /users/me/subscriptions', () => {
  it('unsubscribes; peers who can see the members get peer_remove', async () => {
    await subscribe('alice', { subscriptions: [{ name: 'leaving' }], principals: [ids.alice, ids.bob] });
    const { events, result } = await verifyAction({
      clients: [clients.alice, clients.bob, clients.moderator, clients.guest],
      action: () =>
        clients.alice.request('DELETE', '/users/me/subscriptions', { subscriptions: ['leaving', 'design'] }),
    });
    expect(result).toEqual({ result: 'success', msg: '', removed: ['leaving', 'design'], not_removed: [] });
    expect(events[0]?.map((e) => [e.type, e.op])).toEqual([
      ['subscription', 'remove'],
      // Leaving a private stream: it is gone from the user's view.
      ['stream', 'delete'],
    ]);
    expect(events[0]?.[0]).toMatchObject({
      subscriptions: [
        { name: 'leaving', stream_id: expect.any(Number) },
        { name: 'design', stream_id: expect.any(Number) },
      ],
    });
    expect(events[1]).toMatchObject([{ type: 'subscription', op: 'peer_remove', user_ids: [ids.alice] }]);
    expect(events[2]).toMatchObject([{ type: 'subscription', op: 'peer_remove', user_ids: [ids.alice] }]);
    expect(events[3]).toEqual([]);
  });

  it('reports streams the user is not in as not_removed', async () => {
    const r = await clients.bob.request('DELETE', '/users/me/subscriptions', {
      subscriptions: ['announce', 'lounge'],
    });
    expect(r).toMatchObject({ removed: ['announce'], not_removed: ['lounge'] });
    await subscribe('bob', { subscriptions: [{ name: 'announce' }] });
  });

  it('a missing stream, or a private one the user cannot see, is an error that changes nothing', async () => {
    const r = await del('bob', { subscriptions: ['general', 'nope'] });
    expect(outcome(r)).toEqual(
      error("Stream 'nope' does not exist", 'STREAM_DOES_NOT_EXIST', { stream: 'nope' }),
    );
    const hidden = await del('bob', { subscriptions: ['design'] });
    expect(outcome(hidden)).toEqual(
      error("Stream 'design' does not exist", 'STREAM_DOES_NOT_EXIST', { stream: 'design' }),
    );
    const subs = await clients.bob.request('GET', '/users/me/subscriptions');
    expect((subs.subscriptions as { name: string }[]).map((s) => s.name)).toContain('general');
  });

  it('removing others needs an administrator (or the owner of a bot)', async () => {
    expect(outcome(await del('alice', { subscriptions: ['general'], principals: [ids.bob] }))).toEqual(
      error('Insufficient permission'),
    );
    const { events, result } = await verifyAction({
      clients: [clients.bob, clients.alice],
      action: () =>
        clients.admin.request('DELETE', '/users/me/subscriptions', {
          subscriptions: ['lounge'],
          principals: [emails.alice],
        }),
    });
    expect(result).toMatchObject({ removed: ['lounge'], not_removed: [] });
    expect(events[1]?.map((e) => e.op)).toEqual(['remove']);
    expect(events[0]).toMatchObject([{ op: 'peer_remove', user_ids: [ids.alice] }]);
  });

  it('bad input', async () => {
    expect(outcome(await del('bob', {}))).toEqual(
      error("Missing 'subscriptions' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'subscriptions' }),
    );
    expect(outcome(await del('bob', { subscriptions: [1] }))).toEqual(
      error('subscriptions[0] is not a string'),
    );
    expect(outcome(await del('bob', { subscriptions: ['general'], principals: [0] }))).toEqual(
      error('No such user'),
    );
  });
});

describe('GET /users/me/subscriptions', () => {
  it('lists the subscriptions, with subscribers only when asked', async () => {
    const plain = await clients.moderator.request('GET', '/users/me/subscriptions');
    const subs = plain.subscriptions as Record<string, unknown>[];
    expect(subs.map((s) => s.name).sort()).toEqual(['announce', 'engineering', 'general']);
    expect(subs.every((s) => !('subscribers' in s))).toBe(true);
    const full = await clients.moderator.request('GET', '/users/me/subscriptions', {
      include_subscribers: true,
    });
    const general = (full.subscriptions as Record<string, unknown>[]).find((s) => s.name === 'general');
    expect(general?.subscribers).toEqual(
      expect.arrayContaining([ids.owner, ids.admin, ids.moderator, ids.bob]),
    );
    const bad = await call(svc.url, 'GET', '/users/me/subscriptions', {
      auth: authOf(clients.moderator),
      params: { include_subscribers: 'yes' },
    });
    expect(outcome(bad)).toEqual(error('include_subscribers is not valid JSON'));
  });

  it('needs authentication', async () => {
    const r = await call(svc.url, 'GET', '/users/me/subscriptions');
    expect(r.status).toBe(401);
  });
});
