/** POST /register: the queue, the fixed fields, the snapshot and its filters. */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import {
  DEFAULT_PERSONAL_SETTINGS,
  DEFAULT_SHARED_SETTINGS,
  EMOJISET_CHOICES,
  NOTIFICATION_SOUNDS,
  PERSONAL_SETTINGS,
  registerResponseSchema,
  SHARED_SETTINGS,
} from '../../shared/protocol';
import { SERVICE_FEATURE_LEVEL, SERVICE_VERSION } from '../version';
import { authOf, call, eventsAfter, serviceWith } from './support/service';

const { svc, alice } = await serviceWith(['alice'], { longpollSeconds: 77 });

describe('POST /register', () => {
  it('returns a new queue and the fixed fields', async () => {
    const r = await call(svc.url, 'POST', '/register', { auth: authOf(alice) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      result: 'success',
      msg: '',
      queue_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      last_event_id: -1,
      service_feature_level: SERVICE_FEATURE_LEVEL,
      service_version: SERVICE_VERSION,
      service_merge_base: '',
      event_queue_longpoll_timeout_seconds: 77,
      user_id: 4,
    });
    expect(SERVICE_FEATURE_LEVEL).toBe(151);
    expect(registerResponseSchema.safeParse(r.body).error).toBeUndefined();
    const again = await call(svc.url, 'POST', '/register', { auth: authOf(alice) });
    expect(again.body.queue_id).not.toBe(r.body.queue_id);
  });

  it('returns every user setting plus the two lists of choices', async () => {
    const r = await alice.registerQueue({ fetch_event_types: ['user_settings'] });
    expect(r.user_settings).toEqual({
      ...DEFAULT_SHARED_SETTINGS,
      ...DEFAULT_PERSONAL_SETTINGS,
      timezone: 'Europe/Berlin',
      available_notification_sounds: [...NOTIFICATION_SOUNDS],
      emojiset_choices: EMOJISET_CHOICES,
    });
    const keys = Object.keys(r.user_settings ?? {});
    for (const name of [...Object.keys(SHARED_SETTINGS), ...Object.keys(PERSONAL_SETTINGS)]) {
      expect(keys).toContain(name);
    }
  });

  it('returns only what fetch_event_types asks for', async () => {
    const r = await alice.registerQueue({ fetch_event_types: ['user_settings', 'no_such_type'] });
    expect(Object.keys(r).sort()).toEqual(
      [
        'result',
        'msg',
        'queue_id',
        'last_event_id',
        'service_feature_level',
        'service_version',
        'service_merge_base',
        'event_queue_longpoll_timeout_seconds',
        'user_id',
        'user_settings',
      ].sort(),
    );
  });

  it('defaults fetch_event_types to event_types', async () => {
    const r = await alice.registerQueue({ event_types: ['realm_user'] });
    expect(r.realm_users).toBeDefined();
    expect(r.user_settings).toBeUndefined();
    expect(r.subscriptions).toBeUndefined();
  });

  it('gives legacy clients top-level settings, and modern clients none', async () => {
    const fetch_event_types = ['update_display_settings', 'update_global_notifications'];
    const legacy = (await alice.registerQueue({ fetch_event_types })) as Record<string, unknown>;
    expect(legacy.twenty_four_hour_time).toBe(false);
    expect(legacy.timezone).toBe('Europe/Berlin');
    expect(legacy.emojiset_choices).toEqual(EMOJISET_CHOICES);
    expect(legacy.enable_sounds).toBe(true);
    expect(legacy.enable_login_emails).toBe(true);
    expect(legacy.available_notification_sounds).toEqual([...NOTIFICATION_SOUNDS]);
    expect(legacy).not.toHaveProperty('send_read_receipts'); // not a legacy setting
    const modern = (await alice.registerQueue({
      fetch_event_types,
      client_capabilities: { user_settings_object: true },
    })) as Record<string, unknown>;
    expect(modern).not.toHaveProperty('twenty_four_hour_time');
    expect(modern).not.toHaveProperty('enable_sounds');
  });

  it('accepts capabilities it does not know yet, and honours the ones it does', async () => {
    const r = (await alice.registerQueue({
      fetch_event_types: ['update_display_settings'],
      client_capabilities: { some_future_capability: true, user_settings_object: true } as never,
    })) as Record<string, unknown>;
    expect(r).not.toHaveProperty('twenty_four_hour_time');
  });

  it('stores event_types on the queue: other events do not arrive', async () => {
    const r = await alice.registerQueue({
      event_types: ['realm_user'],
      client_capabilities: { user_settings_object: true },
    });
    const queueId = r.queue_id as string;
    await alice.updateSettings({ dense_mode: false, full_name: 'Alice D.' });
    const events = await eventsAfter(alice, queueId, -1);
    expect(events).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: 4, full_name: 'Alice D.' }, id: 0 },
    ]);
    await alice.updateSettings({ dense_mode: true, full_name: 'Alice Doe' });
  });

  it('honours include_subscribers', async () => {
    const without = await alice.registerQueue({ fetch_event_types: ['subscription'] });
    expect(without.subscriptions?.[0]).not.toHaveProperty('subscribers');
    const withSubs = await alice.registerQueue({
      fetch_event_types: ['subscription'],
      include_subscribers: true,
    });
    const general = withSubs.subscriptions?.find((s) => s.name === 'general');
    expect(general?.subscribers).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it.each([
    ['event_types', 'not json', 'event_types is not valid JSON'],
    ['event_types', '"message"', 'event_types is not a list'],
    ['event_types', '[1]', 'event_types[0] is not a string'],
    ['fetch_event_types', '{}', 'fetch_event_types is not a list'],
    ['apply_markdown', 'True', 'apply_markdown is not valid JSON'],
    ['include_subscribers', '1', 'include_subscribers is not a boolean'],
    ['client_capabilities', '[true]', 'Invalid client_capabilities'],
    ['client_capabilities', '{"user_settings_object": "yes"}', 'Invalid client_capabilities'],
    ['narrow', '[["stream"]]', 'Invalid narrow'],
  ])('rejects %s=%s', async (name, value, msg) => {
    const r = await call(svc.url, 'POST', '/register', {
      auth: authOf(alice),
      body: `${name}=${encodeURIComponent(value)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });
});

describe('POST /register: the response fields of the spec', () => {
  it('returns every field of the spec for a modern client, and no legacy settings', async () => {
    const r = await alice.request('POST', '/register', {
      client_capabilities: { user_settings_object: true, notification_settings_null: true },
    });
    for (const key of [
      'alert_words',
      'custom_profile_fields',
      'custom_profile_field_types',
      'drafts',
      'stop_words',
      'user_status',
      'user_settings',
      'user_topics',
      'realm_users',
      'realm_non_active_users',
      'subscriptions',
      'unsubscribed',
      'never_subscribed',
      'streams',
      'realm_user_groups',
      'realm_playgrounds',
      'unread_msgs',
      'max_message_id',
      'realm_user_settings_defaults',
      'realm_name',
    ]) {
      expect(r, key).toHaveProperty(key);
    }
    expect(r.has_videocall_token).toBe(false);
    expect(r.gif_api_key).toBe('');
    expect(r.stop_words).toEqual(expect.arrayContaining(['the', 'and', 'of']));
    expect(r.custom_profile_field_types).toMatchObject({ SHORT_TEXT: { id: 1 }, PRONOUNS: { id: 8 } });
    // Not a demo organization (no deletion date), and no legacy top-level settings.
    expect(r).not.toHaveProperty('demo_organization_scheduled_deletion_date');
    expect(r).not.toHaveProperty('enable_desktop_notifications');
    expect(r).not.toHaveProperty('enable_login_emails');
  });

  it('gives legacy notification settings to clients without user_settings_object that ask', async () => {
    const r = await alice.request('POST', '/register', {
      fetch_event_types: ['update_global_notifications'],
    });
    expect(r).toMatchObject({
      enable_desktop_notifications: DEFAULT_SHARED_SETTINGS.enable_desktop_notifications,
      enable_digest_emails: DEFAULT_SHARED_SETTINGS.enable_digest_emails,
      enable_login_emails: DEFAULT_PERSONAL_SETTINGS.enable_login_emails,
      enable_marketing_emails: DEFAULT_PERSONAL_SETTINGS.enable_marketing_emails,
    });
    expect(r).not.toHaveProperty('user_settings');
  });

  it('returns demo_organization_scheduled_deletion_date only for demo organizations', async () => {
    svc.sql(
      `UPDATE realm SET settings = json_set(settings, '$.demo_organization_scheduled_deletion_date', 1900000000)`,
    );
    try {
      const r = await alice.request('POST', '/register', { fetch_event_types: ['realm'] });
      expect(r.demo_organization_scheduled_deletion_date).toBe(1900000000);
    } finally {
      svc.sql(
        `UPDATE realm SET settings = json_remove(settings, '$.demo_organization_scheduled_deletion_date')`,
      );
    }
  });

  it('gives presences keyed by nothing yet (presence is not tracked), with server_timestamp', async () => {
    for (const slim_presence of [true, false]) {
      const r = await alice.request('POST', '/register', { fetch_event_types: ['presence'], slim_presence });
      expect(r.presences).toEqual({});
      expect(typeof r.server_timestamp).toBe('number');
    }
  });
});

describe('POST /register: parameters that change the state and the queue', () => {
  let bob: ApiClient;
  let guest: ApiClient;
  let admin: ApiClient;
  beforeAll(async () => {
    bob = await svc.login('bob');
    guest = await svc.login('guest');
    admin = await svc.login('admin');
  });

  const realmUser = (r: Record<string, unknown>, id: number) =>
    (r.realm_users as Record<string, unknown>[]).find((u) => u.user_id === id);

  it('client_extavatar: null avatar_url for external avatars when the client computes them', async () => {
    svc.sql("UPDATE users SET avatar_source = 'G' WHERE email = ?", svc.demo.users.bob);
    try {
      const bobId = ((await bob.request('GET', '/users/me')).user_id as number) ?? 0;
      const computed = await alice.request('POST', '/register', { fetch_event_types: ['realm_user'] });
      expect(realmUser(computed, bobId)?.avatar_url).toBeNull(); // true is the default when signed in
      const urls = await alice.request('POST', '/register', {
        fetch_event_types: ['realm_user'],
        client_extavatar: false,
      });
      expect(realmUser(urls, bobId)?.avatar_url).toEqual(expect.stringMatching(/^\/avatar\//));
    } finally {
      svc.sql("UPDATE users SET avatar_source = 'U' WHERE email = ?", svc.demo.users.bob);
    }
  });

  it('client_capabilities.notification_settings_null: null means inherit, else the user defaults', async () => {
    const nulls = await alice.registerQueue({
      fetch_event_types: ['subscription'],
      client_capabilities: { notification_settings_null: true },
    });
    const filled = await alice.registerQueue({ fetch_event_types: ['subscription'] });
    const general = (r: typeof nulls) => r.subscriptions?.find((s) => s.name === 'general');
    expect(general(nulls)?.desktop_notifications).toBeNull();
    expect(typeof general(filled)?.desktop_notifications).toBe('boolean');
  });

  it('all_public_streams: guests may not; members get public stream messages they are not subscribed to', async () => {
    const denied = await call(svc.url, 'POST', '/register', {
      auth: authOf(guest),
      params: { all_public_streams: true },
    });
    expect(denied.status).toBe(400);
    expect(denied.body).toEqual({
      result: 'error',
      msg: 'User not authorized for this query',
      code: 'BAD_REQUEST',
    });

    await bob.request('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'bobs-corner' }] });
    const all = await alice.registerQueue({ event_types: ['message'], all_public_streams: true });
    const mine = await alice.registerQueue({ event_types: ['message'] });
    await bob.request('POST', '/messages', {
      type: 'stream',
      to: 'bobs-corner',
      topic: 't',
      content: 'hello',
    });
    const got = await eventsAfter(alice, all.queue_id as string, -1);
    expect(got.map((e) => [e.type, (e.message as Record<string, unknown>).content])).toEqual([
      ['message', 'hello'],
    ]);
    expect(await eventsAfter(alice, mine.queue_id as string, -1)).toEqual([]);
  });

  it('apply_markdown: message events carry HTML or the Markdown source', async () => {
    const html = await alice.registerQueue({ event_types: ['message'], apply_markdown: true });
    const raw = await alice.registerQueue({ event_types: ['message'] }); // default false
    const aliceId = (await alice.request('GET', '/users/me')).user_id as number;
    await bob.request('POST', '/messages', { type: 'private', to: [aliceId], content: '**bold**' });
    const [h] = await eventsAfter(alice, html.queue_id as string, -1);
    const [m] = await eventsAfter(alice, raw.queue_id as string, -1);
    expect(h?.message).toMatchObject({ content: '<p><strong>bold</strong></p>' });
    expect(m?.message).toMatchObject({ content: '**bold**' });
  });

  it('narrow: a queue gets only the message events its narrow matches', async () => {
    const aliceId = (await alice.request('GET', '/users/me')).user_id as number;
    const pms = await alice.registerQueue({ event_types: ['message'], narrow: [['is', 'private']] });
    const general = await alice.registerQueue({ event_types: ['message'], narrow: [['stream', 'General']] });
    const topic = await alice.registerQueue({
      event_types: ['message'],
      narrow: [
        ['stream', 'general'],
        ['topic', 'narrowed'],
      ],
    });
    await bob.request('POST', '/messages', { type: 'stream', to: 'general', topic: 'other', content: 'one' });
    await bob.request('POST', '/messages', {
      type: 'stream',
      to: 'general',
      topic: 'Narrowed',
      content: 'two',
    });
    await bob.request('POST', '/messages', { type: 'private', to: [aliceId], content: 'three' });
    const contents = async (q: { queue_id: string | null }) =>
      (await eventsAfter(alice, q.queue_id as string, -1)).map(
        (e) => (e.message as Record<string, unknown>).content,
      );
    expect(await contents(pms)).toEqual(['three']);
    expect(await contents(general)).toEqual(['one', 'two']);
    expect(await contents(topic)).toEqual(['two']);
  });

  it('narrow: rejects operators the event filter does not know', async () => {
    const r = await call(svc.url, 'POST', '/register', {
      auth: authOf(alice),
      params: { narrow: [['search', 'x']] },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'Operator search not supported.', code: 'BAD_REQUEST' });
  });

  it('client_capabilities.bulk_message_deletion: one bulk event, or one event per message', async () => {
    const bulk = await alice.registerQueue({
      event_types: ['delete_message'],
      client_capabilities: { bulk_message_deletion: true },
    });
    const single = await alice.registerQueue({ event_types: ['delete_message'] });
    const ids: number[] = [];
    for (const content of ['a', 'b']) {
      const r = await admin.request('POST', '/messages', {
        type: 'stream',
        to: 'general',
        topic: 'doomed',
        content,
      });
      ids.push(r.id as number);
    }
    const generalId = (
      await alice.registerQueue({ fetch_event_types: ['subscription'] })
    ).subscriptions?.find((s) => s.name === 'general')?.stream_id as number;
    await admin.request('POST', `/streams/${generalId}/delete_topic`, { topic_name: 'doomed' });
    const b = await eventsAfter(alice, bulk.queue_id as string, -1);
    expect(b).toEqual([
      {
        type: 'delete_message',
        message_type: 'stream',
        message_ids: expect.any(Array),
        stream_id: generalId,
        topic: 'doomed',
        id: 0,
      },
    ]);
    expect([...((b[0]?.message_ids ?? []) as number[])].sort()).toEqual([...ids].sort());
    const s = await eventsAfter(alice, single.queue_id as string, -1);
    expect(s.map((e) => e.message_id).sort()).toEqual([...ids].sort());
    expect(s.every((e) => !('message_ids' in e))).toBe(true);
  });
});

describe('POST /register without credentials (public access)', () => {
  afterAll(() => svc.sql('UPDATE realm SET enable_spectator_access = 0'));

  it('answers 401 when the organization does not allow public access', async () => {
    svc.sql('UPDATE realm SET enable_spectator_access = 0');
    const r = await call(svc.url, 'POST', '/register', {});
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      result: 'error',
      msg: 'Not logged in: API authentication required',
      code: 'UNAUTHORIZED',
    });
  });

  it('gives spectators a snapshot and no queue', async () => {
    svc.sql('UPDATE realm SET enable_spectator_access = 1');
    const r = await call(svc.url, 'POST', '/register', {});
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      result: 'success',
      msg: '',
      queue_id: null,
      last_event_id: -1,
      service_feature_level: SERVICE_FEATURE_LEVEL,
      service_version: SERVICE_VERSION,
      service_merge_base: '',
      realm_enable_spectator_access: true,
      drafts: [],
      alert_words: [],
      user_status: {},
      unsubscribed: [],
      never_subscribed: [],
    });
    expect(r.body).not.toHaveProperty('user_id');
    // Users without real addresses or profile data; avatars as URLs.
    const users = r.body.realm_users as Record<string, unknown>[];
    expect(users.map((u) => u.full_name)).toContain('Alice Doe');
    for (const u of users) {
      expect(u).not.toHaveProperty('delivery_email');
      expect(u).not.toHaveProperty('profile_data');
      expect(u.avatar_url).toEqual(expect.stringMatching(/^\/avatar\//));
    }
    expect(r.body.user_settings).toMatchObject({ emojiset: DEFAULT_SHARED_SETTINGS.emojiset });
  });

  it('shows spectators the web-public streams only, as subscriptions', async () => {
    svc.sql('UPDATE realm SET enable_spectator_access = 1');
    svc.sql("UPDATE streams SET is_web_public = 1 WHERE name = 'design'");
    try {
      const r = await call(svc.url, 'POST', '/register', { params: { fetch_event_types: ['subscription'] } });
      const subs = r.body.subscriptions as Record<string, unknown>[];
      expect(subs.map((s) => [s.name, s.is_web_public, s.is_muted, s.desktop_notifications])).toEqual([
        ['design', true, false, null],
      ]);
      expect(subs[0]).not.toHaveProperty('subscribers');
    } finally {
      svc.sql("UPDATE streams SET is_web_public = 0 WHERE name = 'design'");
    }
  });

  it.each([
    ['client_extavatar', "Invalid 'client_extavatar' parameter for anonymous request"],
    ['include_subscribers', "Invalid 'include_subscribers' parameter for anonymous request"],
  ])('refuses %s=true for spectators (feature level 149)', async (name, msg) => {
    svc.sql('UPDATE realm SET enable_spectator_access = 1');
    const r = await call(svc.url, 'POST', '/register', { params: { [name]: true } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    const ok = await call(svc.url, 'POST', '/register', { params: { [name]: false } });
    expect(ok.status).toBe(200);
  });

  it('checks parameter types first, even without credentials', async () => {
    svc.sql('UPDATE realm SET enable_spectator_access = 0');
    const r = await call(svc.url, 'POST', '/register', {
      body: 'apply_markdown=yes',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'apply_markdown is not valid JSON', code: 'BAD_REQUEST' });
  });

  it('treats wrong credentials as wrong, not as a spectator', async () => {
    svc.sql('UPDATE realm SET enable_spectator_access = 1');
    const r = await call(svc.url, 'POST', '/register', { auth: [svc.demo.users.alice, 'wrong-key'] });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });
  });
});

describe('GET /events without queue_id', () => {
  it('registers a queue from register parameters, capabilities also as top-level booleans', async () => {
    const r = await call(svc.url, 'GET', '/events', {
      auth: authOf(alice),
      params: {
        dont_block: true,
        event_types: ['user_settings', 'update_display_settings'],
        user_settings_object: true,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', events: [], queue_id: expect.any(String) });
    await alice.updateSettings({ twenty_four_hour_time: true });
    await alice.updateSettings({ twenty_four_hour_time: false });
    const events = await eventsAfter(alice, r.body.queue_id as string, -1);
    // user_settings_object: no legacy update_display_settings events.
    expect(events.map((e) => e.type)).toEqual(['user_settings', 'user_settings']);
  });
});
