/** GET /users and GET /users/{email} (or a user id): the User table, delivery_email, avatars, profile data. */

import { describe, expect, it } from 'vitest';
import { userSchema } from '../../shared/protocol';
import { memberUser } from './support/expected';
import { call, serviceWithAuth } from './support/service';

const { svc, alice, admin, moderator } = await serviceWithAuth(['alice', 'admin', 'moderator']);

const aliceUser = () =>
  memberUser({
    user_id: 4,
    email: svc.demo.users.alice,
    full_name: 'Alice Doe',
    timezone: 'Europe/Berlin',
    date_joined: '2025-02-04T09:00:00.000Z',
  });

const aliceProfile = {
  '1': { value: 'Software engineer', rendered_value: '<p>Software engineer</p>' },
  '2': { value: '0' },
  '3': { value: 'she/her' },
};

async function members(auth: [string, string], params = {}) {
  const r = await call(svc.url, 'GET', '/users', { auth, params });
  expect(r.status).toBe(200);
  return r.body.members as Record<string, unknown>[];
}

async function withVisibility<T>(visibility: number, work: () => Promise<T>): Promise<T> {
  svc.sql('UPDATE realm SET email_address_visibility = ?', visibility);
  try {
    return await work();
  } finally {
    svc.sql('UPDATE realm SET email_address_visibility = 1');
  }
}

