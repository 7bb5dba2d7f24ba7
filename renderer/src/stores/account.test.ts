import { describe, expect, it } from 'vitest';
import { settingEvent, snapshotFixture } from '../../test/fixtures';
import { createTestBridge, flush } from '../../test/testBridge';
import { createAccountStore, UNREACHABLE } from './account';
import { effectiveSetting } from './accountState';

describe('account store', () => {
  it('applies a batch of events in one update', () => {
    const { bridge } = createTestBridge();
    const store = createAccountStore(snapshotFixture(), bridge);
    let updates = 0;
    store.subscribe(() => updates++);
    store.getState().actions.receiveEvents({
      accountId: 'acct-1',
      generation: 1,
      events: [
        settingEvent(5, 'twenty_four_hour_time', true),
        settingEvent(6, 'dense_mode', false),
        settingEvent(7, 'enter_sends', true),
      ],
    });
    expect(updates).toBe(1);
    const settings = store.getState().account.userSettings;
    expect([settings.twenty_four_hour_time, settings.dense_mode, settings.enter_sends]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('does not notify for a stale batch', () => {
    const { bridge } = createTestBridge();
    const store = createAccountStore(snapshotFixture({ generation: 2 }), bridge);
    let updates = 0;
    store.subscribe(() => updates++);
    store.getState().actions.receiveEvents({
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(5, 'dense_mode', false)],
    });
    expect(updates).toBe(0);
    expect(store.getState().account.userSettings.dense_mode).toBe(true);
  });

  it('replaces its state on a snapshot and keeps its actions', () => {
    const { bridge } = createTestBridge();
    const store = createAccountStore(snapshotFixture(), bridge);
    const actions = store.getState().actions;
    const fresh = snapshotFixture({ generation: 5 });
    fresh.state.user_settings = { ...fresh.state.user_settings, color_scheme: 2 };
    actions.receiveSnapshot(fresh);
    expect(store.getState().generation).toBe(5);
    expect(store.getState().account.userSettings.color_scheme).toBe(2);
    expect(store.getState().actions).toBe(actions);
  });

  it('sends a setting change to the main process, echoing it until the event', async () => {
    const test = createTestBridge();
    const store = createAccountStore(snapshotFixture(), test.bridge);
    const done = store.getState().actions.updateSetting('twenty_four_hour_time', true);
    expect(effectiveSetting(store.getState(), 'twenty_four_hour_time')).toBe(true);
    expect(test.held.map((c) => [c.channel, c.request])).toEqual([
      ['settings.update', { accountId: 'acct-1', changes: { twenty_four_hour_time: true } }],
    ]);
    test.held[0]?.resolve({ ok: true, value: { ignored_parameters_unsupported: [] } });
    await done;
    expect(store.getState().pending.twenty_four_hour_time?.acknowledged).toBe(true);
    store.getState().actions.receiveEvents({
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(5, 'twenty_four_hour_time', true)],
    });
    expect(store.getState().pending).toEqual({});
    expect(store.getState().account.userSettings.twenty_four_hour_time).toBe(true);
  });

  it('rolls back with the main process error message', async () => {
    const test = createTestBridge();
    const store = createAccountStore(snapshotFixture(), test.bridge);
    const done = store.getState().actions.updateSetting('color_scheme', 2);
    expect(effectiveSetting(store.getState(), 'color_scheme')).toBe(2);
    test.held[0]?.resolve({ ok: false, error: { message: 'Invalid color_scheme', code: 'BAD_REQUEST' } });
    await done;
    expect(effectiveSetting(store.getState(), 'color_scheme')).toBe(1);
    expect(store.getState().settingError).toEqual({
      property: 'color_scheme',
      message: 'Invalid color_scheme',
    });
    store.getState().actions.dismissSettingError();
    expect(store.getState().settingError).toBeNull();
  });

  it('says the server could not be reached instead of the transport error', async () => {
    const test = createTestBridge();
    const store = createAccountStore(snapshotFixture(), test.bridge);
    const done = store.getState().actions.updateSetting('dense_mode', false);
    test.held[0]?.resolve({
      ok: false,
      error: { message: 'PATCH /settings: fetch failed', code: 'NETWORK_ERROR' },
    });
    await done;
    expect(effectiveSetting(store.getState(), 'dense_mode')).toBe(true);
    expect(store.getState().settingError).toEqual({ property: 'dense_mode', message: UNREACHABLE });
  });

  it('rolls back when the bridge drops the call', async () => {
    const test = createTestBridge();
    const store = createAccountStore(snapshotFixture(), test.bridge);
    const done = store.getState().actions.updateSetting('dense_mode', false);
    test.held[0]?.reject(new Error('The connection to the Confab app was lost.'));
    await done;
    expect(effectiveSetting(store.getState(), 'dense_mode')).toBe(true);
    expect(store.getState().settingError?.message).toBe('The connection to the Confab app was lost.');
  });

  it('rolls back a change the server ignored as unsupported', async () => {
    const test = createTestBridge();
    const store = createAccountStore(snapshotFixture(), test.bridge);
    const done = store.getState().actions.updateSetting('enter_sends', true);
    test.held[0]?.resolve({ ok: true, value: { ignored_parameters_unsupported: ['enter_sends'] } });
    await done;
    await flush();
    expect(effectiveSetting(store.getState(), 'enter_sends')).toBe(false);
    expect(store.getState().settingError?.message).toBe('This server does not support changing enter_sends.');
  });
});

describe('presence reports', () => {
  it('reports through api.call and takes in the changes the answer carries', async () => {
    const test = createTestBridge();
    const snapshot = snapshotFixture();
    Object.assign(snapshot.state, {
      presences: { 13: { active_timestamp: 100, idle_timestamp: 100 } },
      presence_last_update_id: 7,
    });
    const store = createAccountStore(snapshot, test.bridge);
    expect(store.getState().presenceLastUpdateId).toBe(7);

    const done = store.getState().actions.reportPresence('active');
    expect(test.held[0]?.request).toEqual({
      accountId: 'acct-1',
      method: 'POST',
      path: '/users/me/presence',
      params: { status: 'active', slim_presence: true, new_user_input: true, last_update_id: 7 },
    });
    test.held[0]?.resolve({
      ok: true,
      value: {
        presences: { 14: { active_timestamp: 500, idle_timestamp: 500 } },
        server_timestamp: 510,
        presence_last_update_id: 9,
      },
    });
    await done;
    expect(store.getState().account.presence.users).toEqual({
      13: { active_timestamp: 100, idle_timestamp: 100 },
      14: { active_timestamp: 500, idle_timestamp: 500 },
    });
    expect(store.getState().presenceLastUpdateId).toBe(9);

    // Idle, and a failure changes nothing (the next ping tries again).
    const idle = store.getState().actions.reportPresence('idle');
    expect(test.held[1]?.request).toHaveProperty('params', {
      status: 'idle',
      slim_presence: true,
      new_user_input: false,
      last_update_id: 9,
    });
    const before = store.getState();
    test.held[1]?.resolve({ ok: false, error: { message: 'down', code: 'NETWORK_ERROR' } });
    await idle;
    expect(store.getState()).toBe(before);
    const lost = store.getState().actions.reportPresence('idle');
    test.held[2]?.reject(new Error('The connection to the Confab app was lost.'));
    await expect(lost).resolves.toBeUndefined();
  });

  it('asks for everything when the snapshot had no presence_last_update_id', async () => {
    const test = createTestBridge();
    const store = createAccountStore(snapshotFixture(), test.bridge);
    expect(store.getState().presenceLastUpdateId).toBeNull();
    void store.getState().actions.reportPresence('active');
    expect(test.held[0]?.request).not.toHaveProperty('params.last_update_id');
    expect(test.held[0]?.request).toHaveProperty('params.status', 'active');
  });
});
