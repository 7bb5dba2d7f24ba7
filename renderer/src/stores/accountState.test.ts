import { describe, expect, it } from 'vitest';
import { settingEvent, snapshotFixture } from '../../test/fixtures';
import {
  acknowledgeSetting,
  applyEventBatch,
  echoSetting,
  effectiveSetting,
  INITIAL_CONNECTION,
  replaceSnapshot,
  rollbackSetting,
  setConnection,
  stateFromSnapshot,
} from './accountState';

describe('account state from a snapshot', () => {
  it('takes the settings, ids and generation from the snapshot', () => {
    const state = stateFromSnapshot(snapshotFixture({ generation: 3, lastEventId: 7 }));
    expect(state.accountId).toBe('acct-1');
    expect(state.generation).toBe(3);
    expect(state.lastEventId).toBe(7);
    expect(state.account.userId).toBe(12);
    expect(state.account.userSettings.twenty_four_hour_time).toBe(false);
    expect(state.account.userSettings.color_scheme).toBe(1);
    expect(state.connection).toEqual(INITIAL_CONNECTION);
    expect(state.pending).toEqual({});
    expect(state.settingError).toBeNull();
  });

  it('keeps a connection state it was given', () => {
    const connection = { status: 'connected' as const, nextRetryAt: null, lastError: null };
    expect(stateFromSnapshot(snapshotFixture(), connection).connection).toBe(connection);
  });
});

describe('event batches', () => {
  it('applies every event of a batch, in order', () => {
    const state = stateFromSnapshot(snapshotFixture());
    const next = applyEventBatch(state, {
      accountId: 'acct-1',
      generation: 1,
      events: [
        settingEvent(5, 'twenty_four_hour_time', true),
        settingEvent(6, 'dense_mode', false),
        settingEvent(7, 'twenty_four_hour_time', false),
        settingEvent(8, 'color_scheme', 2),
      ],
    });
    expect(next.account.userSettings.twenty_four_hour_time).toBe(false);
    expect(next.account.userSettings.dense_mode).toBe(false);
    expect(next.account.userSettings.color_scheme).toBe(2);
    expect(next.lastEventId).toBe(8);
  });

  it('ignores a batch of another generation', () => {
    const state = stateFromSnapshot(snapshotFixture({ generation: 2 }));
    const next = applyEventBatch(state, {
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(5, 'twenty_four_hour_time', true)],
    });
    expect(next).toBe(state);
    expect(next.account.userSettings.twenty_four_hour_time).toBe(false);
  });

  it('ignores a batch of another account', () => {
    const state = stateFromSnapshot(snapshotFixture());
    const batch = { accountId: 'acct-2', generation: 1, events: [settingEvent(5, 'dense_mode', false)] };
    expect(applyEventBatch(state, batch)).toBe(state);
  });

  it('skips events the snapshot already reflects', () => {
    const state = stateFromSnapshot(snapshotFixture({ lastEventId: 6 }));
    const next = applyEventBatch(state, {
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(6, 'twenty_four_hour_time', true), settingEvent(7, 'dense_mode', false)],
    });
    expect(next.account.userSettings.twenty_four_hour_time).toBe(false);
    expect(next.account.userSettings.dense_mode).toBe(false);
    expect(next.lastEventId).toBe(7);
  });
});

describe('snapshot replacement', () => {
  it('replaces the server state wholesale with a new generation', () => {
    let state = stateFromSnapshot(snapshotFixture());
    state = applyEventBatch(state, {
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(5, 'twenty_four_hour_time', true)],
    });
    const fresh = snapshotFixture({ generation: 2, lastEventId: -1 });
    const next = replaceSnapshot(state, fresh);
    expect(next.generation).toBe(2);
    expect(next.lastEventId).toBe(-1);
    expect(next.account.userSettings.twenty_four_hour_time).toBe(false);
  });

  it('keeps the connection and changes still in flight, drops acknowledged ones', () => {
    let state = setConnection(stateFromSnapshot(snapshotFixture()), {
      status: 'connected',
      nextRetryAt: null,
      lastError: null,
    });
    state = echoSetting(state, 'dense_mode', false, 1);
    state = echoSetting(state, 'enter_sends', true, 2);
    state = acknowledgeSetting(state, 'enter_sends', 2);
    const next = replaceSnapshot(state, snapshotFixture({ generation: 2 }));
    expect(next.connection.status).toBe('connected');
    expect(Object.keys(next.pending)).toEqual(['dense_mode']);
  });

  it('marks the saved copy as cached until a fresh register replaces it, and never the other way round', () => {
    const saved = { ...snapshotFixture({ generation: -1 }), cached: true };
    let state = stateFromSnapshot(saved);
    expect(state.cached).toBe(true);
    // A second saved copy (another window asked) still replaces a saved copy.
    expect(replaceSnapshot(state, saved).cached).toBe(true);
    state = replaceSnapshot(state, snapshotFixture({ generation: 0, lastEventId: 9 }));
    expect(state.cached).toBe(false);
    expect(state.generation).toBe(0);
    expect(replaceSnapshot(state, saved)).toBe(state);
  });

  it('ignores an older picture of the same queue', () => {
    let state = stateFromSnapshot(snapshotFixture({ lastEventId: 4 }));
    state = applyEventBatch(state, {
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(5, 'twenty_four_hour_time', true)],
    });
    expect(replaceSnapshot(state, snapshotFixture({ lastEventId: 4 }))).toBe(state);
  });
});

