/**
 * PATCH /messages/{message_id} with stream_id: moving messages to another stream (one, later
 * or all of a topic), copies given to the new stream's subscribers and taken from those who
 * cannot read it (delete_message), update_message to both audiences, the notification bot's
 * notices, first_message_id, and the family's errors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, messageHelpers } from './support/message-edit';
import { demoIds, query, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob, guest, admin } = await serviceWith(['alice', 'bob', 'guest', 'admin'], {
  rateLimits: { user: 0, ip: 0 },
});
const { as, send, setRealm, age } = messageHelpers(svc);
const { users: ids, streams } = demoIds(svc);
const { general, engineering, design } = streams as Record<string, number>;

const patch = (client: typeof alice, id: number, params: Record<string, unknown>) =>
  as(client, 'PATCH', `/messages/${id}`, params);
const holders = (id: number) =>
  query<{ user_id: number; flags: number }>(
    svc,
    'SELECT user_id, flags FROM user_messages WHERE message_id = ? ORDER BY user_id',
    id,
  );
const topicOf = (id: number) =>
  query<{ stream_id: number; topic: string }>(
    svc,
    'SELECT stream_id, topic FROM messages WHERE id = ?',
    id,
  )[0];

// The family's default at this feature level lets only administrators move between streams.
beforeEach(() => setRealm({ move_messages_between_streams_policy: 1 }));
afterEach(() => svc.sql(`UPDATE realm SET settings = '{}'`));

describe('moving to another stream', () => {
  it('general -> engineering: new subscribers get read copies, the guest loses it, both audiences told', async () => {
    const id = await send(alice, 'general', 'moving on', 'move me');
    const { events } = await verifyAction({
      clients: [alice, bob, guest, admin],
      action: () =>
        alice.request('PATCH', `/messages/${id}`, {
          stream_id: engineering,
          send_notification_to_old_thread: false,
          send_notification_to_new_thread: false,
        }),
    });
    const update = {
      type: 'update_message',
      user_id: ids.alice,
      message_id: id,
      message_ids: [id],
      stream_id: general,
      stream_name: 'general',
      new_stream_id: engineering,
      propagate_mode: 'change_one',
      orig_subject: 'move me',
      rendering_only: false,
    };
    expect(events[0]).toEqual([expect.objectContaining({ ...update, flags: ['read'] })]);
    // bob keeps his (unread) copy: engineering is public; the event moves it in his unreads.
    expect(events[1]).toEqual([expect.objectContaining({ ...update, flags: [] })]);
    expect(events[1]?.[0]).not.toHaveProperty('subject');
    // The guest cannot read engineering: the message is deleted for them.
    expect(events[2]).toEqual([
      {
        type: 'delete_message',
        message_type: 'stream',
        stream_id: general,
        topic: 'move me',
        message_ids: [id],
        id: 0,
      },
    ]);
    expect(events[3]).toEqual([expect.objectContaining({ ...update, flags: [] })]);
    expect(topicOf(id)).toEqual({ stream_id: engineering, topic: 'move me' });
    const copies = new Map(holders(id).map((h) => [h.user_id, h.flags]));
    expect(copies.has(ids.guest as number)).toBe(false);
    expect(copies.get(ids.bob as number)).toBe(0);
    const history = (await alice.request('GET', `/messages/${id}`)).message as Record<string, unknown>;
    expect(history.edit_history).toEqual([
      { user_id: ids.alice, timestamp: expect.any(Number), prev_stream: general, stream: engineering },
    ]);
  });

  it('engineering -> general: subscribers of general without a copy get it, marked read', async () => {
    const id = await send(alice, 'engineering', 'for everyone', 'widen');
    expect(holders(id).some((h) => h.user_id === ids.bob)).toBe(false);
    const { events } = await verifyAction({
      clients: [bob, guest],
      action: () =>
        alice.request('PATCH', `/messages/${id}`, {
          stream_id: general,
          send_notification_to_old_thread: false,
          send_notification_to_new_thread: false,
        }),
    });
    for (const got of events)
      expect(got).toEqual([
        expect.objectContaining({ type: 'update_message', message_id: id, flags: ['read'] }),
      ]);
    const copies = new Map(holders(id).map((h) => [h.user_id, h.flags]));
    expect(copies.get(ids.bob as number)).toBe(1);
    expect(copies.get(ids.guest as number)).toBe(1);
  });

  it('to a private stream with a new topic, change_all: non-subscribers lose the whole topic', async () => {
    const a = await send(alice, 'general', 'one', 'secret plans');
    const b = await send(bob, 'general', 'two', 'secret plans');
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        alice.request('PATCH', `/messages/${b}`, {
          stream_id: design,
          topic: 'plans',
          propagate_mode: 'change_all',
          send_notification_to_old_thread: false,
          send_notification_to_new_thread: false,
        }),
    });
    expect(events[0]?.[0]).toMatchObject({ message_ids: [a, b], subject: 'plans', new_stream_id: design });
    expect(events[1]).toEqual([
      {
        type: 'delete_message',
        message_type: 'stream',
        stream_id: general,
        topic: 'secret plans',
        message_ids: [a, b],
        id: 0,
      },
    ]);
    expect(holders(a).map((h) => h.user_id)).toEqual(
      [ids.admin, ids.alice].sort((x, y) => (x ?? 0) - (y ?? 0)),
    );
    expectError(await as(bob, 'GET', `/messages/${b}`), 'Invalid message(s)');
  });

  it('the notification bot leaves notices in the old and the new topic (both by default)', async () => {
    const id = await send(alice, 'general', 'noticed', 'announced move');
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('PATCH', `/messages/${id}`, { stream_id: engineering, topic: 'arrived' }),
    });
    const messages = events[0]
      ?.filter((e) => e.type === 'message')
      .map((e) => e.message as Record<string, unknown>);
    const aliceName = (await alice.getOwnUser()).full_name;
    expect(messages?.map((m) => [m.sender_full_name, m.stream_id, m.subject])).toEqual([
      ['Notification Bot', general, 'announced move'],
      ['Notification Bot', engineering, 'arrived'],
    ]);
    expect(messages?.[0]?.content).toContain('This topic was moved by');
    expect(messages?.[1]?.content).toContain('This topic was moved here from');
    const raw = query<{ content: string }>(svc, 'SELECT content FROM messages WHERE id > ? ORDER BY id', id);
    expect(raw.map((r) => r.content)).toEqual([
      `This topic was moved by @_**${aliceName}|${ids.alice}** to #**engineering>arrived**`,
      `This topic was moved here from #**general>announced move** by @_**${aliceName}|${ids.alice}**`,
    ]);
  });

  it("moving a stream's first message updates first_message_id for those who see the stream", async () => {
    svc.sql(
      `INSERT INTO streams (realm_id, name, date_created, can_remove_subscribers_group_id)
       SELECT realm_id, 'empty', 0, can_remove_subscribers_group_id FROM streams WHERE name = 'general'`,
    );
    const empty = demoIds(svc).streams.empty as number;
    svc.sql('INSERT INTO recipients (type, type_id) VALUES (2, ?)', empty);
    const id = await send(alice, 'general', 'first ever', 'pioneer');
    const { events } = await verifyAction({
      clients: [bob],
      action: () =>
        alice.request('PATCH', `/messages/${id}`, {
          stream_id: empty,
          send_notification_to_new_thread: false,
          send_notification_to_old_thread: false,
        }),
    });
    expect(events[0]).toContainEqual(
      expect.objectContaining({
        type: 'stream',
        op: 'update',
        stream_id: empty,
        property: 'first_message_id',
        value: id,
      }),
    );
  });

  it("policies, time limits and the family's errors", async () => {
    const id = await send(alice, 'general', 'stay', 'stuck');
    setRealm({ move_messages_between_streams_policy: 2 });
    expectError(
      await patch(alice, id, { stream_id: engineering }),
      "You don't have permission to move this message",
    );
    setRealm({ move_messages_between_streams_policy: 1 });
    expectError(
      await patch(guest, id, { stream_id: engineering }),
      "You don't have permission to move this message",
    );
    expectError(await patch(alice, id, { stream_id: 987654321 }), 'Invalid stream ID');
    // bob cannot see the private stream design.
    expectError(await patch(bob, id, { stream_id: design }), 'Invalid stream ID');
    setRealm({ move_messages_between_streams_limit_seconds: 60 });
    age(id, 120);
    expectError(
      await patch(alice, id, { stream_id: engineering }),
      "The time limit for editing this message's stream has passed.",
    );
    expect(topicOf(id)).toEqual({ stream_id: general, topic: 'stuck' });
    // Administrators have no time limit.
    const moved = await patch(admin, id, {
      stream_id: engineering,
      send_notification_to_new_thread: false,
      send_notification_to_old_thread: false,
    });
    expect(moved.status).toBe(200);
    expect(topicOf(id)).toEqual({ stream_id: engineering, topic: 'stuck' });
  });
});
