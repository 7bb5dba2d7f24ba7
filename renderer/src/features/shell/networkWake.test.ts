import { describe, expect, it } from 'vitest';
import type { ConfabBridge } from '../../../../shared/ipc';
import { watchNetwork } from './networkWake';

describe('watchNetwork', () => {
  it('tells the main process about online and offline, until stopped', async () => {
    const target = new EventTarget();
    const calls: unknown[] = [];
    const bridge = {
      invoke: async (channel: string, payload: unknown) => {
        calls.push([channel, payload]);
        return { ok: true, value: null };
      },
    } as unknown as Pick<ConfabBridge, 'invoke'>;
    const stop = watchNetwork(target as unknown as Window, bridge);
    target.dispatchEvent(new Event('offline'));
    target.dispatchEvent(new Event('online'));
    expect(calls).toEqual([
      ['app.networkChanged', { online: false }],
      ['app.networkChanged', { online: true }],
    ]);
    stop();
    target.dispatchEvent(new Event('online'));
    expect(calls).toHaveLength(2);
  });

  it('swallows a failed call (the bridge may be down as well)', async () => {
    const target = new EventTarget();
    const bridge = {
      invoke: () => Promise.reject(new Error('bridge closed')),
    } as unknown as Pick<ConfabBridge, 'invoke'>;
    watchNetwork(target as unknown as Window, bridge);
    target.dispatchEvent(new Event('online'));
    // An unhandled rejection would fail the run.
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