describe('local echo of a settings change', () => {
  it('shows the new value at once and settles on the server event', () => {
    let state = stateFromSnapshot(snapshotFixture());
    state = echoSetting(state, 'twenty_four_hour_time', true, 1);
    expect(effectiveSetting(state, 'twenty_four_hour_time')).toBe(true);
    expect(state.account.userSettings.twenty_four_hour_time).toBe(false);

    state = acknowledgeSetting(state, 'twenty_four_hour_time', 1);
    expect(state.pending.twenty_four_hour_time?.acknowledged).toBe(true);
    expect(effectiveSetting(state, 'twenty_four_hour_time')).toBe(true);

    state = applyEventBatch(state, {
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(5, 'twenty_four_hour_time', true)],
    });
    expect(state.pending).toEqual({});
    expect(effectiveSetting(state, 'twenty_four_hour_time')).toBe(true);
  });

  it('settles when the event arrives before the answer', () => {
    let state = echoSetting(stateFromSnapshot(snapshotFixture()), 'dense_mode', false, 1);
    state = applyEventBatch(state, {
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(5, 'dense_mode', false)],
    });
    expect(state.pending).toEqual({});
    // The late answer changes nothing.
    expect(acknowledgeSetting(state, 'dense_mode', 1)).toBe(state);
  });

  it('keeps showing the change while an event with another value goes by', () => {
    let state = echoSetting(stateFromSnapshot(snapshotFixture()), 'color_scheme', 3, 1);
    state = applyEventBatch(state, {
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(5, 'color_scheme', 2)],
    });
    expect(effectiveSetting(state, 'color_scheme')).toBe(3);
  });

  it('settles on the answer when the server already had that value (no event comes)', () => {
    let state = echoSetting(stateFromSnapshot(snapshotFixture()), 'dense_mode', true, 1);
    state = acknowledgeSetting(state, 'dense_mode', 1);
    expect(state.pending).toEqual({});
  });

  it('rolls back on failure and says why', () => {
    let state = echoSetting(stateFromSnapshot(snapshotFixture()), 'twenty_four_hour_time', true, 1);
    state = rollbackSetting(state, 'twenty_four_hour_time', 1, 'Invalid twenty_four_hour_time');
    expect(effectiveSetting(state, 'twenty_four_hour_time')).toBe(false);
    expect(state.pending).toEqual({});
    expect(state.settingError).toEqual({
      property: 'twenty_four_hour_time',
      message: 'Invalid twenty_four_hour_time',
    });
  });

  it('does not let an older request undo a newer change', () => {
    let state = stateFromSnapshot(snapshotFixture());
    state = echoSetting(state, 'twenty_four_hour_time', true, 1);
    state = echoSetting(state, 'twenty_four_hour_time', false, 2);
    state = rollbackSetting(state, 'twenty_four_hour_time', 1, 'boom');
    expect(state.pending.twenty_four_hour_time).toEqual({ value: false, seq: 2, acknowledged: false });
    expect(state.settingError?.message).toBe('boom');
    expect(acknowledgeSetting(state, 'twenty_four_hour_time', 1)).toBe(state);
  });

  it('clears the last error when the user changes something again', () => {
    let state = rollbackSetting(
      echoSetting(stateFromSnapshot(snapshotFixture()), 'dense_mode', false, 1),
      'dense_mode',
      1,
      'no',
    );
    state = echoSetting(state, 'dense_mode', false, 2);
    expect(state.settingError).toBeNull();
  });
});
