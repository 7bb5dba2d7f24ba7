/** PATCH /streams/{stream_id}: every parameter, the state table's transitions, errors, events. */

import { describe, expect, it } from 'vitest';
import type { Params } from '../../shared/client';
import type { DemoUser } from '../../test/support/server';
import { authOf, call, everyone, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc } = await serviceWith([]);
const { clients, ids } = await everyone(svc);

const patch = (who: DemoUser, streamId: number | string, params: Params) =>
  call(svc.url, 'PATCH', `/streams/${streamId}`, { auth: authOf(clients[who]), params });
const update = (who: DemoUser, streamId: number, params: Params) =>
  clients[who].request('PATCH', `/streams/${streamId}`, params);

async function streamNamed(name: string): Promise<Record<string, unknown>> {
  const r = await clients.admin.request('GET', '/streams', { include_all_active: true });
  const found = (r.streams as Record<string, unknown>[]).find((s) => s.name === name);
  if (!found) throw new Error(`no stream ${name}`);
  return found;
}

/** A new stream with alice subscribed (and admin, who creates it). */
async function newStream(name: string, params: Params = {}): Promise<number> {
  await clients.admin.request('POST', '/users/me/subscriptions', {
    subscriptions: [{ name }],
    principals: [ids.admin, ids.alice],
    ...params,
  });
  return (await streamNamed(name)).stream_id as number;
}

const error = (msg: string, code = 'BAD_REQUEST') => ({ status: 400, body: { result: 'error', msg, code } });
const outcome = (r: { status: number; body: Record<string, unknown> }) => ({
  status: r.status,
  body: r.body,
});
const kinds = (events: Record<string, unknown>[] | undefined) =>
  (events ?? []).map((e) => `${e.type}:${e.op}${e.property ? `:${e.property}` : ''}`);

