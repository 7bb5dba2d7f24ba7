/**
 * The names of the main <-> renderer contract, written once: the invoke channels (renderer
 * asks, main answers), the push channels (main tells), and how Electron's IPC spells them.
 *
 * Free of runtime imports on purpose: the sandboxed preload is bundled into one file and
 * takes its allow-list from here, while the rest of shared/ipc builds zod schemas at module
 * load (about 700 kB of bundled zod for a list of names). The types come from the contract
 * through `import type` only, so the compiler rejects a name missing from it or unknown to it;
 * shared/ipc/index.ts re-exports everything here.
 */
import type { InvokeResponses, PushPayloads } from './index';

export type InvokeChannel = keyof InvokeResponses;
export type PushChannel = keyof PushPayloads;

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
  'api.call': true,
  'api.upload': true,
  'uploads.image': true,
  'messages.fetch': true,
  'outbox.send': true,
  'outbox.list': true,
  'outbox.retry': true,
  'outbox.discard': true,
  'app.takeOpenNarrow': true,
  'dnd.get': true,
  'dnd.set': true,
};

const PUSH: Record<PushChannel, true> = {
  'app.state': true,
  'account.snapshot': true,
  'account.events': true,
  'account.connection': true,
  'drafts.changed': true,
  'dnd.changed': true,
  'outbox.changed': true,
  'app.openNarrow': true,
};

export const INVOKE_CHANNELS = Object.keys(INVOKE) as InvokeChannel[];
export const PUSH_CHANNELS: readonly PushChannel[] = Object.keys(PUSH) as PushChannel[];

// Object.hasOwn, not `in`: 'toString' or '__proto__' from a page must not pass as a channel.
export function isInvokeChannel(channel: unknown): channel is InvokeChannel {
  return typeof channel === 'string' && Object.hasOwn(INVOKE, channel);
}

export function isPushChannel(channel: unknown): channel is PushChannel {
  return typeof channel === 'string' && Object.hasOwn(PUSH, channel);
}

/** The Electron IPC channel names (one per call, one per push), prefixed to avoid clashes. */
export const electronInvokeChannel = (c: InvokeChannel): string => `confab:invoke:${c}`;
export const electronPushChannel = (c: PushChannel): string => `confab:push:${c}`;
