import { describe, expect, it } from 'vitest';
import type { RegisterState, ServerEvent } from '../protocol';
import { accountStateFromSnapshot, applyEvent, applyEvents } from './index';

const snapshot: RegisterState = {
  last_event_id: -1,
  service_feature_level: 89,
  service_version: '0.1.0',
  service_merge_base: '',
  user_id: 7,
  user_settings: { twenty_four_hour_time: false, color_scheme: 1, emojiset: 'setA' },
};

describe('account state', () => {
  it('is built from the register snapshot', () => {
    const state = accountStateFromSnapshot(snapshot);
    expect(state).toEqual({
      userId: 7,
      serviceVersion: '0.1.0',
      featureLevel: 89,
      userSettings: { twenty_four_hour_time: false, color_scheme: 1, emojiset: 'setA' },
      lastEventId: -1,
    });
  });

  it('applies user_settings and both legacy forms', () => {
    const events: ServerEvent[] = [
      { id: 0, type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true },
      { id: 1, type: 'update_display_settings', setting_name: 'color_scheme', setting: 2 },
      { id: 2, type: 'update_global_notifications', notification_name: 'enable_sounds', setting: false },
    ];
    const state = applyEvents(accountStateFromSnapshot(snapshot), events);
    expect(state.userSettings).toEqual({
      twenty_four_hour_time: true,
      color_scheme: 2,
      emojiset: 'setA',
      enable_sounds: false,
    });
    expect(state.lastEventId).toBe(2);
  });

  it('keeps the same object for an event that changes nothing it keeps', () => {
    const state = accountStateFromSnapshot({ ...snapshot, last_event_id: 5 });
    expect(applyEvent(state, { id: 5, type: 'heartbeat' })).toBe(state);
    const same = { id: 5, type: 'user_settings', op: 'update', property: 'emojiset', value: 'setA' } as const;
    expect(applyEvent(state, same)).toBe(state);
  });

  it('takes the new version from a restart event', () => {
    const state = applyEvent(accountStateFromSnapshot(snapshot), {
      id: 0,
      type: 'restart',
      service_version: '0.2.0',
      service_feature_level: 151,
    });
    expect([state.serviceVersion, state.featureLevel]).toEqual(['0.2.0', 151]);
  });
});
