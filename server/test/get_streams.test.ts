/** GET /streams: every flag, who may use include_all_active, and the stream objects. */

import { describe, expect, it } from 'vitest';
import type { ApiClient, Params } from '../../shared/client';
import type { DemoUser } from '../../test/support/server';
import { authOf, call, serviceWith } from './support/service';

const { svc, ...signedIn } = await serviceWith(['admin', 'moderator', 'alice', 'bob', 'guest']);
const clients = signedIn as Record<DemoUser, ApiClient>;
// A generic bot of the administrator (the demo's webhook bot may not use the REST API).
const bot: [string, string] = ['helper-bot@demo.confab.example', 'HelperBotKey0123456789abcdefABCDE'];
svc.sql(
  `INSERT INTO users (realm_id, email, delivery_email, full_name, password_hash, api_key, role, is_bot,
     bot_type, bot_owner_id, date_joined_ms)
   SELECT realm_id, ?, ?, 'Helper Bot', NULL, ?, 400, 1, 1, id, 0 FROM users WHERE email = ?`,
  bot[0],
  bot[0],
  bot[1],
  svc.demo.users.admin,
);

const get = (auth: [string, string] | DemoUser, params: Params = {}) =>
  call(svc.url, 'GET', '/streams', { auth: typeof auth === 'string' ? authOf(clients[auth]) : auth, params });
async function names(auth: [string, string] | DemoUser, params: Params = {}): Promise<string[]> {
  const r = await get(auth, params);
  expect(r.status).toBe(200);
  return (r.body.streams as { name: string }[]).map((s) => s.name);
}
const none = { include_public: false, include_subscribed: false };

describe('GET /streams', () => {
  it('by default: public streams and the user’s own, sorted by name', async () => {
    expect(await names('alice')).toEqual(['announce', 'design', 'engineering', 'general']);
    expect(await names('bob')).toEqual(['announce', 'engineering', 'general']);
  });

  it('each stream has the fields of the spec’s Stream object', async () => {
    const r = await get('alice');
    const general = (r.body.streams as Record<string, unknown>[]).find((s) => s.name === 'general');
    expect(Object.keys(general ?? {}).sort()).toEqual(
      [
        'can_remove_subscribers_group_id',
        'date_created',
        'description',
        'first_message_id',
        'history_public_to_subscribers',
        'invite_only',
        'is_announcement_only',
        'is_web_public',
        'message_retention_days',
        'name',
        'rendered_description',
        'stream_id',
        'stream_post_policy',
        'stream_weekly_traffic',
      ].sort(),
    );
    expect(general).toMatchObject({
      description: 'Everyone is here: news and chatter.',
      invite_only: false,
      first_message_id: expect.any(Number),
    });
  });

  it('include_public and include_subscribed select their sets', async () => {
    expect(await names('bob', { include_public: false })).toEqual(['announce', 'general']);
    expect(await names('alice', { include_subscribed: false })).toEqual([
      'announce',
      'engineering',
      'general',
    ]);
    expect(await names('bob', none)).toEqual([]);
  });

  it('guests see only their own streams, even with include_public', async () => {
    expect(await names('guest')).toEqual(['announce', 'general']);
  });

  it('include_web_public adds web-public streams, for guests too', async () => {
    svc.sql("UPDATE streams SET is_web_public = 1 WHERE name = 'engineering'");
    try {
      expect(await names('guest', { include_web_public: true })).toEqual([
        'announce',
        'engineering',
        'general',
      ]);
      expect(await names('bob', { ...none, include_web_public: true })).toEqual(['engineering']);
    } finally {
      svc.sql("UPDATE streams SET is_web_public = 0 WHERE name = 'engineering'");
    }
  });

  it('include_default adds the default streams', async () => {
    expect(await names('bob', { ...none, include_default: true })).toEqual(['general']);
  });

  it('include_all_active: every stream, for administrators only', async () => {
    expect(await names('admin', { ...none, include_all_active: true })).toEqual([
      'announce',
      'design',
      'engineering',
      'general',
    ]);
    for (const who of ['moderator', 'bob', 'guest'] as const) {
      const r = await get(who, { include_all_active: true });
      expect({ status: r.status, body: r.body }).toEqual({
        status: 400,
        body: { result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' },
      });
    }
  });

  it('include_owner_subscribed: a bot also gets what its owner is subscribed to', async () => {
    expect(await names(bot, none)).toEqual([]);
    expect(await names(bot, { ...none, include_owner_subscribed: true })).toEqual([
      'announce',
      'design',
      'engineering',
      'general',
    ]);
    // Not a bot: the flag adds nothing.
    expect(await names('bob', { ...none, include_owner_subscribed: true })).toEqual([]);
  });

  it('bad flags are a 400', async () => {
    for (const [params, msg] of [
      [{ include_public: 'yes' }, 'include_public is not valid JSON'],
      [{ include_all_active: 1 }, 'include_all_active is not a boolean'],
      [{ include_default: '"true"' }, 'include_default is not a boolean'],
    ] as const) {
      const r = await get('admin', params);
      expect({ status: r.status, body: r.body }).toEqual({
        status: 400,
        body: { result: 'error', msg, code: 'BAD_REQUEST' },
      });
    }
  });

  it('needs authentication', async () => {
    const r = await call(svc.url, 'GET', '/streams');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });
});
