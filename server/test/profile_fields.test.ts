/**
 * Custom profile fields: GET/POST /realm/profile_fields (every type, field_data per type, the
 * profile-summary rules) and PATCH /users/me/profile_data (values checked per type, Markdown
 * rendered for text types), with custom_profile_fields and realm_user events.
 */

import { describe, expect, it } from 'vitest';
import type { ApiClient, Params } from '../../shared/client';
import { renderMarkdown } from '../markdown';
import { authOf, call, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const ALICE = 4;

const { svc, alice, bob, admin, moderator } = await serviceWith(['alice', 'bob', 'admin', 'moderator']);

type Field = Record<string, unknown>;

async function fields(): Promise<Field[]> {
  const r = await call(svc.url, 'GET', '/realm/profile_fields', { auth: authOf(alice) });
  expect(r.status).toBe(200);
  return r.body.custom_fields as Field[];
}

async function profileOf(userId: number): Promise<Record<string, unknown>> {
  const r = await call(svc.url, 'GET', `/users/${userId}`, {
    auth: authOf(bob),
    params: { include_custom_profile_fields: true },
  });
  return (r.body.user as { profile_data: Record<string, unknown> }).profile_data;
}

function createField(client: ApiClient, params: Params) {
  return call(svc.url, 'POST', '/realm/profile_fields', { auth: authOf(client), params });
}

const DEMO_FIELDS = [
  {
    id: 1,
    type: 1,
    order: 1,
    name: 'Job title',
    hint: 'What you do',
    field_data: '',
    display_in_profile_summary: true,
  },
  {
    id: 2,
    type: 3,
    order: 2,
    name: 'Favorite editor',
    hint: '',
    field_data: JSON.stringify({
      '0': { text: 'Vim', order: '1' },
      '1': { text: 'Emacs', order: '2' },
      '2': { text: 'VS Code', order: '3' },
    }),
    display_in_profile_summary: false,
  },
  {
    id: 3,
    type: 8,
    order: 3,
    name: 'Pronouns',
    hint: 'What pronouns should people use to refer to you?',
    field_data: '',
    display_in_profile_summary: true,
  },
];

describe('GET /realm/profile_fields', () => {
  it('lists the organization’s fields in order', async () => {
    expect(await fields()).toEqual(DEMO_FIELDS);
  });
});

describe('POST /realm/profile_fields errors', () => {
  it.each([
    ['a member', () => alice],
    ['a moderator', () => moderator],
  ])('refuses %s', async (_who, who) => {
    const r = await createField(who(), { name: 'Phone', field_type: 1 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      msg: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    expect(await fields()).toEqual(DEMO_FIELDS);
  });

  it('requires field_type', async () => {
    const r = await createField(admin, { name: 'Phone' });
    expect(r.body).toEqual({
      result: 'error',
      msg: "Missing 'field_type' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'field_type',
    });
  });

  const choice = (data: unknown): Params => ({
    name: 'Team',
    field_type: 3,
    field_data: data as Params[string],
  });
  const external = (data: unknown): Params => ({ field_type: 7, field_data: data as Params[string] });
  const cases: [string, Params, string][] = [
    ['field_type 0', { name: 'X', field_type: 0 }, 'Invalid field type.'],
    ['field_type 9', { name: 'X', field_type: 9 }, 'Invalid field type.'],
    ['field_type that is not JSON', { name: 'X', field_type: 'short' }, 'field_type is not valid JSON'],
    ['field_type as a float', { name: 'X', field_type: 1.5 }, 'field_type is not an integer'],
    ['a missing name', { field_type: 1 }, 'Label cannot be blank.'],
    ['a blank name', { name: '   ', field_type: 1 }, 'Label cannot be blank.'],
    [
      'a name of 41 characters',
      { name: 'n'.repeat(41), field_type: 1 },
      'name is too long (limit: 40 characters)',
    ],
    [
      'a hint of 81 characters',
      { name: 'X', hint: 'h'.repeat(81), field_type: 1 },
      'hint is too long (limit: 80 characters)',
    ],
    ['a NUL in the name', { name: 'a\u0000b', field_type: 1 }, 'name contains NULL (0x00) characters.'],
    ['a name in use', { name: 'Pronouns', field_type: 1 }, 'A field with that label already exists.'],
    [
      'a third summary field',
      { name: 'Phone', field_type: 1, display_in_profile_summary: true },
      'Only 2 custom profile fields can be displayed in the profile summary.',
    ],
    [
      'long text in the summary',
      { name: 'Bio', field_type: 2, display_in_profile_summary: true },
      'Field type not supported for display in profile summary.',
    ],
    [
      'a person picker in the summary',
      { name: 'Mentor', field_type: 6, display_in_profile_summary: true },
      'Field type not supported for display in profile summary.',
    ],
    [
      'display_in_profile_summary that is not a boolean',
      { name: 'X', field_type: 1, display_in_profile_summary: 'yes' },
      'display_in_profile_summary is not valid JSON',
    ],
    [
      'field_data that is not JSON',
      { name: 'X', field_type: 3, field_data: '{nope' },
      'field_data is not valid JSON',
    ],
    ['choices without field_data', { name: 'Team', field_type: 3 }, 'Field must have at least one choice.'],
    ['no choices', choice({}), 'Field must have at least one choice.'],
    ['choices as a list', choice(['a']), 'field_data is not a dict'],
    ['a choice that is not a dict', choice({ a: 'A' }), 'field_data["a"] is not a dict'],
    ['a choice without text', choice({ a: { order: '1' } }), 'field_data["a"] key is missing: text'],
    [
      'a choice with blank text',
      choice({ a: { text: ' ', order: '1' } }),
      'field_data["a"]["text"] cannot be blank.',
    ],
    [
      'a choice with a numeric order',
      choice({ a: { text: 'A', order: 1 } }),
      'field_data["a"]["order"] is not a string',
    ],
    [
      'a choice with an unknown key',
      choice({ a: { text: 'A', order: '1', color: 'red' } }),
      'Unexpected arguments in field_data["a"]: color',
    ],
    ['a blank choice key', choice({ ' ': { text: 'A', order: '1' } }), "'value' cannot be blank."],
    [
      'duplicate choice texts',
      choice({ a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } }),
      'Field must not have duplicate choices.',
    ],
    ['an external account without subtype', external({}), 'field_data key is missing: subtype'],
    ['an unknown external account', external({ subtype: 'myspace' }), 'Invalid external account type'],
    [
      'a custom account without pattern',
      external({ subtype: 'custom' }),
      'Custom external account must define URL pattern',
    ],
    [
      'a pattern without the username',
      external({ subtype: 'custom', url_pattern: 'https://example.com/' }),
      "URL pattern must contain '%(username)s'.",
    ],
    [
      'a pattern that is not an http URL',
      external({ subtype: 'custom', url_pattern: 'ftp://example.com/%(username)s' }),
      'field_data["url_pattern"] is not a URL',
    ],
    [
      'an external account with an unknown key',
      external({ subtype: 'github', icon: 'x' }),
      'Unexpected arguments in field_data: icon',
    ],
    [
      'field_data on a short text field',
      { name: 'Phone', field_type: 1, field_data: { a: 1 } },
      'field_data is only allowed for list of options and external account fields',
    ],
  ];

  it.each(cases)('rejects %s and changes nothing', async (_name, params, msg) => {
    const r = await createField(admin, params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    expect(await fields()).toEqual(DEMO_FIELDS);
  });
});

/** Field ids created below, by type, for the profile_data tests. */
const created: Record<string, number> = {};

describe('POST /realm/profile_fields', () => {
  it('creates a short text field; everyone gets the whole list', async () => {
    const { result, events } = await verifyAction({
      clients: [alice, admin],
      action: () =>
        admin.request('POST', '/realm/profile_fields', { name: 'Phone', hint: 'Work phone', field_type: 1 }),
    });
    expect(result).toEqual({ result: 'success', msg: '', id: 4 });
    const phone = {
      id: 4,
      type: 1,
      order: 4,
      name: 'Phone',
      hint: 'Work phone',
      field_data: '',
      display_in_profile_summary: false,
    };
    for (const got of events) {
      expect(got).toEqual([
        { type: 'custom_profile_fields', fields: [...DEMO_FIELDS, phone], id: expect.any(Number) },
      ]);
    }
    created.short = 4;
  });

  it('creates every other type, field_data stored as JSON text', async () => {
    const choices = { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };
    const specs: [string, Params, Partial<Field>][] = [
      ['long', { name: 'Biography', field_type: 2 }, { type: 2, field_data: '' }],
      [
        'choice',
        { name: 'Shell', field_type: 3, field_data: choices },
        { type: 3, field_data: JSON.stringify(choices) },
      ],
      ['date', { name: 'Birthday', field_type: 4, field_data: {} }, { type: 4, field_data: '' }],
      ['url', { name: 'Website', field_type: 5 }, { type: 5 }],
      ['user', { name: 'Mentor', field_type: 6 }, { type: 6 }],
      [
        'external',
        { field_type: 7, field_data: { subtype: 'github' } },
        { type: 7, name: 'GitHub', field_data: '{"subtype":"github"}' },
      ],
      [
        'custom',
        {
          name: 'Forum',
          field_type: 7,
          field_data: { subtype: 'custom', url_pattern: 'https://f.example/u/%(username)s' },
        },
        { type: 7, field_data: '{"subtype":"custom","url_pattern":"https://f.example/u/%(username)s"}' },
      ],
      ['pronouns', { name: 'Pronouns (again)', field_type: 8 }, { type: 8 }],
    ];
    for (const [key, params, expected] of specs) {
      const { result, events } = await verifyAction({
        clients: [bob],
        action: () => admin.request('POST', '/realm/profile_fields', params),
      });
      const id = result.id as number;
      created[key] = id;
      const field = (await fields()).find((f) => f.id === id);
      expect(field, key).toMatchObject({ ...expected, display_in_profile_summary: false });
      expect(events[0]?.[0]).toMatchObject({ type: 'custom_profile_fields' });
    }
  });

  it('allows a summary field when a place is free, never more than 2', async () => {
    svc.sql('UPDATE custom_profile_fields SET display_in_profile_summary = 0 WHERE id = 3');
    const ok = await createField(admin, { name: 'Team', field_type: 1, display_in_profile_summary: true });
    expect(ok.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const list = await fields();
    expect(list.filter((f) => f.display_in_profile_summary).map((f) => f.name)).toEqual([
      'Job title',
      'Team',
    ]);
    const again = await createField(admin, { name: 'Desk', field_type: 1, display_in_profile_summary: true });
    expect(again.body.msg).toBe('Only 2 custom profile fields can be displayed in the profile summary.');
    expect(await fields()).toEqual(list);
  });
});

describe('PATCH /users/me/profile_data', () => {
  const patch = (client: ApiClient, data: unknown) =>
    call(svc.url, 'PATCH', '/users/me/profile_data', {
      auth: authOf(client),
      params: { data: typeof data === 'string' ? data : JSON.stringify(data) },
    });

  it('sets a Markdown value: realm_user update with rendered_value to everyone', async () => {
    const id = created.short as number;
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('PATCH', '/users/me/profile_data', { data: [{ id, value: '**+1** 555' }] }),
    });
    const rendered = renderMarkdown('**+1** 555');
    expect(rendered).toContain('<strong>+1</strong>');
    const expected = {
      type: 'realm_user',
      op: 'update',
      person: { user_id: ALICE, custom_profile_field: { id, value: '**+1** 555', rendered_value: rendered } },
      id: expect.any(Number),
    };
    expect(events[0]).toEqual([expected]);
    expect(events[1]).toEqual([expected]);
    expect((await profileOf(ALICE))[String(id)]).toEqual({ value: '**+1** 555', rendered_value: rendered });
  });

  it('sets values of every type in one request, rendered only for text types', async () => {
    const data = [
      { id: created.long, value: 'Line one\n\nLine *two*' },
      { id: created.choice, value: 'emacs' },
      { id: created.date, value: '2024-02-29' },
      { id: created.url, value: 'https://alice.example/' },
      { id: created.user, value: [5, 3] },
      { id: created.external, value: 'alice-gh' },
      { id: created.pronouns, value: 'she/her' },
    ];
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('PATCH', '/users/me/profile_data', { data }),
    });
    expect(
      events[1]?.map((e) => (e.person as { custom_profile_field: unknown }).custom_profile_field),
    ).toEqual([
      {
        id: created.long,
        value: 'Line one\n\nLine *two*',
        rendered_value: renderMarkdown('Line one\n\nLine *two*'),
      },
      { id: created.choice, value: 'emacs' },
      { id: created.date, value: '2024-02-29' },
      { id: created.url, value: 'https://alice.example/' },
      { id: created.user, value: '[5,3]' },
      { id: created.external, value: 'alice-gh' },
      { id: created.pronouns, value: 'she/her' },
    ]);
    expect((await profileOf(ALICE))[String(created.user)]).toEqual({ value: '[5,3]' });
  });

  it('sends nothing for a value that did not change', async () => {
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        alice.request('PATCH', '/users/me/profile_data', {
          data: [{ id: created.pronouns, value: 'she/her' }],
        }),
    });
    expect(events).toEqual([[], []]);
  });

  it('an empty value clears the field (value null in the event)', async () => {
    const { events } = await verifyAction({
      clients: [bob],
      action: () =>
        alice.request('PATCH', '/users/me/profile_data', {
          data: [
            { id: created.date, value: '' },
            { id: created.user, value: [] },
          ],
        }),
    });
    expect(
      events[0]?.map((e) => (e.person as { custom_profile_field: unknown }).custom_profile_field),
    ).toEqual([
      { id: created.date, value: null },
      { id: created.user, value: null },
    ]);
    const profile = await profileOf(ALICE);
    expect(profile).not.toHaveProperty(String(created.date));
    expect(profile).not.toHaveProperty(String(created.user));
  });

  const errorCases: [string, () => unknown, string][] = [
    ['data that is not JSON', () => '[{', 'data is not valid JSON'],
    ['data that is not a list', () => ({ id: 1 }), 'data is not a list'],
    ['an entry that is not a dict', () => [5], 'data[0] is not a dict'],
    ['an entry without value', () => [{ id: 1 }], 'data[0] key is missing: value'],
    ['an entry without id', () => [{ value: 'x' }], 'data[0] key is missing: id'],
    ['an id that is not an integer', () => [{ id: '1', value: 'x' }], 'data[0]["id"] is not an integer'],
    ['an unknown field', () => [{ id: 999, value: 'x' }], 'Field id 999 not found.'],
    ['a number for a text field', () => [{ id: 1, value: 5 }], 'Job title is not a string'],
    [
      'short text over 50 characters',
      () => [{ id: 1, value: 'x'.repeat(51) }],
      'Job title is too long (limit: 50 characters)',
    ],
    [
      'long text over 500 characters',
      () => [{ id: created.long, value: 'x'.repeat(501) }],
      'Biography is too long (limit: 500 characters)',
    ],
    [
      'pronouns over 50 characters',
      () => [{ id: 3, value: 'p'.repeat(51) }],
      'Pronouns is too long (limit: 50 characters)',
    ],
    [
      'an unknown choice',
      () => [{ id: 2, value: 'nano' }],
      "'nano' is not a valid choice for 'Favorite editor'.",
    ],
    [
      'a date that does not exist',
      () => [{ id: created.date, value: '2023-02-29' }],
      'Birthday is not a date',
    ],
    ['a date in another format', () => [{ id: created.date, value: '29.02.2024' }], 'Birthday is not a date'],
    [
      'a URL that is not http(s)',
      () => [{ id: created.url, value: 'javascript:alert(1)' }],
      'Website is not a URL',
    ],
    ['a URL that is no URL', () => [{ id: created.url, value: 'alice.example' }], 'Website is not a URL'],
    ['a person as text', () => [{ id: created.user, value: '5' }], 'Mentor is not a list of user IDs'],
    ['an unknown person', () => [{ id: created.user, value: [999] }], 'Invalid user ID: 999'],
    ['a NUL in a value', () => [{ id: 1, value: 'a\u0000b' }], 'Job title contains NULL (0x00) characters.'],
    [
      'one bad entry among good ones',
      () => [
        { id: 1, value: 'Changed title' },
        { id: 2, value: 'nano' },
      ],
      "'nano' is not a valid choice for 'Favorite editor'.",
    ],
  ];

  it.each(errorCases)('rejects %s and changes nothing', async (_name, data, msg) => {
    const before = await profileOf(ALICE);
    const r = await patch(alice, data());
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    expect(await profileOf(ALICE)).toEqual(before);
  });

  it('is for humans only', async () => {
    const key = 'ProfileBotKey0123456789abcdefghij';
    svc.sql(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role, is_bot, bot_type,
         bot_owner_id, date_joined_ms) VALUES (1, 'profile-bot@example.com', 'profile-bot@example.com',
         'Profile Bot', ?, 400, 1, 1, 4, 1700000000000)`,
      key,
    );
    const r = await call(svc.url, 'PATCH', '/users/me/profile_data', {
      auth: ['profile-bot@example.com', key],
      params: { data: JSON.stringify([{ id: 1, value: 'Bot title' }]) },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      msg: 'This endpoint does not accept bot requests.',
      code: 'BAD_REQUEST',
    });
  });

  it('requires data', async () => {
    const r = await call(svc.url, 'PATCH', '/users/me/profile_data', { auth: authOf(alice) });
    expect(r.body).toEqual({
      result: 'error',
      msg: "Missing 'data' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'data',
    });
  });
});
