import { describe, expect, it } from 'vitest';
import {
  countText,
  fieldDisplay,
  groupPeople,
  lastActiveText,
  localTime,
  matchesQuery,
  type PersonEntry,
  roleName,
  safeHref,
  sortPeople,
  timeDifference,
} from './peopleModel';

const person = (userId: number, name: string, presence: PersonEntry['presence']): PersonEntry => ({
  userId,
  name,
  email: `${name.split(' ')[0]?.toLowerCase()}@example.com`,
  presence,
});

describe('matchesQuery', () => {
  const jose = { name: 'José Álvarez-Ruiz', email: 'jose@example.com' };
  it('matches word starts of the name, ignoring case and accents', () => {
    expect(matchesQuery(jose, 'alv')).toBe(true);
    expect(matchesQuery(jose, 'JOSE r')).toBe(true);
    expect(matchesQuery(jose, 'ruiz')).toBe(true);
    expect(matchesQuery(jose, 'varez')).toBe(false);
  });
  it('matches part of the email, and everyone for an empty query', () => {
    expect(matchesQuery(jose, 'example.com')).toBe(true);
    expect(matchesQuery(jose, '  ')).toBe(true);
    expect(matchesQuery(jose, 'bob')).toBe(false);
  });
});

describe('sorting and grouping', () => {
  const people = [
    person(1, 'zoe Zed', 'offline'),
    person(2, 'Bob Smith', 'idle'),
    person(3, 'alice Doe', 'active'),
    person(4, 'Carl Ace', 'active'),
    person(5, 'Adam Reyes', 'offline'),
  ];
  it('puts active people first, then idle, then offline, by name within each', () => {
    expect(sortPeople(people).map((p) => p.userId)).toEqual([3, 4, 2, 5, 1]);
  });
  it('groups by presence and leaves empty groups out', () => {
    const groups = groupPeople(people);
    expect(groups.map((g) => [g.title, g.people.map((p) => p.userId)])).toEqual([
      ['Active', [3, 4]],
      ['Idle', [2]],
      ['Offline', [5, 1]],
    ]);
    expect(groupPeople(people.filter((p) => p.presence === 'offline')).map((g) => g.key)).toEqual([
      'offline',
    ]);
  });
  it('counts what is shown while searching', () => {
    expect(countText(2, 7, true)).toBe('2 of 7');
    expect(countText(7, 7, false)).toBe('7');
  });
});

describe('roles and time', () => {
  it('names roles', () => {
    expect(roleName(100)).toBe('Owner');
    expect(roleName(200)).toBe('Administrator');
    expect(roleName(600)).toBe('Guest');
    expect(roleName(400, true)).toBe('Bot');
  });
  it('gives the local time in the person’s zone, 12 or 24 hours', () => {
    const now = new Date(Date.UTC(2025, 2, 3, 13, 5));
    expect(localTime(now, 'Europe/Berlin', true)).toBe('14:05');
    expect(localTime(now, 'Europe/Berlin', false)).toBe('2:05 PM');
    expect(localTime(now, 'America/New_York', true)).toBe('08:05');
    expect(localTime(now, '', true)).toBeNull();
    expect(localTime(now, 'Not/AZone', true)).toBeNull();
  });
  it('says how far ahead or behind a zone is', () => {
    const now = new Date(Date.UTC(2025, 2, 3, 13, 5));
    expect(timeDifference(now, 'Europe/Berlin', 'UTC')).toBe('1 hour ahead');
    expect(timeDifference(now, 'America/New_York', 'Europe/Berlin')).toBe('6 hours behind');
    expect(timeDifference(now, 'Asia/Kolkata', 'UTC')).toBe('5 hours 30 minutes ahead');
    expect(timeDifference(now, 'UTC', 'UTC')).toBe('same time as you');
  });
  it('says when someone was last active', () => {
    const now = 1_000_000_000_000;
    expect(lastActiveText('active', undefined, now)).toBe('Active now');
    expect(lastActiveText('idle', undefined, now)).toBe('Idle');
    expect(lastActiveText('offline', now / 1000 - 300, now)).toBe('Last active 5 minutes ago');
    expect(lastActiveText('offline', now / 1000 - 3600, now)).toBe('Last active 1 hour ago');
    expect(lastActiveText('offline', now / 1000 - 86400 * 3, now)).toBe('Last active 3 days ago');
    expect(lastActiveText('offline', undefined, now)).toBe('Not active recently');
  });
});

describe('fieldDisplay', () => {
  const field = (type: number, field_data = '') => ({ type, field_data });
  it('shows rendered Markdown for text fields, plain text without it', () => {
    expect(fieldDisplay(field(1), { value: '**x**', rendered_value: '<p><strong>x</strong></p>' })).toEqual({
      kind: 'html',
      html: '<p><strong>x</strong></p>',
    });
    expect(fieldDisplay(field(8), { value: 'she/her' })).toEqual({ kind: 'text', text: 'she/her' });
    expect(fieldDisplay(field(1), { value: '  ' })).toBeNull();
    expect(fieldDisplay(field(1), undefined)).toBeNull();
  });
  it('shows a choice’s text', () => {
    const data = JSON.stringify({ '0': { text: 'Vim', order: '1' }, '1': { text: 'Emacs', order: '2' } });
    expect(fieldDisplay(field(3, data), { value: '1' })).toEqual({ kind: 'text', text: 'Emacs' });
  });
  it('links URLs and external accounts, never other schemes', () => {
    expect(fieldDisplay(field(5), { value: 'https://confab.example/x' })).toEqual({
      kind: 'link',
      href: 'https://confab.example/x',
      text: 'https://confab.example/x',
    });
    expect(fieldDisplay(field(5), { value: 'javascript:alert(1)' })).toEqual({
      kind: 'text',
      text: 'javascript:alert(1)',
    });
    expect(fieldDisplay(field(7, '{"subtype":"github"}'), { value: 'octocat' })).toMatchObject({
      kind: 'link',
      href: 'https://github.com/octocat',
    });
    expect(
      fieldDisplay(field(7, '{"subtype":"custom","url_pattern":"https://x.example/u/%(username)s"}'), {
        value: 'me',
      }),
    ).toMatchObject({ href: 'https://x.example/u/me' });
    expect(safeHref('file:///etc/passwd')).toBeNull();
  });
  it('names people of a person field and formats dates', () => {
    expect(fieldDisplay(field(6), { value: '[3, 5]' })).toEqual({ kind: 'users', userIds: [3, 5] });
    expect(fieldDisplay(field(6), { value: '[]' })).toBeNull();
    expect(fieldDisplay(field(4), { value: '2024-02-29' })).toMatchObject({ kind: 'text' });
    expect((fieldDisplay(field(4), { value: '2024-02-29' }) as { text: string }).text).toContain('2024');
  });
});
