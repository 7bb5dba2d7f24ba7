import { describe, expect, it } from 'vitest';
import {
  alphabetize,
  assignableRoles,
  choicesFromFieldData,
  choicesProblem,
  choicesToFieldData,
  countUsersWithValue,
  emojiAddReason,
  emojiNameForServer,
  emojiNameFromFile,
  emojiNameProblem,
  GROUP_MEMBERS_ONLY,
  groupCreateReason,
  groupEditReason,
  matchesPerson,
  moveBy,
  moveKeys,
  playgroundUrlProblem,
  suggestLanguages,
  summaryDisabledReason,
  withTrailingEmpty,
} from './adminModel';

const texts = (rows: { text: string }[]) => rows.map((r) => r.text);

describe('choice editor', () => {
  it('reads field_data in order with one empty row to type a new choice', () => {
    const rows = choicesFromFieldData(
      JSON.stringify({ a: { text: 'B', order: '2' }, b: { text: 'A', order: '1' } }),
    );
    expect(texts(rows)).toEqual(['A', 'B', '']);
    expect(rows.map((r) => r.key)).toEqual(['b', 'a', '']);
  });

  it('adds a new empty row as the last one is typed in, and keeps only one', () => {
    const rows = choicesFromFieldData('{}');
    const typed = withTrailingEmpty([{ ...rows[0], text: 'Vim', key: '', rowId: rows[0]?.rowId ?? 'x' }]);
    expect(texts(typed)).toEqual(['Vim', '']);
    const cleared = withTrailingEmpty([
      ...typed.slice(0, 1).map((r) => ({ ...r, text: '' })),
      ...typed.slice(1),
    ]);
    expect(texts(cleared)).toEqual(['']);
    // The row being edited keeps its identity (focus stays in it).
    expect(cleared[0]?.rowId).toBe(typed[0]?.rowId);
  });

  it('alphabetizes with the empty row last', () => {
    const rows = choicesFromFieldData(
      JSON.stringify({ 0: { text: 'vim', order: '1' }, 1: { text: 'Emacs', order: '2' } }),
    );
    expect(texts(alphabetize(rows))).toEqual(['Emacs', 'vim', '']);
  });

  it('gives new choices the largest key + 1 and orders from 1', () => {
    const rows = withTrailingEmpty([
      { key: '4', text: 'Old', rowId: 'a' },
      { key: '', text: 'New', rowId: 'b' },
      { key: '1', text: 'Older', rowId: 'c' },
    ]);
    expect(choicesToFieldData(rows)).toEqual({
      4: { text: 'Old', order: '1' },
      5: { text: 'New', order: '2' },
      1: { text: 'Older', order: '3' },
    });
    expect(choicesToFieldData([{ key: '', text: ' First ', rowId: 'x' }])).toEqual({
      0: { text: 'First', order: '1' },
    });
  });

  it('asks for a choice and refuses duplicates', () => {
    expect(choicesProblem(withTrailingEmpty([]))).toBe('Add at least one choice.');
    expect(
      choicesProblem([
        { key: '', text: 'A', rowId: '1' },
        { key: '', text: 'A ', rowId: '2' },
      ]),
    ).toBe('Two choices have the same text.');
    expect(choicesProblem([{ key: '', text: 'A', rowId: '1' }])).toBeNull();
  });
});

describe('profile summary switch', () => {
  const fields = [
    { id: 1, display_in_profile_summary: true },
    { id: 2, display_in_profile_summary: true },
    { id: 3, display_in_profile_summary: false },
  ];
  it('is disabled at the limit of 2, except for a field already in it', () => {
    expect(summaryDisabledReason(1, fields, null, false)).toMatch(/At most 2 fields/);
    expect(summaryDisabledReason(1, fields, 3, false)).toMatch(/At most 2 fields/);
    expect(summaryDisabledReason(1, fields, 1, true)).toBeNull();
    expect(summaryDisabledReason(1, fields.slice(1), null, false)).toBeNull();
  });
  it('is never offered for long text or person fields', () => {
    expect(summaryDisabledReason(2, [], null, false)).toBe(
      'Long text fields cannot be shown in the profile summary.',
    );
    expect(summaryDisabledReason(6, [], null, true)).toBe(
      'Person fields cannot be shown in the profile summary.',
    );
  });
});

describe('counting people', () => {
  const users: { profile_data?: Record<string, { value: string }> }[] = [
    { profile_data: { 7: { value: '1' } } },
    { profile_data: { 7: { value: '2' } } },
    { profile_data: { 7: { value: '' } } },
    { profile_data: {} },
    {},
  ];
  it('counts values of a field, or one value', () => {
    expect(countUsersWithValue(users, 7)).toBe(2);
    expect(countUsersWithValue(users, 7, '2')).toBe(1);
    expect(countUsersWithValue(users, 8)).toBe(0);
  });
});

