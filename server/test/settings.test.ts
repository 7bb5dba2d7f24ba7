/** PATCH /settings: validation, storage, and the events each change sends. */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { accountStateFromSnapshot, applyEvents } from '../../shared/domain';
import { parseEvent, type ServerEvent, type SettingSpec, SHARED_SETTINGS } from '../../shared/protocol';
import { loginAs, startServerProcess } from '../../test/support/server';
import { authOf, call, eventsAfter, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob } = await serviceWith(['alice', 'bob']);

const modern = { client_capabilities: { user_settings_object: true }, event_types: ['user_settings'] };

async function settingsOf(client: ApiClient): Promise<Record<string, unknown>> {
  const r = await client.registerQueue({ fetch_event_types: ['user_settings'], event_types: ['heartbeat'] });
  if (r.queue_id) await client.deleteQueue(r.queue_id);
  return r.user_settings as Record<string, unknown>;
}

async function patch(client: ApiClient, body: string) {
  return call(svc.url, 'PATCH', '/settings', {
    auth: authOf(client),
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

/** A valid value that differs from `current`, and invalid raw texts with their messages. */
function cases(
  name: string,
  spec: SettingSpec,
  current: unknown,
): { valid: string; invalid: [string, string][] } {
  const t = spec.type;
  switch (t.kind) {
    case 'bool':
      return {
        valid: JSON.stringify(!current),
        invalid: [
          ['True', `${name} is not valid JSON`],
          ['"true"', `${name} is not a boolean`],
          ['1', `${name} is not a boolean`],
        ],
      };
    case 'int-enum':
      return {
        valid: JSON.stringify(t.values.find((v) => v !== current)),
        invalid: [
          [String(Math.max(...t.values) + 1), `Invalid ${name}`],
          ['"1"', `${name} is not an integer`],
          ['1.5', `${name} is not an integer`],
          ['one', `${name} is not valid JSON`],
        ],
      };
    case 'int':
      return {
        valid: String(t.min === current ? t.min + 60 : t.min),
        invalid: [
          [String(t.min - 1), `Invalid ${name}`],
          [String(t.max + 1), `Invalid ${name}`],
          ['true', `${name} is not an integer`],
        ],
      };
    case 'str-enum':
      return {
        valid: t.values.find((v) => v !== current) ?? '',
        invalid: [
          ['nope', `Invalid ${name}`],
          [`"${String(current)}"`, `Invalid ${name}`],
        ],
      };
    case 'string':
      // notification_sound: a name from the list of sounds.
      return {
        valid: current === 'ding' ? 'chime' : 'ding',
        invalid: [
          ['nope', "Invalid notification sound 'nope'"],
          ['x'.repeat(t.maxLength + 1), `${name} is too long (limit: ${t.maxLength} characters)`],
        ],
      };
  }
}

describe('every shared setting', () => {
  it('accepts a valid value and rejects invalid ones, which change nothing', async () => {
    // The moderator's settings are for this test alone: it changes every one of them.
    const moderator = await svc.login('moderator');
    const queueId = (await moderator.registerQueue(modern)).queue_id as string;
    let lastEventId = -1;
    for (const [name, spec] of Object.entries(SHARED_SETTINGS)) {
      const before = await settingsOf(moderator);
      const { valid, invalid } = cases(name, spec, before[name]);
      for (const [raw, msg] of invalid) {
        const r = await patch(moderator, `${name}=${encodeURIComponent(raw)}`);
        expect(r.status, `${name}=${raw}`).toBe(400);
        expect(r.body, `${name}=${raw}`).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
      }
      expect(await settingsOf(moderator), name).toEqual(before);
      expect(await eventsAfter(moderator, queueId, lastEventId), name).toEqual([]);

      const ok = await patch(moderator, `${name}=${encodeURIComponent(valid)}`);
      expect(ok.status, `${name}=${valid}`).toBe(200);
      expect(ok.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: [] });
      const value = spec.type.kind === 'str-enum' || spec.type.kind === 'string' ? valid : JSON.parse(valid);
      expect(await settingsOf(moderator), name).toEqual({ ...before, [name]: value });
      const events = await eventsAfter(moderator, queueId, lastEventId);
      expect(events, name).toEqual([
        { type: 'user_settings', op: 'update', property: name, value, id: lastEventId + 1 },
      ]);
      lastEventId += 1;
    }
  });
});

describe('personal settings', () => {
  it('sends the English language name with default_language', async () => {
    const queueId = (await alice.registerQueue(modern)).queue_id as string;
    await alice.updateSettings({ default_language: 'de' });
    expect(await eventsAfter(alice, queueId, -1)).toEqual([
      {
        type: 'user_settings',
        op: 'update',
        property: 'default_language',
        value: 'de',
        language_name: 'German',
        id: 0,
      },
    ]);
    await alice.updateSettings({ default_language: 'en' });
  });

  it.each([
    ['default_language', 'xx', 'Invalid default_language'],
    ['default_language', '"de"', 'Invalid default_language'],
    ['timezone', 'Mars/Olympus_Mons', 'Invalid timezone'],
    ['timezone', 'asia/tokyo', 'Invalid timezone'],
    ['timezone', '+01:00', 'Invalid timezone'],
    ['timezone', 'Asia/Tokyo ', 'Invalid timezone'],
    ['enable_login_emails', 'no', 'enable_login_emails is not valid JSON'],
    ['enable_marketing_emails', '0', 'enable_marketing_emails is not a boolean'],
  ])('rejects %s=%s', async (name, raw, msg) => {
    const r = await patch(alice, `${name}=${encodeURIComponent(raw)}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('accepts IANA time zones, UTC and empty, and tells everyone through realm_user', async () => {
    const bobQueue = (await bob.registerQueue({ event_types: ['realm_user'] })).queue_id as string;
    // Asia/Kolkata and Europe/Kyiv are current IANA names that ICU lists under older ones.
    const zones = ['Asia/Kolkata', 'Europe/Kyiv', 'Etc/GMT+1', 'Asia/Tokyo', 'UTC', '', 'Europe/Berlin'];
    for (const tz of zones) {
      const r = await patch(alice, `timezone=${encodeURIComponent(tz)}`);
      expect(r.status, tz).toBe(200);
      expect((await settingsOf(alice)).timezone).toBe(tz);
    }
    const events = await eventsAfter(bob, bobQueue, -1);
    expect(events.map((e) => e.person)).toEqual(
      zones.map((timezone) => ({
        user_id: 4,
        email: svc.demo.users.alice,
        timezone,
      })),
    );
  });

  it('changes enable_marketing_emails and enable_login_emails', async () => {
    await alice.updateSettings({ enable_marketing_emails: false, enable_login_emails: false });
    expect(await settingsOf(alice)).toMatchObject({
      enable_marketing_emails: false,
      enable_login_emails: false,
    });
    await alice.updateSettings({ enable_marketing_emails: true, enable_login_emails: true });
  });
});

describe('the request as a whole', () => {
  it('applies nothing when any value is invalid', async () => {
    const before = await settingsOf(alice);
    const r = await patch(alice, 'twenty_four_hour_time=true&color_scheme=7&full_name=Someone%20Else');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'Invalid color_scheme', code: 'BAD_REQUEST' });
    expect(await settingsOf(alice)).toEqual(before);
    expect((await alice.getOwnUser()).full_name).toBe('Alice Doe');
  });

  it('reports unknown parameters in ignored_parameters_unsupported and applies the rest', async () => {
    const r = await patch(alice, 'frobnicate=1&dense_mode=false&other=x');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['frobnicate', 'other'],
    });
    expect((await settingsOf(alice)).dense_mode).toBe(false);
    await alice.updateSettings({ dense_mode: true });
  });

  it('sends nothing for a value that does not change', async () => {
    const queueId = (await alice.registerQueue(modern)).queue_id as string;
    const current = (await settingsOf(alice)).emojiset as string;
    const r = await patch(alice, `emojiset=${current}`);
    expect(r.status).toBe(200);
    expect(await eventsAfter(alice, queueId, -1)).toEqual([]);
  });
});

describe('events', () => {
  it('reach every queue of the user and no other user’s', async () => {
    const mine = (await alice.registerQueue(modern)).queue_id as string;
    const mine2 = (await alice.registerQueue(modern)).queue_id as string;
    const bobs = (await bob.registerQueue({ client_capabilities: { user_settings_object: true } }))
      .queue_id as string;
    await alice.updateSettings({ high_contrast_mode: true });
    const expected = [
      { type: 'user_settings', op: 'update', property: 'high_contrast_mode', value: true, id: 0 },
    ];
    expect(await eventsAfter(alice, mine, -1)).toEqual(expected);
    expect(await eventsAfter(alice, mine2, -1)).toEqual(expected);
    expect(await eventsAfter(bob, bobs, -1)).toEqual([]);
    await alice.updateSettings({ high_contrast_mode: false });
  });

  it('include the legacy forms for clients without user_settings_object', async () => {
    const legacy = (await alice.registerQueue({})).queue_id as string;
    const legacyOnly = (await alice.registerQueue({ event_types: ['update_display_settings'] }))
      .queue_id as string;
    const modernQueue = (await alice.registerQueue(modern)).queue_id as string;
    await alice.updateSettings({ twenty_four_hour_time: true });
    await alice.updateSettings({ enable_sounds: false });
    await alice.updateSettings({ send_read_receipts: false });
    const email = svc.demo.users.alice;
    expect(await eventsAfter(alice, legacy, -1)).toEqual([
      { type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true, id: 0 },
      {
        type: 'update_display_settings',
        user: email,
        setting_name: 'twenty_four_hour_time',
        setting: true,
        id: 1,
      },
      { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false, id: 2 },
      {
        type: 'update_global_notifications',
        user: email,
        notification_name: 'enable_sounds',
        setting: false,
        id: 3,
      },
      // No legacy form: the setting is newer than the legacy events.
      { type: 'user_settings', op: 'update', property: 'send_read_receipts', value: false, id: 4 },
    ]);
    expect(await eventsAfter(alice, legacyOnly, -1)).toEqual([
      {
        type: 'update_display_settings',
        user: email,
        setting_name: 'twenty_four_hour_time',
        setting: true,
        id: 0,
      },
    ]);
    expect((await eventsAfter(alice, modernQueue, -1)).map((e) => e.type)).toEqual([
      'user_settings',
      'user_settings',
      'user_settings',
    ]);
    await alice.updateSettings({
      twenty_four_hour_time: false,
      enable_sounds: true,
      send_read_receipts: true,
    });
  });

  it('keep a legacy client’s top-level settings right (verify_action)', async () => {
    const legacyParams = { client_capabilities: {} };
    const { states } = await verifyAction({
      clients: [alice],
      registerParams: legacyParams,
      action: () =>
        alice.updateSettings({
          twenty_four_hour_time: true,
          enable_sounds: false,
          default_language: 'it',
          send_read_receipts: false,
        }),
    });
    expect(states[0]).toMatchObject({
      twenty_four_hour_time: true,
      enable_sounds: false,
      default_language: 'it',
    });
    await alice.updateSettings({
      twenty_four_hour_time: false,
      enable_sounds: true,
      default_language: 'en',
      send_read_receipts: true,
    });
  });

  it('sends default_language to legacy clients with its language name', async () => {
    const legacy = (await alice.registerQueue({ event_types: ['update_display_settings'] }))
      .queue_id as string;
    await alice.updateSettings({ default_language: 'ja' });
    expect(await eventsAfter(alice, legacy, -1)).toEqual([
      {
        type: 'update_display_settings',
        user: svc.demo.users.alice,
        setting_name: 'default_language',
        setting: 'ja',
        language_name: 'Japanese',
        id: 0,
      },
    ]);
    await alice.updateSettings({ default_language: 'en' });
  });

  it('bring an old snapshot to the state of a fresh one (verify_action)', async () => {
    const before = await alice.registerQueue({ client_capabilities: { user_settings_object: true } });
    const changes = {
      twenty_four_hour_time: true,
      color_scheme: 2,
      emojiset: 'setB',
      default_view: 'all_messages',
      email_notifications_batching_period_seconds: 600,
      notification_sound: 'knock',
      default_language: 'fr',
      timezone: 'America/Chicago',
      enable_login_emails: false,
    };
    await alice.updateSettings(changes);
    await alice.updateSettings({ desktop_icon_count_display: 3, user_list_style: 1 });
    const raw = await eventsAfter(alice, before.queue_id as string, before.last_event_id);
    const events = raw.map((e) => parseEvent(e)).filter((e): e is ServerEvent => e !== null);
    expect(events.filter((e) => e.type === 'user_settings')).toHaveLength(11);
    const applied = applyEvents(accountStateFromSnapshot(before), events);
    const after = await alice.registerQueue({ client_capabilities: { user_settings_object: true } });
    expect(applied.userSettings).toEqual(after.user_settings);
    expect(applied.userSettings).not.toEqual(before.user_settings);
    const reset = Object.fromEntries(
      Object.keys({ ...changes, desktop_icon_count_display: 0, user_list_style: 0 }).map((k) => [
        k,
        (before.user_settings as Record<string, string | number | boolean>)[k] as string | number | boolean,
      ]),
    );
    await alice.updateSettings(reset);
    expect(await settingsOf(alice)).toEqual(before.user_settings);
  });
});

describe('full_name, email and password', () => {
  it('renames the user and tells everyone in the organization', async () => {
    const bobQueue = (await bob.registerQueue({ event_types: ['realm_user'] })).queue_id as string;
    const r = await patch(alice, 'full_name=%20Alice%20Wonder%20');
    expect(r.status).toBe(200);
    expect((await alice.getOwnUser()).full_name).toBe('Alice Wonder');
    expect(await eventsAfter(bob, bobQueue, -1)).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: 4, full_name: 'Alice Wonder' }, id: 0 },
    ]);
    await alice.updateSettings({ full_name: 'Alice Doe' });
  });

  it.each([
    ['', 'Name too short!'],
    ['A', 'Name too short!'],
    ['x'.repeat(101), 'Name too long!'],
    ['Alice *Star*', 'Invalid characters in name!'],
    ['Alice@home', 'Invalid characters in name!'],
    ['Alice\u0007', 'Invalid characters in name!'],
  ])('rejects the name %j', async (name, msg) => {
    const r = await patch(alice, `full_name=${encodeURIComponent(name)}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('only starts an email change: the address stays until the link is followed', async () => {
    // The whole confirmation is in email_change.test.ts.
    const r = await patch(alice, 'email=alice2%40example.com');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: [] });
    expect((await alice.getOwnUser()).email).toBe(svc.demo.users.alice);
    const same = await patch(alice, `email=${encodeURIComponent(svc.demo.users.alice)}`);
    expect(same.status).toBe(200);
  });

  it('name and time zone changes reach everyone (verify_action)', async () => {
    const admin = await svc.login('admin');
    const { events, result } = await verifyAction({
      clients: [alice, bob, admin],
      action: () => patch(alice, 'full_name=Alice%20Verified&timezone=Asia%2FKolkata'),
    });
    expect(result.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: [] });
    const person = [
      { type: 'realm_user', op: 'update', person: { user_id: 4, full_name: 'Alice Verified' } },
      {
        type: 'realm_user',
        op: 'update',
        person: { user_id: 4, email: svc.demo.users.alice, timezone: 'Asia/Kolkata' },
      },
    ];
    const strip = (list: Record<string, unknown>[]) => list.map(({ id: _id, ...e }) => e);
    expect(strip(events[0] ?? [])).toEqual([
      person[0],
      { type: 'user_settings', op: 'update', property: 'timezone', value: 'Asia/Kolkata' },
      person[1],
    ]);
    expect(strip(events[1] ?? [])).toEqual(person);
    expect(strip(events[2] ?? [])).toEqual(person);
    await alice.updateSettings({ full_name: 'Alice Doe', timezone: 'Europe/Berlin' });
  });

  it('changes the password given the old one', async () => {
    const guest = await svc.login('guest');
    const missing = await patch(guest, 'new_password=correct-horse-battery');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      result: 'error',
      msg: "Missing 'old_password' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'old_password',
    });
    const wrong = await patch(guest, 'old_password=nope&new_password=correct-horse-battery');
    expect(wrong.body).toEqual({ result: 'error', msg: 'Wrong password!', code: 'BAD_REQUEST' });
    const weak = await patch(guest, `old_password=${svc.demo.password}&new_password=short`);
    expect(weak.body).toEqual({ result: 'error', msg: 'New password is too weak!', code: 'BAD_REQUEST' });

    const ok = await patch(guest, `old_password=${svc.demo.password}&new_password=correct-horse-battery`);
    expect(ok.status).toBe(200);
    const login = (password: string) =>
      call(svc.url, 'POST', '/fetch_api_key', { params: { username: svc.demo.users.guest, password } });
    expect((await login('correct-horse-battery')).status).toBe(200);
    expect((await login(svc.demo.password)).status).toBe(401);
    // The API key stays the same: other clients keep working.
    expect((await call(svc.url, 'GET', '/users/me', { auth: authOf(guest) })).status).toBe(200);
  });

  it('register gives the password rule it enforces: password_min_length characters, no guesses rule', async () => {
    const r = await bob.registerQueue({ fetch_event_types: ['realm'] });
    if (r.queue_id) await bob.deleteQueue(r.queue_id);
    expect([r.password_min_length, r.password_min_guesses]).toEqual([8, 0]);
    const tooShort = await patch(bob, `old_password=${svc.demo.password}&new_password=aaaaaaa`);
    expect(tooShort.body).toEqual({ result: 'error', msg: 'New password is too weak!', code: 'BAD_REQUEST' });
    const justLong = await patch(bob, `old_password=${svc.demo.password}&new_password=aaaaaaaa`);
    expect(justLong.status).toBe(200);
    const back = await patch(bob, `old_password=aaaaaaaa&new_password=${svc.demo.password}`);
    expect(back.status).toBe(200);
  });
});

