/** Local echo of subscription property writes: shown at once, settled by the event, rolled back on failure. */
import { describe, expect, it } from 'vitest';
import type { AccountSnapshot } from '../../../shared/ipc';
import type { ServerEvent } from '../../../shared/protocol';
import { subscription } from '../../../test/fixtures/domain';
import { snapshotFixture } from '../../test/fixtures';
import { createTestBridge } from '../../test/testBridge';
import { createAccountStore, UNREACHABLE } from './account';
import {
  acknowledgeSubscriptionProperty,
  applyEventBatch,
  echoSubscriptionProperty,
  effectiveSubscriptionProperty,
  replaceSnapshot,
  rollbackSubscriptionProperty,
  stateFromSnapshot,
} from './accountState';

const general = subscription(1, 'general');

function snapshot(overrides: { generation?: number; lastEventId?: number } = {}): AccountSnapshot {
  const s = snapshotFixture(overrides);
  return { ...s, state: { ...s.state, subscriptions: [general] } };
}

const update = (id: number, property: string, value: boolean | string | null): ServerEvent => ({
  id,
  type: 'subscription',
  op: 'update',
  stream_id: 1,
  property,
  value,
});
const batch = (...events: ServerEvent[]) => ({ accountId: 'acct-1', generation: 1, events });

describe('subscription property echo (pure)', () => {
  it('shows the write at once and settles on the server event', () => {
    let state = echoSubscriptionProperty(stateFromSnapshot(snapshot()), 1, 'color', '#ff0000', 1);
    expect(effectiveSubscriptionProperty(state, 1, 'color')).toBe('#ff0000');
    expect(state.account.subscriptions.subscribed[1]?.color).toBe('#c2c2c2');
    state = acknowledgeSubscriptionProperty(state, 1, 'color', 1);
    expect(state.pendingSubscriptions['1:color']?.acknowledged).toBe(true);
    state = applyEventBatch(state, batch(update(5, 'color', '#ff0000')));
    expect(state.pendingSubscriptions).toEqual({});
    expect(effectiveSubscriptionProperty(state, 1, 'color')).toBe('#ff0000');
  });

  it('a pending mute answers for in_home_view too, and the legacy event alone settles it', () => {
    let state = echoSubscriptionProperty(stateFromSnapshot(snapshot()), 1, 'is_muted', true, 1);
    expect(effectiveSubscriptionProperty(state, 1, 'in_home_view')).toBe(false);
    state = applyEventBatch(state, batch(update(5, 'in_home_view', false)));
    expect(state.pendingSubscriptions).toEqual({});
    expect(effectiveSubscriptionProperty(state, 1, 'is_muted')).toBe(true);
  });

  it('rolls back on failure and says why; an older failure keeps a newer write', () => {
    let state = echoSubscriptionProperty(stateFromSnapshot(snapshot()), 1, 'pin_to_top', true, 1);
    state = echoSubscriptionProperty(state, 1, 'pin_to_top', false, 2);
    state = rollbackSubscriptionProperty(state, 1, 'pin_to_top', 1, 'boom');
    expect(state.pendingSubscriptions['1:pin_to_top']).toEqual({ value: false, seq: 2, acknowledged: false });
    state = rollbackSubscriptionProperty(state, 1, 'pin_to_top', 2, 'Invalid pin_to_top');
    expect(effectiveSubscriptionProperty(state, 1, 'pin_to_top')).toBe(false);
    expect(state.pendingSubscriptions).toEqual({});
    expect(state.subscriptionError).toEqual({
      streamId: 1,
      property: 'pin_to_top',
      message: 'Invalid pin_to_top',
    });
  });

  it('settles on the answer when the server already had the value (no event comes)', () => {
    let state = echoSubscriptionProperty(stateFromSnapshot(snapshot()), 1, 'is_muted', false, 1);
    state = acknowledgeSubscriptionProperty(state, 1, 'is_muted', 1);
    expect(state.pendingSubscriptions).toEqual({});
  });

  it('a fresh snapshot keeps writes in flight and drops acknowledged ones', () => {
    let state = echoSubscriptionProperty(stateFromSnapshot(snapshot()), 1, 'color', '#000000', 1);
    state = echoSubscriptionProperty(state, 1, 'pin_to_top', true, 2);
    state = acknowledgeSubscriptionProperty(state, 1, 'pin_to_top', 2);
    state = replaceSnapshot(state, snapshot({ generation: 2 }));
    expect(Object.keys(state.pendingSubscriptions)).toEqual(['1:color']);
  });
});

describe('subscription property writes through the store', () => {
  it('sends the write over IPC, echoing it until the event', async () => {
    const test = createTestBridge();
    const store = createAccountStore(snapshot(), test.bridge);
    const done = store.getState().actions.updateSubscriptionProperty(1, 'is_muted', true);
    expect(effectiveSubscriptionProperty(store.getState(), 1, 'is_muted')).toBe(true);
    expect(test.held.map((c) => [c.channel, c.request])).toEqual([
      [
        'subscriptions.updateProperties',
        { accountId: 'acct-1', updates: [{ stream_id: 1, property: 'is_muted', value: true }] },
      ],
    ]);
    test.held[0]?.resolve({ ok: true, value: null });
    await done;
    expect(store.getState().pendingSubscriptions['1:is_muted']?.acknowledged).toBe(true);
    let updates = 0;
    store.subscribe(() => updates++);
    store
      .getState()
      .actions.receiveEvents(batch(update(5, 'is_muted', true), update(6, 'in_home_view', false)));
    expect(updates).toBe(1);
    expect(store.getState().pendingSubscriptions).toEqual({});
    expect(store.getState().account.subscriptions.subscribed[1]).toMatchObject({
      is_muted: true,
      in_home_view: false,
    });
  });

  it('rolls back with the server message, or says the server could not be reached', async () => {
    const test = createTestBridge();
    const store = createAccountStore(snapshot(), test.bridge);
    const first = store.getState().actions.updateSubscriptionProperty(1, 'color', 'red');
    test.held[0]?.resolve({ ok: false, error: { message: 'Invalid color', code: 'BAD_REQUEST' } });
    await first;
    expect(effectiveSubscriptionProperty(store.getState(), 1, 'color')).toBe('#c2c2c2');
    expect(store.getState().subscriptionError).toEqual({
      streamId: 1,
      property: 'color',
      message: 'Invalid color',
    });

    const second = store.getState().actions.updateSubscriptionProperty(1, 'pin_to_top', true);
    expect(store.getState().subscriptionError).toBeNull();
    test.held[1]?.resolve({ ok: false, error: { message: 'POST: fetch failed', code: 'NETWORK_ERROR' } });
    await second;
    expect(effectiveSubscriptionProperty(store.getState(), 1, 'pin_to_top')).toBe(false);
    expect(store.getState().subscriptionError?.message).toBe(UNREACHABLE);
    store.getState().actions.dismissSubscriptionError();
    expect(store.getState().subscriptionError).toBeNull();
  });
});
