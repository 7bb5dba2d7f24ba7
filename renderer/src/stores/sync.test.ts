import { describe, expect, it } from 'vitest';
import type { AccountSnapshot, AccountSummary, ConnectionState } from '../../../shared/ipc';
import { settingEvent, snapshotFixture } from '../../test/fixtures';
import { createTestBridge, flush } from '../../test/testBridge';
import { createSync } from './sync';

const account = (id: string): AccountSummary => ({
  id,
  serverUrl: 'http://127.0.0.1:9991',
  email: `${id}@example.com`,
  userId: 12,
  fullName: null,
  serviceVersion: '1.0.0',
  featureLevel: 100,
});
const connected: ConnectionState = { status: 'connected', nextRetryAt: null, lastError: null };

function setup() {
  const test = createTestBridge();
  test.handle('app.getState', () => ({ accounts: [account('acct-1')], activeAccountId: 'acct-1' }));
  test.handle('account.getConnection', () => connected);
  return test;
}

/** A sync that has read the app state and, through `snapshot`, the account's snapshot. */
async function resynced(snapshot: () => AccountSnapshot | null) {
  const test = setup();
  test.handle('account.getSnapshot', snapshot);
  const sync = createSync(test.bridge);
  await sync.resync();
  await flush();
  return { test, sync };
}

describe('sync between the main process and the stores', () => {
  it('reads the app state and builds a store from the account snapshot', async () => {
    const test = setup();
    test.handle('account.getSnapshot', () => snapshotFixture());
    const sync = createSync(test.bridge);
    expect(sync.app.getState().loaded).toBe(false);
    await sync.resync();
    await flush();
    expect(sync.app.getState()).toMatchObject({ loaded: true, activeAccountId: 'acct-1' });
    const store = sync.registry.getState().stores['acct-1'];
    expect(store?.getState().generation).toBe(1);
    expect(store?.getState().connection).toEqual(connected);
  });

  it('applies events that arrive while the snapshot is being read', async () => {
    const test = setup();
    const sync = createSync(test.bridge);
    await sync.resync();
    // The snapshot request is held: an event batch arrives before its answer.
    const call = test.held.find((c) => c.channel === 'account.getSnapshot');
    expect(call).toBeDefined();
    test.push('account.events', {
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(4, 'dense_mode', false), settingEvent(5, 'twenty_four_hour_time', true)],
    });
    call?.resolve({ ok: true, value: snapshotFixture({ lastEventId: 4 }) });
    await flush();
    const settings = sync.registry.getState().stores['acct-1']?.getState().account.userSettings;
    // Event 4 was already in the snapshot (which says dense_mode is true); event 5 was not.
    expect(settings?.dense_mode).toBe(true);
    expect(settings?.twenty_four_hour_time).toBe(true);
  });

  it('waits for the snapshot push when the account has not registered yet', async () => {
    const { test, sync } = await resynced(() => null);
    expect(sync.registry.getState().stores['acct-1']).toBeUndefined();
    test.push('account.connection', { accountId: 'acct-1', state: connected });
    test.push('account.snapshot', snapshotFixture({ generation: 2 }));
    const store = sync.registry.getState().stores['acct-1'];
    expect(store?.getState().generation).toBe(2);
    expect(store?.getState().connection).toEqual(connected);
  });

  it('routes pushes to the right store', async () => {
    const { test, sync } = await resynced(() => snapshotFixture());
    const store = sync.registry.getState().stores['acct-1'];
    test.push('account.events', {
      accountId: 'acct-1',
      generation: 1,
      events: [settingEvent(5, 'enter_sends', true)],
    });
    expect(store?.getState().account.userSettings.enter_sends).toBe(true);
    test.push('account.connection', {
      accountId: 'acct-1',
      state: { status: 'reconnecting', nextRetryAt: 1000, lastError: 'fetch failed' },
    });
    expect(store?.getState().connection.status).toBe('reconnecting');
    test.push('account.snapshot', snapshotFixture({ generation: 2 }));
    expect(store?.getState().generation).toBe(2);
    expect(sync.registry.getState().stores['acct-1']).toBe(store);
  });

  it('drops the store of an account that was signed out', async () => {
    const { test, sync } = await resynced(() => snapshotFixture());
    test.push('app.state', { accounts: [], activeAccountId: null });
    expect(sync.registry.getState().stores).toEqual({});
    expect(sync.app.getState().accounts).toEqual([]);
  });

  it('reports a failure to read the app state', async () => {
    const test = createTestBridge();
    const sync = createSync(test.bridge);
    const done = sync.resync();
    test.held[0]?.reject(new Error('The connection to the Confab app was lost.'));
    await done;
    expect(sync.app.getState()).toMatchObject({
      loaded: false,
      loadError: 'The connection to the Confab app was lost.',
    });
  });

  it('stops listening when disposed', () => {
    const test = setup();
    const sync = createSync(test.bridge);
    expect(test.listenerCount('account.events')).toBe(1);
    sync.dispose();
    expect(test.listenerCount('account.events')).toBe(0);
  });
});
