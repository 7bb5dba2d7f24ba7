/**
 * Editing user groups (issue 8): PATCH /user_groups/{id} (name, description), POST and GET
 * /user_groups/{id}/members, POST /user_groups/{id}/deactivate; user_group events through
 * verify-action and the family's errors.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, query, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

// Demo ids: owner 1, admin 2, moderator 3, alice 4, bob 5, guest 6, webhook bot 7.
// The demo group engineering-team: admin, moderator and alice.
const OWNER = 1;
const ADMIN = 2;
const MODERATOR = 3;
const ALICE = 4;
const BOB = 5;
const GUEST = 6;

const { svc, admin, alice, bob, guest } = await serviceWith(['admin', 'alice', 'bob', 'guest']);

function send(client: ApiClient, method: string, path: string, params: Record<string, string> = {}) {
  return call(svc.url, method, path, { auth: authOf(client), params });
}

function expectError(r: RawResponse, msg: string, code = 'BAD_REQUEST'): void {
  expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { result: 'error', msg, code } });
}

async function groupId(name: string): Promise<number> {
  const r = await alice.request('GET', '/user_groups');
  const group = (r.user_groups as { id: number; name: string }[]).find((g) => g.name === name);
  if (!group) throw new Error(`no group ${name}`);
  return group.id;
}

const groupRows = () => query(svc, 'SELECT * FROM user_groups ORDER BY id');
const memberRows = () => query(svc, 'SELECT * FROM user_group_members ORDER BY group_id, user_id');

const engineering = await groupId('engineering-team');
const administrators = await groupId('role:administrators');

describe('PATCH /user_groups/{user_group_id}', () => {
  it('a member renames the group and changes its description: one update event per field', async () => {
    const { events, states } = await verifyAction({
      clients: [bob, guest],
      action: () =>
        send(alice, 'PATCH', `/user_groups/${engineering}`, { name: 'engineers', description: 'Builders' }),
    });
    for (const got of events) {
      expect(got).toEqual([
        { type: 'user_group', op: 'update', group_id: engineering, data: { name: 'engineers' }, id: 0 },
        { type: 'user_group', op: 'update', group_id: engineering, data: { description: 'Builders' }, id: 1 },
      ]);
    }
    expect(states[0]?.realm_user_groups).toContainEqual(
      expect.objectContaining({ id: engineering, name: 'engineers', description: 'Builders' }),
    );
  });

  it('the same values, or a change of case of its own name, are no conflict', async () => {
    const same = await send(alice, 'PATCH', `/user_groups/${engineering}`, { name: 'Engineers' });
    expect(same.status).toBe(200);
    expect(await groupId('Engineers')).toBe(engineering);
  });

  const rows: [string, () => ApiClient, () => number | string, Record<string, string>, string][] = [
    ['a non-member', () => bob, () => engineering, { name: 'x-team' }, 'Insufficient permission'],
    ['a guest', () => guest, () => engineering, { name: 'x-team' }, 'Insufficient permission'],
    ['a system group', () => admin, () => administrators, { name: 'x-team' }, 'Insufficient permission'],
    ['an unknown group', () => alice, () => 987654, { name: 'x-team' }, 'Invalid user group'],
    ['no data', () => alice, () => engineering, {}, 'No new data supplied'],
    [
      'a system-group-like name',
      () => alice,
      () => engineering,
      { name: 'role:admins' },
      "User group name cannot start with 'role:'.",
    ],
    [
      'a mention-like name',
      () => alice,
      () => engineering,
      { name: '@x' },
      "User group name cannot start with '@'.",
    ],
    ['an empty name', () => alice, () => engineering, { name: ' ' }, "User group name can't be empty!"],
    ['a path that is no id', () => alice, () => 'x', { name: 'n' }, 'user_group_id is not an integer'],
  ];
  it.each(rows)('refuses %s', async (_label, who, id, params, msg) => {
    const before = groupRows();
    expectError(await send(who(), 'PATCH', `/user_groups/${id()}`, params), msg);
    expect(groupRows()).toEqual(before);
  });

  it("refuses another group's name", async () => {
    const other = await send(alice, 'POST', '/user_groups/create', {
      name: 'designers',
      description: '',
      members: `[${ALICE}]`,
    });
    expect(other.status).toBe(200);
    expectError(
      await send(alice, 'PATCH', `/user_groups/${engineering}`, { name: 'Designers' }),
      "User group 'Designers' already exists.",
    );
  });
});

describe('/user_groups/{user_group_id}/members', () => {
  it('adds and removes members: add_members then remove_members', async () => {
    const { events } = await verifyAction({
      clients: [bob, guest],
      action: () =>
        send(alice, 'POST', `/user_groups/${engineering}/members`, {
          add: JSON.stringify([BOB, BOB]),
          delete: JSON.stringify([ADMIN]),
        }),
    });
    for (const got of events) {
      expect(got).toEqual([
        { type: 'user_group', op: 'add_members', group_id: engineering, user_ids: [BOB], id: 0 },
        { type: 'user_group', op: 'remove_members', group_id: engineering, user_ids: [ADMIN], id: 1 },
      ]);
    }
    const r = await send(guest, 'GET', `/user_groups/${engineering}/members`);
    expect(r.body).toEqual({ result: 'success', msg: '', members: [MODERATOR, ALICE, BOB] });
  });

  it('GET answers the members of system groups by role', async () => {
    const r = await send(bob, 'GET', `/user_groups/${administrators}/members`);
    expect(r.body.members).toEqual([OWNER, ADMIN]);
    const direct = await send(bob, 'GET', `/user_groups/${administrators}/members`, {
      direct_member_only: 'true',
    });
    expect(direct.body.members).toEqual([OWNER, ADMIN]);
    expectError(await send(bob, 'GET', '/user_groups/987654/members'), 'Invalid user group');
  });

  const rows: [string, () => ApiClient, Record<string, string>, string][] = [
    [
      'an existing member',
      () => alice,
      { add: `[${ALICE}]` },
      `User ${ALICE} is already a member of this group`,
    ],
    [
      'a non-member removed',
      () => alice,
      { delete: `[${GUEST}]` },
      `There is no member '${GUEST}' in this user group`,
    ],
    ['an unknown user', () => alice, { add: '[999]' }, 'Invalid user ID: 999'],
    [
      'nothing to do',
      () => alice,
      { add: '[]' },
      'Nothing to do. Specify at least one of "add" or "delete".',
    ],
    ['a guest', () => guest, { add: `[${GUEST}]` }, 'Insufficient permission'],
  ];
  it.each(rows)('refuses %s', async (_label, who, params, msg) => {
    const before = memberRows();
    expectError(await send(who(), 'POST', `/user_groups/${engineering}/members`, params), msg);
    expect(memberRows()).toEqual(before);
  });

  it('moderators may edit groups they are not in', async () => {
    const { events } = await verifyAction({
      clients: [bob],
      action: async () => {
        const moderator = await svc.login('moderator');
        return send(moderator, 'POST', `/user_groups/${engineering}/members`, { add: `[${OWNER}]` });
      },
    });
    expect(events[0]).toEqual([
      { type: 'user_group', op: 'add_members', group_id: engineering, user_ids: [OWNER], id: 0 },
    ]);
  });
});

describe('POST /user_groups/{user_group_id}/deactivate', () => {
  it('deactivates: user_group remove to everyone, and the group leaves every list', async () => {
    const designers = await groupId('designers');
    const { events, result } = await verifyAction({
      clients: [bob, guest],
      action: () => send(alice, 'POST', `/user_groups/${designers}/deactivate`),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    for (const got of events)
      expect(got).toEqual([{ type: 'user_group', op: 'remove', group_id: designers, id: 0 }]);
    const list = await alice.request('GET', '/user_groups');
    expect((list.user_groups as { id: number }[]).map((g) => g.id)).not.toContain(designers);
    expectError(await send(alice, 'POST', `/user_groups/${designers}/deactivate`), 'Invalid user group');
    expectError(await send(alice, 'GET', `/user_groups/${designers}/members`), 'Invalid user group');
    // Its name stays taken.
    expectError(
      await send(alice, 'POST', '/user_groups/create', { name: 'designers', description: '', members: '[]' }),
      "User group 'designers' already exists.",
    );
  });

  it('refuses a group a stream permission uses, naming the objections', async () => {
    const general = query<{ id: number }>(svc, "SELECT id FROM streams WHERE name = 'general'")[0]?.id;
    const previous = query<{ g: number }>(
      svc,
      'SELECT can_remove_subscribers_group_id AS g FROM streams WHERE id = ?',
      general,
    )[0]?.g;
    svc.sql('UPDATE streams SET can_remove_subscribers_group_id = ? WHERE id = ?', engineering, general);
    try {
      const r = await send(alice, 'POST', `/user_groups/${engineering}/deactivate`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        result: 'error',
        msg: 'Cannot deactivate user group in use.',
        code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
        objections: [{ type: 'channel', channel_id: general, settings: ['can_remove_subscribers_group'] }],
      });
    } finally {
      svc.sql('UPDATE streams SET can_remove_subscribers_group_id = ? WHERE id = ?', previous, general);
    }
  });

  it('refuses system groups and guests', async () => {
    expectError(
      await send(admin, 'POST', `/user_groups/${administrators}/deactivate`),
      'Insufficient permission',
    );
    expectError(
      await send(guest, 'POST', `/user_groups/${engineering}/deactivate`),
      'Insufficient permission',
    );
    expect(query(svc, 'SELECT deactivated FROM user_groups WHERE id = ?', engineering)).toEqual([
      { deactivated: 0 },
    ]);
  });
});

describe('user_group_edit_policy', () => {
  const setPolicy = async (value: number) =>
    expect(
      (await send(admin, 'PATCH', '/realm', { user_group_edit_policy: String(value) })).body,
    ).toMatchObject({
      result: 'success',
    });

  it('"administrators only" stops members creating and editing groups, and changes nothing', async () => {
    await setPolicy(2);
    try {
      const before = { groups: groupRows(), members: memberRows() };
      expectError(
        await send(alice, 'POST', '/user_groups/create', {
          name: 'policy-blocked',
          description: 'no',
          members: '[]',
        }),
        'Insufficient permission',
      );
      // Alice is in engineering-team, which would let her edit it under the default policy.
      expectError(
        await send(alice, 'PATCH', `/user_groups/${engineering}`, { description: 'blocked' }),
        'Insufficient permission',
      );
      expectError(
        await send(alice, 'POST', `/user_groups/${engineering}/members`, { add: `[${BOB}]` }),
        'Insufficient permission',
      );
      expectError(
        await send(alice, 'POST', `/user_groups/${engineering}/deactivate`),
        'Insufficient permission',
      );
      expect({ groups: groupRows(), members: memberRows() }).toEqual(before);
      // Administrators still may.
      const r = await send(admin, 'PATCH', `/user_groups/${engineering}`, { description: 'by an admin' });
      expect(r.body).toEqual({ result: 'success', msg: '' });
    } finally {
      await setPolicy(1);
    }
  });

  it('"moderators and above" stops a member in the group, and lets an administrator create one', async () => {
    await setPolicy(4);
    try {
      expectError(
        await send(alice, 'PATCH', `/user_groups/${engineering}`, { description: 'alice' }),
        'Insufficient permission',
      );
      const created = await send(admin, 'POST', '/user_groups/create', {
        name: 'moderated',
        description: '',
        members: `[${ADMIN}]`,
      });
      expect(created.body).toMatchObject({ result: 'success' });
    } finally {
      await setPolicy(1);
    }
  });
});
