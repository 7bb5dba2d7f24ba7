/** User groups: POST /user_groups/create, GET /user_groups, user_group add events. */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

// Demo ids: owner 1, admin 2, moderator 3, alice 4, bob 5, guest 6, webhook bot 7.
const ALICE = 4;
const BOB = 5;
const BOT = 7;

const { svc, alice, bob, guest, admin } = await serviceWith(['alice', 'bob', 'guest', 'admin']);

function create(client: ApiClient, params: Record<string, string>): Promise<RawResponse> {
  return call(svc.url, 'POST', '/user_groups/create', { auth: authOf(client), params });
}

async function groups(): Promise<Record<string, unknown>[]> {
  const r = await call(svc.url, 'GET', '/user_groups', { auth: authOf(alice) });
  expect(r.status).toBe(200);
  return r.body.user_groups as Record<string, unknown>[];
}

describe('POST /user_groups/create', () => {
  it('creates the group and sends a user_group add event to everyone', async () => {
    const { events, result, states } = await verifyAction({
      clients: [alice, bob, guest],
      action: () =>
        create(alice, {
          name: 'backend',
          description: 'Backend team',
          members: JSON.stringify([BOB, ALICE, BOB]),
        }),
    });
    const id = result.body.group_id as number;
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ result: 'success', msg: '', group_id: expect.any(Number) });
    const group = {
      id,
      name: 'backend',
      description: 'Backend team',
      members: [ALICE, BOB],
      is_system_group: false,
    };
    for (const got of events) expect(got).toEqual([{ type: 'user_group', op: 'add', group, id: 0 }]);
    expect(states[2]?.realm_user_groups).toContainEqual(group);
    expect(await groups()).toContainEqual(group);
  });

  it('accepts an empty group, and bots as members', async () => {
    const r = await create(bob, { name: 'robots', description: '', members: JSON.stringify([BOT]) });
    expect(r.status).toBe(200);
    expect(await groups()).toContainEqual(
      expect.objectContaining({ id: r.body.group_id, name: 'robots', description: '', members: [BOT] }),
    );
    const empty = await create(admin, { name: 'nobody yet', description: 'd', members: '[]' });
    expect(empty.status).toBe(200);
  });

  const valid = { name: 'frontend', description: 'Frontend team', members: JSON.stringify([ALICE]) };
  // [label, who, params, status, msg, code]: each changes nothing.
  const rows: [string, () => ApiClient, Record<string, string>, string, string?][] = [
    ['an unknown member', () => alice, { ...valid, members: '[4, 999]' }, 'Invalid user ID: 999'],
    ['a guest', () => guest, valid, 'Insufficient permission'],
    ['a guest, even with bad input', () => guest, {}, 'Insufficient permission'],
    ['a taken name', () => alice, { ...valid, name: 'Backend' }, "User group 'Backend' already exists."],
    [
      'a system group name',
      () => alice,
      { ...valid, name: 'role:members' },
      "User group name cannot start with 'role:'.",
    ],
    [
      'a mention-like name',
      () => alice,
      { ...valid, name: '@team' },
      "User group name cannot start with '@'.",
    ],
    ['an empty name', () => alice, { ...valid, name: '  ' }, "User group name can't be empty!"],
    [
      'a long name',
      () => alice,
      { ...valid, name: 'x'.repeat(101) },
      'User group name cannot exceed 100 characters.',
    ],
    [
      'a long description',
      () => alice,
      { ...valid, description: 'x'.repeat(1025) },
      'User group description cannot exceed 1024 characters.',
    ],
    [
      'a null byte in the name',
      () => alice,
      { ...valid, name: 'a\u0000b' },
      'User group name must not contain null bytes',
    ],
    ['members not JSON', () => alice, { ...valid, members: '4,5' }, 'members is not valid JSON'],
    ['members not a list', () => alice, { ...valid, members: '{}' }, 'members is not a list'],
    [
      'a member id not an integer',
      () => alice,
      { ...valid, members: '[4.5]' },
      'members[0] is not an integer',
    ],
    [
      'no name',
      () => alice,
      { description: 'd', members: '[]' },
      "Missing 'name' argument",
      'REQUEST_VARIABLE_MISSING',
    ],
    [
      'no description',
      () => alice,
      { name: 'n', members: '[]' },
      "Missing 'description' argument",
      'REQUEST_VARIABLE_MISSING',
    ],
    [
      'no members',
      () => alice,
      { name: 'n', description: 'd' },
      "Missing 'members' argument",
      'REQUEST_VARIABLE_MISSING',
    ],
  ];
  it.each(rows)('refuses %s', async (_label, who, params, msg, code = 'BAD_REQUEST') => {
    const before = await groups();
    const r = await create(who(), params);
    const varName = /Missing '(\w+)'/.exec(msg)?.[1];
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg, code, ...(varName ? { var_name: varName } : {}) },
    });
    expect(await groups()).toEqual(before);
  });

  it('refuses a deactivated user as a member', async () => {
    svc.sql('UPDATE users SET is_active = 0 WHERE id = ?', BOB);
    try {
      const r = await create(alice, { name: 'with bob', description: '', members: JSON.stringify([BOB]) });
      expect(r.body).toEqual({ result: 'error', msg: `Invalid user ID: ${BOB}`, code: 'BAD_REQUEST' });
    } finally {
      svc.sql('UPDATE users SET is_active = 1 WHERE id = ?', BOB);
    }
  });

  it('requires authentication', async () => {
    const r = await call(svc.url, 'POST', '/user_groups/create', { params: valid });
    expect(r.status).toBe(401);
  });
});
