/** POST /users: who may create users, the checks with their texts, the defaults, and the events. */

import { describe, expect, it } from 'vitest';
import { ApiClient, type Params } from '../../shared/client';
import { memberUser } from './support/expected';
import { authOf, call, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, admin, owner, guest, moderator } = await serviceWith([
  'alice',
  'admin',
  'owner',
  'guest',
  'moderator',
]);

const valid = { email: 'newbie@example.com', password: 'correct horse battery', full_name: 'New Bie' };

async function userCount(): Promise<number> {
  const r = await call(svc.url, 'GET', '/users', { auth: authOf(alice) });
  return (r.body.members as unknown[]).length;
}

async function create(client: ApiClient | undefined, params: Params) {
  return call(svc.url, 'POST', '/users', { ...(client ? { auth: authOf(client) } : {}), params });
}

describe('POST /users errors', () => {
  const adminOnly = {
    result: 'error',
    msg: 'Must be an organization administrator',
    code: 'UNAUTHORIZED_PRINCIPAL',
  };

  it.each([
    ['a member', () => alice],
    ['a guest', () => guest],
    ['a moderator', () => moderator],
  ])('refuses %s', async (_who, who) => {
    const before = await userCount();
    const r = await create(who(), valid);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(adminOnly);
    expect(await userCount()).toBe(before);
  });

  it('refuses an administrator without can_create_users', async () => {
    svc.sql('UPDATE users SET can_create_users = 0 WHERE id = 1');
    try {
      const r = await create(owner, valid);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        result: 'error',
        msg: 'User not authorized to create users',
        code: 'BAD_REQUEST',
      });
    } finally {
      svc.sql('UPDATE users SET can_create_users = 1 WHERE id = 1');
    }
  });

  it('needs credentials', async () => {
    const r = await create(undefined, valid);
    expect(r.status).toBe(401);
  });

  it.each(['email', 'password', 'full_name'])('requires %s', async (name) => {
    const params: Record<string, string> = { ...valid };
    delete params[name];
    const r = await create(admin, params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      msg: `Missing '${name}' argument`,
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: name,
    });
  });

  const cases: [string, Params, string][] = [
    ['an address without @', { ...valid, email: 'newbie.example.com' }, "Invalid email 'newbie.example.com'"],
    [
      'an address with a space',
      { ...valid, email: 'new bie@example.com' },
      "Invalid email 'new bie@example.com'",
    ],
    [
      'an address without domain dot',
      { ...valid, email: 'newbie@localhost' },
      "Invalid email 'newbie@localhost'",
    ],
    ['a short password', { ...valid, password: 'short' }, 'The password is too weak.'],
    ['a password with NUL', { ...valid, password: 'long enough\u0000' }, 'The password is too weak.'],
    ['a one-letter name', { ...valid, full_name: 'N' }, 'Name too short!'],
    [
      'a name with a control character',
      { ...valid, full_name: 'New\u0007Bie' },
      'Invalid characters in name!',
    ],
    ['an overlong name', { ...valid, full_name: 'n'.repeat(101) }, 'Name too long!'],
  ];

  it.each(cases)('rejects %s and changes nothing', async (_name, params, msg) => {
    const before = await userCount();
    const r = await create(admin, params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    expect(await userCount()).toBe(before);
  });

  it('rejects an email in use, in any case, with the exact text', async () => {
    for (const email of [svc.demo.users.alice, svc.demo.users.alice.toUpperCase()]) {
      const before = await userCount();
      const r = await create(admin, { ...valid, email });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        result: 'error',
        msg: `Email '${email}' already in use`,
        code: 'BAD_REQUEST',
      });
      expect(await userCount()).toBe(before);
    }
  });
});

describe('POST /users', () => {
  it('creates a member with the organization’s defaults; everyone hears of them', async () => {
    // A changed default reaches new users only.
    await admin.request('PATCH', '/realm/user_settings_defaults', { twenty_four_hour_time: true });
    svc.sql('UPDATE realm SET email_address_visibility = 3');
    let result: Record<string, unknown>;
    let events: Record<string, unknown>[][];
    try {
      ({ result, events } = await verifyAction({
        clients: [alice, admin, guest],
        action: () => admin.request('POST', '/users', valid),
      }));
    } finally {
      svc.sql('UPDATE realm SET email_address_visibility = 1');
    }
    expect(result).toEqual({ result: 'success', msg: '', user_id: 8 });

    const person = memberUser({
      user_id: 8,
      email: valid.email,
      full_name: 'New Bie',
      timezone: '',
      date_joined: expect.any(String),
      profile_data: {},
    });
    const added = (list: Record<string, unknown>[] | undefined) =>
      (list ?? []).filter((e) => e.type === 'realm_user');
    expect(added(events[0])).toEqual([{ type: 'realm_user', op: 'add', person, id: expect.any(Number) }]);
    // Administrators see real addresses while visibility is limited to them.
    expect(added(events[1])).toEqual([
      {
        type: 'realm_user',
        op: 'add',
        person: { ...person, delivery_email: valid.email },
        id: expect.any(Number),
      },
    ]);
    expect(added(events[2])).toHaveLength(1);
    // The member role groups grew, and the default stream has a new subscriber.
    // role:fullmembers, role:members, role:everyone, role:internet (the demo's system groups 4 to 7).
    expect((events[0] ?? []).filter((e) => e.type === 'user_group')).toEqual(
      [4, 5, 6, 7].map((groupId) => ({
        type: 'user_group',
        op: 'add_members',
        group_id: groupId,
        user_ids: [8],
        id: expect.any(Number),
      })),
    );
    expect((events[0] ?? []).filter((e) => e.type === 'subscription')).toEqual([
      { type: 'subscription', op: 'peer_add', stream_ids: [1], user_ids: [8], id: expect.any(Number) },
    ]);

    // The new user signs in with the password and starts from the defaults.
    const anonymous = new ApiClient({ serverUrl: svc.url });
    const key = await anonymous.fetchApiKey(valid.email, valid.password);
    const newbie = anonymous.withCredentials({ email: key.email, apiKey: key.api_key });
    const me = await newbie.request('GET', '/users/me');
    expect(me).toMatchObject({ user_id: 8, role: 400, full_name: 'New Bie', profile_data: {} });
    const state = await newbie.request('POST', '/register', {
      fetch_event_types: ['user_settings', 'subscription'],
    });
    expect((state.user_settings as Record<string, unknown>).twenty_four_hour_time).toBe(true);
    expect((state.subscriptions as { name: string }[]).map((s) => s.name)).toEqual(['general']);
    const aliceSettings = await alice.request('POST', '/register', { fetch_event_types: ['user_settings'] });
    expect((aliceSettings.user_settings as Record<string, unknown>).twenty_four_hour_time).toBe(false);
  });

  it('the same address again is in use', async () => {
    const r = await create(admin, { ...valid, email: 'NEWBIE@example.com' });
    expect(r.body).toEqual({
      result: 'error',
      msg: "Email 'NEWBIE@example.com' already in use",
      code: 'BAD_REQUEST',
    });
  });
});
