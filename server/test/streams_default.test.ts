/**
 * Default streams: GET, POST and DELETE /default_streams, the `default_streams` events,
 * register's realm_default_streams, and what default streams mean for new users.
 */

import { describe, expect, it } from 'vitest';
import type { Params } from '../../shared/client';
import type { DemoUser } from '../../test/support/server';
import { authOf, call, demoIds, everyone, query, serviceWith } from './support/service';
import { DEFAULT_REGISTER_PARAMS, verifyAction } from './support/verify-action';

const { svc } = await serviceWith([]);
const { clients } = await everyone(svc);
const streams = demoIds(svc).streams as Record<'general' | 'engineering' | 'design' | 'announce', number>;

const send = (who: DemoUser, method: 'GET' | 'POST' | 'DELETE', params: Params = {}) =>
  call(svc.url, method, '/default_streams', { auth: authOf(clients[who]), params });
const error = (msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => ({
  status: 400,
  body: { result: 'error', msg, code, ...extra },
});
const outcome = (r: { status: number; body: Record<string, unknown> }) => ({
  status: r.status,
  body: r.body,
});
const defaultIds = () =>
  query<{ id: number }>(svc, 'SELECT id FROM streams WHERE is_default = 1 ORDER BY id').map((r) => r.id);
const REGISTER = {
  ...DEFAULT_REGISTER_PARAMS,
  fetch_event_types: ['default_streams', 'stream', 'subscription'],
};

describe('GET /default_streams and register', () => {
  it('lists the default streams as Stream objects; register has the same for non-guests', async () => {
    const r = await send('alice', 'GET');
    expect(r.status).toBe(200);
    const listed = r.body.default_streams as Record<string, unknown>[];
    expect(listed.map((s) => s.stream_id)).toEqual([streams.general]);
    expect(listed[0]).toMatchObject({ name: 'general', invite_only: false, is_web_public: false });
    const registered = await clients.alice.request('POST', '/register', REGISTER);
    expect(registered.realm_default_streams).toEqual(listed);
    const guest = await clients.guest.request('POST', '/register', REGISTER);
    expect(guest.realm_default_streams).toEqual([]);
  });

  it('guests may not ask', async () => {
    expect(outcome(await send('guest', 'GET'))).toEqual(error('Insufficient permission'));
  });
});

describe('POST /default_streams', () => {
  it('adds a stream; every non-guest is told, sorted by name', async () => {
    const { events, result } = await verifyAction({
      clients: [clients.alice, clients.guest, clients.admin],
      registerParams: REGISTER,
      action: () => clients.admin.request('POST', '/default_streams', { stream_id: streams.engineering }),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    expect(events[0]).toEqual([
      expect.objectContaining({
        type: 'default_streams',
        default_streams: [
          expect.objectContaining({ stream_id: streams.engineering, name: 'engineering' }),
          expect.objectContaining({ stream_id: streams.general, name: 'general' }),
        ],
      }),
    ]);
    expect(events[1]).toEqual([]);
    expect(events[2]).toHaveLength(1);
    expect(defaultIds()).toEqual([streams.general, streams.engineering]);
  });

  it('a stream already default: nothing changes, nothing is sent', async () => {
    const { events } = await verifyAction({
      clients: [clients.alice],
      registerParams: REGISTER,
      action: () => clients.admin.request('POST', '/default_streams', { stream_id: streams.general }),
    });
    expect(events[0]).toEqual([]);
  });

  it('new users are subscribed to the default streams', async () => {
    await clients.owner.request('POST', '/users', {
      email: 'newcomer@example.com',
      password: 'a long password indeed',
      full_name: 'New Comer',
    });
    const newcomer = query<{ id: number }>(
      svc,
      "SELECT id FROM users WHERE email = 'newcomer@example.com'",
    )[0];
    const subs = query<{ stream_id: number }>(
      svc,
      'SELECT stream_id FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY stream_id',
      newcomer?.id,
    ).map((r) => r.stream_id);
    expect(subs).toEqual(defaultIds());
  });

  it('private streams are refused; a stream the administrator cannot access is "Invalid stream ID"', async () => {
    expect(outcome(await send('admin', 'POST', { stream_id: streams.design }))).toEqual(
      error('Private streams cannot be made default.'),
    );
    // The owner is not subscribed to design.
    expect(outcome(await send('owner', 'POST', { stream_id: streams.design }))).toEqual(
      error('Invalid stream ID'),
    );
    expect(outcome(await send('admin', 'POST', { stream_id: 987654 }))).toEqual(error('Invalid stream ID'));
    expect(outcome(await send('admin', 'POST', { stream_id: '1.5' }))).toEqual(
      error('stream_id is not an integer'),
    );
    expect(outcome(await send('admin', 'POST'))).toEqual(
      error("Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'stream_id' }),
    );
    expect(defaultIds()).not.toContain(streams.design);
  });

  it('administrators only', async () => {
    for (const who of ['alice', 'moderator', 'guest'] as const) {
      expect(outcome(await send(who, 'POST', { stream_id: streams.announce })), who).toEqual(
        error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
      );
    }
    expect(defaultIds()).not.toContain(streams.announce);
  });

  it('a default stream cannot be made private', async () => {
    const r = await call(svc.url, 'PATCH', `/streams/${streams.engineering}`, {
      auth: authOf(clients.admin),
      params: { is_private: true },
    });
    expect(outcome(r)).toEqual(error('Default streams cannot be made private.'));
  });
});

describe('DELETE /default_streams', () => {
  it('removes a stream; every non-guest is told', async () => {
    const { events, result } = await verifyAction({
      clients: [clients.bob, clients.guest],
      registerParams: REGISTER,
      action: () => clients.owner.request('DELETE', '/default_streams', { stream_id: streams.engineering }),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    expect(events[0]).toEqual([
      expect.objectContaining({
        type: 'default_streams',
        default_streams: [expect.objectContaining({ stream_id: streams.general })],
      }),
    ]);
    expect(events[1]).toEqual([]);
    expect(defaultIds()).toEqual([streams.general]);
  });

  it('administrators only; unknown streams are "Invalid stream ID"', async () => {
    expect(outcome(await send('alice', 'DELETE', { stream_id: streams.general }))).toEqual(
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    );
    expect(outcome(await send('admin', 'DELETE', { stream_id: 987654 }))).toEqual(error('Invalid stream ID'));
    expect(defaultIds()).toEqual([streams.general]);
  });

  it("stream changes keep the snapshot's default streams current", async () => {
    await verifyAction({
      clients: [clients.alice],
      registerParams: REGISTER,
      action: () =>
        clients.admin.request('PATCH', `/streams/${streams.general}`, {
          description: 'Everyone, **really**',
        }),
    });
  });
});
