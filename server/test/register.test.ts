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
import { authOf, call, eventsAfter, startTestService, type TestService } from './helpers';

let svc: TestService;
let alice: ApiClient;
beforeAll(async () => {
  svc = await startTestService({ longpollSeconds: 77 });
  alice = await svc.login('alice');
});
afterAll(() => svc.close());

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
    expect(SERVICE_FEATURE_LEVEL).toBe(89);
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
