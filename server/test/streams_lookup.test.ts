/**
 * Read-only stream lookups beyond the spec: GET /streams/{stream_id}/members,
 * GET /get_stream_id and GET /users/{user_id}/subscriptions/{stream_id}.
 */

import { describe, expect, it } from 'vitest';
import type { Params } from '../../shared/client';
import type { DemoUser } from '../../test/support/server';
import { authOf, call, demoIds, everyone, serviceWith } from './support/service';

const { svc } = await serviceWith([]);
const { clients, ids } = await everyone(svc);
const streams = demoIds(svc).streams as Record<'general' | 'engineering' | 'design' | 'announce', number>;

const get = (who: DemoUser, path: string, params: Params = {}) =>
  call(svc.url, 'GET', path, { auth: authOf(clients[who]), params });
const error = (msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => ({
  status: 400,
  body: { result: 'error', msg, code, ...extra },
});
const outcome = (r: { status: number; body: Record<string, unknown> }) => ({
  status: r.status,
  body: r.body,
});
const success = (fields: Record<string, unknown>) => ({
  status: 200,
  body: { result: 'success', msg: '', ...fields },
});

describe('GET /streams/{stream_id}/members', () => {
  it('lists the active subscribers of a public stream', async () => {
    const r = await get('bob', `/streams/${streams.engineering}/members`);
    expect(outcome(r)).toEqual(success({ subscribers: [ids.admin, ids.alice].sort((a, b) => a - b) }));
  });

  it('private streams: subscribers and administrators only', async () => {
    const expected = success({ subscribers: [ids.admin, ids.alice].sort((a, b) => a - b) });
    expect(outcome(await get('alice', `/streams/${streams.design}/members`))).toEqual(expected);
    expect(outcome(await get('owner', `/streams/${streams.design}/members`))).toEqual(expected);
    expect(outcome(await get('bob', `/streams/${streams.design}/members`))).toEqual(
      error('Invalid stream ID'),
    );
    expect(outcome(await get('moderator', `/streams/${streams.design}/members`))).toEqual(
      error('Invalid stream ID'),
    );
  });

  it('guests: only streams they are in', async () => {
    const general = await get('guest', `/streams/${streams.general}/members`);
    expect(general.status).toBe(200);
    expect(general.body.subscribers).toContain(ids.guest);
    expect(outcome(await get('guest', `/streams/${streams.engineering}/members`))).toEqual(
      error('Invalid stream ID'),
    );
  });

  it('deactivated users are not listed; unknown and malformed ids are errors', async () => {
    svc.sql('UPDATE users SET is_active = 0 WHERE id = ?', ids.bob);
    try {
      const r = await get('alice', `/streams/${streams.general}/members`);
      expect(r.body.subscribers).not.toContain(ids.bob);
      expect(r.body.subscribers).toContain(ids.alice);
    } finally {
      svc.sql('UPDATE users SET is_active = 1 WHERE id = ?', ids.bob);
    }
    expect(outcome(await get('alice', '/streams/987654/members'))).toEqual(error('Invalid stream ID'));
    expect(outcome(await get('alice', '/streams/abc/members'))).toEqual(error('Invalid stream ID'));
  });
});

describe('GET /get_stream_id', () => {
  it('answers the id of a stream the user can access, by name in any letter case', async () => {
    expect(outcome(await get('bob', '/get_stream_id', { stream: 'general' }))).toEqual(
      success({ stream_id: streams.general }),
    );
    expect(outcome(await get('alice', '/get_stream_id', { stream: 'DESIGN' }))).toEqual(
      success({ stream_id: streams.design }),
    );
  });

  it('a missing stream, or one the user cannot access, is "Invalid stream name"', async () => {
    expect(outcome(await get('bob', '/get_stream_id', { stream: 'nonexistent' }))).toEqual(
      error("Invalid stream name 'nonexistent'"),
    );
    // Private, not subscribed: administrators included (no administrator exception here).
    for (const who of ['bob', 'admin'] as const) {
      svc.sql(
        'UPDATE subscriptions SET active = 0 WHERE user_id = ? AND stream_id = ?',
        ids.admin,
        streams.design,
      );
      expect(outcome(await get(who, '/get_stream_id', { stream: 'design' })), who).toEqual(
        error("Invalid stream name 'design'"),
      );
    }
    svc.sql(
      'UPDATE subscriptions SET active = 1 WHERE user_id = ? AND stream_id = ?',
      ids.admin,
      streams.design,
    );
    expect(outcome(await get('guest', '/get_stream_id', { stream: 'engineering' }))).toEqual(
      error("Invalid stream name 'engineering'"),
    );
  });

  it('the name is required', async () => {
    expect(outcome(await get('bob', '/get_stream_id'))).toEqual(
      error("Missing 'stream' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'stream' }),
    );
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  const status = (who: DemoUser, userId: number | string, streamId: number | string) =>
    get(who, `/users/${userId}/subscriptions/${streamId}`);

  it('answers whether the user is subscribed', async () => {
    expect(outcome(await status('bob', ids.alice, streams.engineering))).toEqual(
      success({ is_subscribed: true }),
    );
    expect(outcome(await status('bob', ids.bob, streams.engineering))).toEqual(
      success({ is_subscribed: false }),
    );
    // Administrators may ask about private streams they are not in.
    svc.sql(
      'UPDATE subscriptions SET active = 0 WHERE user_id = ? AND stream_id = ?',
      ids.admin,
      streams.design,
    );
    try {
      expect(outcome(await status('owner', ids.alice, streams.design))).toEqual(
        success({ is_subscribed: true }),
      );
    } finally {
      svc.sql(
        'UPDATE subscriptions SET active = 1 WHERE user_id = ? AND stream_id = ?',
        ids.admin,
        streams.design,
      );
    }
  });

  it('a stream the requester cannot access is "Invalid stream ID"', async () => {
    expect(outcome(await status('bob', ids.alice, streams.design))).toEqual(error('Invalid stream ID'));
    expect(outcome(await status('guest', ids.alice, streams.engineering))).toEqual(
      error('Invalid stream ID'),
    );
    expect(outcome(await status('bob', ids.alice, 987654))).toEqual(error('Invalid stream ID'));
    expect(outcome(await status('bob', ids.alice, 'abc'))).toEqual(error('Invalid stream ID'));
  });

  it('an unknown, deactivated or bot user is "No such user"', async () => {
    expect(outcome(await status('bob', 987654, streams.general))).toEqual(error('No such user'));
    const bot = await clients.bob.request('GET', '/users');
    const botId = (bot.members as { user_id: number; is_bot: boolean }[]).find((u) => u.is_bot)?.user_id;
    expect(botId).toBeDefined();
    expect(outcome(await status('bob', botId as number, streams.general))).toEqual(error('No such user'));
    svc.sql('UPDATE users SET is_active = 0 WHERE id = ?', ids.moderator);
    try {
      expect(outcome(await status('bob', ids.moderator, streams.general))).toEqual(error('No such user'));
    } finally {
      svc.sql('UPDATE users SET is_active = 1 WHERE id = ?', ids.moderator);
    }
    expect(outcome(await status('bob', 'abc', streams.general))).toEqual(error('user_id is not an integer'));
  });
});