describe('reordering', () => {
  const items = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
  const ids = (xs: { id: number }[]) => xs.map((x) => x.id);
  it('moves dragged keys before or after the target', () => {
    expect(ids(moveKeys(items, (i) => i.id, new Set([1]), 3, 'after'))).toEqual([2, 3, 1, 4]);
    expect(ids(moveKeys(items, (i) => i.id, new Set([4, 2]), 1, 'before'))).toEqual([2, 4, 1, 3]);
  });
  it('moves one item by keyboard, clamped', () => {
    expect(ids(moveBy(items, 0, 1))).toEqual([2, 1, 3, 4]);
    expect(ids(moveBy(items, 3, 1))).toEqual([1, 2, 3, 4]);
    expect(ids(moveBy(items, 2, -5))).toEqual([3, 1, 2, 4]);
  });
});

describe('checks', () => {
  it('playground URLs must be http(s) with a host', () => {
    expect(playgroundUrlProblem('https://play.rust-lang.org/?code=')).toBeNull();
    expect(playgroundUrlProblem('')).toMatch(/Enter the URL/);
    expect(playgroundUrlProblem('ftp://x.org/')).toBe('The URL must start with http:// or https://.');
    expect(playgroundUrlProblem('play.rust-lang.org')).toMatch(/full URL/);
    expect(playgroundUrlProblem('https://a b.org')).toMatch(/spaces/);
  });
  it('suggests languages by name or alias', () => {
    expect(suggestLanguages('py').map((l) => l.name)).toEqual(['Python']);
    expect(suggestLanguages('rs').map((l) => l.name)).toContain('Rust');
    expect(suggestLanguages('').length).toBeGreaterThan(20);
  });
  it('emoji names: lowercase letters, digits, underscores, dashes, spaces', () => {
    expect(emojiNameProblem('party parrot')).toBeNull();
    expect(emojiNameProblem('party-parrot_2')).toBeNull();
    expect(emojiNameProblem('Party')).toMatch(/lowercase/);
    expect(emojiNameProblem('party!')).toMatch(/lowercase/);
    expect(emojiNameProblem('party_')).toMatch(/cannot end/);
    expect(emojiNameProblem('')).toBe('Enter a name.');
    expect(emojiNameForServer('party parrot')).toBe('party_parrot');
    expect(emojiNameFromFile('Party Parrot.gif')).toBe('party_parrot');
  });
  it('people search ignores case and accents, and matches emails', () => {
    const user = { full_name: 'José Núñez', email: 'jose@example.com' };
    expect(matchesPerson(user, 'nunez')).toBe(true);
    expect(matchesPerson(user, 'EXAMPLE')).toBe(true);
    expect(matchesPerson(user, 'bob')).toBe(false);
    expect(matchesPerson(user, '  ')).toBe(true);
  });
  it('only owners may make owners', () => {
    expect(assignableRoles(100).map((r) => r.id)).toContain(100);
    expect(assignableRoles(200).map((r) => r.id)).not.toContain(100);
  });
});

describe('adding custom emoji', () => {
  it('follows add_custom_emoji_policy and says why not', () => {
    expect(emojiAddReason(1, 400)).toBeNull();
    expect(emojiAddReason(1, 600)).toMatch(/Guests cannot/);
    expect(emojiAddReason(2, 400)).toMatch(/Only administrators/);
    expect(emojiAddReason(2, 200)).toBeNull();
    expect(emojiAddReason(4, 300)).toBeNull();
    expect(emojiAddReason(7, 200)).toMatch(/Only owners/);
    expect(emojiAddReason(6, 100)).toMatch(/No one/);
    expect(emojiAddReason(undefined, 400)).toBeNull();
  });
});

describe('user groups: who may create and edit them', () => {
  const team = { name: 'Designers', members: [7, 8] };

  it('creating follows user_group_edit_policy (members by default; guests never)', () => {
    expect(groupCreateReason(undefined, 400)).toBeNull();
    expect(groupCreateReason(1, 400)).toBeNull();
    expect(groupCreateReason(3, 400)).toBeNull();
    expect(groupCreateReason(1, 600)).toBe('Guests cannot create or edit user groups.');
    expect(groupCreateReason(2, 400)).toBe('Only administrators can create and edit user groups here.');
    expect(groupCreateReason(2, 200)).toBeNull();
    expect(groupCreateReason(4, 400)).toBe(
      'Only moderators and administrators can create and edit user groups here.',
    );
    expect(groupCreateReason(4, 300)).toBeNull();
  });

  it('editing: the policy, then moderators and administrators or the group’s own members', () => {
    expect(groupEditReason(1, 400, 7, team)).toBeNull();
    expect(groupEditReason(1, 400, 9, team)).toBe(GROUP_MEMBERS_ONLY);
    expect(groupEditReason(1, 300, 9, team)).toBeNull();
    expect(groupEditReason(1, 200, 9, team)).toBeNull();
    expect(groupEditReason(2, 400, 7, team)).toBe(
      'Only administrators can create and edit user groups here.',
    );
    expect(groupEditReason(1, 600, 7, team)).toBe('Guests cannot create or edit user groups.');
    expect(groupEditReason(1, 100, 1, { name: 'role:members', members: [1], is_system_group: true })).toBe(
      'Role groups follow people’s roles; they cannot be edited.',
    );
  });
});