describe('PATCH /streams/{stream_id}: who and which stream', () => {
  it('"Invalid stream ID" for a missing stream or a malformed id', async () => {
    expect(outcome(await patch('admin', 99999, { description: 'x' }))).toEqual(error('Invalid stream ID'));
    expect(outcome(await patch('admin', 'abc', { description: 'x' }))).toEqual(error('Invalid stream ID'));
  });

  it('administrators only; a private stream stays hidden from others', async () => {
    const general = (await streamNamed('general')).stream_id as number;
    for (const who of ['moderator', 'alice', 'guest'] as const) {
      expect(outcome(await patch(who, general, { description: 'x' }))).toEqual(
        error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
      );
    }
    const design = (await streamNamed('design')).stream_id as number;
    expect(outcome(await patch('bob', design, { description: 'x' }))).toEqual(error('Invalid stream ID'));
    expect((await streamNamed('general')).description).not.toBe('x');
  });

  it('with nothing to change: success and no events', async () => {
    const general = await streamNamed('general');
    const { events, result } = await verifyAction({
      clients: [clients.alice],
      action: () =>
        update('admin', general.stream_id as number, { description: general.description as string }),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    expect(events).toEqual([[]]);
  });
});

describe('PATCH /streams/{stream_id}: parameters', () => {
  it('description: rendered, sent with rendered_description to everyone who sees the stream', async () => {
    const id = await newStream('descr');
    const { events } = await verifyAction({
      clients: [clients.alice, clients.bob, clients.guest],
      action: () => update('admin', id, { description: 'Now **bold**' }),
    });
    const expected = {
      type: 'stream',
      op: 'update',
      stream_id: id,
      name: 'descr',
      property: 'description',
      value: 'Now **bold**',
      rendered_description: '<p>Now <strong>bold</strong></p>',
      id: 0,
    };
    expect(events).toEqual([[expected], [expected], []]);
  });

  it('new_name: unique (case-insensitively); the event names the old name', async () => {
    const id = await newStream('old-name');
    expect(outcome(await patch('admin', id, { new_name: 'GENERAL' }))).toEqual(
      error("Stream name 'GENERAL' is already taken."),
    );
    expect(outcome(await patch('admin', id, { new_name: ' ' }))).toEqual(
      error("Stream name can't be empty!"),
    );
    const { events } = await verifyAction({
      clients: [clients.alice, clients.bob],
      action: () => update('admin', id, { new_name: 'new-name' }),
    });
    expect(events[1]).toEqual([
      {
        type: 'stream',
        op: 'update',
        stream_id: id,
        name: 'old-name',
        property: 'name',
        value: 'new-name',
        id: 0,
      },
    ]);
    expect((await streamNamed('new-name')).stream_id).toBe(id);
  });

  it('stream_post_policy, and the deprecated is_announcement_only', async () => {
    const id = await newStream('policy');
    const { events } = await verifyAction({
      clients: [clients.bob],
      action: () => update('admin', id, { stream_post_policy: 2 }),
    });
    expect(events[0]?.map((e) => [e.property, e.value])).toEqual([
      ['is_announcement_only', true],
      ['stream_post_policy', 2],
    ]);
    await update('admin', id, { is_announcement_only: false });
    expect(await streamNamed('policy')).toMatchObject({ stream_post_policy: 1, is_announcement_only: false });
    await update('admin', id, { is_announcement_only: true });
    expect(await streamNamed('policy')).toMatchObject({ stream_post_policy: 2, is_announcement_only: true });
    await update('admin', id, { stream_post_policy: 4 });
    expect(await streamNamed('policy')).toMatchObject({ stream_post_policy: 4, is_announcement_only: false });
  });

  it('message_retention_days: owners only, number / unlimited / realm_default', async () => {
    const id = await newStream('retention');
    expect(outcome(await patch('admin', id, { message_retention_days: 10 }))).toEqual(
      error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'),
    );
    const { events } = await verifyAction({
      clients: [clients.bob],
      action: () => update('owner', id, { message_retention_days: 10 }),
    });
    expect(events[0]).toMatchObject([{ property: 'message_retention_days', value: 10 }]);
    await update('owner', id, { message_retention_days: 'unlimited' });
    expect((await streamNamed('retention')).message_retention_days).toBe(-1);
    await update('owner', id, { message_retention_days: '"realm_default"' });
    expect((await streamNamed('retention')).message_retention_days).toBeNull();
  });

  const bad: [string, Params, string][] = [
    ['is_private not JSON', { is_private: 'yes' }, 'is_private is not valid JSON'],
    ['is_web_public not a boolean', { is_web_public: 1 }, 'is_web_public is not a boolean'],
    [
      'history not a boolean',
      { history_public_to_subscribers: '"x"' },
      'history_public_to_subscribers is not a boolean',
    ],
    [
      'is_announcement_only not a boolean',
      { is_announcement_only: 2 },
      'is_announcement_only is not a boolean',
    ],
    ['policy out of range', { stream_post_policy: 0 }, 'Invalid stream_post_policy'],
    ['policy not an integer', { stream_post_policy: '"2"' }, 'stream_post_policy is not an integer'],
    ['retention negative', { message_retention_days: -5 }, "Bad value for 'message_retention_days': -5"],
    [
      'description too long',
      { description: 'd'.repeat(1025) },
      'Stream description too long (limit: 1024 characters).',
    ],
    ['name too long', { new_name: 'n'.repeat(61) }, 'Stream name too long (limit: 60 characters).'],
    ['NUL in name', { new_name: 'a\u0000' }, 'Invalid character in stream name, at position 2!'],
  ];
  it.each(bad)('%s: 400 and nothing changes', async (_label, params, msg) => {
    const before = await streamNamed('engineering');
    const r = await patch('owner', before.stream_id as number, { description: 'changed', ...params });
    expect(outcome(r)).toEqual(error(msg));
    expect(await streamNamed('engineering')).toEqual(before);
  });
});

describe('PATCH /streams/{stream_id}: the state table', () => {
  it('public -> private (is_private true): non-subscribers lose the stream', async () => {
    const id = await newStream('to-private');
    const { events } = await verifyAction({
      clients: [clients.alice, clients.bob, clients.moderator, clients.guest, clients.owner],
      action: () => update('admin', id, { is_private: true }),
    });
    const change = {
      type: 'stream',
      op: 'update',
      stream_id: id,
      name: 'to-private',
      property: 'invite_only',
      value: true,
      history_public_to_subscribers: false,
      is_web_public: false,
      id: 0,
    };
    expect(events[0]).toEqual([change]);
    expect(kinds(events[1])).toEqual(['stream:delete']);
    expect(events[1]?.[0]).toMatchObject({ streams: [{ stream_id: id, name: 'to-private' }] });
    expect(kinds(events[2])).toEqual(['stream:delete']);
    expect(events[3]).toEqual([]);
    // Administrators still see private streams.
    expect(events[4]).toEqual([change]);
    expect(await streamNamed('to-private')).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: false,
    });
  });

  it('a former subscriber of a stream made private loses it too', async () => {
    const id = await newStream('left-behind', { principals: [ids.admin, ids.alice, ids.bob] });
    await clients.bob.request('DELETE', '/users/me/subscriptions', { subscriptions: ['left-behind'] });
    const { events } = await verifyAction({
      clients: [clients.bob],
      action: () => update('admin', id, { is_private: true, history_public_to_subscribers: true }),
    });
    expect(kinds(events[0])).toEqual(['stream:delete']);
    expect(await streamNamed('left-behind')).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: true,
    });
  });

  it('private -> public (is_private false): everyone gains it, with its members', async () => {
    const id = await newStream('to-public', { invite_only: true });
    const { events } = await verifyAction({
      clients: [clients.alice, clients.bob, clients.guest],
      action: () => update('admin', id, { is_private: false }),
    });
    expect(events[0]).toMatchObject([
      { property: 'invite_only', value: false, history_public_to_subscribers: true, is_web_public: false },
    ]);
    expect(kinds(events[1])).toEqual(['stream:create', 'subscription:peer_add']);
    expect(events[1]?.[1]).toMatchObject({ stream_ids: [id], user_ids: [ids.admin, ids.alice] });
    expect(events[2]).toEqual([]);
    expect(await streamNamed('to-public')).toMatchObject({
      invite_only: false,
      history_public_to_subscribers: true,
    });
  });

  it('private -> public with history_public_to_subscribers false: "Invalid parameters", nothing changes', async () => {
    const id = await newStream('stays-private', { invite_only: true });
    const before = await streamNamed('stays-private');
    expect(
      outcome(await patch('admin', id, { is_private: false, history_public_to_subscribers: false })),
    ).toEqual(error('Invalid parameters'));
    expect(await streamNamed('stays-private')).toEqual(before);
  });

  it('other invalid combinations: "Invalid parameters"', async () => {
    const id = await newStream('combos');
    const before = await streamNamed('combos');
    expect(outcome(await patch('admin', id, { history_public_to_subscribers: false }))).toEqual(
      error('Invalid parameters'),
    );
    expect(outcome(await patch('admin', id, { is_private: true, is_web_public: true }))).toEqual(
      error('Invalid parameters'),
    );
    expect(await streamNamed('combos')).toEqual(before);
  });

  it('history_public_to_subscribers alone on a private stream (feature level 136)', async () => {
    const id = await newStream('history', { invite_only: true });
    const { events } = await verifyAction({
      clients: [clients.alice],
      action: () => update('admin', id, { history_public_to_subscribers: true }),
    });
    expect(events[0]).toEqual([
      {
        type: 'stream',
        op: 'update',
        stream_id: id,
        name: 'history',
        property: 'history_public_to_subscribers',
        value: true,
        id: 0,
      },
    ]);
  });

  it('public -> web-public -> public: the prerequisites, and guests gain and lose it', async () => {
    const id = await newStream('webby');
    expect(outcome(await patch('admin', id, { is_web_public: true }))).toEqual(
      error('Web-public streams are not enabled.'),
    );
    svc.sql('UPDATE realm SET enable_spectator_access = 1');
    try {
      svc.sql(`UPDATE realm SET settings = json_set(settings, '$.create_web_public_stream_policy', 7)`);
      expect(outcome(await patch('admin', id, { is_web_public: true }))).toEqual(
        error('Insufficient permission'),
      );
      svc.sql(`UPDATE realm SET settings = json_remove(settings, '$.create_web_public_stream_policy')`);
      const on = await verifyAction({
        clients: [clients.guest, clients.bob],
        action: () => update('admin', id, { is_web_public: true }),
      });
      expect(kinds(on.events[0])).toEqual(['stream:create', 'subscription:peer_add']);
      expect(on.events[1]).toMatchObject([{ property: 'is_web_public', value: true }]);
      const off = await verifyAction({
        clients: [clients.guest, clients.bob],
        action: () => update('admin', id, { is_web_public: false }),
      });
      expect(kinds(off.events[0])).toEqual(['stream:delete']);
      expect(kinds(off.events[1])).toEqual(['stream:update:is_web_public']);
    } finally {
      svc.sql('UPDATE realm SET enable_spectator_access = 0');
    }
  });

  it('a web-public stream made private stops being web-public', async () => {
    svc.sql('UPDATE realm SET enable_spectator_access = 1');
    try {
      const id = await newStream('web-then-private', { is_web_public: true });
      const { events } = await verifyAction({
        clients: [clients.guest, clients.alice],
        action: () => update('admin', id, { is_private: true }),
      });
      expect(kinds(events[0])).toEqual(['stream:delete']);
      expect(events[1]).toMatchObject([{ property: 'invite_only', value: true, is_web_public: false }]);
      expect(await streamNamed('web-then-private')).toMatchObject({
        invite_only: true,
        is_web_public: false,
      });
    } finally {
      svc.sql('UPDATE realm SET enable_spectator_access = 0');
    }
  });
});
