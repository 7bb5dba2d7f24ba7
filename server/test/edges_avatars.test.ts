/**
 * The user_avatar_url_field_optional client capability: register's realm_users leave out
 * avatar_url for users idle for over 30 days (no message sent since, nor joined since),
 * never for the requester, and only for clients that declared the capability.
 */
import { describe, expect, it } from 'vitest';
import { LONG_IDLE_SECONDS } from '../events/initial-state/users';
import { call, demoIds, serviceWithAuth } from './support/service';

const { svc, alice, bob } = await serviceWithAuth(['alice', 'bob']);
const ids = demoIds(svc).users;
const longAgoSeconds = Math.floor(Date.now() / 1000) - LONG_IDLE_SECONDS - 86_400;

/** Makes a user long idle: joined and last wrote over 30 days ago. */
function makeIdle(userId: number | undefined) {
  svc.sql('UPDATE users SET date_joined_ms = ? WHERE id = ?', longAgoSeconds * 1000, userId);
  svc.sql('UPDATE messages SET date_sent = ? WHERE sender_id = ?', longAgoSeconds, userId);
}

async function realmUsers(auth: [string, string], optional: boolean | undefined) {
  const params: Record<string, unknown> = { fetch_event_types: ['realm_user'] };
  if (optional !== undefined) params.client_capabilities = { user_avatar_url_field_optional: optional };
  const r = await call(svc.url, 'POST', '/register', { auth, params: params as never });
  expect(r.status).toBe(200);
  const users = r.body.realm_users as Record<string, unknown>[];
  return new Map(users.map((u) => [u.user_id as number, u]));
}

describe('user_avatar_url_field_optional', () => {
  makeIdle(ids.bob);
  makeIdle(ids.alice);
  // The demo organization may be dated in the past: the owner joined just now.
  svc.sql('UPDATE users SET date_joined_ms = ? WHERE id = ?', Date.now(), ids.owner);

  it('leaves out avatar_url of long-idle users, not of active ones', async () => {
    const users = await realmUsers(alice, true);
    expect(users.get(ids.bob as number)).not.toHaveProperty('avatar_url');
    expect(users.get(ids.bob as number)).toHaveProperty('avatar_version');
    expect(users.get(ids.owner as number)).toHaveProperty('avatar_url');
  });

  it('never leaves out the requester', async () => {
    const users = await realmUsers(alice, true);
    expect(users.get(ids.alice as number)).toHaveProperty('avatar_url');
  });

  it('keeps every avatar_url for clients without the capability', async () => {
    for (const optional of [undefined, false]) {
      const users = await realmUsers(alice, optional);
      expect(users.get(ids.bob as number)).toHaveProperty('avatar_url');
    }
  });

  it('gives it back once the user sends a message', async () => {
    const sent = await call(svc.url, 'POST', '/messages', {
      auth: bob,
      params: { type: 'stream', to: 'general', topic: 'back', content: 'hello again' },
    });
    expect(sent.status).toBe(200);
    const users = await realmUsers(alice, true);
    expect(users.get(ids.bob as number)).toHaveProperty('avatar_url');
  });
});
