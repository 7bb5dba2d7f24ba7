/**
 * POST /messages/flags and POST /messages/flags/narrow: flag changes with their events
 * (verify-action keeps unread_msgs and starred_messages right), historical copies, the
 * unsubscribed-stream rule for marking unread, and the family's errors.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, demoIds, query, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob, admin, guest } = await serviceWith(['alice', 'bob', 'admin', 'guest']);
const ids = demoIds(svc);

async function send(client: ApiClient, to: string, topic: string, content: string): Promise<number> {
  const r = await client.request('POST', '/messages', { type: 'stream', to, topic, content });
  return r.id as number;
}

async function post(client: ApiClient, path: string, params: Record<string, unknown>) {
  return call(svc.url, 'POST', path, { auth: authOf(client), params: params as never });
}

const bitsOf = (userId: number, messageId: number) =>
  query<{ flags: number }>(
    svc,
    'SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?',
    userId,
    messageId,
  )[0]?.flags;

const flagEvent = (op: string, flag: string, messages: number[]) => ({
  type: 'update_message_flags',
  op,
  flag,
  messages,
  all: false,
});

describe('POST /messages/flags', () => {
  it('stars and unstars, keeping starred_messages right', async () => {
    const id = await send(admin, 'engineering', 'stars', 'star me');
    const { events, result, states } = await verifyAction({
      clients: [alice],
      action: () =>
        alice.request('POST', '/messages/flags', { messages: [id, id], op: 'add', flag: 'starred' }),
    });
    expect(result).toEqual({ result: 'success', msg: '', messages: [id, id] });
    expect(events[0]).toEqual([{ ...flagEvent('add', 'starred', [id]), id: 0 }]);
    expect(states[0]?.starred_messages).toContain(id);
    const removed = await verifyAction({
      clients: [alice],
      action: () =>
        alice.request('POST', '/messages/flags', { messages: [id], op: 'remove', flag: 'starred' }),
    });
    expect(removed.events[0]).toEqual([{ ...flagEvent('remove', 'starred', [id]), id: 0 }]);
    expect(removed.states[0]?.starred_messages).not.toContain(id);
  });

  it('collapses and expands, with events and the flag on the message', async () => {
    const id = await send(admin, 'engineering', 'collapse', 'a long message to fold');
    const flagsOf = async () =>
      ((await alice.request('GET', `/messages/${id}`)).message as { flags: string[] }).flags;
    const { events, result } = await verifyAction({
      clients: [alice, admin],
      action: () =>
        alice.request('POST', '/messages/flags', { messages: [id], op: 'add', flag: 'collapsed' }),
    });
    expect(result).toEqual({ result: 'success', msg: '', messages: [id] });
    expect(events[0]).toEqual([{ ...flagEvent('add', 'collapsed', [id]), id: 0 }]);
    // Another user's flags are theirs alone.
    expect(events[1]).toEqual([]);
    expect(await flagsOf()).toContain('collapsed');
    const removed = await verifyAction({
      clients: [alice],
      action: () =>
        alice.request('POST', '/messages/flags', { messages: [id], op: 'remove', flag: 'collapsed' }),
    });
    expect(removed.events[0]).toEqual([{ ...flagEvent('remove', 'collapsed', [id]), id: 0 }]);
    expect(await flagsOf()).not.toContain('collapsed');
  });

  it('marks unread with message_details, putting stream and direct messages back in unread_msgs', async () => {
    const streamId = await send(admin, 'engineering', 'Unread Again', 'read me twice');
    const dm = await admin.request('POST', '/messages', {
      type: 'private',
      to: `[${ids.users.alice}]`,
      content: 'hi',
    });
    const both = [streamId, dm.id as number];
    await alice.request('POST', '/messages/flags', { messages: both, op: 'add', flag: 'read' });
    const { events, states } = await verifyAction({
      clients: [alice],
      action: () => alice.request('POST', '/messages/flags', { messages: both, op: 'remove', flag: 'read' }),
    });
    expect(events[0]).toEqual([
      {
        ...flagEvent('remove', 'read', both),
        message_details: {
          [streamId]: {
            type: 'stream',
            stream_id: ids.streams.engineering,
            topic: 'Unread Again',
            unmuted_stream_msg: true,
          },
          [dm.id as number]: { type: 'private', user_ids: [ids.users.admin] },
        },
        id: 0,
      },
    ]);
    const unread = states[0]?.unread_msgs as { count: number; streams: { unread_message_ids: number[] }[] };
    expect(unread.streams.flatMap((s) => s.unread_message_ids)).toContain(streamId);
    const readAgain = await verifyAction({
      clients: [alice],
      action: () => alice.request('POST', '/messages/flags', { messages: both, op: 'add', flag: 'read' }),
    });
    expect(readAgain.events[0]).toEqual([{ ...flagEvent('add', 'read', both), id: 0 }]);
  });

  it('gives a historical copy of a public stream message, and ignores unread in unsubscribed streams', async () => {
    const id = await send(admin, 'engineering', 'history', 'before bob');
    expect(bitsOf(ids.users.bob as number, id)).toBeUndefined();
    const starred = await verifyAction({
      clients: [bob],
      action: () => bob.request('POST', '/messages/flags', { messages: [id], op: 'add', flag: 'starred' }),
    });
    expect(starred.events[0]).toEqual([{ ...flagEvent('add', 'starred', [id]), id: 0 }]);
    // read | starred | historical
    expect(bitsOf(ids.users.bob as number, id)).toBe(1 | 2 | 64);
    const unread = await verifyAction({
      clients: [bob],
      action: () => bob.request('POST', '/messages/flags', { messages: [id], op: 'remove', flag: 'read' }),
    });
    expect(unread.events[0]).toEqual([{ ...flagEvent('remove', 'read', []), message_details: {}, id: 0 }]);
    expect(bitsOf(ids.users.bob as number, id)).toBe(1 | 2 | 64);
  });

  const invalidMessage = { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' };
  const refusals: [string, () => ApiClient, Record<string, unknown>, Record<string, unknown>][] = [
    ['an unknown flag', () => alice, { flag: 'x' }, { msg: "Invalid flag: 'x'" }],
    ['a flag nobody may set', () => alice, { flag: 'mentioned' }, { msg: "Flag not editable: 'mentioned'" }],
    ['an internal flag name', () => alice, { flag: 'is_private' }, { msg: "Invalid flag: 'is_private'" }],
    [
      'an unknown operation',
      () => alice,
      { op: 'toggle' },
      { msg: "Invalid message flag operation: 'toggle'" },
    ],
    ['an unknown message', () => alice, { messages: [987654321] }, invalidMessage],
  ];
  it.each(refusals)('refuses %s', async (_label, who, change, expected) => {
    const id = await send(admin, 'engineering', 'refusals', 'x');
    const r = await post(who(), '/messages/flags', { messages: [id], op: 'add', flag: 'starred', ...change });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', code: 'BAD_REQUEST', ...expected });
    expect(bitsOf(ids.users.alice as number, id)).toBe(0);
  });

  it('refuses messages the user may not read (private stream, guest) and changes nothing', async () => {
    const secret = await send(admin, 'design', 'secret', 'only subscribers');
    const open = await send(admin, 'engineering', 'open', 'public');
    for (const [who, messages] of [
      [bob, [open, secret]],
      [guest, [open]],
    ] as const) {
      const r = await post(who, '/messages/flags', { messages, op: 'add', flag: 'starred' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(invalidMessage);
    }
    expect(bitsOf(ids.users.bob as number, open)).toBeUndefined();
  });

  it('says which argument is missing', async () => {
    const r = await post(alice, '/messages/flags', { op: 'add', flag: 'read' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      msg: "Missing 'messages' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'messages',
    });
  });
});

describe('POST /messages/flags/narrow', () => {
  const narrowOf = (topic: string) => [
    { operator: 'stream', operand: 'engineering' },
    { operator: 'topic', operand: topic },
  ];

  it('updates the window around the anchor and answers the counts', async () => {
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) sent.push(await send(admin, 'engineering', 'window', `m${i}`));
    await alice.request('POST', '/messages/flags', { messages: [sent[1]], op: 'add', flag: 'starred' });
    const { events, result } = await verifyAction({
      clients: [alice],
      action: () =>
        alice.request('POST', '/messages/flags/narrow', {
          anchor: 'oldest',
          num_before: 0,
          num_after: 3,
          narrow: narrowOf('window'),
          op: 'add',
          flag: 'starred',
        }),
    });
    expect(result).toEqual({
      result: 'success',
      msg: '',
      processed_count: 3,
      updated_count: 2,
      first_processed_id: sent[0],
      last_processed_id: sent[2],
      found_oldest: true,
      found_newest: false,
    });
    expect(events[0]).toEqual([{ ...flagEvent('add', 'starred', [sent[0], sent[2]] as number[]), id: 0 }]);
    const rest = await alice.request('POST', '/messages/flags/narrow', {
      anchor: String(sent[2]),
      include_anchor: false,
      num_before: 0,
      num_after: 10,
      narrow: narrowOf('window'),
      op: 'add',
      flag: 'starred',
    });
    expect(rest).toMatchObject({
      processed_count: 2,
      updated_count: 2,
      first_processed_id: sent[3],
      found_newest: true,
    });
  });

  it('answers an empty range with nulls', async () => {
    const r = await alice.request('POST', '/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: narrowOf('no such topic here'),
      op: 'add',
      flag: 'read',
    });
    expect(r).toMatchObject({
      processed_count: 0,
      updated_count: 0,
      first_processed_id: null,
      last_processed_id: null,
      found_oldest: true,
      found_newest: true,
    });
  });

  const base = { anchor: 'newest', num_before: 1, num_after: 0, narrow: [], op: 'add', flag: 'read' };
  const refusals: [string, Record<string, unknown>, number, Record<string, unknown>][] = [
    [
      'an anchor left out inside the range',
      { num_after: 1, include_anchor: false },
      400,
      { code: 'BAD_REQUEST', msg: 'The anchor can only be excluded at an end of the range' },
    ],
    ['a bad anchor', { anchor: 'latest' }, 400, { code: 'BAD_REQUEST', msg: 'Invalid anchor' }],
    ['an unknown flag', { flag: 'x' }, 400, { code: 'BAD_REQUEST', msg: "Invalid flag: 'x'" }],
    [
      'a stream the user cannot see',
      { narrow: [{ operator: 'stream', operand: 'design' }] },
      400,
      { code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown stream' },
    ],
    ['a negative count', { num_before: -1 }, 400, { code: 'BAD_REQUEST', msg: 'num_before is too small' }],
  ];
  it.each(refusals)('refuses %s', async (_label, change, status, expected) => {
    const r = await post(bob, '/messages/flags/narrow', { ...base, ...change });
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ result: 'error', ...expected });
  });
});
