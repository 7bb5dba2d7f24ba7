import { describe, expect, it } from 'vitest';
import { changedValues, formValue, initialValues, ORG_SETTINGS, orgChoicesWith } from './orgCatalog';
import { differingProperties, effectiveValue, inheritLabel, ownProperties } from './overrides';
import { soundLabel, toneFor } from './sounds';
import { DEFAULT_PASSWORD_RULES, passwordProblem, passwordRules, passwordStrength } from './strength';
import { filterZones, formatOffset, timeZoneList, utcOffsetMinutes, zoneLabel } from './timezones';

const WINTER = new Date('2024-01-15T12:00:00Z');
const SUMMER = new Date('2024-07-15T12:00:00Z');

describe('time zones', () => {
  it('knows offsets, also with daylight saving', () => {
    expect(utcOffsetMinutes('Europe/Berlin', WINTER)).toBe(60);
    expect(utcOffsetMinutes('Europe/Berlin', SUMMER)).toBe(120);
    expect(utcOffsetMinutes('Asia/Kolkata', WINTER)).toBe(330);
    expect(utcOffsetMinutes('America/New_York', WINTER)).toBe(-300);
    expect(utcOffsetMinutes('UTC', WINTER)).toBe(0);
  });

  it('formats offsets and labels', () => {
    expect(formatOffset(330)).toBe('UTC+05:30');
    expect(formatOffset(-300)).toBe('UTC−05:00');
    expect(formatOffset(0)).toBe('UTC');
    expect(zoneLabel('America/New_York', WINTER)).toBe('America / New York (UTC−05:00)');
  });

  it('finds zones by city, words in any order, or offset', () => {
    const zones = ['America/New_York', 'Asia/Kolkata', 'Europe/Berlin', 'Europe/Paris', 'Pacific/Auckland'];
    expect(filterZones(zones, 'berlin', WINTER)).toEqual(['Europe/Berlin']);
    expect(filterZones(zones, 'new york', WINTER)).toEqual(['America/New_York']);
    expect(filterZones(zones, 'york america', WINTER)).toEqual(['America/New_York']);
    expect(filterZones(zones, 'europe', WINTER)).toEqual(['Europe/Berlin', 'Europe/Paris']);
    expect(filterZones(zones, '+5:30', WINTER)).toEqual(['Asia/Kolkata']);
    expect(filterZones(zones, 'UTC-5', WINTER)).toEqual(['America/New_York']);
    expect(filterZones(zones, '', WINTER)).toEqual(zones);
    expect(filterZones(zones, 'atlantis', WINTER)).toEqual([]);
  });

  it('lists zones by their current names', () => {
    const list = timeZoneList(['Asia/Calcutta', 'Europe/Kiev', 'Europe/Berlin']);
    expect(list).toEqual(['Asia/Kolkata', 'Europe/Berlin', 'Europe/Kyiv', 'UTC']);
    expect(timeZoneList()).toContain('Asia/Kolkata');
  });

  it('puts cities that start with the query first', () => {
    expect(filterZones(['America/Paramaribo', 'Europe/Paris'], 'par', WINTER)).toEqual([
      'America/Paramaribo',
      'Europe/Paris',
    ]);
    expect(filterZones(['Europe/Sarajevo', 'Asia/Samarkand', 'Europe/Paris'], 'ar', WINTER)[0]).toBe(
      'Asia/Samarkand',
    );
  });
});

describe('password strength', () => {
  it('grows with length and variety', () => {
    expect(passwordStrength('').label).toBe('Very weak');
    expect(passwordStrength('abc').level).toBe(0);
    expect(passwordStrength('password1').level).toBeLessThanOrEqual(1);
    expect(passwordStrength('Tr0ub4dor&3').level).toBeGreaterThanOrEqual(2);
    expect(passwordStrength('correct horse battery staple').level).toBe(4);
  });

  it('gives away little for repeats and runs', () => {
    expect(passwordStrength('aaaaaaaaaaaa').bits).toBeLessThan(passwordStrength('qzmxwnvbeyru').bits);
    expect(passwordStrength('abcdefghijkl').level).toBe(0);
  });
});

