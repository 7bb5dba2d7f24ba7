/**
 * GET /messages/{message_id}/history: every version oldest first, with what each edit
 * changed; refused where the organization turned edit history off (which also leaves
 * edit_history out of Message objects).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectError, messageHelpers } from './support/message-edit';
import { demoIds, serviceWith } from './support/service';

const { svc, alice, bob, admin } = await serviceWith(['alice', 'bob', 'admin'], {
  rateLimits: { user: 0, ip: 0 },
});
const { as, send, setRealm } = messageHelpers(svc);
const { users: ids, streams } = demoIds(svc);

const history = (client: typeof alice, id: number | string) => as(client, 'GET', `/messages/${id}/history`);

afterEach(() => svc.sql(`UPDATE realm SET settings = '{}'`));

describe('GET /messages/{message_id}/history', () => {
  it('a message never edited: its one original version', async () => {
    const id = await send(alice, 'general', 'as sent', 'history');
    const r = await history(bob, id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      message_history: [
        {
          content: 'as sent',
          rendered_content: '<p>as sent</p>',
          topic: 'history',
          timestamp: expect.any(Number),
          user_id: ids.alice,
        },
      ],
    });
  });

  it('content, topic and stream edits: each version with what changed, oldest first', async () => {
    const id = await send(alice, 'general', 'Hello!', 'party at my houz');
    await alice.request('PATCH', `/messages/${id}`, { content: 'Howdy!', topic: 'party at my house' });
    await admin.request('PATCH', `/messages/${id}`, {
      stream_id: streams.engineering,
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    const r = await history(alice, id);
    const versions = r.body.message_history as Record<string, unknown>[];
    expect(versions).toHaveLength(3);
    expect(versions[0]).toEqual({
      content: 'Hello!',
      rendered_content: '<p>Hello!</p>',
      topic: 'party at my houz',
      timestamp: expect.any(Number),
      user_id: ids.alice,
    });
    expect(versions[1]).toEqual({
      content: 'Howdy!',
      rendered_content: '<p>Howdy!</p>',
      prev_content: 'Hello!',
      prev_rendered_content: '<p>Hello!</p>',
      content_html_diff:
        '<div><p><span class="highlight_text_inserted">Howdy!</span></p> <p><span class="highlight_text_deleted">Hello!</span></p></div>',
      topic: 'party at my house',
      prev_topic: 'party at my houz',
      timestamp: expect.any(Number),
      user_id: ids.alice,
    });
    expect(versions[2]).toEqual({
      content: 'Howdy!',
      rendered_content: '<p>Howdy!</p>',
      topic: 'party at my house',
      prev_stream: streams.general,
      stream: streams.engineering,
      timestamp: expect.any(Number),
      user_id: ids.admin,
    });
  });

  it("turned off by the organization: the family's error, and no edit_history on messages", async () => {
    const id = await send(alice, 'general', 'before', 'hidden');
    await alice.request('PATCH', `/messages/${id}`, { content: 'after' });
    setRealm({ allow_edit_history: false });
    expectError(await history(alice, id), 'Message edit history is disabled in this organization');
    const message = (await alice.request('GET', `/messages/${id}`)).message as Record<string, unknown>;
    expect(message).not.toHaveProperty('edit_history');
    expect(message.last_edit_timestamp).toEqual(expect.any(Number));
  });

  it('messages one cannot see, or that do not exist: Invalid message(s)', async () => {
    const dm = await send(alice, [ids.admin as number], 'private');
    expectError(await history(bob, dm), 'Invalid message(s)');
    expectError(await history(bob, 987654321), 'Invalid message(s)');
    expectError(await history(bob, 'abc'), 'Invalid message(s)');
  });
});
