/**
 * An administrator's user management (issue 8): PATCH /users/{user_id} (name, role, profile
 * data), DELETE /users/{user_id} (deactivation) and POST /users/{user_id}/reactivate, with
 * their realm_user / user_group events checked by verify-action and the family's errors.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, query, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

// Demo ids: owner 1, admin 2, moderator 3, alice 4, bob 5, guest 6, webhook bot 7.
const OWNER = 1;
const ADMIN = 2;
const ALICE = 4;
const BOB = 5;
const GUEST = 6;
const BOT = 7;

const { svc, owner, admin, alice, bob, guest } = await serviceWith([
  'owner',
  'admin',
  'alice',
  'bob',
  'guest',
]);

function patchUser(client: ApiClient, userId: number | string, params: Record<string, string>) {
  return call(svc.url, 'PATCH', `/users/${userId}`, { auth: authOf(client), params });
}
function deactivate(client: ApiClient, userId: number | string, params: Record<string, string> = {}) {
  return call(svc.url, 'DELETE', `/users/${userId}`, { auth: authOf(client), params });
}

/** The emails the service wrote to its outbox, as text. */
function outbox(): string[] {
  const dir = join(svc.dataDir, 'outbox');
  return existsSync(dir)
    ? readdirSync(dir)
        .sort()
        .map((name) => readFileSync(join(dir, name), 'utf8'))
    : [];
}
function reactivate(client: ApiClient, userId: number | string) {
  return call(svc.url, 'POST', `/users/${userId}/reactivate`, { auth: authOf(client) });
}

function expectError(r: RawResponse, msg: string, code = 'BAD_REQUEST', status = 400): void {
  expect({ status: r.status, body: r.body }).toEqual({ status, body: { result: 'error', msg, code } });
}

const usersRows = () => query(svc, 'SELECT id, full_name, role, is_active FROM users ORDER BY id');
const profileRows = () => query(svc, 'SELECT * FROM custom_profile_field_values ORDER BY user_id, field_id');

async function fieldId(name: string): Promise<number> {
  const r = await alice.request('GET', '/realm/profile_fields');
  const field = (r.custom_fields as { id: number; name: string }[]).find((f) => f.name === name);
  if (!field) throw new Error(`no field ${name}`);
  return field.id;
}

async function systemGroupId(name: string): Promise<number> {
  const r = await alice.request('GET', '/user_groups');
  const group = (r.user_groups as { id: number; name: string }[]).find((g) => g.name === name);
  if (!group) throw new Error(`no group ${name}`);
  return group.id;
}

