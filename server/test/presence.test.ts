/**
 * Presence: POST /users/me/presence (legacy, slim and last_update_id forms, ping_only),
 * GET /realm/presence, GET /users/{user_id_or_email}/presence, register's presences and the
 * presence events; presence_enabled off shows a user offline at once, as the family does. Also
 * the store's rules on their own.
 */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { makeTempDir, removeDir } from '../../test/support/server';
import { applyReport } from '../presence';
import { authOf, call, demoIds, type RawResponse, serviceWith, startTestService } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob, admin, moderator } = await serviceWith(['alice', 'bob', 'admin', 'moderator']);
const { users } = demoIds(svc);
const aliceId = users.alice as number;
const aliceEmail = svc.demo.users.alice;

function report(client: ApiClient, params: Record<string, unknown>): Promise<RawResponse> {
  return call(svc.url, 'POST', '/users/me/presence', { auth: authOf(client), params: params as never });
}

const legacyEntry = (status: string) => ({
  website: { client: 'website', status, timestamp: expect.any(Number), pushable: false },
  aggregated: { client: 'website', status, timestamp: expect.any(Number) },
});

describe('POST /users/me/presence', () => {
  it("records a first report, tells everyone, and answers everyone's presence", async () => {
    const { events, result, states } = await verifyAction({
      clients: [bob, alice],
      // The update counter moves with every report; no event carries it.
      ignoreKeys: ['presence_last_update_id'],
      action: () => report(alice, { status: 'active', new_user_input: true }),
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      result: 'success',
      msg: '',
      presences: { [aliceEmail]: legacyEntry('active') },
      server_timestamp: expect.any(Number),
      presence_last_update_id: expect.any(Number),
    });
    const expected = {
      type: 'presence',
      user_id: aliceId,
      email: aliceEmail,
      server_timestamp: expect.any(Number),
      presence: {
        website: { client: 'website', status: 'active', timestamp: expect.any(Number), pushable: false },
      },
      id: expect.any(Number),
    };
    expect(events).toEqual([[expected], [expected]]);
    expect(states[0]?.presences).toEqual({ [aliceEmail]: legacyEntry('active') });
    expect(states[0]?.presence_last_update_id).toBe(result.body.presence_last_update_id);
  });

  it('sends no event for a report that changes nothing others must learn at once', async () => {
    const { events } = await verifyAction({
      clients: [bob],
      ignoreKeys: ['presence_last_update_id'],
      action: () => report(alice, { status: 'idle' }),
    });
    expect(events[0]).toEqual([]);
  });

  it('answers nothing more with ping_only', async () => {
    const r = await report(alice, { status: 'active', ping_only: true });
    expect(r.body).toEqual({ result: 'success', msg: '' });
  });

  it('answers the modern form keyed by user id with slim_presence', async () => {
    const r = await report(bob, { status: 'idle', slim_presence: true });
    const presences = r.body.presences as Record<string, unknown>;
    expect(presences[String(aliceId)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    // Bob has only been idle: no active time.
    expect(presences[String(users.bob)]).toEqual({ idle_timestamp: expect.any(Number) });
  });

  it('answers only what changed after last_update_id, in the modern form', async () => {
    const first = await report(alice, { status: 'active', last_update_id: -1 });
    const lastId = first.body.presence_last_update_id as number;
    expect(Object.keys(first.body.presences as object)).toContain(String(aliceId));
    const none = await report(alice, { status: 'active', last_update_id: lastId });
    expect(none.body).toMatchObject({ presences: {}, presence_last_update_id: lastId });
    await report(moderator, { status: 'active' });
    const next = await report(alice, { status: 'active', last_update_id: lastId });
    expect(Object.keys(next.body.presences as object)).toEqual([String(users.moderator)]);
    expect(next.body.presence_last_update_id).toBeGreaterThan(lastId);
  });

  it('refuses a status other than active or idle', async () => {
    const r = await report(alice, { status: 'away' });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Invalid status: away', code: 'BAD_REQUEST' },
    });
  });

  it('refuses a bad last_update_id', async () => {
    const r = await report(alice, { status: 'active', last_update_id: 1.5 });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg: 'last_update_id is not an integer', code: 'BAD_REQUEST' },
    });
  });
});

