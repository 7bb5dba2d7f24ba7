/** PATCH /realm/user_settings_defaults: the organization's settings for new users. */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import {
  DEFAULT_SHARED_SETTINGS,
  EMOJISET_CHOICES,
  NOTIFICATION_SOUNDS,
  SHARED_SETTING_NAMES,
} from '../../shared/protocol';
import { authOf, call, eventsAfter, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, admin, alice } = await serviceWith(['admin', 'alice']);

const patch = (client: ApiClient, body: string) =>
  call(svc.url, 'PATCH', '/realm/user_settings_defaults', {
    auth: authOf(client),
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });

async function defaults(client: ApiClient = admin): Promise<Record<string, unknown>> {
  const r = await client.request('POST', '/register', {
    fetch_event_types: ['realm_user_settings_defaults'],
    event_types: ['heartbeat'],
  });
  await client.deleteQueue(r.queue_id as string);
  return r.realm_user_settings_defaults as Record<string, unknown>;
}

async function userSettings(client: ApiClient): Promise<Record<string, unknown>> {
  const r = await client.registerQueue({ fetch_event_types: ['user_settings'], event_types: ['heartbeat'] });
  if (r.queue_id) await client.deleteQueue(r.queue_id);
  return r.user_settings as Record<string, unknown>;
}

const strip = ({ id: _id, ...event }: Record<string, unknown>) => event;

describe('the register state', () => {
  it('holds every shared setting and the two lists of choices', async () => {
    expect(await defaults(alice)).toEqual({
      ...DEFAULT_SHARED_SETTINGS,
      available_notification_sounds: [...NOTIFICATION_SOUNDS],
      emojiset_choices: EMOJISET_CHOICES,
    });
  });
});

describe('permissions', () => {
  it.each(['moderator', 'alice', 'guest'] as const)('refuses %s and changes nothing', async (who) => {
    const client = await svc.login(who);
    const queue = (await admin.registerQueue({ event_types: ['realm_user_settings_defaults'] }))
      .queue_id as string;
    const before = await defaults();
    const r = await patch(client, 'emojiset=text');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      msg: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    expect(await defaults()).toEqual(before);
    expect(await eventsAfter(admin, queue, -1)).toEqual([]);
  });

  it('needs credentials', async () => {
    const r = await call(svc.url, 'PATCH', '/realm/user_settings_defaults', { params: { emojiset: 'text' } });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('UNAUTHORIZED');
  });
});

describe('changing the defaults', () => {
  it('stores them and tells every user, in the table order (verify_action)', async () => {
    const owner = await svc.login('owner');
    const guest = await svc.login('guest');
    const { events, result } = await verifyAction({
      clients: [owner, alice, guest],
      action: () =>
        patch(
          owner,
          'enter_sends=true&emojiset=setB&color_scheme=2&email_notifications_batching_period_seconds=3600&notification_sound=knock',
        ),
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: [] });
    const expected = [
      { property: 'color_scheme', value: 2 },
      { property: 'emojiset', value: 'setB' },
      { property: 'notification_sound', value: 'knock' },
      { property: 'email_notifications_batching_period_seconds', value: 3600 },
      { property: 'enter_sends', value: true },
    ].map((e) => ({ type: 'realm_user_settings_defaults', op: 'update', ...e }));
    for (const list of events) expect(list.map(strip)).toEqual(expected);
    expect(await defaults()).toMatchObject({
      enter_sends: true,
      emojiset: 'setB',
      color_scheme: 2,
      email_notifications_batching_period_seconds: 3600,
      notification_sound: 'knock',
    });
  });

  it('never changes existing users', async () => {
    const before = await userSettings(alice);
    expect((await patch(admin, 'twenty_four_hour_time=true&left_side_userlist=true')).status).toBe(200);
    expect(await userSettings(alice)).toEqual(before);
    expect(before.twenty_four_hour_time).toBe(false);
  });

  it('gives new users the defaults of the moment they are created', async () => {
    expect((await patch(admin, 'dense_mode=false&user_list_style=3&default_view=all_messages')).status).toBe(
      200,
    );
    const created = await call(svc.url, 'POST', '/users', {
      auth: authOf(admin),
      params: { email: 'newbie@example.com', password: 'a-long-password', full_name: 'New Bie' },
    });
    expect(created.status).toBe(200);
    const now = await defaults();
    // Changing the defaults afterwards does not reach the new user either.
    expect((await patch(admin, 'dense_mode=true')).status).toBe(200);
    const login = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: 'newbie@example.com', password: 'a-long-password' },
    });
    const newbie = alice.withCredentials({
      email: 'newbie@example.com',
      apiKey: login.body.api_key as string,
    });
    const settings = await userSettings(newbie);
    for (const name of SHARED_SETTING_NAMES) expect(settings[name], name).toEqual(now[name]);
    expect(settings).toMatchObject({ dense_mode: false, user_list_style: 3, default_view: 'all_messages' });
  });

  it('sends nothing for values that do not change', async () => {
    const queue = (await alice.registerQueue({ event_types: ['realm_user_settings_defaults'] }))
      .queue_id as string;
    const current = await defaults();
    const r = await patch(
      admin,
      `emojiset=${String(current.emojiset)}&enter_sends=${String(current.enter_sends)}`,
    );
    expect(r.status).toBe(200);
    expect(await eventsAfter(alice, queue, -1)).toEqual([]);
  });

  it('ignores the personal settings and unknown parameters', async () => {
    const before = await defaults();
    const r = await patch(
      admin,
      'full_name=Someone&timezone=UTC&default_language=de&enable_login_emails=false&frobnicate=1&translate_emoticons=true',
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: [
        'full_name',
        'timezone',
        'default_language',
        'enable_login_emails',
        'frobnicate',
      ],
    });
    expect(await defaults()).toEqual({ ...before, translate_emoticons: true });
    expect((await admin.getOwnUser()).full_name).toBe('Adam Reyes');
  });
});

describe('validation', () => {
  it.each([
    ['color_scheme=4', 'Invalid color_scheme'],
    ['demote_inactive_streams=0', 'Invalid demote_inactive_streams'],
    ['user_list_style=%221%22', 'user_list_style is not an integer'],
    ['desktop_icon_count_display=1.5', 'desktop_icon_count_display is not an integer'],
    ['emojiset=google', 'Invalid emojiset'],
    ['default_view=inbox', 'Invalid default_view'],
    ['notification_sound=siren', "Invalid notification sound 'siren'"],
    ['email_notifications_batching_period_seconds=60', 'Invalid email_notifications_batching_period_seconds'],
    ['enter_sends=True', 'enter_sends is not valid JSON'],
    ['dense_mode=1', 'dense_mode is not a boolean'],
    ['enter_sends=true&color_scheme=9', 'Invalid color_scheme'],
  ])('%s: %s, and nothing changes', async (body, msg) => {
    const queue = (await alice.registerQueue({ event_types: ['realm_user_settings_defaults'] }))
      .queue_id as string;
    const before = await defaults();
    const r = await patch(admin, body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    expect(await defaults()).toEqual(before);
    expect(await eventsAfter(alice, queue, -1)).toEqual([]);
  });
});