describe('PATCH /users/{user_id}', () => {
  it("changes another user's name: realm_user update to everyone", async () => {
    const { events, result } = await verifyAction({
      clients: [alice, guest],
      action: () => patchUser(admin, BOB, { full_name: '  Robert Smith ' }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    for (const got of events) {
      expect(got).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: BOB, full_name: 'Robert Smith' }, id: 0 },
      ]);
    }
    const r = await alice.request('GET', `/users/${BOB}`);
    expect((r.user as { full_name: string }).full_name).toBe('Robert Smith');
  });

  it('changes a role: realm_user update and the system groups left and joined', async () => {
    const moderators = await systemGroupId('role:moderators');
    const { events, result } = await verifyAction({
      clients: [bob, guest],
      action: () => patchUser(owner, ALICE, { role: '300' }),
    });
    expect(result.status).toBe(200);
    for (const got of events) {
      expect(got).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: ALICE, role: 300 }, id: 0 },
        { type: 'user_group', op: 'add_members', group_id: moderators, user_ids: [ALICE], id: 1 },
      ]);
    }
    // And back: she leaves the moderators.
    const back = await verifyAction({
      clients: [bob],
      action: () => patchUser(admin, ALICE, { role: '400' }),
    });
    expect(back.events[0]).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: ALICE, role: 400 }, id: 0 },
      { type: 'user_group', op: 'remove_members', group_id: moderators, user_ids: [ALICE], id: 1 },
    ]);
  });

  it('sets and clears profile field values (null or empty clears)', async () => {
    const title = await fieldId('Job title');
    const pronouns = await fieldId('Pronouns');
    const { events } = await verifyAction({
      clients: [alice],
      action: () =>
        patchUser(admin, BOB, {
          profile_data: JSON.stringify([
            { id: title, value: 'Head of *design*' },
            { id: pronouns, value: null },
          ]),
        }),
    });
    expect(events[0]).toEqual([
      {
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: BOB,
          custom_profile_field: {
            id: title,
            value: 'Head of *design*',
            rendered_value: '<p>Head of <em>design</em></p>',
          },
        },
        id: 0,
      },
      {
        type: 'realm_user',
        op: 'update',
        person: { user_id: BOB, custom_profile_field: { id: pronouns, value: null } },
        id: 1,
      },
    ]);
  });

  it('a blank name, an unchanged role and no parameters change nothing', async () => {
    const before = usersRows();
    const requests: Record<string, string>[] = [{ full_name: '   ' }, { role: '400' }, {}];
    for (const params of requests) {
      const r = await patchUser(admin, BOB, params);
      expect(r.status).toBe(200);
    }
    expect(usersRows()).toEqual(before);
  });

  it("renames a bot: realm_user update to everyone, realm_bot update to the bot's administrators", async () => {
    const { events } = await verifyAction({
      clients: [admin, alice],
      action: () => patchUser(admin, BOT, { full_name: 'Hook Bot' }),
    });
    const nameEvent = {
      type: 'realm_user',
      op: 'update',
      person: { user_id: BOT, full_name: 'Hook Bot' },
      id: 0,
    };
    expect(events[0]).toEqual([
      nameEvent,
      { type: 'realm_bot', op: 'update', bot: { user_id: BOT, full_name: 'Hook Bot' }, id: 1 },
    ]);
    expect(events[1]).toEqual([nameEvent]);
    expect(query(svc, 'SELECT full_name FROM users WHERE id = ?', BOT)).toEqual([{ full_name: 'Hook Bot' }]);
  });

  // [label, who, user id, params, msg, code]: each changes nothing.
  const rows: [string, () => ApiClient, number | string, Record<string, string>, string, string?][] = [
    [
      'a member',
      () => alice,
      BOB,
      { full_name: 'X' },
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    ],
    ['a guest', () => guest, BOB, {}, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'],
    [
      'an admin making an owner',
      () => admin,
      BOB,
      { role: '100' },
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    ],
    [
      'an admin demoting the owner',
      () => admin,
      OWNER,
      { role: '200' },
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    ],
    [
      'the only owner stepping down',
      () => owner,
      OWNER,
      { role: '200' },
      'The owner permission cannot be removed from the only organization owner.',
    ],
    ['an unknown user', () => admin, 987654, { full_name: 'X' }, 'No such user'],
    ['a role outside the roles', () => admin, BOB, { role: '500' }, 'Invalid role'],
    ['a long name', () => admin, BOB, { full_name: 'x'.repeat(101) }, 'Name too long!'],
    [
      'a name with forbidden characters',
      () => admin,
      BOB,
      { full_name: 'a@b' },
      'Invalid characters in name!',
    ],
    [
      'an unknown field',
      () => admin,
      BOB,
      { profile_data: '[{"id": 999, "value": "x"}]' },
      'Field id 999 not found.',
    ],
    [
      'a bad value, with a good name',
      () => admin,
      BOB,
      { full_name: 'Yves', profile_data: '[{"id": 1, "value": 5}]' },
      'Job title is not a string',
    ],
    ['a path that is no id', () => admin, 'abc', {}, 'user_id is not an integer'],
  ];
  it.each(rows)('refuses %s', async (_label, who, userId, params, msg, code) => {
    const before = [usersRows(), profileRows()];
    expectError(await patchUser(who(), userId, params), msg, code);
    expect([usersRows(), profileRows()]).toEqual(before);
  });
});

