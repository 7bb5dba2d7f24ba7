/**
 * GET /messages/{message_id}/read_receipts: readers of a message, honouring send_read_receipts,
 * the organization's enable_read_receipts and muting; never the sender.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectError, messageHelpers } from './support/message-edit';
import { demoIds, serviceWith } from './support/service';

const { svc, alice, bob, admin, moderator } = await serviceWith(['alice', 'bob', 'admin', 'moderator'], {
  rateLimits: { user: 0, ip: 0 },
});
const { as, send, setRealm } = messageHelpers(svc);
const { users: ids, streams } = demoIds(svc);

const receipts = (client: typeof alice, id: number | string) =>
  as(client, 'GET', `/messages/${id}/read_receipts`);
const readTopic = (client: typeof alice, topic: string) =>
  client.request('POST', '/mark_topic_as_read', { stream_id: streams.general as number, topic_name: topic });

afterEach(() => {
  svc.sql(`UPDATE realm SET settings = '{}'`);
  svc.sql('DELETE FROM muted_users');
});

describe('GET /messages/{message_id}/read_receipts', () => {
  it('the readers, sorted; not the sender; a reader who turned receipts off is left out', async () => {
    const id = await send(alice, 'general', 'read me', 'receipts');
    expect((await receipts(bob, id)).body).toEqual({ result: 'success', msg: '', user_ids: [] });
    await readTopic(bob, 'receipts');
    await readTopic(admin, 'receipts');
    await readTopic(moderator, 'receipts');
    const r = await receipts(alice, id);
    expect(r.status).toBe(200);
    expect(r.body.user_ids).toEqual([ids.admin, ids.bob, ids.moderator].sort((a, b) => (a ?? 0) - (b ?? 0)));
    await moderator.request('PATCH', '/settings', { send_read_receipts: false });
    try {
      expect((await receipts(alice, id)).body.user_ids).not.toContain(ids.moderator);
    } finally {
      await moderator.request('PATCH', '/settings', { send_read_receipts: true });
    }
  });

  it('users the viewer muted, or who muted the viewer, are left out', async () => {
    const id = await send(alice, 'general', 'muted readers', 'muting');
    await readTopic(bob, 'muting');
    await readTopic(admin, 'muting');
    svc.sql(
      'INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, 0)',
      ids.alice,
      ids.bob,
    );
    svc.sql(
      'INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, 0)',
      ids.admin,
      ids.alice,
    );
    expect((await receipts(alice, id)).body.user_ids).toEqual([]);
    expect((await receipts(moderator, id)).body.user_ids).toEqual(
      [ids.admin, ids.bob].sort((a, b) => (a ?? 0) - (b ?? 0)),
    );
  });

  it("the organization's setting, and messages one cannot see", async () => {
    const id = await send(alice, 'general', 'x', 'receipts off');
    setRealm({ enable_read_receipts: false });
    expectError(await receipts(alice, id), 'Read receipts are disabled in this organization.');
    svc.sql(`UPDATE realm SET settings = '{}'`);
    const dm = await send(alice, [ids.admin as number], 'private');
    expectError(await receipts(bob, dm), 'Invalid message(s)');
    expectError(await receipts(bob, 987654321), 'Invalid message(s)');
    expectError(await receipts(bob, 'abc'), 'Invalid message(s)');
  });
});