describe('GET /users', () => {
  it('lists every user and bot as the spec’s User, extavatar URLs left to the client by default', async () => {
    const r = await call(svc.url, 'GET', '/users', { auth: alice });
    expect(r.status).toBe(200);
    expect(r.body.result).toBe('success');
    expect(r.body.msg).toBe('');
    const list = r.body.members as Record<string, unknown>[];
    expect(list.map((u) => u.user_id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(list[3]).toEqual(aliceUser());
    expect(list[6]).toEqual({
      user_id: 7,
      email: svc.demo.webhook_bot.email,
      full_name: 'Webhook Bot',
      is_admin: false,
      is_owner: false,
      is_billing_admin: false,
      role: 400,
      is_guest: false,
      is_bot: true,
      is_active: true,
      timezone: '',
      date_joined: expect.any(String),
      avatar_url: null,
      avatar_version: 1,
      bot_type: 2,
      bot_owner_id: 2,
    });
    for (const user of list) expect(userSchema.safeParse(user).success).toBe(true);
  });

  it('client_extavatar=false gives every avatar URL', async () => {
    const list = await members(alice, { client_extavatar: false });
    expect(list[3]?.avatar_url).toBe('/avatar/4?v=1');
    expect(list.every((u) => typeof u.avatar_url === 'string')).toBe(true);
  });

  it('an uploaded avatar always has its URL', async () => {
    svc.sql("UPDATE users SET avatar_source = 'U', avatar_version = 3 WHERE id = 5");
    try {
      const list = await members(alice);
      expect(list[4]?.avatar_url).toBe('/avatar/5?v=3');
      expect(list[3]?.avatar_url).toBeNull();
    } finally {
      svc.sql("UPDATE users SET avatar_source = 'G', avatar_version = 1 WHERE id = 5");
    }
  });

  it('profile_data only with include_custom_profile_fields, and never for bots', async () => {
    const without = await members(alice, { include_custom_profile_fields: false });
    expect(without.some((u) => 'profile_data' in u)).toBe(false);
    const withData = await members(alice, { include_custom_profile_fields: true });
    expect(withData[3]).toEqual({ ...aliceUser(), profile_data: aliceProfile });
    expect(withData[6]).not.toHaveProperty('profile_data');
  });

  it('includes deactivated users with is_active false', async () => {
    svc.sql('UPDATE users SET is_active = 0 WHERE id = 6');
    try {
      const list = await members(alice);
      expect(list[5]).toMatchObject({ user_id: 6, is_active: false, is_guest: true });
    } finally {
      svc.sql('UPDATE users SET is_active = 1 WHERE id = 6');
    }
  });

  it('delivery_email: absent when everyone may see addresses', async () => {
    for (const auth of [alice, admin])
      expect((await members(auth)).some((u) => 'delivery_email' in u)).toBe(false);
  });

  it('delivery_email: administrators only, when limited to administrators', async () => {
    await withVisibility(3, async () => {
      const seen = await members(admin);
      expect(seen[3]?.delivery_email).toBe(svc.demo.users.alice);
      expect(seen.every((u) => typeof u.delivery_email === 'string')).toBe(true);
      for (const auth of [alice, moderator]) {
        expect((await members(auth)).some((u) => 'delivery_email' in u)).toBe(false);
      }
    });
  });

  it('delivery_email: moderators too, when limited to moderators', async () => {
    await withVisibility(5, async () => {
      expect((await members(moderator))[3]?.delivery_email).toBe(svc.demo.users.alice);
      expect((await members(admin))[3]?.delivery_email).toBe(svc.demo.users.alice);
      expect((await members(alice)).some((u) => 'delivery_email' in u)).toBe(false);
    });
  });

  it('delivery_email: nobody, when addresses are hidden from everyone', async () => {
    await withVisibility(4, async () => {
      expect((await members(admin)).some((u) => 'delivery_email' in u)).toBe(false);
    });
  });

  it.each([
    ['client_extavatar', 1, 'client_extavatar is not a boolean'],
    ['client_extavatar', 'True', 'client_extavatar is not valid JSON'],
    ['include_custom_profile_fields', '"yes"', 'include_custom_profile_fields is not a boolean'],
  ])('rejects %s=%s', async (name, value, msg) => {
    const r = await call(svc.url, 'GET', '/users', { auth: alice, params: { [name]: value } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('needs credentials', async () => {
    const r = await call(svc.url, 'GET', '/users');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });
});

describe('GET /users/{email}', () => {
  it('returns one user by display email, in any case', async () => {
    for (const key of [svc.demo.users.alice, svc.demo.users.alice.toUpperCase()]) {
      const r = await call(svc.url, 'GET', `/users/${encodeURIComponent(key)}`, { auth: admin });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ result: 'success', msg: '', user: aliceUser() });
    }
  });

  it('takes a user id as well, and the same query parameters', async () => {
    const r = await call(svc.url, 'GET', '/users/4', {
      auth: admin,
      params: { client_extavatar: false, include_custom_profile_fields: true },
    });
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      user: { ...aliceUser(), avatar_url: '/avatar/4?v=1', profile_data: aliceProfile },
    });
  });

  it('finds bots', async () => {
    const r = await call(svc.url, 'GET', `/users/${encodeURIComponent(svc.demo.webhook_bot.email)}`, {
      auth: alice,
      params: { include_custom_profile_fields: true },
    });
    expect(r.body.user).toMatchObject({ user_id: 7, is_bot: true, bot_owner_id: 2 });
    expect(r.body.user).not.toHaveProperty('profile_data');
  });

  it('delivery_email follows the same rules as the list', async () => {
    await withVisibility(3, async () => {
      const path = `/users/${encodeURIComponent(svc.demo.users.alice)}`;
      expect((await call(svc.url, 'GET', path, { auth: admin })).body.user).toMatchObject({
        delivery_email: svc.demo.users.alice,
      });
      expect((await call(svc.url, 'GET', path, { auth: moderator })).body.user).not.toHaveProperty(
        'delivery_email',
      );
    });
  });

  it.each(['nobody@example.com', '999', 'not an email'])('answers "No such user" for %s', async (key) => {
    const r = await call(svc.url, 'GET', `/users/${encodeURIComponent(key)}`, { auth: alice });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });
});

describe('register state for users (state/users.ts)', () => {
  async function register(auth: [string, string], params: Record<string, unknown>) {
    const r = await call(svc.url, 'POST', '/register', { auth, params: params as never });
    expect(r.status).toBe(200);
    await call(svc.url, 'DELETE', '/events', { auth, params: { queue_id: r.body.queue_id as string } });
    return r.body;
  }

  it('realm_users is the same User as GET /users, with profile_data; client_extavatar as asked', async () => {
    const list = await members(alice, { include_custom_profile_fields: true });
    const byDefault = await register(alice, { fetch_event_types: ['realm_user'] });
    expect(byDefault.realm_users).toEqual(list);
    expect(byDefault.realm_non_active_users).toEqual([]);
    expect(byDefault.cross_realm_bots).toEqual([]);
    const urls = await register(alice, { fetch_event_types: ['realm_user'], client_extavatar: false });
    expect((urls.realm_users as Record<string, unknown>[])[3]?.avatar_url).toBe('/avatar/4?v=1');
    // The requester's own fields at the top level.
    expect(byDefault).toMatchObject({
      email: svc.demo.users.alice,
      full_name: 'Alice Doe',
      is_admin: false,
      is_owner: false,
      is_moderator: false,
      is_guest: false,
      can_create_users: false,
      avatar_url: '/avatar/4?v=1',
      avatar_version: 1,
    });
  });

  it('deactivated users are in realm_non_active_users', async () => {
    svc.sql('UPDATE users SET is_active = 0 WHERE id = 6');
    try {
      const state = await register(admin, { fetch_event_types: ['realm_user'] });
      expect((state.realm_non_active_users as { user_id: number }[]).map((u) => u.user_id)).toEqual([6]);
      expect((state.realm_users as { user_id: number }[]).map((u) => u.user_id)).toEqual([1, 2, 3, 4, 5, 7]);
    } finally {
      svc.sql('UPDATE users SET is_active = 1 WHERE id = 6');
    }
  });

  it('custom_profile_fields with the eight types, and user_status keyed by user id', async () => {
    const state = await register(alice, { fetch_event_types: ['custom_profile_fields', 'user_status'] });
    expect((state.custom_profile_fields as { name: string }[]).map((f) => f.name)).toEqual([
      'Job title',
      'Favorite editor',
      'Pronouns',
    ]);
    expect(state.custom_profile_field_types).toEqual({
      SHORT_TEXT: { id: 1, name: 'Short text' },
      LONG_TEXT: { id: 2, name: 'Long text' },
      CHOICE: { id: 3, name: 'List of options' },
      DATE: { id: 4, name: 'Date picker' },
      URL: { id: 5, name: 'Link' },
      USER: { id: 6, name: 'Person picker' },
      EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
      PRONOUNS: { id: 8, name: 'Pronouns' },
    });
    expect(state.user_status).toEqual({
      '5': {
        status_text: 'On vacation',
        emoji_name: 'palm_tree',
        emoji_code: '1f334',
        reaction_type: 'unicode_emoji',
      },
    });
    expect(state).not.toHaveProperty('realm_users');
  });
});
