/**
 * POST and DELETE /messages/{message_id}/reactions: the `reaction` events and who gets them,
 * reactions on the Message object, votes for an existing emoji, historical copies, and the
 * family's errors.
 */
import { describe, expect, it } from 'vitest';
import { type ApiClient, basicAuthHeader } from '../../shared/client';
import { authOf, call, demoIds, query, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob, admin, guest, moderator } = await serviceWith([
  'alice',
  'bob',
  'admin',
  'guest',
  'moderator',
]);
const ids = demoIds(svc);
const idOf = (who: string) => ids.users[who] as number;

async function send(client: ApiClient, to: string, content: string): Promise<number> {
  const r = await client.request('POST', '/messages', { type: 'stream', to, topic: 'reactions', content });
  return r.id as number;
}

async function react(
  client: ApiClient,
  method: 'POST' | 'DELETE',
  messageId: number,
  params: Record<string, unknown>,
) {
  return call(svc.url, method, `/messages/${messageId}/reactions`, {
    auth: authOf(client),
    params: params as never,
  });
}

const reactionsOf = async (client: ApiClient, messageId: number) =>
  ((await client.request('GET', `/messages/${messageId}`)).message as { reactions: unknown[] }).reactions;

const event = (op: string, who: string, messageId: number, name: string, code: string) => ({
  type: 'reaction',
  op,
  user_id: idOf(who),
  user: expect.objectContaining({ user_id: idOf(who) }),
  message_id: messageId,
  emoji_name: name,
  emoji_code: code,
  reaction_type: 'unicode_emoji',
  id: 0,
});

describe('POST /messages/{message_id}/reactions', () => {
  it('adds a reaction, tells everyone who may see the message, and shows it on the message', async () => {
    const id = await send(admin, 'engineering', 'react to me');
    const { events, result } = await verifyAction({
      clients: [alice, admin, bob],
      action: () => alice.request('POST', `/messages/${id}/reactions`, { emoji_name: 'octopus' }),
    });
    expect(result).toEqual({ result: 'success', msg: '' });
    expect(events[0]).toEqual([event('add', 'alice', id, 'octopus', '1f419')]);
    expect(events[1]).toEqual(events[0]);
    // Bob is not subscribed to engineering and has no copy.
    expect(events[2]).toEqual([]);
    expect(await reactionsOf(admin, id)).toEqual([
      {
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
        user_id: idOf('alice'),
        user: expect.objectContaining({ id: idOf('alice') }),
      },
    ]);
  });

  it('counts a reaction with an emoji already used as a vote under the first name', async () => {
    const id = await send(admin, 'general', 'vote');
    await alice.request('POST', `/messages/${id}/reactions`, { emoji_name: '+1' });
    const { events } = await verifyAction({
      clients: [alice],
      action: () => moderator.request('POST', `/messages/${id}/reactions`, { emoji_name: 'thumbs_up' }),
    });
    expect(events[0]).toEqual([event('add', 'moderator', id, '+1', '1f44d')]);
  });

  it('gives a historical copy to a user reacting to public history', async () => {
    const id = await send(admin, 'engineering', 'before bob');
    const { events } = await verifyAction({
      clients: [bob, alice],
      action: () =>
        bob.request('POST', `/messages/${id}/reactions`, {
          emoji_name: 'octopus',
          emoji_code: '1f419',
          reaction_type: 'unicode_emoji',
        }),
    });
    expect(events[0]).toEqual([event('add', 'bob', id, 'octopus', '1f419')]);
    expect(events[1]).toEqual(events[0]);
    const copy = query<{ flags: number }>(
      svc,
      'SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?',
      idOf('bob'),
      id,
    );
    expect(copy).toEqual([{ flags: 1 | 64 }]);
  });

  const cases: [string, () => ApiClient, Record<string, unknown>, string, string][] = [
    [
      'an unknown name',
      () => alice,
      { emoji_name: 'no_such_emoji' },
      "Emoji 'no_such_emoji' does not exist",
      'BAD_REQUEST',
    ],
    [
      'an unknown code',
      () => alice,
      { emoji_name: 'octopus', emoji_code: 'zzz', reaction_type: 'unicode_emoji' },
      'Invalid emoji code.',
      'BAD_REQUEST',
    ],
    [
      'a name that is not the code',
      () => alice,
      { emoji_name: 'octopus', emoji_code: '1f44d', reaction_type: 'unicode_emoji' },
      'Invalid emoji name.',
      'BAD_REQUEST',
    ],
    [
      'an unknown type',
      () => alice,
      { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'zulip_emoji' },
      'Invalid emoji type.',
      'BAD_REQUEST',
    ],
    [
      'a guest on a stream they cannot read',
      () => guest,
      { emoji_name: 'octopus' },
      'Invalid message(s)',
      'BAD_REQUEST',
    ],
  ];
  it.each(cases)('refuses %s', async (_label, who, params, msg, code) => {
    const id = await send(admin, 'engineering', 'refused');
    const r = await react(who(), 'POST', id, params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code });
    expect(await reactionsOf(admin, id)).toEqual([]);
  });

  it('refuses a message of a private stream and a reaction that exists', async () => {
    const secret = await send(admin, 'design', 'secret');
    const r = await react(bob, 'POST', secret, { emoji_name: 'octopus' });
    expect(r.body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
    const id = await send(admin, 'general', 'twice');
    await alice.request('POST', `/messages/${id}/reactions`, { emoji_name: 'octopus' });
    const again = await react(alice, 'POST', id, { emoji_name: 'octopus' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      result: 'error',
      msg: 'Reaction already exists.',
      code: 'REACTION_ALREADY_EXISTS',
    });
  });
});