describe('presence to others', () => {
  it('register gives the legacy form, or the modern one with slim_presence', async () => {
    const legacy = await bob.registerQueue({ fetch_event_types: ['presence'] });
    expect((legacy as Record<string, unknown>).presences).toMatchObject({
      [aliceEmail]: legacyEntry('active'),
    });
    const slim = await bob.registerQueue({ fetch_event_types: ['presence'], slim_presence: true });
    const state = slim as Record<string, unknown>;
    expect((state.presences as Record<string, unknown>)[String(aliceId)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    expect(state).toMatchObject({
      presence_last_update_id: expect.any(Number),
      server_presence_ping_interval_seconds: 60,
      server_presence_offline_threshold_seconds: 140,
    });
  });

  it('GET /realm/presence answers the legacy form', async () => {
    const r = await bob.request('GET', '/realm/presence');
    expect(r.presences).toMatchObject({ [aliceEmail]: legacyEntry('active') });
    expect(typeof r.server_timestamp).toBe('number');
  });

  it('GET /users/{user_id_or_email}/presence by id and by email', async () => {
    const expected = {
      result: 'success',
      msg: '',
      presence: {
        website: { status: 'active', timestamp: expect.any(Number) },
        aggregated: { status: 'active', timestamp: expect.any(Number) },
      },
    };
    expect(await bob.request('GET', `/users/${aliceId}/presence`)).toEqual(expected);
    expect(await bob.request('GET', `/users/${encodeURIComponent(aliceEmail)}/presence`)).toEqual(expected);
  });

  const errors: [string, () => string, string][] = [
    ['an unknown id', () => '987654', 'No such user'],
    ['an unknown email', () => 'nobody@example.invalid', 'No such user'],
    ['a bot', () => svc.demo.webhook_bot.email, 'Presence is not supported for bot users.'],
    ['a user without presence', () => String(users.owner), `No presence data for ${users.owner}`],
  ];
  it.each(errors)('GET /users/{user_id_or_email}/presence refuses %s', async (_label, who, msg) => {
    const r = await call(svc.url, 'GET', `/users/${encodeURIComponent(who())}/presence`, {
      auth: authOf(bob),
    });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg, code: 'BAD_REQUEST' },
    });
  });

  it('turning presence_enabled off shows the user offline to everyone at once, and records nothing more', async () => {
    await report(admin, { status: 'active' });
    const adminEmail = svc.demo.users.admin;
    expect((await bob.request('GET', '/realm/presence')).presences).toMatchObject({
      [adminEmail]: legacyEntry('active'),
    });
    const start = Math.floor(Date.now() / 1000);
    const off = await verifyAction({
      clients: [bob, admin],
      ignoreKeys: ['presence_last_update_id'],
      action: () =>
        call(svc.url, 'PATCH', '/settings', { auth: authOf(admin), params: { presence_enabled: false } }),
    });
    const end = Math.floor(Date.now() / 1000);
    expect(off.result.status).toBe(200);
    // As the family: one idle report from a few minutes before the offline threshold (140 s + 120 s).
    const idle = {
      type: 'presence',
      user_id: users.admin,
      email: adminEmail,
      server_timestamp: expect.any(Number),
      presence: {
        website: { client: 'website', status: 'idle', timestamp: expect.any(Number), pushable: false },
      },
      id: expect.any(Number),
    };
    // Legacy clients read presence_enabled off as `away`.
    const away = { type: 'user_status', user_id: users.admin, away: true, id: expect.any(Number) };
    expect(off.events[0]).toEqual([idle, away]);
    expect(off.events[1]).toEqual([
      {
        type: 'user_settings',
        op: 'update',
        property: 'presence_enabled',
        value: false,
        id: expect.any(Number),
      },
      idle,
      away,
    ]);
    const event = off.events[0]?.[0] as unknown as { presence: { website: { timestamp: number } } };
    const since = event.presence.website.timestamp;
    expect(since).toBeGreaterThanOrEqual(start - 260);
    expect(since).toBeLessThanOrEqual(end - 260);
    expect(off.states[0]?.presences).toMatchObject({ [adminEmail]: legacyEntry('idle') });

    try {
      expect((await bob.request('GET', '/realm/presence')).presences).toMatchObject({
        [adminEmail]: {
          website: { client: 'website', status: 'idle', timestamp: since, pushable: false },
          aggregated: { client: 'website', status: 'idle', timestamp: since },
        },
      });
      const one = await call(svc.url, 'GET', `/users/${users.admin}/presence`, { auth: authOf(bob) });
      expect(one.body).toEqual({
        result: 'success',
        msg: '',
        presence: {
          website: { status: 'idle', timestamp: since },
          aggregated: { status: 'offline', timestamp: since },
        },
      });
      // Reports change nothing while presence is off.
      const { events } = await verifyAction({
        clients: [bob],
        ignoreKeys: ['presence_last_update_id'],
        action: () => report(admin, { status: 'active' }),
      });
      expect(events[0]).toEqual([]);
      expect(
        ((await bob.request('GET', '/realm/presence')).presences as Record<string, unknown>)[adminEmail],
      ).toEqual({
        website: { client: 'website', status: 'idle', timestamp: since, pushable: false },
        aggregated: { client: 'website', status: 'idle', timestamp: since },
      });
    } finally {
      // On again: active now, everyone told at once.
      const on = await verifyAction({
        clients: [bob],
        ignoreKeys: ['presence_last_update_id'],
        action: () =>
          call(svc.url, 'PATCH', '/settings', { auth: authOf(admin), params: { presence_enabled: true } }),
      });
      expect(on.events[0]).toEqual([
        {
          ...idle,
          presence: {
            website: { client: 'website', status: 'active', timestamp: expect.any(Number), pushable: false },
          },
        },
        { ...away, away: false },
      ]);
      const active = on.events[0]?.[0] as unknown as { presence: { website: { timestamp: number } } };
      expect(active.presence.website.timestamp).toBeGreaterThanOrEqual(end);
    }
  });
});

