/** GET /messages/{message_id}: every field of the spec's Message, apply_markdown, raw_content, visibility. */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, demoIds, query, serviceWith } from './support/service';

const { svc, alice, bob, admin, guest } = await serviceWith(['alice', 'bob', 'admin', 'guest'], {
  rateLimits: { user: 0, ip: 0 },
});
const { users: ids, streams } = demoIds(svc);

const get = (client: ApiClient, id: number | string, params: Record<string, unknown> = {}) =>
  call(svc.url, 'GET', `/messages/${id}`, { auth: authOf(client), params: params as never });

async function send(client: ApiClient, params: Record<string, unknown>): Promise<number> {
  const r = await call(svc.url, 'POST', '/messages', { auth: authOf(client), params: params as never });
  expect(r.status).toBe(200);
  return r.body.id as number;
}

describe('GET /messages/{message_id}', () => {
  it('returns every Message field of a stream message, with the reader flags', async () => {
    const id = await send(alice, {
      type: 'stream',
      to: 'general',
      topic: 'fields',
      content: 'Hello *world*',
    });
    const [row] = query<{ recipient_id: number; date_sent: number }>(
      svc,
      'SELECT recipient_id, date_sent FROM messages WHERE id = ?',
      id,
    );
    const r = await get(bob, id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      raw_content: 'Hello *world*',
      message: {
        id,
        type: 'stream',
        stream_id: streams.general,
        subject: 'fields',
        topic_links: [],
        content: '<p>Hello <em>world</em></p>',
        content_type: 'text/html',
        display_recipient: 'general',
        recipient_id: row?.recipient_id,
        sender_id: ids.alice,
        sender_email: alice.credentials?.email,
        sender_full_name: 'Alice Doe',
        sender_realm_str: '',
        timestamp: row?.date_sent,
        is_me_message: false,
        client: 'node',
        avatar_url: `/avatar/${ids.alice}?v=1`,
        reactions: [],
        submessages: [],
        flags: [],
      },
    });
    expect((await get(alice, id)).body.message).toMatchObject({ flags: ['read'] });
  });

  it('apply_markdown=false returns the Markdown source', async () => {
    const id = await send(alice, { type: 'stream', to: 'general', topic: 'raw', content: '**raw**' });
    const r = await get(bob, id, { apply_markdown: false });
    expect(r.body.message).toMatchObject({ content: '**raw**', content_type: 'text/x-markdown' });
    expect(r.body.raw_content).toBe('**raw**');
  });

  it('a direct message lists its users; /me messages are flagged', async () => {
    const id = await send(alice, { type: 'private', to: JSON.stringify([ids.bob]), content: '/me waves' });
    const r = await get(bob, id);
    expect(r.body.message).toMatchObject({
      type: 'private',
      subject: '',
      is_me_message: true,
      display_recipient: [
        { id: ids.alice, email: alice.credentials?.email, full_name: 'Alice Doe', is_mirror_dummy: false },
        { id: ids.bob, email: bob.credentials?.email, full_name: 'Bob Smith', is_mirror_dummy: false },
      ].sort((a, b) => (a.id ?? 0) - (b.id ?? 0)),
    });
    expect(r.body.message).not.toHaveProperty('stream_id');
  });

  it('shows last_edit_timestamp and edit_history (newest first) once edited, and reactions', async () => {
    const id = await send(alice, { type: 'stream', to: 'general', topic: 'edited', content: 'v2' });
    const history = [
      { user_id: ids.alice, timestamp: 2000, prev_content: 'v1', prev_rendered_content: '<p>v1</p>' },
      { user_id: ids.alice, timestamp: 1000, prev_topic: 'old', topic: 'edited' },
    ];
    svc.sql(
      'UPDATE messages SET last_edit_time = 2000, edit_history = ? WHERE id = ?',
      JSON.stringify(history),
      id,
    );
    svc.sql(
      "INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (?, ?, 'smile', '1f604', 'unicode_emoji')",
      id,
      ids.bob,
    );
    const r = await get(bob, id);
    expect(r.body.message).toMatchObject({
      last_edit_timestamp: 2000,
      edit_history: history,
      reactions: [
        {
          emoji_name: 'smile',
          emoji_code: '1f604',
          reaction_type: 'unicode_emoji',
          user_id: ids.bob,
          user: { id: ids.bob, email: bob.credentials?.email, full_name: 'Bob Smith' },
        },
      ],
    });
  });

  it('public stream history is readable without a copy: read and historical', async () => {
    const id = await send(alice, { type: 'stream', to: 'engineering', topic: 'history', content: 'x' });
    const r = await get(bob, id);
    expect(r.status).toBe(200);
    expect(r.body.message).toMatchObject({ flags: ['read', 'historical'] });
  });

  it('private stream history: whole history when public to subscribers, else only since subscribing', async () => {
    const before = await send(alice, { type: 'stream', to: 'design', topic: 'history', content: 'before' });
    // bob subscribes to design after that message.
    svc.sql(
      "INSERT INTO subscriptions (user_id, stream_id, active, color) VALUES (?, ?, 1, '#c2c2c2')",
      ids.bob,
      streams.design,
    );
    try {
      expect((await get(bob, before)).body.message).toMatchObject({ flags: ['read', 'historical'] });
      svc.sql('UPDATE streams SET history_public_to_subscribers = 0 WHERE id = ?', streams.design);
      const after = await send(alice, { type: 'stream', to: 'design', topic: 'history', content: 'after' });
      expect((await get(bob, before)).body).toEqual({
        result: 'error',
        msg: 'Invalid message(s)',
        code: 'BAD_REQUEST',
      });
      expect((await get(bob, after)).body.message).toMatchObject({ flags: [] });
      const list = await call(svc.url, 'GET', '/messages', {
        auth: authOf(bob),
        params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: '[["stream","design"]]' },
      });
      expect((list.body.messages as { id: number }[]).map((m) => m.id)).toEqual([after]);
    } finally {
      svc.sql('UPDATE streams SET history_public_to_subscribers = 1 WHERE id = ?', streams.design);
      svc.sql('DELETE FROM subscriptions WHERE user_id = ? AND stream_id = ?', ids.bob, streams.design);
    }
  });

  const invalid = { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' };

  it('"Invalid message(s)" for a missing message, a private stream without access, another\'s DM', async () => {
    const design = await send(alice, { type: 'stream', to: 'design', topic: 'secret', content: 'x' });
    const dm = await send(alice, { type: 'private', to: JSON.stringify([ids.admin]), content: 'x' });
    const engineering = await send(alice, { type: 'stream', to: 'engineering', topic: 'g', content: 'x' });
    for (const [client, id] of [
      [bob, 999_999],
      [bob, design],
      [bob, dm],
      [guest, engineering],
    ] as const) {
      const r = await get(client, id);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(invalid);
    }
    expect((await get(bob, 'abc')).body).toEqual(invalid);
    // The recipients themselves can read them.
    expect((await get(admin, dm)).status).toBe(200);
    expect((await get(admin, design)).status).toBe(200);
  });

  it('bad apply_markdown and no credentials', async () => {
    const r = await get(bob, 1, { apply_markdown: 'yes' });
    expect(r.body).toEqual({ result: 'error', msg: 'apply_markdown is not valid JSON', code: 'BAD_REQUEST' });
    const anon = await call(svc.url, 'GET', '/messages/1');
    expect(anon.status).toBe(401);
  });
});
