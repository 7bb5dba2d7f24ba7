/**
 * Muted users: POST/DELETE /users/me/muted_users/{muted_user_id}, muted_users events and
 * register state, the muted sender's messages marked read, and the family's errors.
 */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, demoIds, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob, moderator } = await serviceWith(['alice', 'bob', 'moderator']);
const { users } = demoIds(svc);
const bobId = users.bob as number;

function mute(client: ApiClient, method: 'POST' | 'DELETE', userId: number | string): Promise<RawResponse> {
  return call(svc.url, method, `/users/me/muted_users/${userId}`, { auth: authOf(client) });
}

const error = (msg: string) => ({ status: 400, body: { result: 'error', msg, code: 'BAD_REQUEST' } });

describe('POST /users/me/muted_users/{muted_user_id}', () => {
  it('mutes, marks the muted sender’s messages read, and sends the list to the muter only', async () => {
    const sent = await bob.request('POST', '/messages', {
      type: 'private',
      to: JSON.stringify([users.alice]),
      content: 'unread until muted',
    });
    const { events, result, states } = await verifyAction({
      clients: [alice, bob],
      action: () => mute(alice, 'POST', bobId),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    const [flagsEvent, mutedEvent] = events[0] ?? [];
    expect(flagsEvent).toMatchObject({ type: 'update_message_flags', op: 'add', flag: 'read', all: false });
    expect((flagsEvent?.messages as number[]) ?? []).toContain(sent.id);
    expect(mutedEvent).toEqual({
      type: 'muted_users',
      muted_users: [{ id: bobId, timestamp: expect.any(Number) }],
      id: expect.any(Number),
    });
    expect(events[1]).toEqual([]);
    expect(states[0]?.muted_users).toEqual([{ id: bobId, timestamp: expect.any(Number) }]);
    expect(states[1]?.muted_users).toEqual([]);
  });

  it('has the muted sender’s new messages arrive read', async () => {
    const { events } = await verifyAction({
      clients: [alice],
      action: () =>
        bob.request('POST', '/messages', { type: 'stream', to: 'general', topic: 'm', content: 'hush' }),
    });
    expect(events[0]?.find((e) => e.type === 'message')?.flags).toContain('read');
  });

  it('refuses a second mute, oneself, and unknown users', async () => {
    expect(await mute(alice, 'POST', bobId).then((r) => ({ status: r.status, body: r.body }))).toEqual(
      error('User already muted'),
    );
    const self = users.moderator as number;
    expect(await mute(moderator, 'POST', self).then((r) => ({ status: r.status, body: r.body }))).toEqual(
      error('Cannot mute self'),
    );
    expect(await mute(moderator, 'POST', 987654).then((r) => ({ status: r.status, body: r.body }))).toEqual(
      error('No such user'),
    );
  });

  it('mutes bots too', async () => {
    const botId = (await moderator.request('GET', `/users/${encodeURIComponent(svc.demo.webhook_bot.email)}`))
      .user as { user_id: number };
    expect((await mute(moderator, 'POST', botId.user_id)).status).toBe(200);
  });
});

describe('DELETE /users/me/muted_users/{muted_user_id}', () => {
  it('unmutes, sending the shorter list', async () => {
    const { events, result, states } = await verifyAction({
      clients: [alice],
      action: () => mute(alice, 'DELETE', bobId),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    expect(events[0]).toEqual([{ type: 'muted_users', muted_users: [], id: expect.any(Number) }]);
    expect(states[0]?.muted_users).toEqual([]);
  });

  it('refuses a user who is not muted, and unknown users', async () => {
    expect(await mute(alice, 'DELETE', bobId).then((r) => ({ status: r.status, body: r.body }))).toEqual(
      error('User is not muted'),
    );
    expect(await mute(alice, 'DELETE', 987654).then((r) => ({ status: r.status, body: r.body }))).toEqual(
      error('No such user'),
    );
  });

  it('refuses an id that is no number', async () => {
    const r = await mute(alice, 'DELETE', 'abc');
    expect({ status: r.status, body: r.body }).toEqual(error('muted_user_id is not an integer'));
  });
});