describe('password rules', () => {
  it('reads the organization’s minimums, falling back to 6 characters and no guesses rule', () => {
    expect(passwordRules(8, 10_000)).toEqual({ minLength: 8, minGuesses: 10_000 });
    expect(passwordRules(undefined, undefined)).toEqual(DEFAULT_PASSWORD_RULES);
    expect(DEFAULT_PASSWORD_RULES).toEqual({ minLength: 6, minGuesses: 0 });
    expect(passwordRules('8', -1)).toEqual({ minLength: 6, minGuesses: 0 });
  });

  it('refuses a password shorter than password_min_length, counting characters not code units', () => {
    const rules = { minLength: 8, minGuesses: 0 };
    expect(passwordProblem('aaaaaaa', rules)).toBe('Too short: at least 8 characters (7 so far).');
    expect(passwordProblem('aaaaaaaa', rules)).toBeNull();
    expect(passwordProblem('😀😀😀😀😀😀😀', rules)).toBe('Too short: at least 8 characters (7 so far).');
    expect(passwordProblem('abcdef', DEFAULT_PASSWORD_RULES)).toBeNull();
    expect(passwordProblem('abcde', DEFAULT_PASSWORD_RULES)).toBe(
      'Too short: at least 6 characters (5 so far).',
    );
  });

  it('refuses a password easier to guess than password_min_guesses (about 2^bits guesses)', () => {
    const rules = { minLength: 6, minGuesses: 10_000 };
    expect(passwordStrength('aaaaaaaa').guesses).toBeLessThan(10_000);
    expect(passwordProblem('aaaaaaaa', rules)).toBe(
      'Too easy to guess: add words or characters that do not follow a pattern.',
    );
    expect(passwordProblem('password123', rules)).toBe(
      'Too easy to guess: add words or characters that do not follow a pattern.',
    );
    expect(passwordStrength('Tr0ub4dor&3').guesses).toBeGreaterThan(10_000);
    expect(passwordProblem('Tr0ub4dor&3', rules)).toBeNull();
    expect(passwordProblem('correct horse battery staple', rules)).toBeNull();
    // Without a guesses rule only the length counts.
    expect(passwordProblem('aaaaaaaa', { minLength: 6, minGuesses: 0 })).toBeNull();
  });
});

describe('sounds', () => {
  it('has a distinct tone per sound and none for none', () => {
    expect(toneFor('none')).toBeNull();
    const tones = ['chime', 'ding', 'knock', 'bell'].map((n) => JSON.stringify(toneFor(n)));
    expect(new Set(tones).size).toBe(4);
    expect(toneFor('bell')).toEqual(toneFor('bell'));
    expect(soundLabel('chime')).toBe('Chime');
  });
});

describe('per-stream notification overrides', () => {
  const defaults = {
    enable_stream_desktop_notifications: false,
    enable_stream_audible_notifications: false,
    enable_stream_push_notifications: true,
    enable_stream_email_notifications: false,
    wildcard_mentions_notify: true,
  };

  it('inherits null from the user setting', () => {
    expect(effectiveValue({ desktop_notifications: null }, 'desktop_notifications', defaults)).toBe(false);
    expect(effectiveValue({ desktop_notifications: true }, 'desktop_notifications', defaults)).toBe(true);
    expect(effectiveValue({}, 'push_notifications', defaults)).toBe(true);
    expect(inheritLabel(true)).toBe('Default (on)');
    expect(inheritLabel(false)).toBe('Default (off)');
  });

  it('lists only values that differ from the defaults', () => {
    expect(differingProperties({ desktop_notifications: null, push_notifications: true }, defaults)).toEqual(
      [],
    );
    expect(
      differingProperties({ desktop_notifications: true, wildcard_mentions_notify: false }, defaults),
    ).toEqual(['desktop_notifications', 'wildcard_mentions_notify']);
    expect(
      ownProperties({ desktop_notifications: true, push_notifications: true, email_notifications: null }),
    ).toEqual(['desktop_notifications', 'push_notifications']);
  });
});

describe('organization settings form', () => {
  it('holds unlimited limits and retention as "unlimited"', () => {
    expect(formValue('message_content_edit_limit_seconds', null)).toBe('unlimited');
    expect(formValue('message_retention_days', -1)).toBe('unlimited');
    expect(formValue('message_retention_days', 30)).toBe(30);
  });

  it('sends only what changed', () => {
    const section = ORG_SETTINGS.find((s) => s.id === 'messages');
    if (!section) throw new Error('messages section');
    const initial = initialValues(section, {
      allow_message_editing: true,
      mandatory_topics: false,
      name: 'x',
    });
    expect(initial).not.toHaveProperty('name');
    expect(changedValues(initial, { ...initial, mandatory_topics: true })).toEqual({
      mandatory_topics: true,
    });
    expect(changedValues(initial, { ...initial })).toEqual({});
  });

  it('keeps an unknown current value as a choice', () => {
    expect(orgChoicesWith([{ value: 1, label: 'One' }], 9)).toEqual([
      { value: 1, label: 'One' },
      { value: 9, label: '9' },
    ]);
  });
});
