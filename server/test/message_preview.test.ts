/**
 * POST /messages/render (a preview, nothing stored) and GET /messages/matches_narrow (which
 * messages a narrow keeps, search terms highlighted), with the family's errors.
 */
import { describe, expect, it } from 'vitest';
import { expectError, messageHelpers } from './support/message-edit';
import { demoIds, query, serviceWith } from './support/service';

const { svc, alice, bob } = await serviceWith(['alice', 'bob'], { rateLimits: { user: 0, ip: 0 } });
const { as, send } = messageHelpers(svc);
const { users: ids } = demoIds(svc);
const bobName = (await bob.getOwnUser()).full_name;

const matches = (client: typeof alice, msgIds: unknown, narrow: unknown) =>
  as(client, 'GET', '/messages/matches_narrow', {
    msg_ids: JSON.stringify(msgIds),
    narrow: JSON.stringify(narrow),
  });

describe('POST /messages/render', () => {
  it('renders Markdown and mentions; stores nothing', async () => {
    const count = query(svc, 'SELECT COUNT(*) AS n FROM messages');
    const r = await as(alice, 'POST', '/messages/render', { content: `**bold** for @**${bobName}**` });
    expect(r.status).toBe(200);
    expect(r.body.result).toBe('success');
    expect(r.body.rendered).toContain('<strong>bold</strong>');
    expect(r.body.rendered).toContain(`data-user-id="${ids.bob}"`);
    expect(query(svc, 'SELECT COUNT(*) AS n FROM messages')).toEqual(count);
  });

  it("the family's errors", async () => {
    const missing = await as(alice, 'POST', '/messages/render', {});
    expectError(missing, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING');
    expectError(
      await as(alice, 'POST', '/messages/render', { content: 'a\u0000b' }),
      'Message must not contain null bytes',
    );
  });
});

describe('GET /messages/matches_narrow', () => {
  it('answers the messages the narrow keeps, keyed by id, search terms highlighted', async () => {
    const tea = await send(alice, 'general', 'Time for tea?', 'Tea time');
    const coffee = await send(alice, 'general', 'coffee please', 'drinks');
    const r = await matches(bob, [tea, coffee, 987654321], [{ operator: 'search', operand: 'tea' }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      messages: {
        [tea]: {
          match_content: '<p>Time for <span class="highlight">tea</span>?</p>',
          match_subject: '<span class="highlight">Tea</span> time',
        },
      },
    });
    const byStream = await matches(
      bob,
      [tea, coffee],
      [
        ['stream', 'general'],
        ['topic', 'drinks'],
      ],
    );
    expect(byStream.body.messages).toEqual({
      [coffee]: { match_content: '<p>coffee please</p>', match_subject: 'drinks' },
    });
  });

  it('messages the user cannot read never match', async () => {
    const dm = await send(alice, [ids.alice as number], 'note to self');
    expect((await matches(bob, [dm], [])).body.messages).toEqual({});
    expect((await matches(alice, [dm], [])).body.messages).toEqual({ [dm]: expect.any(Object) });
  });

  it("the family's errors", async () => {
    expectError(await matches(bob, 'x', []), 'msg_ids is not a list of integers');
    expectError(await matches(bob, [1.5], []), 'msg_ids is not a list of integers');
    expectError(
      await matches(bob, [1], [['stream', 'no such stream']]),
      'Invalid narrow operator: unknown stream',
      'BAD_NARROW',
    );
    const r = await as(bob, 'GET', '/messages/matches_narrow', { narrow: '[]' });
    expectError(r, "Missing 'msg_ids' argument", 'REQUEST_VARIABLE_MISSING');
  });
});