describe('the presence rules', () => {
  it('a first report and coming back active after being offline are news; pings are not', () => {
    const first = applyReport(undefined, 'idle', 1000, 1);
    expect(first).toEqual({
      record: { lastActive: null, lastConnected: 1000, updateId: 1 },
      changed: true,
      notify: true,
    });
    const soon = applyReport(first.record, 'idle', 1030, 2);
    expect(soon).toMatchObject({ changed: false, notify: false });
    const active = applyReport(first.record, 'active', 1030, 2);
    expect(active).toEqual({
      record: { lastActive: 1030, lastConnected: 1030, updateId: 2 },
      changed: true,
      notify: true,
    });
    const ping = applyReport(active.record, 'active', 1100, 3);
    expect(ping).toMatchObject({ changed: true, notify: false, record: { lastActive: 1100 } });
    const back = applyReport(ping.record, 'active', 1100 + 141, 4);
    expect(back).toMatchObject({ changed: true, notify: true });
  });
});

describe('presence over a restart', () => {
  it('keeps the last-seen times in the database', async () => {
    const dataDir = await makeTempDir('confab-presence-');
    try {
      const first = await startTestService({ dataDir });
      const aliceClient = await first.login('alice');
      await aliceClient.request('POST', '/users/me/presence', { status: 'active' });
      const before = await aliceClient.request('GET', '/realm/presence');
      await first.close();
      const second = await startTestService({ dataDir });
      try {
        const bobClient = await second.login('bob');
        const after = await bobClient.request('GET', '/realm/presence');
        expect(after.presences).toEqual(before.presences);
        // The update counter goes on from the stored one: Bob's report comes after Alice's.
        const next = await bobClient.request('POST', '/users/me/presence', {
          status: 'idle',
          last_update_id: 0,
        });
        expect(Object.keys(next.presences as object).sort()).toEqual(
          [String(users.alice), String(users.bob)].sort(),
        );
        expect(next.presence_last_update_id).toBe(2);
      } finally {
        await second.close();
      }
    } finally {
      await removeDir(dataDir);
    }
  });
});
