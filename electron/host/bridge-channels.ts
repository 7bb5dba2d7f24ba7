/**
 * The preload's allow-list of IPC channels, free of runtime imports.
 *
 * The sandboxed preload is bundled into one file, and shared/ipc builds its zod schemas at
 * module load (about 700 kB of bundled zod for a list of names). So the preload takes its
 * names from here instead. The `Record<…, true>` types make the compiler reject a channel
 * missing from or unknown to the contract, and a unit test checks the lists and the name
 * functions against shared/ipc at runtime as well.
 */
import type { InvokeChannel, PushChannel } from '../../shared/ipc';

const INVOKE: Record<InvokeChannel, true> = {
  'app.getInfo': true,
  'app.getState': true,
  'app.networkChanged': true,
  'accounts.signIn': true,
  'accounts.signOut': true,
  'accounts.setActive': true,
  'account.getSnapshot': true,
  'account.getConnection': true,
  'settings.update': true,
  'subscriptions.updateProperties': true,
  'drafts.list': true,
  'drafts.save': true,
  'drafts.delete': true,
};

const PUSH: Record<PushChannel, true> = {
  'app.state': true,
  'account.snapshot': true,
  'account.events': true,
  'account.connection': true,
  'drafts.changed': true,
};

export const BRIDGE_INVOKE_CHANNELS = Object.keys(INVOKE) as InvokeChannel[];
export const BRIDGE_PUSH_CHANNELS = Object.keys(PUSH) as PushChannel[];

export function isBridgeInvokeChannel(channel: unknown): channel is InvokeChannel {
  return typeof channel === 'string' && Object.hasOwn(INVOKE, channel);
}

export function isBridgePushChannel(channel: unknown): channel is PushChannel {
  return typeof channel === 'string' && Object.hasOwn(PUSH, channel);
}

/** Same names as shared/ipc's electronInvokeChannel / electronPushChannel (tested). */
export const ipcInvokeName = (c: InvokeChannel): string => `confab:invoke:${c}`;
export const ipcPushName = (c: PushChannel): string => `confab:push:${c}`;
