/** POST /typing: typing events to a direct message's recipients or a stream's subscribers, and the family's errors. */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, demoIds, type RawResponse, serviceWith } from './support/service';
import { DEFAULT_REGISTER_PARAMS, verifyAction } from './support/verify-action';

const { svc, alice, bob, admin, guest } = await serviceWith(['alice', 'bob', 'admin', 'guest']);
const { users, streams } = demoIds(svc);
const ids = { alice: users.alice as number, bob: users.bob as number, admin: users.admin as number };

function typing(client: ApiClient, params: Record<string, unknown>): Promise<RawResponse> {
  return call(svc.url, 'POST', '/typing', { auth: authOf(client), params: params as never });
}

const withStreamTyping = {
  ...DEFAULT_REGISTER_PARAMS,
  client_capabilities: {
    ...(DEFAULT_REGISTER_PARAMS.client_capabilities as Record<string, boolean>),
    stream_typing_notifications: true,
  },
};

describe('POST /typing, direct messages', () => {
  it('sends start to the recipients and the sender, with everyone named', async () => {
    const { events, result } = await verifyAction({
      clients: [alice, bob, admin],
      action: () => typing(alice, { type: 'private', op: 'start', to: [ids.bob] }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    const expected = {
      type: 'typing',
      op: 'start',
      message_type: 'private',
      sender: { user_id: ids.alice, email: svc.demo.users.alice },
      recipients: [
        { user_id: ids.bob, email: svc.demo.users.bob },
        { user_id: ids.alice, email: svc.demo.users.alice },
      ],
      id: expect.any(Number),
    };
    expect(events[0]).toEqual([expected]);
    expect(events[1]).toEqual([expected]);
    expect(events[2]).toEqual([]);
  });

  it('takes the newer type name and stop, and defaults to a direct message', async () => {
    for (const params of [
      { type: 'direct', op: 'stop', to: [ids.bob, ids.admin] },
      { op: 'stop', to: [ids.bob, ids.admin] },
    ]) {
      const { events } = await verifyAction({ clients: [admin], action: () => typing(alice, params) });
      expect(events[0]).toEqual([
        expect.objectContaining({
          op: 'stop',
          message_type: 'private',
          recipients: [ids.bob, ids.admin, ids.alice].map((id) => expect.objectContaining({ user_id: id })),
        }),
      ]);
    }
  });

  const errors: [string, Record<string, unknown>, string][] = [
    ['no recipients', { op: 'start' }, "Missing 'to' argument"],
    ['an empty list', { op: 'start', to: [] }, "Empty 'to' list"],
    ['an unknown user', { op: 'start', to: [ids.bob, 987654] }, 'Invalid user ID 987654'],
  ];
  it.each(errors)('refuses %s', async (_label, params, msg) => {
    const r = await typing(alice, params);
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg, code: 'BAD_REQUEST' },
    });
  });

  it('refuses an op or type outside the family set', async () => {
    const op = await typing(alice, { op: 'pause', to: [ids.bob] });
    expect({ status: op.status, body: op.body }).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Invalid op', code: 'BAD_REQUEST' },
    });
    const type = await typing(alice, { type: 'huddle', op: 'start', to: [ids.bob] });
    expect({ status: type.status, body: type.body }).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Invalid type', code: 'BAD_REQUEST' },
    });
  });

  it('honours send_private_typing_notifications', async () => {
    await bob.request('PATCH', '/settings', { send_private_typing_notifications: false });
    try {
      const { events, result } = await verifyAction({
        clients: [alice],
        action: () => typing(bob, { op: 'start', to: [ids.alice] }),
      });
      expect({ status: result.status, body: result.body }).toEqual({
        status: 400,
        body: {
          result: 'error',
          msg: 'User has disabled typing notifications for direct messages',
          code: 'BAD_REQUEST',
        },
      });
      expect(events[0]).toEqual([]);
    } finally {
      await bob.request('PATCH', '/settings', { send_private_typing_notifications: true });
    }
  });
});

describe('POST /typing, streams', () => {
  const general = streams.general as number;

  it('sends to the subscribers whose clients handle stream typing', async () => {
    const { events, result } = await verifyAction({
      clients: [bob, admin, bob],
      registerParams: [withStreamTyping, withStreamTyping, DEFAULT_REGISTER_PARAMS],
      action: () => typing(alice, { type: 'stream', op: 'start', stream_id: general, topic: 'lunch' }),
    });
    expect(result.status).toBe(200);
    const expected = {
      type: 'typing',
      op: 'start',
      message_type: 'stream',
      sender: { user_id: ids.alice, email: svc.demo.users.alice },
      stream_id: general,
      topic: 'lunch',
      id: expect.any(Number),
    };
    expect(events).toEqual([[expected], [expected], []]);
  });

  it('takes the channel type and the stream id in `to` (before stream_id)', async () => {
    const { events } = await verifyAction({
      clients: [bob],
      registerParams: withStreamTyping,
      action: () => typing(alice, { type: 'channel', op: 'stop', to: [general], topic: 'lunch' }),
    });
    expect(events[0]).toEqual([expect.objectContaining({ op: 'stop', stream_id: general, topic: 'lunch' })]);
  });

  it('does not reach users outside a private stream', async () => {
    const design = streams.design as number;
    const { events } = await verifyAction({
      clients: [alice, bob],
      registerParams: withStreamTyping,
      action: () => typing(admin, { type: 'stream', op: 'start', stream_id: design, topic: 'x' }),
    });
    expect(events[0]).toHaveLength(1);
    expect(events[1]).toEqual([]);
  });

  const errors: [string, ApiClient, Record<string, unknown>, string][] = [
    ['no stream', alice, { type: 'stream', op: 'start', topic: 'x' }, 'Missing channel ID'],
    ['no topic', alice, { type: 'stream', op: 'start', stream_id: 0 }, 'Missing topic'],
    [
      'an unknown stream',
      alice,
      { type: 'stream', op: 'start', stream_id: 987654, topic: 'x' },
      'Invalid stream ID',
    ],
    [
      'a private stream the user is not in',
      guest,
      { type: 'stream', op: 'start', stream_id: 0, topic: 'x' },
      'Invalid stream ID',
    ],
  ];
  it.each(errors)('refuses %s', async (_label, client, params, msg) => {
    const stream_id = params.stream_id === 0 ? streams.design : params.stream_id;
    const r = await typing(client, { ...params, ...(stream_id === undefined ? {} : { stream_id }) });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg, code: 'BAD_REQUEST' },
    });
  });

  it('honours send_stream_typing_notifications', async () => {
    await bob.request('PATCH', '/settings', { send_stream_typing_notifications: false });
    try {
      const r = await typing(bob, { type: 'stream', op: 'start', stream_id: general, topic: 'x' });
      expect(r.body).toEqual({
        result: 'error',
        msg: 'User has disabled typing notifications for channel messages',
        code: 'BAD_REQUEST',
      });
    } finally {
      await bob.request('PATCH', '/settings', { send_stream_typing_notifications: true });
    }
  });
});
