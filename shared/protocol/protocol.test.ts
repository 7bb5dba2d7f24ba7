import { describe, expect, it } from 'vitest';
import {
  ALL_SETTINGS,
  checkSettingValue,
  DEFAULT_PERSONAL_SETTINGS,
  DEFAULT_SHARED_SETTINGS,
  parseEvent,
  type SettingName,
  SHARED_SETTING_NAMES,
} from './index';

describe('settings table', () => {
  it('has a default for every shared setting, and every default passes its own check', () => {
    expect(Object.keys(DEFAULT_SHARED_SETTINGS).sort()).toEqual([...SHARED_SETTING_NAMES].sort());
    const defaults = { ...DEFAULT_SHARED_SETTINGS, ...DEFAULT_PERSONAL_SETTINGS };
    for (const name of Object.keys(ALL_SETTINGS) as SettingName[]) {
      expect(checkSettingValue(name, defaults[name]), name).toBeNull();
    }
  });

  it('rejects values outside integer and string enumerations', () => {
    expect(checkSettingValue('color_scheme', 4)).toBe('Invalid color_scheme');
    expect(checkSettingValue('color_scheme', 1.5)).toBe('color_scheme is not an integer');
    expect(checkSettingValue('emojiset', 'setC')).toBe('Invalid emojiset');
    expect(checkSettingValue('default_view', 'inbox')).toBe('Invalid default_view');
    expect(checkSettingValue('twenty_four_hour_time', 'true')).toBe('twenty_four_hour_time is not a boolean');
    expect(checkSettingValue('email_notifications_batching_period_seconds', 60)).toBe(
      'Invalid email_notifications_batching_period_seconds',
    );
    expect(checkSettingValue('notification_sound', 'a\0b')).toBe(
      'notification_sound cannot contain NULL (0x00) characters.',
    );
  });
});

describe('parseEvent', () => {
  it('parses a known event', () => {
    expect(
      parseEvent({ id: 3, type: 'user_settings', op: 'update', property: 'dense_mode', value: false }),
    ).toEqual({
      id: 3,
      type: 'user_settings',
      op: 'update',
      property: 'dense_mode',
      value: false,
    });
  });
  it('returns null for an unknown type, so clients ignore it', () => {
    expect(parseEvent({ id: 4, type: 'realm_export', op: 'start' })).toBeNull();
  });
  it('throws on a known type with a wrong shape', () => {
    expect(() => parseEvent({ id: 5, type: 'user_settings', op: 'update', property: 'x' })).toThrow();
    expect(() => parseEvent({ type: 'heartbeat' })).toThrow();
  });
});
