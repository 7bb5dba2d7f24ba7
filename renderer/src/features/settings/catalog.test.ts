import { describe, expect, it } from 'vitest';
import { ALL_SETTINGS, PERSONAL_SETTINGS, SHARED_SETTINGS } from '../../../../shared/protocol';
import {
  choicesWith,
  defaultSettingGroups,
  durationLabel,
  EMAIL_BATCHING_CHOICES,
  formatExampleTime,
  languageLabel,
  NOTIFICATIONS,
  PREFERENCES,
  PRIVACY,
  personalSettingNames,
  settingLabel,
  settingPlaces,
} from './catalog';

const controls = [...PREFERENCES, ...NOTIFICATIONS, ...PRIVACY].flatMap((g) => g.controls);

describe('personal settings catalog', () => {
  it('offers every parameter of PATCH /settings exactly once', () => {
    const names = personalSettingNames();
    expect([...names].sort()).toEqual(Object.keys(ALL_SETTINGS).sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('uses switches for booleans and offers every value the server accepts in enum selects', () => {
    for (const control of controls) {
      const type = ALL_SETTINGS[control.name].type;
      if (control.kind === 'switch') expect(type.kind, control.name).toBe('bool');
      if (control.kind === 'select' && (type.kind === 'int-enum' || type.kind === 'str-enum')) {
        if (control.name === 'emojiset') continue;
        expect(
          control.choices({}).map((c) => c.value),
          control.name,
        ).toEqual([...type.values]);
      }
    }
  });

  it('offers only batching periods the server accepts', () => {
    const type = SHARED_SETTINGS.email_notifications_batching_period_seconds.type;
    for (const choice of EMAIL_BATCHING_CHOICES) {
      expect(choice.value).toBeGreaterThanOrEqual(type.min);
      expect(choice.value).toBeLessThanOrEqual(type.max);
    }
  });

  it('takes the emoji sets from the snapshot when it has them', () => {
    const emojiset = controls.find((c) => c.name === 'emojiset');
    if (emojiset?.kind !== 'select') throw new Error('emojiset is a select');
    expect(emojiset.choices({ emojiset_choices: [{ key: 'text', text: 'Plain text' }] })).toEqual([
      { value: 'text', label: 'Plain text' },
    ]);
  });

  it('organization defaults cover the shared table and nothing personal', () => {
    const names = defaultSettingGroups().flatMap((g) => g.controls.map((c) => c.name));
    expect([...names].sort()).toEqual(Object.keys(SHARED_SETTINGS).sort());
    for (const name of Object.keys(PERSONAL_SETTINGS)) expect(names).not.toContain(name);
  });

  it('labels, durations, languages and the time example', () => {
    expect(settingLabel('twenty_four_hour_time')).toBe('24-hour time');
    expect(settingLabel('enable_stream_email_notifications')).toBe('Stream messages: email notifications');
    expect(settingLabel('unknown_setting')).toBe('unknown_setting');
    expect(durationLabel(600)).toBe('10 minutes');
    expect(durationLabel(2 * 3600)).toBe('2 hours');
    expect(durationLabel(90)).toBe('90 seconds');
    expect(languageLabel('de')).toBe('Deutsch (German)');
    expect(languageLabel('en')).toBe('English');
    expect(languageLabel('xx')).toBe('xx');
    expect(formatExampleTime(true)).toBe('14:05');
    expect(formatExampleTime(false)).toBe('2:05 PM');
  });

  it('keeps a value it does not know as a choice', () => {
    expect(choicesWith([{ value: 120, label: '2 minutes' }], 900).map((c) => c.label)).toEqual([
      '2 minutes',
      '15 minutes',
    ]);
    expect(choicesWith([{ value: 'a', label: 'A' }], 'a')).toHaveLength(1);
  });
});

describe('setting places (for the command palette)', () => {
  it('has every personal setting once, in the section that shows it', () => {
    const places = settingPlaces();
    expect(places.map((p) => p.name).sort()).toEqual(personalSettingNames().sort());
    expect(new Set(places.map((p) => p.name)).size).toBe(places.length);
    const at = (name: string) => places.find((p) => p.name === name);
    expect(at('dense_mode')).toEqual({
      name: 'dense_mode',
      label: 'Dense mode',
      section: 'preferences',
      group: 'Theme',
    });
    expect(at('enable_stream_email_notifications')).toEqual({
      name: 'enable_stream_email_notifications',
      label: 'Stream messages: email notifications',
      section: 'notifications',
      group: 'Notification triggers',
    });
    expect(at('notification_sound')).toMatchObject({ section: 'notifications', group: 'Sound and content' });
    expect(at('presence_enabled')).toMatchObject({
      label: 'Show my availability to others',
      section: 'privacy',
      group: 'Presence',
    });
  });
});