describe('enable_drafts_synchronization', () => {
  it('deletes the drafts on the server when turned off, without a drafts event', async () => {
    const before = await alice.registerQueue({ fetch_event_types: ['drafts'] });
    expect(before.drafts).toHaveLength(1);
    const { events } = await verifyAction({
      clients: [alice],
      action: () => alice.updateSettings({ enable_drafts_synchronization: false }),
    });
    expect(events[0]?.map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'user_settings', op: 'update', property: 'enable_drafts_synchronization', value: false },
    ]);
    expect((await alice.registerQueue({ fetch_event_types: ['drafts'] })).drafts).toEqual([]);
    // Still gone from the database, not just hidden while synchronization is off.
    await alice.updateSettings({ enable_drafts_synchronization: true });
    expect((await alice.registerQueue({ fetch_event_types: ['drafts'] })).drafts).toEqual([]);
  });
});

describe('deprecated aliases', () => {
  it.each(['/settings/display', '/settings/notifications'])('%s works like /settings', async (path) => {
    const send = (body: string) =>
      call(svc.url, 'PATCH', path, {
        auth: authOf(bob),
        body,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
    const queue = (await bob.registerQueue(modern)).queue_id as string;
    const bad = await send('enable_sounds=false&color_scheme=0');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ result: 'error', msg: 'Invalid color_scheme', code: 'BAD_REQUEST' });
    expect((await settingsOf(bob)).enable_sounds).toBe(true);

    const ok = await send('enable_sounds=false&left_side_userlist=true&nonsense=1');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['nonsense'] });
    expect(await settingsOf(bob)).toMatchObject({ enable_sounds: false, left_side_userlist: true });
    expect((await eventsAfter(bob, queue, -1)).map((e) => e.property)).toEqual([
      'left_side_userlist',
      'enable_sounds',
    ]);
    await bob.updateSettings({ enable_sounds: true, left_side_userlist: false });
  });
});

describe('durability', () => {
  it('keeps an acknowledged change through kill -9', async () => {
    const server = await startServerProcess();
    try {
      const client = await loginAs(server, 'bob');
      await client.updateSettings({ twenty_four_hour_time: true, emojiset: 'text' });
      await server.kill9();
      await server.restart();
      const after = await client.registerQueue({ fetch_event_types: ['user_settings'] });
      expect(after.user_settings).toMatchObject({ twenty_four_hour_time: true, emojiset: 'text' });
    } finally {
      await server.dispose();
    }
  });
});
