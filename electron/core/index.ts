/**
 * The core of the main process, free of Electron: accounts, credentials, one session (an
 * UpdateMachine) per account, drafts, messages (offline cache and outbox), writes, the REST proxy (api-proxy.ts), do not disturb
 * (dnd.ts) and the IPC router, each a small service of its own, wired together here.
 * Electron's glue (electron/main) and browser mode each create one core and connect their
 * transport to `handleInvoke` and `onPush`; nothing else crosses into a renderer, and never an
 * API key.
 */
import type { FetchLike } from '../../shared/client';
import type { AccountState } from '../../shared/domain';
import type { Narrow } from '../../shared/domain/narrow';
import type { AppState, IpcResult } from '../../shared/ipc';
import { AccountService } from './account-service';
import { Accounts } from './accounts';
import { ApiProxy } from './api-proxy';
import { appInfo } from './app-info';
import { DoNotDisturb } from './dnd';
import { DraftStores } from './drafts';
import { invokeHandlers } from './handlers';
import { MessageServices } from './messages';
import { OpenRequests } from './open-requests';
import { PushFanOut, type PushListener } from './push';
import { createRouter } from './router';
import type { SecretStore } from './secrets';
import { ServerWrites } from './server-writes';
import { Sessions } from './sessions';

export { Accounts, accountIdFor, normalizeServerUrl } from './accounts';
export { CoreError } from './errors';
export type { PushListener } from './push';
export { type Router, toIpcError, UNTRUSTED_SENDER_MESSAGE } from './router';
export { EncryptedFileSecretStore, FileSecretStore, type SecretCipher, type SecretStore } from './secrets';
export { UpdateMachine, type UpdateMachineOptions } from './update-machine';

export interface CoreOptions {
  /** The app's own data dir (accounts.json); the secrets file lives where the caller says. */
  profileDir: string;
  secretStore: SecretStore;
  mode: 'electron' | 'browser';
  appVersion: string;
  /** Prefill for the sign-in screen. */
  defaultServerUrl: string | null;
  /**
   * The embedded server's demo-credentials.json; its users and password become
   * AppInfo.demoLogins when its url equals defaultServerUrl.
   */
  demoCredentialsFile?: string | null;
  /** Glue-specific check (Electron: frame URL is our app:// origin; browser host: an authenticated socket). */
  isTrustedSender: (sender: unknown) => boolean;
  /** Default: the global fetch. */
  fetch?: FetchLike;
}

export interface Core {
  /** Loads accounts and starts an UpdateMachine for each stored one. */
  start(): Promise<void>;
  /** Stops all machines (does not sign out). */
  stop(): Promise<void>;
  /** Never throws: refusals and failures come back as `{ok: false, error}`. */
  handleInvoke(sender: unknown, channel: unknown, payload: unknown): Promise<IpcResult<unknown>>;
  onPush(listener: PushListener): () => void;
  /** The network came back, or the computer resumed from sleep. */
  wakeAll(): void;
  /**
   * Makes the account the active one and pushes app.state, as `accounts.setActive` does for a
   * renderer. For the glue's own decisions (a notification was clicked): no sender to vouch
   * for, so it works before the window has loaded the app. Rejects for an unknown account.
   */
  setActiveAccount(accountId: string): Promise<AppState>;
  /**
   * Shows a conversation (a notification was clicked): makes the account the active one, as
   * setActiveAccount does, then pushes app.openNarrow. Rejects for an unknown account.
   */
  openNarrow(accountId: string, narrow: Narrow, messageId: number | null): Promise<void>;
  /**
   * An account's current state (shared/domain) and its snapshot generation, null while it has
   * none. Current as of the latest push: a push listener reads the state that includes it.
   */
  accountState(accountId: string): { generation: number; state: AccountState } | null;
  /**
   * Whether do not disturb is on now, for the glue's notification paths (every window shares
   * it; it is read from the profile before `start` starts any account).
   */
  isDoNotDisturb(): boolean;
}

export function createCore(options: CoreOptions): Core {
  const pushes = new PushFanOut();
  const push = pushes.push;
  const userAgent = `Confab/${options.appVersion} (${options.mode})`;
  const store = new Accounts({
    profileDir: options.profileDir,
    secretStore: options.secretStore,
    userAgent,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const sessions = new Sessions(store, push);
  const drafts = new DraftStores({
    profileDir: options.profileDir,
    push,
    syncSetting: (id) => {
      const value = sessions.accountState(id)?.state.userSettings.enable_drafts_synchronization;
      return typeof value === 'boolean' ? value : null;
    },
  });
  const messages = new MessageServices({
    profileDir: options.profileDir,
    push,
    sessions,
    ownUserId: (id) => sessions.accountState(id)?.state.userId ?? store.get(id)?.userId ?? null,
  });
  const accounts = new AccountService({ store, sessions, drafts, messages, push });
  // Our own write of the drafts setting reaches the drafts before its event does.
  const writes = new ServerWrites(accounts, sessions, (id, changes, ignored) =>
    drafts.settingsWritten(id, changes, ignored),
  );
  sessions.onStart((id, machine, client) => {
    accounts.follow(id, machine);
    drafts.follow(id, machine, client);
    messages.follow(id, machine, client);
  });
  const api = new ApiProxy(accounts, sessions);
  const dnd = new DoNotDisturb({ profileDir: options.profileDir, push });
  const openRequests = new OpenRequests();
  const info = () => appInfo({ ...options, secretStorageEncrypted: options.secretStore.encrypted });
  const router = createRouter(
    invokeHandlers({ info, accounts, sessions, drafts, messages, writes, api, dnd, openRequests }),
    options.isTrustedSender,
  );
  let starting: Promise<void> | null = null;

  return {
    start() {
      // Do not disturb first: no account's first batch may notify before it is known.
      starting ??= dnd.load().then(() => sessions.startStored());
      return starting;
    },
    async stop() {
      dnd.close();
      await sessions.stopAll();
      await drafts.closeAll();
      await messages.closeAll();
    },
    handleInvoke: (sender, channel, payload) => router.handleInvoke(sender, channel, payload),
    onPush: (listener) => pushes.listen(listener),
    wakeAll: () => sessions.wakeAll(),
    setActiveAccount: (accountId) => accounts.setActive(accountId),
    async openNarrow(accountId, narrow, messageId) {
      await accounts.setActive(accountId);
      const request = { accountId, narrow, messageId };
      openRequests.offer(request);
      push('app.openNarrow', request);
    },
    accountState: (accountId) => sessions.accountState(accountId),
    isDoNotDisturb: () => dnd.isOn(),
  };
}
