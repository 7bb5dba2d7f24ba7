/** GET /users/me. */

import { describe, expect, it } from 'vitest';
import { ownUserResponseSchema } from '../../shared/protocol';
import { authOf, call, serviceWithAuth } from './support/service';

const { svc, alice } = await serviceWithAuth(['alice']);

describe('GET /users/me', () => {
  it('returns the requester as the spec’s User', async () => {
    const r = await call(svc.url, 'GET', '/users/me', { auth: alice });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      user_id: 4,
      email: svc.demo.users.alice,
      full_name: 'Alice Doe',
      is_admin: false,
      is_owner: false,
      is_billing_admin: false,
      role: 400,
      is_guest: false,
      is_bot: false,
      is_active: true,
      timezone: 'Europe/Berlin',
      date_joined: '2025-02-04T09:00:00.000Z',
      avatar_url: '/avatar/4?v=1',
      avatar_version: 1,
      max_message_id: 35,
      profile_data: {
        '1': { value: 'Software engineer', rendered_value: '<p>Software engineer</p>' },
        '2': { value: '0' },
        '3': { value: 'she/her' },
      },
    });
    expect(ownUserResponseSchema.safeParse(r.body).success).toBe(true);
  });

  it('reports each role with its flags', async () => {
    const expected = {
      owner: { role: 100, is_owner: true, is_admin: true, is_guest: false },
      admin: { role: 200, is_owner: false, is_admin: true, is_guest: false },
      moderator: { role: 300, is_owner: false, is_admin: false, is_guest: false },
      bob: { role: 400, is_owner: false, is_admin: false, is_guest: false },
      guest: { role: 600, is_owner: false, is_admin: false, is_guest: true },
    } as const;
    for (const [who, flags] of Object.entries(expected)) {
      const client = await svc.login(who as keyof typeof expected);
      const me = await call(svc.url, 'GET', '/users/me', { auth: authOf(client) });
      expect(me.body, who).toMatchObject(flags);
    }
  });

  it('adds delivery_email when the organization limits email visibility', async () => {
    const before = await call(svc.url, 'GET', '/users/me', { auth: alice });
    expect(before.body).not.toHaveProperty('delivery_email');
    svc.sql('UPDATE realm SET email_address_visibility = 3');
    try {
      const after = await call(svc.url, 'GET', '/users/me', { auth: alice });
      expect(after.body.delivery_email).toBe(svc.demo.users.alice);
    } finally {
      svc.sql('UPDATE realm SET email_address_visibility = 1');
    }
  });

  it('leaves profile_data out for bots', async () => {
    const key = 'GenericBotKey0123456789abcdefghij';
    svc.sql(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role, is_bot, bot_type,
         bot_owner_id, date_joined_ms) VALUES (1, 'generic-bot@example.com', 'generic-bot@example.com',
         'Generic Bot', ?, 400, 1, 1, 4, 1700000000000)`,
      key,
    );
    const r = await call(svc.url, 'GET', '/users/me', { auth: ['generic-bot@example.com', key] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      user_id: 8,
      email: 'generic-bot@example.com',
      full_name: 'Generic Bot',
      is_admin: false,
      is_owner: false,
      is_billing_admin: false,
      role: 400,
      is_guest: false,
      is_bot: true,
      is_active: true,
      timezone: '',
      date_joined: '2023-11-14T22:13:20.000Z',
      avatar_url: '/avatar/8?v=1',
      avatar_version: 1,
      max_message_id: -1,
    });
  });

  it('needs credentials', async () => {
    const r = await call(svc.url, 'GET', '/users/me');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });
});
