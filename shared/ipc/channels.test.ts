/**
 * The channel names of the IPC contract (shared/ipc/channels.ts): the sandboxed preload's
 * allow-list, main's ipcMain handlers and the router's check all come from this one list.
 */
import { describe, expect, it } from 'vitest';
import {
  electronInvokeChannel,
  electronPushChannel,
  INVOKE_CHANNELS,
  isInvokeChannel,
  isPushChannel,
  PUSH_CHANNELS,
} from './channels';
import { invokeSchemas } from './index';

describe('the preload allow-list', () => {
  it('has exactly the channels of the contract', () => {
    expect([...INVOKE_CHANNELS].sort()).toEqual(Object.keys(invokeSchemas).sort());
    expect([...PUSH_CHANNELS].sort()).toEqual([
      'account.connection',
      'account.events',
      'account.snapshot',
      'app.openNarrow',
      'app.state',
      'dnd.changed',
      'drafts.changed',
      'outbox.changed',
    ]);
  });

  it('names Electron channels with one prefix per direction, each name once', () => {
    expect(electronInvokeChannel('settings.update')).toBe('confab:invoke:settings.update');
    expect(electronPushChannel('account.events')).toBe('confab:push:account.events');
    const names = [...INVOKE_CHANNELS.map(electronInvokeChannel), ...PUSH_CHANNELS.map(electronPushChannel)];
    expect(new Set(names).size).toBe(INVOKE_CHANNELS.length + PUSH_CHANNELS.length);
  });

  it('refuses other names, including inherited properties', () => {
    expect(isInvokeChannel('app.getInfo')).toBe(true);
    expect(isPushChannel('account.events')).toBe(true);
    for (const bad of ['toString', '__proto__', 'constructor', 'app.getinfo', '', 42, null]) {
      expect(isInvokeChannel(bad)).toBe(false);
      expect(isPushChannel(bad)).toBe(false);
    }
  });
});
