/** DELETE /streams/{stream_id}: archiving a stream, its events, and who may do it. */

import { describe, expect, it } from 'vitest';
import type { Params } from '../../shared/client';
import type { DemoUser } from '../../test/support/server';
import { authOf, call, everyone, query, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc } = await serviceWith([]);
const { clients, ids } = await everyone(svc);

const archive = (who: DemoUser, streamId: number | string) =>
  call(svc.url, 'DELETE', `/streams/${streamId}`, { auth: authOf(clients[who]) });
const error = (msg: string, code = 'BAD_REQUEST') => ({
  status: 400,
  body: { result: 'error', msg, code },
});
const outcome = (r: { status: number; body: Record<string, unknown> }) => ({
  status: r.status,
  body: r.body,
});

/** Creates a stream with these subscribers (by the admin) and answers its id. */
async function makeStream(name: string, subscribers: DemoUser[], params: Params = {}): Promise<number> {
  await clients.admin.request('POST', '/users/me/subscriptions', {
    subscriptions: [{ name }],
    principals: subscribers.map((who) => ids[who]),
    ...params,
  });
  const rows = query<{ id: number }>(svc, 'SELECT id FROM streams WHERE name = ?', name);
  return (rows[0] as { id: number }).id;
}

const streamRow = (id: number) =>
  query<{ name: string; deactivated: number; invite_only: number; is_default: number }>(
    svc,
    'SELECT name, deactivated, invite_only, is_default FROM streams WHERE id = ?',
    id,
  )[0];

describe('DELETE /streams/{stream_id}: archiving', () => {
  it('archives a public stream: its messages are read, subscribers lose it, viewers see it go', async () => {
    const id = await makeStream('to archive', ['alice', 'admin']);
    await clients.admin.request('POST', '/messages', {
      type: 'stream',
      to: 'to archive',
      topic: 'old',
      content: 'an unread message for alice',
    });
    const watched = [clients.alice, clients.bob, clients.guest, clients.admin];
    const { events, result } = await verifyAction({
      clients: watched,
      action: () => clients.admin.request('DELETE', `/streams/${id}`),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    const types = events.map((list) => list.map((e) => `${e.type}:${String(e.op)}`));
    expect(types[0]).toEqual(['update_message_flags:add', 'subscription:remove', 'stream:delete']);
    expect(types[1]).toEqual(['stream:delete']);
    // A guest never saw the public stream.
    expect(types[2]).toEqual([]);
    expect(types[3]).toEqual(['subscription:remove', 'stream:delete']);
    const deleted = events[1]?.[0] as unknown as { streams: Record<string, unknown>[] };
    expect(deleted.streams).toEqual([
      expect.objectContaining({ stream_id: id, name: 'to archive', invite_only: false }),
    ]);
    expect(events[0]?.[1]).toMatchObject({ subscriptions: [{ stream_id: id, name: 'to archive' }] });

    expect(streamRow(id)).toMatchObject({ deactivated: 1, invite_only: 1 });
    expect(streamRow(id)?.name).toMatch(/^[0-9a-f]{7}!DEACTIVATED:to archive$/);
    const all = await clients.admin.request('GET', '/streams', { include_all_active: true });
    expect((all.streams as { stream_id: number }[]).some((s) => s.stream_id === id)).toBe(false);
  });

  it('an archived stream cannot be posted to, changed or archived again; its name is free', async () => {
    const id = await makeStream('archived twice', ['alice']);
    expect((await archive('admin', id)).status).toBe(200);
    const post = await call(svc.url, 'POST', '/messages', {
      auth: authOf(clients.alice),
      params: { type: 'stream', to: JSON.stringify([id]), topic: 't', content: 'hello?' },
    });
    expect(outcome(post)).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: `Stream with ID '${id}' does not exist`,
        code: 'STREAM_DOES_NOT_EXIST',
        stream_id: id,
      },
    });
    expect(outcome(await archive('admin', id))).toEqual(error('Invalid stream ID'));
    const patch = await call(svc.url, 'PATCH', `/streams/${id}`, {
      auth: authOf(clients.admin),
      params: { description: 'no' },
    });
    expect(outcome(patch)).toEqual(error('Invalid stream ID'));
    const again = await clients.alice.request('POST', '/users/me/subscriptions', {
      subscriptions: [{ name: 'archived twice' }],
    });
    expect(Object.values(again.subscribed as Record<string, string[]>)).toEqual([['archived twice']]);
    expect(query(svc, 'SELECT id FROM streams WHERE name = ?', 'archived twice')).not.toEqual([{ id }]);
  });

  it('a private stream: only its subscribers and the administrators are told', async () => {
    const id = await makeStream('secret plans', ['alice', 'admin'], { invite_only: true });
    const { events } = await verifyAction({
      clients: [clients.alice, clients.bob, clients.owner],
      action: () => clients.admin.request('DELETE', `/streams/${id}`),
    });
    expect(events[0]?.map((e) => e.type)).toEqual(['subscription', 'stream']);
    expect(events[1]).toEqual([]);
    expect(events[2]?.map((e) => e.type)).toEqual(['stream']);
    expect(events[2]?.[0]).toMatchObject({
      streams: [{ stream_id: id, name: 'secret plans', invite_only: true }],
    });
  });

  it('a default stream stops being one, with a default_streams event', async () => {
    const id = await makeStream('default then gone', []);
    await clients.admin.request('POST', '/default_streams', { stream_id: id });
    const { events } = await verifyAction({
      clients: [clients.bob, clients.guest],
      action: () => clients.admin.request('DELETE', `/streams/${id}`),
    });
    expect(events[0]?.map((e) => e.type)).toEqual(['stream', 'default_streams']);
    const event = (events[0] ?? [])[1] as unknown as { default_streams: { stream_id: number }[] };
    const defaults = event.default_streams;
    expect(defaults.some((s) => s.stream_id === id)).toBe(false);
    expect(events[1]).toEqual([]);
    expect(streamRow(id)?.is_default).toBe(0);
  });
});

describe('DELETE /streams/{stream_id}: who may', () => {
  it('members, moderators and guests: "Must be an organization administrator"; nothing changes', async () => {
    const id = await makeStream('kept public', ['alice', 'guest']);
    for (const who of ['alice', 'moderator', 'guest'] as const) {
      expect(outcome(await archive(who, id)), who).toEqual(
        error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
      );
    }
    expect(streamRow(id)?.deactivated).toBe(0);
  });

  it('a private stream the user is not in is "Invalid stream ID", as a missing one', async () => {
    const id = await makeStream('kept private', ['alice'], { invite_only: true });
    expect(outcome(await archive('bob', id))).toEqual(error('Invalid stream ID'));
    expect(outcome(await archive('alice', id))).toEqual(
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    );
    expect(outcome(await archive('admin', 987654))).toEqual(error('Invalid stream ID'));
    expect(outcome(await archive('admin', 'abc'))).toEqual(error('Invalid stream ID'));
    expect(streamRow(id)?.deactivated).toBe(0);
  });

  it('owners may archive too', async () => {
    const id = await makeStream('owner archives', []);
    expect(outcome(await archive('owner', id))).toEqual({
      status: 200,
      body: { result: 'success', msg: '' },
    });
  });
});
