/**
 * The core of the main process, free of Electron: accounts, credentials, one UpdateMachine per
 * account, and the IPC router. Electron's glue (electron/main) and browser mode's host
 * (electron/host) each create one core and connect their transport to `handleInvoke` and
 * `onPush`; nothing else crosses into a renderer, and never an API key.
 */
import { z } from 'zod';
import type { ApiClient, CallOptions, FetchLike } from '../../shared/client';
import type { AccountState } from '../../shared/domain';
import type {
  AccountSummary,
  AppState,
  ConnectionState,
  DemoLogin,
  IpcResult,
  PushChannel,
  PushPayloads,
} from '../../shared/ipc';
import { UNSYNCED_DRAFTS } from '../../shared/ipc';
import { Accounts, normalizeServerUrl, unknownAccount } from './accounts';
import { DraftsService, draftsFileFor } from './drafts';
import { CoreError } from './errors';
import { readTextIfExists } from './files';
import { createRouter, type InvokeHandlers } from './router';
import type { SecretStore } from './secrets';
import { UpdateMachine } from './update-machine';

export { Accounts, accountIdFor, normalizeServerUrl } from './accounts';
export { CoreError } from './errors';
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

export type PushListener = <P extends PushChannel>(channel: P, payload: PushPayloads[P]) => void;

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
   * An account's current state (shared/domain) and its snapshot generation, null while it has
   * none. Current as of the latest push: a push listener reads the state that includes it.
   */
  accountState(accountId: string): { generation: number; state: AccountState } | null;
}

/** Roles of demo-credentials.json, in the order the sign-in screen offers them. */
const DEMO_ROLES = ['owner', 'admin', 'moderator', 'alice', 'bob', 'guest'] as const;

const demoCredentialsSchema = z.looseObject({
  url: z.string(),
  password: z.string(),
  users: z.looseObject(
    Object.fromEntries(DEMO_ROLES.map((r) => [r, z.string()])) as Record<
      (typeof DEMO_ROLES)[number],
      z.ZodString
    >,
  ),
});

/** A write that hangs must not hold the renderer's promise forever. */
const WRITE_TIMEOUT_MS = 30_000;

const NO_CREDENTIALS: ConnectionState = {
  status: 'offline',
  nextRetryAt: null,
  lastError: 'No stored credentials for this account: sign in again.',
};

