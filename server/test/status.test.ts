/** POST /users/me/status: every error row of the spec, the emoji checks, and user_status events. */

import { describe, expect, it } from 'vitest';
import type { ApiClient, Params } from '../../shared/client';
import { emojiCodeOfHexcode, unicodeEmojiCode } from '../emoji';
import { authOf, call, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const ALICE = 4;
const BOB = 5;
const GUEST = 6;

const { svc, alice, bob, guest } = await serviceWith(['alice', 'bob', 'guest']);
// No upload endpoint: custom emoji are seeded straight into the table.
svc.sql(
  "INSERT INTO realm_emoji (id, realm_id, name, author_id, file_name) VALUES (41, 1, 'party_parrot', 2, 'p.gif')",
);
svc.sql(
  "INSERT INTO realm_emoji (id, realm_id, name, author_id, file_name, deactivated) VALUES (42, 1, 'old_logo', 2, 'o.png', 1)",
);
const partyEmojiId = 41;
const retiredEmojiId = 42;

async function statuses(client: ApiClient): Promise<Record<string, unknown>> {
  const state = await client.request('POST', '/register', { fetch_event_types: ['user_status'] });
  await client.deleteQueue(state.queue_id as string);
  return state.user_status as Record<string, unknown>;
}

function post(client: ApiClient, params: Params) {
  return call(svc.url, 'POST', '/users/me/status', { auth: authOf(client), params });
}

describe('realm_emoji in register', () => {
  it('lists the custom emoji by id, deactivated ones included', async () => {
    const state = await alice.request('POST', '/register', { fetch_event_types: ['realm_emoji'] });
    await alice.deleteQueue(state.queue_id as string);
    expect(state.realm_emoji).toEqual({
      '41': {
        id: '41',
        name: 'party_parrot',
        source_url: '/user_uploads/emoji/41/p.gif',
        still_url: null,
        deactivated: false,
        author_id: 2,
      },
      '42': {
        id: '42',
        name: 'old_logo',
        source_url: '/user_uploads/emoji/42/o.png',
        still_url: null,
        deactivated: true,
        author_id: 2,
      },
    });
  });
});

describe('emoji data', () => {
  it('maps names to dash-separated lowercase hex codes without U+FE0F', () => {
    expect(unicodeEmojiCode('octopus')).toBe('1f419');
    expect(unicodeEmojiCode('palm_tree')).toBe('1f334');
    expect(unicodeEmojiCode('+1')).toBe('1f44d');
    expect(unicodeEmojiCode('thumbs_up')).toBe('1f44d');
    expect(unicodeEmojiCode('heart')).toBe('2764');
    expect(unicodeEmojiCode('no_such_emoji_name')).toBeUndefined();
    expect(emojiCodeOfHexcode('0023-FE0F-20E3')).toBe('0023-20e3');
  });
});

describe('POST /users/me/status errors', () => {
  const long = 'x'.repeat(61);
  const emoji = (name: string, code: string, type: string) => ({
    emoji_name: name,
    emoji_code: code,
    reaction_type: type,
  });
  const cases: [string, Params, string][] = [
    ['no parameter', {}, 'Client did not pass any new values.'],
    [
      'only emoji_code',
      { emoji_code: '1f419' },
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    ],
    [
      'only reaction_type',
      { reaction_type: 'unicode_emoji' },
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    ],
    ['status_text of 61 characters', { status_text: long }, 'status_text is too long (limit: 60 characters)'],
    [
      'emoji_code without emoji_name',
      { status_text: 'hi', emoji_code: '1f419' },
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    ],
    [
      'reaction_type without emoji_name',
      { away: false, reaction_type: 'unicode_emoji' },
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    ],
    [
      'an unknown emoji name',
      { emoji_name: 'definitely_not_emoji' },
      "Emoji 'definitely_not_emoji' does not exist",
    ],
    [
      'a name that does not match the code',
      emoji('octopus', '1f697', 'unicode_emoji'),
      'Invalid emoji name.',
    ],
    ['an unknown unicode code', emoji('octopus', 'fffff', 'unicode_emoji'), 'Invalid emoji code.'],
    ['an unknown custom emoji id', emoji('party_parrot', '999', 'realm_emoji'), 'Invalid custom emoji.'],
    [
      'a custom emoji id that is not a number',
      emoji('party_parrot', 'party_parrot', 'realm_emoji'),
      'Invalid custom emoji.',
    ],
    [
      'a custom emoji under another name',
      emoji('octopus', '41', 'realm_emoji'),
      'Invalid custom emoji name.',
    ],
    [
      'a deactivated custom emoji',
      emoji('old_logo', '42', 'realm_emoji'),
      'This custom emoji has been deactivated.',
    ],
    ['a deactivated custom emoji by name', { emoji_name: 'old_logo' }, "Emoji 'old_logo' does not exist"],
    ['an unknown extra emoji', emoji('other', 'other', 'service_extra_emoji'), 'Invalid emoji code.'],
    [
      'an extra emoji under another name',
      emoji('octopus', 'service', 'service_extra_emoji'),
      'Invalid emoji name.',
    ],
    ['an unknown reaction_type', { emoji_name: 'octopus', reaction_type: 'sticker' }, 'Invalid emoji type.'],
    ['away that is not a boolean', { away: 1 }, 'away is not a boolean'],
    ['away in Python spelling', { away: 'True' }, 'away is not valid JSON'],
    ['a NUL in status_text', { status_text: 'a\u0000b' }, 'status_text contains NULL (0x00) characters.'],
  ];

  it.each(cases)('rejects %s with its exact message and changes nothing', async (_name, params, msg) => {
    const before = await statuses(alice);
    const r = await post(alice, params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    expect(await statuses(alice)).toEqual(before);
  });

  it('needs credentials', async () => {
    const r = await call(svc.url, 'POST', '/users/me/status', { params: { status_text: 'x' } });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });
});

describe('POST /users/me/status', () => {
  it('sets text and an emoji given by name only; everyone gets a user_status event', async () => {
    const { events, states } = await verifyAction({
      clients: [alice, bob, guest],
      action: () =>
        alice.request('POST', '/users/me/status', { status_text: ' In a meeting ', emoji_name: 'octopus' }),
    });
    const expected = {
      type: 'user_status',
      user_id: ALICE,
      status_text: 'In a meeting',
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
      id: expect.any(Number),
    };
    for (const got of events) expect(got).toEqual([expected]);
    expect((states[1]?.user_status as Record<string, unknown> | undefined)?.[String(ALICE)]).toEqual({
      status_text: 'In a meeting',
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
    });
  });

  it('changes only what was passed: the text alone keeps the emoji', async () => {
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('POST', '/users/me/status', { status_text: 'x'.repeat(60) }),
    });
    expect(events[1]).toEqual([
      { type: 'user_status', user_id: ALICE, status_text: 'x'.repeat(60), id: expect.any(Number) },
    ]);
    expect((await statuses(bob))[String(ALICE)]).toEqual({
      status_text: 'x'.repeat(60),
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
    });
  });

  it('accepts a full unicode triple, and an empty emoji_name clears the emoji', async () => {
    await alice.request('POST', '/users/me/status', {
      emoji_name: 'heart',
      emoji_code: '2764',
      reaction_type: 'unicode_emoji',
    });
    expect((await statuses(bob))[String(ALICE)]).toMatchObject({ emoji_name: 'heart', emoji_code: '2764' });
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('POST', '/users/me/status', { emoji_name: '', emoji_code: '2764' }),
    });
    expect(events[1]).toEqual([
      {
        type: 'user_status',
        user_id: ALICE,
        emoji_name: '',
        emoji_code: '',
        reaction_type: 'unicode_emoji',
        id: expect.any(Number),
      },
    ]);
    expect((await statuses(bob))[String(ALICE)]).toEqual({ status_text: 'x'.repeat(60) });
  });

  it('an empty status_text clears the text (and an empty status disappears)', async () => {
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('POST', '/users/me/status', { status_text: '' }),
    });
    expect(events[0]).toEqual([
      { type: 'user_status', user_id: ALICE, status_text: '', id: expect.any(Number) },
    ]);
    expect(await statuses(bob)).not.toHaveProperty(String(ALICE));
  });

  it('uses the organization’s custom emoji, by name or by id', async () => {
    const { events } = await verifyAction({
      clients: [bob],
      action: () => guest.request('POST', '/users/me/status', { emoji_name: 'party_parrot' }),
    });
    expect(events[0]).toEqual([
      {
        type: 'user_status',
        user_id: GUEST,
        emoji_name: 'party_parrot',
        emoji_code: String(partyEmojiId),
        reaction_type: 'realm_emoji',
        id: expect.any(Number),
      },
    ]);
    await guest.request('POST', '/users/me/status', {
      emoji_name: 'party_parrot',
      emoji_code: String(partyEmojiId),
      reaction_type: 'realm_emoji',
    });
    expect((await statuses(bob))[String(GUEST)]).toMatchObject({ reaction_type: 'realm_emoji' });
    expect(retiredEmojiId).toBe(42);
  });

  it('uses the service’s extra emoji', async () => {
    await verifyAction({
      clients: [alice, guest],
      action: () => guest.request('POST', '/users/me/status', { emoji_name: 'service' }),
    });
    expect((await statuses(alice))[String(GUEST)]).toEqual({
      emoji_name: 'service',
      emoji_code: 'service',
      reaction_type: 'service_extra_emoji',
    });
  });

  it('away is the inverse of presence_enabled', async () => {
    const { events, states } = await verifyAction({
      clients: [alice, bob],
      // The presence update counter moves; no event carries it.
      ignoreKeys: ['presence_last_update_id'],
      action: () => alice.request('POST', '/users/me/status', { away: true }),
    });
    // Everyone sees Alice offline at once, as when presence_enabled is turned off directly.
    const offline = {
      type: 'presence',
      user_id: ALICE,
      email: svc.demo.users.alice,
      server_timestamp: expect.any(Number),
      presence: {
        website: { client: 'website', status: 'idle', timestamp: expect.any(Number), pushable: false },
      },
      id: expect.any(Number),
    };
    expect(events[0]).toEqual([
      {
        type: 'user_settings',
        op: 'update',
        property: 'presence_enabled',
        value: false,
        id: expect.any(Number),
      },
      offline,
      { type: 'user_status', user_id: ALICE, away: true, id: expect.any(Number) },
    ]);
    expect(events[1]).toEqual([
      offline,
      { type: 'user_status', user_id: ALICE, away: true, id: expect.any(Number) },
    ]);
    expect((states[0]?.user_settings as Record<string, unknown> | undefined)?.presence_enabled).toBe(false);
    expect((states[1]?.user_status as Record<string, unknown> | undefined)?.[String(ALICE)]).toEqual({
      away: true,
    });

    // Legacy clients hear about the setting the legacy way.
    const legacy = await verifyAction({
      clients: [alice],
      registerParams: { event_types: ['update_global_notifications', 'user_status'] },
      action: () => alice.request('POST', '/users/me/status', { away: false }),
    });
    expect(legacy.events[0]).toEqual([
      {
        type: 'update_global_notifications',
        user: svc.demo.users.alice,
        notification_name: 'presence_enabled',
        setting: true,
        id: expect.any(Number),
      },
      { type: 'user_status', user_id: ALICE, away: false, id: expect.any(Number) },
    ]);
    expect(await statuses(bob)).not.toHaveProperty(String(ALICE));
  });

  it('keeps Bob’s demo status for others to see', async () => {
    expect((await statuses(alice))[String(BOB)]).toEqual({
      status_text: 'On vacation',
      emoji_name: 'palm_tree',
      emoji_code: '1f334',
      reaction_type: 'unicode_emoji',
    });
  });
});