/** A 1×1 PNG, the smallest image the custom-emoji upload takes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Adds the organization's custom emoji `name` (as the administrator); its id. */
async function addRealmEmoji(name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG]), 'e.png');
  const [email, key] = authOf(admin);
  const r = await fetch(`${svc.url}/api/v1/realm/emoji/${name}`, {
    method: 'POST',
    headers: { Authorization: basicAuthHeader(email, key) },
    body: form,
  });
  expect(r.status).toBe(200);
  const list = (await admin.request('GET', '/realm/emoji')).emoji as Record<string, { name: string }>;
  const [id] = Object.entries(list).find(([, e]) => e.name === name) ?? [];
  return id as string;
}

describe("reactions with the organization's and the service's own emoji", () => {
  it('adds a custom emoji by name or by code, as realm_emoji, with events', async () => {
    const code = await addRealmEmoji('party_parrot');
    const id = await send(admin, 'general', 'custom emoji');
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('POST', `/messages/${id}/reactions`, { emoji_name: 'party_parrot' }),
    });
    const expected = { ...event('add', 'alice', id, 'party_parrot', code), reaction_type: 'realm_emoji' };
    expect(events[0]).toEqual([expected]);
    expect(events[1]).toEqual([expected]);
    await bob.request('POST', `/messages/${id}/reactions`, {
      emoji_name: 'party_parrot',
      emoji_code: code,
      reaction_type: 'realm_emoji',
    });
    expect(await reactionsOf(admin, id)).toEqual([
      expect.objectContaining({ emoji_code: code, reaction_type: 'realm_emoji', user_id: idOf('alice') }),
      expect.objectContaining({ emoji_code: code, reaction_type: 'realm_emoji', user_id: idOf('bob') }),
    ]);
  });

  it("adds the service's extra emoji as service_extra_emoji, with events", async () => {
    const id = await send(admin, 'general', 'extra emoji');
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('POST', `/messages/${id}/reactions`, { emoji_name: 'service' }),
    });
    const expected = {
      ...event('add', 'alice', id, 'service', 'service'),
      reaction_type: 'service_extra_emoji',
    };
    expect(events[0]).toEqual([expected]);
    expect(events[1]).toEqual([expected]);
    const removed = await verifyAction({
      clients: [alice],
      action: () =>
        alice.request('DELETE', `/messages/${id}/reactions`, {
          emoji_code: 'service',
          reaction_type: 'service_extra_emoji',
        }),
    });
    expect(removed.events[0]).toEqual([
      { ...event('remove', 'alice', id, 'service', 'service'), reaction_type: 'service_extra_emoji' },
    ]);
    expect(await reactionsOf(admin, id)).toEqual([]);
  });

  it('refuses a custom emoji that does not exist, is named wrongly, or was deactivated; changes nothing', async () => {
    const code = await addRealmEmoji('gone_soon');
    const id = await send(admin, 'general', 'bad custom emoji');
    const realm = (emoji_name: string, emoji_code: string) =>
      react(alice, 'POST', id, { emoji_name, emoji_code, reaction_type: 'realm_emoji' });
    expect((await realm('gone_soon', '999999')).body).toEqual({
      result: 'error',
      msg: 'Invalid custom emoji.',
      code: 'BAD_REQUEST',
    });
    expect((await realm('other_name', code)).body).toEqual({
      result: 'error',
      msg: 'Invalid custom emoji name.',
      code: 'BAD_REQUEST',
    });
    expect((await admin.request('DELETE', '/realm/emoji/gone_soon')).result).toBe('success');
    expect((await realm('gone_soon', code)).body).toEqual({
      result: 'error',
      msg: 'This custom emoji has been deactivated.',
      code: 'BAD_REQUEST',
    });
    expect(
      (
        await react(alice, 'POST', id, {
          emoji_name: 'service',
          emoji_code: 'nope',
          reaction_type: 'service_extra_emoji',
        })
      ).body,
    ).toEqual({
      result: 'error',
      msg: 'Invalid emoji code.',
      code: 'BAD_REQUEST',
    });
    expect(await reactionsOf(admin, id)).toEqual([]);
  });
});

describe('DELETE /messages/{message_id}/reactions', () => {
  it('removes the reaction by name or by code, with events', async () => {
    const id = await send(admin, 'general', 'remove');
    await alice.request('POST', `/messages/${id}/reactions`, { emoji_name: 'octopus' });
    await alice.request('POST', `/messages/${id}/reactions`, { emoji_name: 'heart' });
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('DELETE', `/messages/${id}/reactions`, { emoji_name: 'octopus' }),
    });
    expect(events[0]).toEqual([event('remove', 'alice', id, 'octopus', '1f419')]);
    expect(events[1]).toEqual(events[0]);
    await alice.request('DELETE', `/messages/${id}/reactions`, {
      emoji_code: '2764',
      reaction_type: 'unicode_emoji',
    });
    expect(await reactionsOf(admin, id)).toEqual([]);
  });

  it("refuses a reaction that doesn't exist, and a request naming no emoji", async () => {
    const id = await send(admin, 'general', 'nothing here');
    const missing = await react(alice, 'DELETE', id, { emoji_name: 'octopus' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      result: 'error',
      msg: "Reaction doesn't exist.",
      code: 'REACTION_DOES_NOT_EXIST',
    });
    const neither = await react(alice, 'DELETE', id, {});
    expect(neither.body).toEqual({
      result: 'error',
      msg: 'At least one of the following arguments must be present: emoji_name, emoji_code',
      code: 'BAD_REQUEST',
    });
    const unknown = await react(alice, 'DELETE', 987654321, { emoji_name: 'octopus' });
    expect(unknown.body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
  });
});