export function createCore(options: CoreOptions): Core {
  const accounts = new Accounts({
    profileDir: options.profileDir,
    secretStore: options.secretStore,
    userAgent: `Confab/${options.appVersion} (${options.mode})`,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const machines = new Map<string, UpdateMachine>();
  /**
   * Each running machine's API client (credentials included), made once when the machine
   * starts and shared by its machine, its drafts outbox and the write handlers, so a write
   * does not read and decrypt the secrets file again. Dropped with the machine (sign-out, a
   * new sign-in, stop).
   */
  const clients = new Map<string, ApiClient>();
  /** Accounts whose machine could not start (no key): why, for account.getConnection. */
  const unstarted = new Map<string, ConnectionState>();
  /** Next snapshot generation per account, so it keeps rising across sign-ins. */
  const nextGeneration = new Map<string, number>();
  const listeners = new Set<PushListener>();
  /** Each account's drafts store, opened once (also without a key: drafts are local first). */
  const drafts = new Map<string, Promise<DraftsService>>();
  let starting: Promise<void> | null = null;

  function push<P extends PushChannel>(channel: P, payload: PushPayloads[P]): void {
    for (const listener of listeners) {
      try {
        listener(channel, payload);
      } catch (error) {
        console.error(`Push listener failed on ${channel}:`, error);
      }
    }
  }

  const pushAppState = () => push('app.state', accounts.appState());

  function draftsFor(id: string): Promise<DraftsService> {
    let service = drafts.get(id);
    if (!service) {
      service = DraftsService.open({
        file: draftsFileFor(options.profileDir, id),
        onChange: (list) => push('drafts.changed', { accountId: id, drafts: list }),
      });
      drafts.set(id, service);
      // A failed open is retried by the next call rather than remembered.
      service.catch(() => drafts.delete(id));
    }
    return service;
  }

  /** Drafts follow the account's machine: its snapshots and events merge, its reconnects retry. */
  function attachDrafts(id: string, machine: UpdateMachine, client: ApiClient): void {
    const withDrafts = (what: string, task: (service: DraftsService) => Promise<void> | void) =>
      void draftsFor(id)
        .then(task)
        .catch((error) => console.error(`Drafts of ${id}: ${what} failed:`, error));
    withDrafts('connect', (service) => service.connect(client));
    machine.on('snapshot', (snapshot) => withDrafts('snapshot', (s) => s.onSnapshot(snapshot.state)));
    machine.on('events', (batch) => withDrafts('events', (s) => s.onEvents(batch.events)));
    let cutOff = false;
    machine.on('connection', (state) => {
      if (state.status !== 'connected') cutOff = true;
      else if (cutOff) {
        cutOff = false;
        withDrafts('reconnect', (s) => s.reconnected());
      }
    });
  }

  async function closeDrafts(id: string): Promise<void> {
    const service = drafts.get(id);
    if (!service) return;
    drafts.delete(id);
    await (await service.catch(() => null))?.close();
  }

  function wakeAll(): void {
    for (const machine of machines.values()) machine.wake();
  }

  function startMachine(account: AccountSummary, apiKey: string): void {
    const id = account.id;
    const client = accounts.client(account, apiKey);
    const machine = new UpdateMachine({
      accountId: id,
      client,
      firstGeneration: nextGeneration.get(id) ?? 0,
    });
    machine.on('snapshot', (snapshot) => {
      nextGeneration.set(id, snapshot.generation + 1);
      push('account.snapshot', snapshot);
      void refreshSummary(id, snapshot.state);
    });
    machine.on('events', (batch) => {
      push('account.events', batch);
      // A restored queue after a server restart: the account list shows the new version.
      const restart = batch.events.findLast((e) => e.type === 'restart');
      if (restart) void refreshServer(id, restart.service_version, restart.service_feature_level);
    });
    machine.on('connection', (state) => push('account.connection', { accountId: id, state }));
    attachDrafts(id, machine, client);
    // Two sign-ins of one account racing must not leave a machine running unseen.
    void machines.get(id)?.stop({ deleteQueue: true });
    machines.set(id, machine);
    clients.set(id, client);
    unstarted.delete(id);
    machine.start();
  }

  async function stopMachine(id: string, deleteQueue: boolean): Promise<void> {
    const machine = machines.get(id);
    if (!machine) return;
    machines.delete(id);
    clients.delete(id);
    await machine.stop({ deleteQueue });
  }

  /** Keeps the account list's name and server version in step with the latest snapshot. */
  async function refreshSummary(
    id: string,
    state: NonNullable<ReturnType<UpdateMachine['snapshot']>>['state'],
  ) {
    const self = state.realm_users?.find((u) => u.user_id === state.user_id);
    await saveSummary(id, {
      serviceVersion: state.service_version,
      featureLevel: state.service_feature_level,
      ...(state.user_id !== undefined && { userId: state.user_id }),
      ...(self && { fullName: self.full_name }),
    });
  }

  function refreshServer(id: string, serviceVersion: string, featureLevel: number): Promise<void> {
    return saveSummary(id, { serviceVersion, featureLevel });
  }

  async function saveSummary(id: string, patch: Parameters<Accounts['update']>[1]): Promise<void> {
    try {
      if (await accounts.update(id, patch)) pushAppState();
    } catch (error) {
      console.error('Could not save the account list:', error);
    }
  }

  function requireAccount(id: string): AccountSummary {
    const account = accounts.get(id);
    if (!account) throw unknownAccount(id);
    return account;
  }

  async function demoLogins(): Promise<DemoLogin[]> {
    const file = options.demoCredentialsFile;
    if (!file || !options.defaultServerUrl) return [];
    try {
      const text = await readTextIfExists(file);
      if (text === null) return [];
      const demo = demoCredentialsSchema.parse(JSON.parse(text));
      if (normalizeServerUrl(demo.url) !== normalizeServerUrl(options.defaultServerUrl)) return [];
      return DEMO_ROLES.map((role) => ({ role, email: demo.users[role], password: demo.password }));
    } catch {
      // A missing or foreign file only means no demo shortcuts on the sign-in screen.
      return [];
    }
  }

  async function appState(): Promise<AppState> {
    await accounts.load();
    return accounts.appState();
  }

  async function setActiveAccount(accountId: string): Promise<AppState> {
    await accounts.load();
    await accounts.setActive(accountId);
    pushAppState();
    return accounts.appState();
  }

  /**
   * A write to the account's server with the client of its running machine. The new values
   * come back through the event queue, like a change from any other client.
   */
  async function write<T>(
    accountId: string,
    send: (client: ApiClient, options: CallOptions) => Promise<T>,
  ): Promise<T> {
    await accounts.load();
    requireAccount(accountId);
    const client = clients.get(accountId);
    if (!client) {
      // No machine: no key was stored, or it could not be read (unstarted says why).
      const why = unstarted.get(accountId)?.lastError ?? NO_CREDENTIALS.lastError;
      throw new CoreError('SIGNED_OUT', why as string);
    }
    return send(client, { signal: AbortSignal.timeout(WRITE_TIMEOUT_MS) });
  }

  const handlers: InvokeHandlers = {
    'app.getInfo': async () => ({
      mode: options.mode,
      appVersion: options.appVersion,
      defaultServerUrl: options.defaultServerUrl,
      demoLogins: await demoLogins(),
      secretStorageEncrypted: options.secretStore.encrypted,
    }),
    'app.getState': () => appState(),
    'app.networkChanged': async () => {
      // Up or down, a waiting poll or back-off may now be stale: try at once and learn which.
      wakeAll();
      return null;
    },
    'accounts.signIn': async ({ serverUrl, email, password }) => {
      const { account, apiKey } = await accounts.signIn(serverUrl, email, password);
      // Signing in again replaces the old key: its machine goes, a new one starts.
      await stopMachine(account.id, true);
      // The list first, so that the renderer knows the account its machine reports on.
      pushAppState();
      startMachine(account, apiKey);
      return account;
    },
    'accounts.signOut': async ({ accountId, force }) => {
      await accounts.load();
      requireAccount(accountId);
      // Nothing typed is lost: drafts the server lacks stay on disk, but ask first.
      const unsynced = (await draftsFor(accountId)).unsyncedCount();
      if (unsynced > 0 && !force) {
        throw new CoreError(
          UNSYNCED_DRAFTS,
          `You have ${unsynced} ${unsynced === 1 ? 'draft' : 'drafts'} not yet saved to the server.`,
        );
      }
      await stopMachine(accountId, true);
      // Closed, not deleted: <profileDir>/drafts/<accountId>.jsonl stays for the next sign-in.
      await closeDrafts(accountId);
      unstarted.delete(accountId);
      await accounts.remove(accountId);
      pushAppState();
      return accounts.appState();
    },
    'accounts.setActive': ({ accountId }) => setActiveAccount(accountId),
    'account.getSnapshot': async ({ accountId }) => {
      await accounts.load();
      requireAccount(accountId);
      return machines.get(accountId)?.snapshot() ?? null;
    },
    'account.getConnection': async ({ accountId }) => {
      await accounts.load();
      requireAccount(accountId);
      return machines.get(accountId)?.connection() ?? unstarted.get(accountId) ?? NO_CREDENTIALS;
    },
    'settings.update': ({ accountId, changes }) =>
      write(accountId, (client, call) => client.updateSettings(changes, call)),
    'subscriptions.updateProperties': async ({ accountId, updates }) => {
      await write(accountId, (client, call) => client.updateSubscriptionProperties(updates, call));
      return null;
    },
    'drafts.list': async ({ accountId }) => {
      await accounts.load();
      requireAccount(accountId);
      return (await draftsFor(accountId)).list();
    },
    'drafts.save': async ({ accountId, draft }) => {
      await accounts.load();
      requireAccount(accountId);
      return (await draftsFor(accountId)).save(draft);
    },
    'drafts.delete': async ({ accountId, localId }) => {
      await accounts.load();
      requireAccount(accountId);
      const service = await draftsFor(accountId);
      await service.delete(localId);
      return service.list();
    },
  };

  const router = createRouter(handlers, options.isTrustedSender);

  return {
    start() {
      starting ??= (async () => {
        await accounts.load();
        for (const account of accounts.list()) {
          if (machines.has(account.id)) continue;
          let apiKey: string | null;
          try {
            apiKey = await accounts.apiKey(account.id);
          } catch (error) {
            unstarted.set(account.id, {
              status: 'offline',
              nextRetryAt: null,
              lastError: error instanceof Error ? error.message : String(error),
            });
            continue;
          }
          if (apiKey === null) unstarted.set(account.id, NO_CREDENTIALS);
          else startMachine(account, apiKey);
        }
      })();
      return starting;
    },
    async stop() {
      await Promise.all([...machines.keys()].map((id) => stopMachine(id, false)));
      await Promise.all([...drafts.keys()].map((id) => closeDrafts(id)));
    },
    handleInvoke: (sender, channel, payload) => router.handleInvoke(sender, channel, payload),
    onPush(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    wakeAll,
    setActiveAccount,
    accountState: (accountId) => machines.get(accountId)?.accountState() ?? null,
  };
}
