/**
 * DELETE /messages/{message_id}: administrators delete any message they can access, senders
 * their own per delete_own_message_policy and the delete time limit; delete_message events
 * (bulk for clients with bulk_message_deletion, one message otherwise) to every holder.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, messageHelpers } from './support/message-edit';
import { demoIds, query, serviceWith } from './support/service';
import { DEFAULT_REGISTER_PARAMS, verifyAction } from './support/verify-action';

const { svc, alice, bob, admin, moderator } = await serviceWith(['alice', 'bob', 'admin', 'moderator'], {
  rateLimits: { user: 0, ip: 0 },
});
const { as, send, setRealm, age } = messageHelpers(svc);
const { users: ids, streams } = demoIds(svc);

const LEGACY_DELETION = {
  ...DEFAULT_REGISTER_PARAMS,
  client_capabilities: {
    ...(DEFAULT_REGISTER_PARAMS.client_capabilities as Record<string, boolean>),
    bulk_message_deletion: false,
  },
};
const remove = (client: typeof alice, id: number | string) => as(client, 'DELETE', `/messages/${id}`);
const exists = (id: number) => query(svc, 'SELECT id FROM messages WHERE id = ?', id).length === 1;

// The family's default at this feature level (administrators only) is tested last.
beforeEach(() => setRealm({ delete_own_message_policy: 5 }));
afterEach(() => svc.sql(`UPDATE realm SET settings = '{}'`));

describe('DELETE /messages/{message_id}', () => {
  it('the sender deletes their stream message: bulk and one-message events to every holder', async () => {
    const id = await send(alice, 'general', 'oops', 'mistakes');
    const { events, result } = await verifyAction({
      clients: [alice, bob, bob],
      registerParams: [DEFAULT_REGISTER_PARAMS, DEFAULT_REGISTER_PARAMS, LEGACY_DELETION],
      action: () => alice.request('DELETE', `/messages/${id}`),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    const base = {
      type: 'delete_message',
      message_type: 'stream',
      stream_id: streams.general,
      topic: 'mistakes',
    };
    expect(events[0]).toEqual([{ ...base, message_ids: [id], id: 0 }]);
    expect(events[1]).toEqual([{ ...base, message_ids: [id], id: 0 }]);
    expect(events[2]).toEqual([{ ...base, message_id: id, id: 0 }]);
    expect(exists(id)).toBe(false);
    expect(query(svc, 'SELECT * FROM user_messages WHERE message_id = ?', id)).toEqual([]);
  });

  it('an administrator deletes a direct message they are part of; only its members are told', async () => {
    const id = await send(alice, [ids.admin as number], 'to the admin');
    const { events } = await verifyAction({
      clients: [alice, admin, bob],
      action: () => admin.request('DELETE', `/messages/${id}`),
    });
    const event = { type: 'delete_message', message_type: 'private', message_ids: [id], id: 0 };
    expect(events).toEqual([[event], [event], []]);
    expect(exists(id)).toBe(false);
  });

  it("others' messages: administrators only; messages one cannot see: Invalid message(s)", async () => {
    const id = await send(alice, 'general', 'keep me', 'mine');
    expectError(await remove(bob, id), "You don't have permission to delete this message");
    expectError(await remove(moderator, id), "You don't have permission to delete this message");
    const dm = await send(alice, [ids.admin as number], 'private');
    expectError(await remove(bob, dm), 'Invalid message(s)');
    expectError(await remove(bob, 987654321), 'Invalid message(s)');
    expectError(await remove(bob, 'abc'), 'Invalid message(s)');
    expect(exists(id) && exists(dm)).toBe(true);
    expect((await remove(admin, id)).status).toBe(200);
  });

  it('delete_own_message_policy and the delete time limit (administrators have neither)', async () => {
    const id = await send(alice, 'general', 'policy', 'deletions');
    setRealm({ delete_own_message_policy: 2 });
    expectError(await remove(alice, id), "You don't have permission to delete this message");
    setRealm({ delete_own_message_policy: 4 });
    expectError(await remove(alice, id), "You don't have permission to delete this message");
    const own = await send(moderator, 'general', 'moderated', 'deletions');
    expect((await remove(moderator, own)).status).toBe(200);
    setRealm({ delete_own_message_policy: 5, message_content_delete_limit_seconds: 60 });
    age(id, 120);
    expectError(await remove(alice, id), 'The time limit for deleting this message has passed');
    setRealm({ message_content_delete_limit_seconds: null });
    expect((await remove(alice, id)).status).toBe(200);
    const late = await send(alice, 'general', 'late', 'deletions');
    setRealm({ message_content_delete_limit_seconds: 600 });
    age(late, 601);
    expectError(await remove(alice, late), 'The time limit for deleting this message has passed');
    expect((await remove(admin, late)).status).toBe(200);
  });

  it('by default only administrators delete, with no time limit', async () => {
    svc.sql(`UPDATE realm SET settings = '{}'`);
    const id = await send(alice, 'general', 'mine', 'defaults');
    expectError(await remove(alice, id), "You don't have permission to delete this message");
    age(id, 86_400 * 365);
    expect((await remove(admin, id)).status).toBe(200);
  });
});
