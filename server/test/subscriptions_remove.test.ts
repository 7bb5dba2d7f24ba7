/**
 * DELETE /users/me/subscriptions beyond the spec's basics: unsubscribing others as the stream's
 * can_remove_subscribers_group allows, removed / not_removed, and the events.
 */

import { describe, expect, it } from 'vitest';
import type { Params } from '../../shared/client';
import type { DemoUser } from '../../test/support/server';
import { authOf, call, everyone, query, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc } = await serviceWith([]);
const { clients, ids } = await everyone(svc);

const del = (who: DemoUser, params: Params) =>
  call(svc.url, 'DELETE', '/users/me/subscriptions', { auth: authOf(clients[who]), params });
const outcome = (r: { status: number; body: Record<string, unknown> }) => ({
  status: r.status,
  body: r.body,
});
const insufficient = {
  status: 400,
  body: { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' },
};

/** Creates a stream with these subscribers (by the admin) and answers its id. */
async function makeStream(name: string, subscribers: DemoUser[], params: Params = {}): Promise<number> {
  await clients.admin.request('POST', '/users/me/subscriptions', {
    subscriptions: [{ name }],
    principals: subscribers.map((who) => ids[who]),
    ...params,
  });
  return (query<{ id: number }>(svc, 'SELECT id FROM streams WHERE name = ?', name)[0] as { id: number }).id;
}

const subscribed = (who: DemoUser, streamId: number) =>
  query(
    svc,
    'SELECT 1 FROM subscriptions WHERE user_id = ? AND stream_id = ? AND active = 1',
    ids[who],
    streamId,
  ).length === 1;

/** Sets the group whose members may unsubscribe others from the stream. */
const setRemoverGroup = (streamId: number, groupId: number) =>
  svc.sql('UPDATE streams SET can_remove_subscribers_group_id = ? WHERE id = ?', groupId, streamId);
const systemGroup = (name: string) =>
  (query<{ id: number }>(svc, 'SELECT id FROM user_groups WHERE name = ?', name)[0] as { id: number }).id;

describe('DELETE /users/me/subscriptions: can_remove_subscribers_group', () => {
  it("a member of the stream's group may unsubscribe others; events to them and their peers", async () => {
    const id = await makeStream('group removes', ['alice', 'bob', 'moderator']);
    const created = await clients.alice.request('POST', '/user_groups/create', {
      name: 'removers',
      description: 'may remove subscribers',
      members: [ids.alice],
    });
    setRemoverGroup(id, created.group_id as number);
    const { events, result } = await verifyAction({
      clients: [clients.bob, clients.alice, clients.guest],
      action: () =>
        clients.alice.request('DELETE', '/users/me/subscriptions', {
          subscriptions: ['group removes'],
          principals: [ids.bob],
        }),
    });
    expect(result).toEqual({ result: 'success', msg: '', removed: ['group removes'], not_removed: [] });
    expect(events[0]).toEqual([
      expect.objectContaining({
        type: 'subscription',
        op: 'remove',
        subscriptions: [{ name: 'group removes', stream_id: id }],
      }),
    ]);
    expect(events[1]).toEqual([
      expect.objectContaining({
        type: 'subscription',
        op: 'peer_remove',
        stream_ids: [id],
        user_ids: [ids.bob],
      }),
    ]);
    // A guest cannot see a public stream's members.
    expect(events[2]).toEqual([]);
    expect(subscribed('bob', id)).toBe(false);
  });

  it('others are refused with "Insufficient permission", and nothing changes', async () => {
    const id = await makeStream('admins remove', ['alice', 'bob']);
    for (const who of ['alice', 'moderator'] as const) {
      expect(
        outcome(await del(who, { subscriptions: ['admins remove'], principals: [ids.bob] })),
        who,
      ).toEqual(insufficient);
    }
    // Removing oneself and another in one request: all or nothing.
    expect(
      outcome(await del('alice', { subscriptions: ['admins remove'], principals: [ids.alice, ids.bob] })),
    ).toEqual(insufficient);
    expect(subscribed('alice', id) && subscribed('bob', id)).toBe(true);
  });

  it('a system group: moderators may when the stream names role:moderators', async () => {
    const id = await makeStream('moderated', ['bob']);
    setRemoverGroup(id, systemGroup('role:moderators'));
    const r = await del('moderator', { subscriptions: ['moderated'], principals: [ids.bob] });
    expect(outcome(r)).toEqual({
      status: 200,
      body: { result: 'success', msg: '', removed: ['moderated'], not_removed: [] },
    });
    expect(
      outcome(await del('alice', { subscriptions: ['moderated'], principals: [ids.moderator] })),
    ).toEqual(insufficient);
  });

  it('administrators may always, also from a private stream they are not in', async () => {
    const id = await makeStream('private removal', ['alice', 'bob'], { invite_only: true });
    svc.sql('UPDATE subscriptions SET active = 0 WHERE user_id = ? AND stream_id = ?', ids.admin, id);
    const { events, result } = await verifyAction({
      clients: [clients.alice, clients.bob],
      action: () =>
        clients.owner.request('DELETE', '/users/me/subscriptions', {
          subscriptions: ['private removal'],
          principals: [ids.alice, ids.moderator],
        }),
    });
    // The moderator was never subscribed.
    expect(result).toEqual({
      result: 'success',
      msg: '',
      removed: ['private removal'],
      not_removed: ['private removal'],
    });
    expect(events[0]?.map((e) => `${e.type}:${String(e.op)}`)).toEqual([
      'subscription:remove',
      'stream:delete',
    ]);
    expect(events[1]?.map((e) => `${e.type}:${String(e.op)}`)).toEqual(['subscription:peer_remove']);
  });

  it('anyone may unsubscribe themselves, whatever the group', async () => {
    const id = await makeStream('leave freely', ['alice']);
    setRemoverGroup(id, systemGroup('role:nobody'));
    const r = await del('alice', { subscriptions: ['leave freely'] });
    expect(r.body).toMatchObject({ removed: ['leave freely'], not_removed: [] });
    expect(subscribed('alice', id)).toBe(false);
  });
});
