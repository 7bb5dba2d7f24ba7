/**
 * PATCH /messages/{message_id}, content and topic: the sender edits within the organization's
 * limits, topics move per edit_topic_policy (one, later or all messages), the edit history,
 * update_message events (verify-action), and the family's errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectError, messageHelpers } from './support/message-edit';
import { demoIds, query, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob, moderator, admin } = await serviceWith(['alice', 'bob', 'moderator', 'admin'], {
  rateLimits: { user: 0, ip: 0 },
});
const { as, send, setRealm, age } = messageHelpers(svc);
const { users: ids, streams } = demoIds(svc);
const general = streams.general as number;
const bobName = (await bob.getOwnUser()).full_name;

const patch = (client: typeof alice, id: number | string, params: Record<string, unknown>) =>
  as(client, 'PATCH', `/messages/${id}`, params);
const getMessage = async (id: number) =>
  (await as(alice, 'GET', `/messages/${id}`)).body.message as Record<string, unknown>;

const mentionsIn = (state: Record<string, unknown> | undefined) =>
  (state?.unread_msgs as { mentions: number[] } | undefined)?.mentions;

afterEach(() => svc.sql(`UPDATE realm SET settings = '{}'`));

describe('editing content', () => {
  it('the sender edits: re-rendered, edit history, update_message to every holder', async () => {
    const id = await send(alice, 'general', 'first *draft*');
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('PATCH', `/messages/${id}`, { content: 'second **take**' }),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    const message = await getMessage(id);
    expect(message.content).toBe('<p>second <strong>take</strong></p>');
    const edited = message.last_edit_timestamp as number;
    expect(typeof edited).toBe('number');
    expect(message.edit_history).toEqual([
      {
        user_id: ids.alice,
        timestamp: edited,
        prev_content: 'first *draft*',
        prev_rendered_content: '<p>first <em>draft</em></p>',
        prev_rendered_content_version: 1,
      },
    ]);
    const expected = {
      type: 'update_message',
      user_id: ids.alice,
      edit_timestamp: edited,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      stream_name: 'general',
      stream_id: general,
      orig_content: 'first *draft*',
      orig_rendered_content: '<p>first <em>draft</em></p>',
      content: 'second **take**',
      rendered_content: '<p>second <strong>take</strong></p>',
      is_me_message: false,
      id: 0,
    };
    expect(events[0]).toEqual([{ ...expected, flags: ['read'] }]);
    expect(events[1]).toEqual([{ ...expected, flags: [] }]);
  });

  it('a mention added by the edit gives the flag (unread mentions follow), one removed takes it', async () => {
    const id = await send(alice, 'general', 'no mention yet');
    const added = await verifyAction({
      clients: [bob],
      action: () => alice.request('PATCH', `/messages/${id}`, { content: `hi @**${bobName}**` }),
    });
    expect(added.events[0]?.[0]?.flags).toEqual(['mentioned']);
    expect(mentionsIn(added.states[0])).toContain(id);
    const removed = await verifyAction({
      clients: [bob],
      action: () => alice.request('PATCH', `/messages/${id}`, { content: 'never mind' }),
    });
    expect(removed.events[0]?.[0]?.flags).toEqual([]);
    expect(mentionsIn(removed.states[0])).not.toContain(id);
  });

  it('an alert word added by the edit gives the holder has_alert_word', async () => {
    svc.sql("INSERT INTO alert_words (user_id, word) VALUES (?, 'pineapple')", ids.bob);
    const id = await send(alice, 'general', 'fruit salad');
    const { events } = await verifyAction({
      clients: [bob],
      action: () => alice.request('PATCH', `/messages/${id}`, { content: 'fruit salad with pineapple' }),
    });
    expect(events[0]?.[0]?.flags).toEqual(['has_alert_word']);
  });

  it('a direct message is edited alike; empty content leaves "(deleted)"', async () => {
    const id = await send(alice, [ids.bob as number], 'between us');
    const { events } = await verifyAction({
      clients: [bob],
      action: () => alice.request('PATCH', `/messages/${id}`, { content: ' ' }),
    });
    expect(events[0]?.[0]).toMatchObject({ message_id: id, content: '(deleted)' });
    expect(events[0]?.[0]).not.toHaveProperty('stream_id');
    expect(query(svc, 'SELECT content FROM messages WHERE id = ?', id)).toEqual([{ content: '(deleted)' }]);
  });

  it("only the sender, within the organization's limit, where editing is on", async () => {
    const id = await send(alice, 'general', 'mine');
    expectError(
      await patch(bob, id, { content: 'theirs' }),
      "You don't have permission to edit this message",
    );
    expectError(
      await patch(admin, id, { content: 'theirs' }),
      "You don't have permission to edit this message",
    );
    setRealm({ allow_message_editing: false });
    expectError(await patch(alice, id, { content: 'x' }), 'Your organization has turned off message editing');
    setRealm({ allow_message_editing: true, message_content_edit_limit_seconds: 60 });
    age(id, 100);
    expectError(await patch(alice, id, { content: 'x' }), 'The time limit for editing this message has past');
    setRealm({ message_content_edit_limit_seconds: null });
    expect((await patch(alice, id, { content: 'no limit' })).status).toBe(200);
    // The default limit is the family's 10 minutes (plus its grace period).
    svc.sql(`UPDATE realm SET settings = '{}'`);
    age(id, 600 + 21);
    expectError(await patch(alice, id, { content: 'x' }), 'The time limit for editing this message has past');
  });

  it("the family's request errors, nothing changed", async () => {
    const id = await send(alice, 'general', 'stays');
    const dm = await send(alice, [ids.bob as number], 'a dm');
    expectError(await patch(alice, id, {}), 'Nothing to change');
    expectError(await patch(alice, id, { topic: 'edits' }), 'Nothing to change');
    expectError(await patch(alice, dm, { topic: 'x' }), 'Private messages cannot have topics.');
    expectError(
      await patch(alice, dm, { stream_id: general }),
      'Private messages cannot be moved to streams.',
    );
    expectError(
      await patch(alice, id, { content: 'x', propagate_mode: 'change_all' }),
      'Invalid propagate_mode without topic edit',
    );
    expectError(
      await patch(alice, id, { content: 'x', stream_id: streams.engineering }),
      'Cannot change message content while changing stream',
    );
    expectError(await patch(alice, id, { topic: '  ' }), "Topic can't be empty!");
    expectError(await patch(alice, id, { content: 'a\u0000b' }), 'Message must not contain null bytes');
    expectError(await patch(alice, 987654321, { content: 'x' }), 'Invalid message(s)');
    expectError(await patch(alice, 'abc', { content: 'x' }), 'Invalid message(s)');
    expectError(
      await patch(alice, id, { propagate_mode: 'change_some', topic: 'x' }),
      'Invalid propagate_mode',
    );
    expect(query(svc, 'SELECT content, topic, edit_history FROM messages WHERE id = ?', id)).toEqual([
      { content: 'stays', topic: 'edits', edit_history: null },
    ]);
  });

  it('a direct message between others is invisible: Invalid message(s)', async () => {
    const dm = await send(alice, [ids.admin as number], 'private');
    expectError(await patch(bob, dm, { content: 'x' }), 'Invalid message(s)');
  });
});

describe('editing topics', () => {
  it('change_one, change_later and change_all move the right messages; unreads follow', async () => {
    const [a, b, c] = [
      await send(alice, 'general', 'one', 'trip'),
      await send(alice, 'general', 'two', 'trip'),
      await send(alice, 'general', 'three', 'trip'),
    ];
    const one = await verifyAction({
      clients: [alice, bob],
      action: () => bob.request('PATCH', `/messages/${b}`, { topic: 'Trip plans' }),
    });
    expect(one.events[1]?.[0]).toMatchObject({
      type: 'update_message',
      user_id: ids.bob,
      message_id: b,
      message_ids: [b],
      propagate_mode: 'change_one',
      orig_subject: 'trip',
      subject: 'Trip plans',
      topic_links: [],
      stream_id: general,
      stream_name: 'general',
    });
    expect(one.events[1]?.[0]).not.toHaveProperty('content');
    const later = await verifyAction({
      clients: [alice, bob],
      action: () =>
        bob.request('PATCH', `/messages/${a}`, { topic: 'later', propagate_mode: 'change_later' }),
    });
    expect(later.events[1]?.[0]?.message_ids).toEqual([a, c]);
    const all = await verifyAction({
      clients: [alice, bob],
      action: () =>
        bob.request('PATCH', `/messages/${b}`, { topic: 'together', propagate_mode: 'change_all' }),
    });
    expect(all.events[1]?.[0]?.message_ids).toEqual([b]);
    const topics = query<{ id: number; topic: string }>(
      svc,
      `SELECT id, topic FROM messages WHERE id IN (${a}, ${b}, ${c}) ORDER BY id`,
    );
    expect(topics).toEqual([
      { id: a, topic: 'later' },
      { id: b, topic: 'together' },
      { id: c, topic: 'later' },
    ]);
    const history = (await getMessage(a)).edit_history as Record<string, unknown>[];
    expect(history).toEqual([
      { user_id: ids.bob, timestamp: expect.any(Number), prev_topic: 'trip', topic: 'later' },
    ]);
  });

  it('content and topic together: one event with both, one history entry', async () => {
    const id = await send(alice, 'general', 'both', 'before');
    const { events } = await verifyAction({
      clients: [alice],
      action: () => alice.request('PATCH', `/messages/${id}`, { content: 'both edited', topic: 'after' }),
    });
    expect(events[0]?.[0]).toMatchObject({
      content: 'both edited',
      subject: 'after',
      orig_subject: 'before',
    });
    expect(((await getMessage(id)).edit_history as unknown[]).length).toBe(1);
  });

  it("edit_topic_policy and the organization's time limit (moderators have none)", async () => {
    const id = await send(alice, 'general', 'policy', 'rules');
    setRealm({ edit_topic_policy: 2 });
    expectError(await patch(bob, id, { topic: 'x' }), "You don't have permission to edit this message");
    expect((await patch(admin, id, { topic: 'by admin' })).status).toBe(200);
    setRealm({ edit_topic_policy: 4 });
    expectError(await patch(alice, id, { topic: 'x' }), "You don't have permission to edit this message");
    expect((await patch(moderator, id, { topic: 'by moderator' })).status).toBe(200);
    setRealm({ edit_topic_policy: 5, move_messages_within_stream_limit_seconds: 60 });
    age(id, 120);
    expectError(
      await patch(bob, id, { topic: 'x' }),
      "The time limit for editing this message's topic has passed.",
    );
    expect((await patch(moderator, id, { topic: 'late' })).status).toBe(200);
  });

  it('change_all over older messages than the limit: MOVE_MESSAGES_TIME_LIMIT_EXCEEDED with the counts', async () => {
    const old = await send(alice, 'general', 'old', 'aging');
    const recent = await send(alice, 'general', 'recent', 'aging');
    setRealm({ move_messages_within_stream_limit_seconds: 60 });
    age(old, 120);
    const r = await patch(bob, recent, { topic: 'moved', propagate_mode: 'change_all' });
    expectError(
      r,
      'You only have permission to move the 1/2 most recent messages in this topic.',
      'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    );
    expect(r.body).toMatchObject({
      first_message_id_allowed_to_move: recent,
      total_messages_allowed_to_move: 1,
      total_messages_in_topic: 2,
    });
    expect((await patch(bob, recent, { topic: 'moved', propagate_mode: 'change_later' })).status).toBe(200);
  });
});