describe('DELETE /users/{user_id} and POST /users/{user_id}/reactivate', () => {
  let droppedQueue = '';
  it("deactivates: realm_user remove to everyone, the key stops working, the user's polls end", async () => {
    const queue = await bob.request('POST', '/register', { event_types: ['message'] });
    droppedQueue = queue.queue_id as string;
    const poll = call(svc.url, 'GET', '/events', {
      auth: authOf(bob),
      params: { queue_id: queue.queue_id as string, last_event_id: -1 },
    });
    await svc.service.events.whenWaiting(queue.queue_id as string);
    const { events, result } = await verifyAction({
      clients: [alice, guest],
      action: () => deactivate(admin, BOB),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    for (const got of events) {
      expect(got).toEqual([
        { type: 'realm_user', op: 'remove', person: { user_id: BOB, full_name: 'Robert Smith' }, id: 0 },
      ]);
    }
    // The waiting poll ends at once (long before any heartbeat) with the error every further
    // request gets, not with an empty success a client would take as "poll again".
    const ended = await Promise.race([
      poll,
      new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 2000)),
    ]);
    if (ended === 'still waiting') throw new Error('the poll is still waiting');
    expectError(ended, 'Account is deactivated', 'UNAUTHORIZED', 401);
    expect(ended.headers.get('www-authenticate')).toBe('Basic realm="Confab"');
    const after = await call(svc.url, 'GET', '/events', {
      auth: authOf(bob),
      params: { queue_id: queue.queue_id as string, last_event_id: -1 },
    });
    expectError(after, 'Account is deactivated', 'UNAUTHORIZED', 401);
    expect(after.headers.get('www-authenticate')).toBe(ended.headers.get('www-authenticate'));
    expectError(
      await call(svc.url, 'GET', '/users/me', { auth: authOf(bob) }),
      'Account is deactivated',
      'UNAUTHORIZED',
      401,
    );
  });

  it('refuses to deactivate a deactivated user, a bot, the owner (admins), the only owner', async () => {
    expectError(await deactivate(admin, BOB), 'User is deactivated');
    expectError(await deactivate(admin, BOT), 'No such user');
    expectError(await deactivate(admin, 987654), 'No such user');
    expectError(await deactivate(admin, OWNER), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await deactivate(owner, OWNER), 'Cannot deactivate the only organization owner');
    expectError(
      await deactivate(alice, BOB),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectError(
      await deactivate(guest, ALICE),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectError(
      await deactivate(admin, ALICE, { deactivation_notification_comment: 'x'.repeat(2001) }),
      'deactivation_notification_comment is too long (limit: 2000 characters)',
    );
    expect(query(svc, 'SELECT COUNT(*) AS n FROM users WHERE is_active = 0')).toEqual([{ n: 1 }]);
  });

  it('reactivates: realm_user add, the groups, subscriptions and status come back', async () => {
    const { events, result } = await verifyAction({
      clients: [alice, guest],
      action: () => reactivate(admin, BOB),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    const types = events[0]?.map((e) => `${e.type} ${String(e.op ?? '')}`);
    expect(types?.[0]).toBe('realm_user add');
    expect(types).toContain('user_group add_members');
    expect(types).toContain('subscription peer_add');
    expect(types).toContain('user_status ');
    const me = await bob.request('GET', '/users/me');
    expect(me.user_id).toBe(BOB);
    // The queues deactivation dropped stay gone.
    expect(droppedQueue).not.toBe('');
    const old = await call(svc.url, 'GET', '/events', {
      auth: authOf(bob),
      params: { queue_id: droppedQueue, last_event_id: -1, dont_block: true },
    });
    expect(old.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('a role change of a deactivated user: realm_user update only', async () => {
    svc.sql('UPDATE users SET is_active = 0 WHERE id = ?', GUEST);
    try {
      const { events } = await verifyAction({
        clients: [alice],
        action: () => patchUser(admin, GUEST, { role: '400' }),
      });
      expect(events[0]).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: GUEST, role: 400 }, id: 0 },
      ]);
    } finally {
      svc.sql('UPDATE users SET is_active = 1, role = 600 WHERE id = ?', GUEST);
    }
  });

  it('refuses to reactivate an active user, and non-administrators', async () => {
    expectError(await reactivate(admin, BOB), 'User is already active.');
    expectError(await reactivate(admin, 987654), 'No such user');
    expectError(
      await reactivate(alice, BOB),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
  });
});

describe('bots', () => {
  const botOwner = () =>
    query<{ bot_owner_id: number }>(svc, 'SELECT bot_owner_id FROM users WHERE id = ?', BOT)[0]?.bot_owner_id;

  it("GET /bots: the requester's active bots", async () => {
    expect(botOwner()).toBe(ADMIN);
    const mine = await admin.request('GET', '/bots');
    expect(mine.bots).toEqual([
      {
        username: expect.stringContaining('@'),
        user_id: BOT,
        full_name: 'Hook Bot',
        api_key: svc.demo.webhook_bot.api_key,
        avatar_url: expect.any(String),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      },
    ]);
    expect((await owner.request('GET', '/bots')).bots).toEqual([]);
    expect((await alice.request('GET', '/bots')).bots).toEqual([]);
  });

  it("register's realm_bots: every bot for administrators, their own for others", async () => {
    const forAdmin = await admin.request('POST', '/register', { fetch_event_types: ['realm_bot'] });
    expect(forAdmin.realm_bots).toEqual([
      expect.objectContaining({ user_id: BOT, owner_id: ADMIN, is_active: true, bot_type: 2, services: [] }),
    ]);
    const forOwner = await owner.request('POST', '/register', { fetch_event_types: ['realm_bot'] });
    expect(forOwner.realm_bots).toEqual(forAdmin.realm_bots);
    const forAlice = await alice.request('POST', '/register', { fetch_event_types: ['realm_bot'] });
    expect(forAlice.realm_bots).toEqual([]);
  });
});

describe('GET /users/{user_id}/status', () => {
  const status = (userId: number | string) =>
    call(svc.url, 'GET', `/users/${userId}/status`, { auth: authOf(alice) });

  it("answers the user's status, or an empty object", async () => {
    const r = await status(BOB);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      status: {
        status_text: 'On vacation',
        emoji_name: 'palm_tree',
        emoji_code: expect.any(String),
        reaction_type: 'unicode_emoji',
      },
    });
    expect((await status(ALICE)).body.status).toEqual({});
  });

  it('refuses bots, unknown and deactivated users', async () => {
    expectError(await status(BOT), 'No such user');
    expectError(await status(987654), 'No such user');
    expectError(await status('x'), 'user_id is not an integer');
    svc.sql('UPDATE users SET is_active = 0 WHERE id = ?', GUEST);
    try {
      expectError(await status(GUEST), 'User is deactivated');
    } finally {
      svc.sql('UPDATE users SET is_active = 1 WHERE id = ?', GUEST);
    }
  });
});

describe("deactivating a bot's owner", () => {
  it('deactivates their bots too: realm_user and realm_bot remove; reactivation brings each back', async () => {
    const mails = outbox().length;
    const off = await verifyAction({
      clients: [owner, alice],
      action: () => deactivate(owner, ADMIN, { deactivation_notification_comment: 'Thanks for everything' }),
    });
    expect(off.result.status).toBe(200);
    expect(off.events[0]).toEqual([
      { type: 'realm_user', op: 'remove', person: { user_id: ADMIN, full_name: expect.any(String) }, id: 0 },
      { type: 'realm_user', op: 'remove', person: { user_id: BOT, full_name: 'Hook Bot' }, id: 1 },
      { type: 'realm_bot', op: 'remove', bot: { user_id: BOT, full_name: 'Hook Bot' }, id: 2 },
    ]);
    expect(off.events[1]?.map((e) => e.type)).toEqual(['realm_user', 'realm_user']);
    expect(query(svc, 'SELECT is_active FROM users WHERE id = ?', BOT)).toEqual([{ is_active: 0 }]);
    // The notification the owner asked for, with the comment.
    const mail = outbox().slice(mails);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toContain(`To: ${svc.demo.users.admin}`);
    expect(mail[0]).toContain('Subject: Notification of account deactivation on');
    expect(mail[0]).toContain('Thanks for everything');

    expect((await reactivate(owner, ADMIN)).status).toBe(200);
    const bot = await verifyAction({ clients: [owner, admin], action: () => reactivate(owner, BOT) });
    expect(bot.result.status).toBe(200);
    for (const got of bot.events) {
      expect(got.map((e) => `${e.type} ${String(e.op)}`)).toEqual(['realm_user add', 'realm_bot add']);
    }
  });
});
