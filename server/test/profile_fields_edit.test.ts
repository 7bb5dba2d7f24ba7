/**
 * Editing custom profile fields (issue 8): PATCH and DELETE /realm/profile_fields/{field_id},
 * reordering with PATCH /realm/profile_fields, and DELETE /users/me/profile_data; their
 * custom_profile_fields and realm_user events through verify-action, and the family's errors.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, query, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

// Demo ids: owner 1, admin 2, moderator 3, alice 4, bob 5, guest 6. Demo fields: Job title
// (short text, in the summary), Favorite editor (choices 0 Vim, 1 Emacs, 2 VS Code), Pronouns
// (in the summary).
const OWNER = 1;
const ALICE = 4;
const BOB = 5;
const GUEST = 6;

const { svc, admin, alice, guest } = await serviceWith(['admin', 'alice', 'guest']);

function send(client: ApiClient, method: string, path: string, params: Record<string, string> = {}) {
  return call(svc.url, method, path, { auth: authOf(client), params });
}

function expectError(r: RawResponse, msg: string, code = 'BAD_REQUEST'): void {
  expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { result: 'error', msg, code } });
}

type Field = { id: number; name: string; hint: string; order: number; display_in_profile_summary: boolean };

async function fields(): Promise<Field[]> {
  return (await alice.request('GET', '/realm/profile_fields')).custom_fields as Field[];
}

async function fieldId(name: string): Promise<number> {
  const field = (await fields()).find((f) => f.name === name);
  if (!field) throw new Error(`no field ${name}`);
  return field.id;
}

const fieldRows = () => query(svc, 'SELECT * FROM custom_profile_fields ORDER BY id');
const valueRows = () => query(svc, 'SELECT * FROM custom_profile_field_values ORDER BY user_id, field_id');

const title = await fieldId('Job title');
const editor = await fieldId('Favorite editor');
const pronouns = await fieldId('Pronouns');

describe('PATCH /realm/profile_fields/{field_id}', () => {
  it('renames a field and changes its hint: the whole list to everyone', async () => {
    const { events } = await verifyAction({
      clients: [alice, guest],
      action: () =>
        send(admin, 'PATCH', `/realm/profile_fields/${title}`, { name: 'Role', hint: 'Your role' }),
    });
    const list = await fields();
    for (const got of events) expect(got).toEqual([{ type: 'custom_profile_fields', fields: list, id: 0 }]);
    expect(list.find((f) => f.id === title)).toMatchObject({ name: 'Role', hint: 'Your role' });
  });

  it('removing a choice clears the values that held it', async () => {
    const data = { '0': { text: 'Vim', order: '1' }, '1': { text: 'Emacs', order: '2' } };
    const { events } = await verifyAction({
      clients: [alice],
      action: () =>
        send(admin, 'PATCH', `/realm/profile_fields/${editor}`, { field_data: JSON.stringify(data) }),
    });
    const cleared = (userId: number) => ({
      type: 'realm_user',
      op: 'update',
      person: { user_id: userId, custom_profile_field: { id: editor, value: null } },
    });
    expect(events[0]?.map(({ id: _, ...e }) => e)).toEqual([
      { type: 'custom_profile_fields', fields: await fields() },
      cleared(OWNER),
      cleared(BOB),
      cleared(GUEST),
    ]);
    expect(
      query(
        svc,
        'SELECT user_id FROM custom_profile_field_values WHERE field_id = ? ORDER BY user_id',
        editor,
      ),
    ).toEqual([{ user_id: 2 }, { user_id: 3 }, { user_id: ALICE }]);
  });

  it('a field already in the summary does not count against the limit', async () => {
    const r = await send(admin, 'PATCH', `/realm/profile_fields/${pronouns}`, {
      display_in_profile_summary: 'true',
    });
    expect(r.status).toBe(200);
  });

  it('a default external account field: only the summary flag may change', async () => {
    const created = await send(admin, 'POST', '/realm/profile_fields', {
      field_type: '7',
      field_data: JSON.stringify({ subtype: 'github' }),
    });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expectError(
      await send(admin, 'PATCH', `/realm/profile_fields/${id}`, { name: 'Code' }),
      'Default custom field cannot be updated.',
    );
    expect(
      (await send(admin, 'PATCH', `/realm/profile_fields/${id}`, { display_in_profile_summary: 'false' }))
        .status,
    ).toBe(200);
  });

  const rows: [string, () => ApiClient, () => number | string, Record<string, string>, string, string?][] = [
    [
      'a member',
      () => alice,
      () => title,
      { name: 'X' },
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    ],
    ['an unknown field', () => admin, () => 987654, { name: 'X' }, 'Field id 987654 not found.'],
    [
      'a taken label',
      () => admin,
      () => title,
      { name: 'Pronouns' },
      'A field with that label already exists.',
    ],
    ['a blank label', () => admin, () => title, { name: '  ' }, 'Label cannot be blank.'],
    [
      'a long label',
      () => admin,
      () => title,
      { name: 'x'.repeat(41) },
      'name is too long (limit: 40 characters)',
    ],
    [
      'a third summary field',
      () => admin,
      () => editor,
      { display_in_profile_summary: 'true' },
      'Only 2 custom profile fields can be displayed in the profile summary.',
    ],
    [
      'choices that are no dict',
      () => admin,
      () => editor,
      { field_data: '{"a": 1}' },
      'field_data["a"] is not a dict',
    ],
    [
      'data for a text field',
      () => admin,
      () => title,
      { field_data: '{"a": 1}' },
      'field_data is only allowed for list of options and external account fields',
    ],
  ];
  it.each(rows)('refuses %s', async (_label, who, id, params, msg, code) => {
    const before = [fieldRows(), valueRows()];
    expectError(await send(who(), 'PATCH', `/realm/profile_fields/${id()}`, params), msg, code);
    expect([fieldRows(), valueRows()]).toEqual(before);
  });
});

describe('PATCH /realm/profile_fields (order)', () => {
  it('reorders every field: the list in its new order to everyone', async () => {
    const ids = (await fields()).map((f) => f.id).reverse();
    const { events } = await verifyAction({
      clients: [guest],
      action: () => send(admin, 'PATCH', '/realm/profile_fields', { order: JSON.stringify(ids) }),
    });
    const list = await fields();
    expect(list.map((f) => f.id)).toEqual(ids);
    expect(events[0]).toEqual([{ type: 'custom_profile_fields', fields: list, id: 0 }]);
  });

  it('refuses an order that leaves out, repeats or invents a field', async () => {
    const ids = (await fields()).map((f) => f.id);
    const before = fieldRows();
    for (const order of [ids.slice(1), [...ids, ids[0]], [...ids.slice(1), 987654]]) {
      expectError(
        await send(admin, 'PATCH', '/realm/profile_fields', { order: JSON.stringify(order) }),
        'Invalid order mapping.',
      );
    }
    expectError(
      await send(alice, 'PATCH', '/realm/profile_fields', { order: JSON.stringify(ids) }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(fieldRows()).toEqual(before);
  });
});

describe('DELETE /users/me/profile_data', () => {
  it("clears the user's own values: realm_user update with value null", async () => {
    const { events } = await verifyAction({
      clients: [alice, guest],
      action: () => send(alice, 'DELETE', '/users/me/profile_data', { data: JSON.stringify([pronouns]) }),
    });
    for (const got of events) {
      expect(got).toEqual([
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: ALICE, custom_profile_field: { id: pronouns, value: null } },
          id: 0,
        },
      ]);
    }
    // A value that is not set: nothing to do, no event.
    const again = await verifyAction({
      clients: [guest],
      action: () => send(alice, 'DELETE', '/users/me/profile_data', { data: JSON.stringify([pronouns]) }),
    });
    expect(again.result.status).toBe(200);
    expect(again.events[0]).toEqual([]);
  });

  it('refuses an unknown field, changing nothing', async () => {
    const before = valueRows();
    expectError(
      await send(alice, 'DELETE', '/users/me/profile_data', { data: JSON.stringify([title, 987654]) }),
      'Field id 987654 not found.',
    );
    expect(valueRows()).toEqual(before);
  });
});

describe('DELETE /realm/profile_fields/{field_id}', () => {
  it("deletes the field and every user's value of it", async () => {
    const { events } = await verifyAction({
      clients: [alice, guest],
      action: () => send(admin, 'DELETE', `/realm/profile_fields/${title}`),
    });
    const list = await fields();
    expect(list.map((f) => f.id)).not.toContain(title);
    for (const got of events) expect(got).toEqual([{ type: 'custom_profile_fields', fields: list, id: 0 }]);
    expect(
      query(svc, 'SELECT COUNT(*) AS n FROM custom_profile_field_values WHERE field_id = ?', title),
    ).toEqual([{ n: 0 }]);
  });

  it('refuses unknown fields and non-administrators', async () => {
    expectError(
      await send(admin, 'DELETE', `/realm/profile_fields/${title}`),
      `Field id ${title} not found.`,
    );
    expectError(
      await send(alice, 'DELETE', `/realm/profile_fields/${editor}`),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await fields()).map((f) => f.id)).toContain(editor);
  });
});
