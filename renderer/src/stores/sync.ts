/**
 * Keeps the renderer's stores in step with the main process: the app store (accounts, which
 * one is active) and one account store per signed-in account. Subscribes to the pushes first
 * and reads the current state second, buffering what arrives in between, so a window opened
 * late starts from exactly what the other windows show.
 *
 * Every event batch is also handed to `onEvents` listeners once its store has it: request /
 * response data shown elsewhere (renderer/src/queries/api.ts) is refreshed from there, so this
 * module needs to know nothing about queries.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AccountSnapshot,
  AppState,
  ConfabBridge,
  ConnectionState,
  PushPayloads,
} from '../../../shared/ipc';
import { unwrap } from '../bridge/result';
import { type AccountStore, createAccountStore } from './account';

export interface AppStoreState extends AppState {
  /** False until the first app state arrived (show nothing rather than a wrong screen). */
  loaded: boolean;
  /** Set when reading the app state failed. */
  loadError: string | null;
}

export interface RegistryState {
  stores: Readonly<Record<string, AccountStore>>;
}

export type EventBatch = PushPayloads['account.events'];
export type EventBatchListener = (batch: EventBatch) => void;

interface Loading {
  events: EventBatch[];
}

export interface Sync {
  app: StoreApi<AppStoreState>;
  registry: StoreApi<RegistryState>;
  /** Re-reads everything (after the bridge reconnects: pushes sent while down are lost). */
  resync(): Promise<void>;
  /** Takes a fresh app state from an invoke's answer without waiting for the push. */
  receiveAppState(state: AppState): void;
  /**
   * Calls `listener` with every event batch of every account as it arrives, after the
   * account's store applied it (or buffered it while the store loads). Returns the unsubscribe.
   */
  onEvents(listener: EventBatchListener): () => void;
  dispose(): void;
}

export function createSync(bridge: ConfabBridge): Sync {
  const app = createStore<AppStoreState>()(() => ({
    loaded: false,
    loadError: null,
    accounts: [],
    activeAccountId: null,
  }));
  const registry = createStore<RegistryState>()(() => ({ stores: {} }));
  const loading = new Map<string, Loading>();
  const connections = new Map<string, ConnectionState>();
  const eventListeners = new Set<EventBatchListener>();

  const storeOf = (accountId: string): AccountStore | undefined => registry.getState().stores[accountId];

  const known = (accountId: string) => app.getState().accounts.some((a) => a.id === accountId);

  const install = (snapshot: AccountSnapshot, buffered: EventBatch[] = []) => {
    const existing = storeOf(snapshot.accountId);
    if (existing) {
      existing.getState().actions.receiveSnapshot(snapshot);
      return;
    }
    if (!known(snapshot.accountId)) return;
    const store = createAccountStore(snapshot, bridge, connections.get(snapshot.accountId));
    for (const batch of buffered) store.getState().actions.receiveEvents(batch);
    registry.setState((state) => ({ stores: { ...state.stores, [snapshot.accountId]: store } }));
  };

  const load = async (accountId: string, force = false) => {
    if (loading.has(accountId) || (storeOf(accountId) && !force)) return;
    const entry: Loading = { events: [] };
    loading.set(accountId, entry);
    try {
      const [snapshot, connection] = await Promise.all([
        bridge.invoke('account.getSnapshot', { accountId }).then(unwrap),
        bridge.invoke('account.getConnection', { accountId }).then(unwrap),
      ]);
      connections.set(accountId, connection);
      storeOf(accountId)?.getState().actions.receiveConnection(connection);
      // null: not registered yet; the `account.snapshot` push will bring it.
      if (snapshot && loading.get(accountId) === entry) install(snapshot, entry.events);
    } catch (error) {
      console.error(`Could not load account ${accountId}`, error);
    } finally {
      if (loading.get(accountId) === entry) loading.delete(accountId);
    }
  };

  const receiveAppState = (state: AppState) => {
    app.setState({
      accounts: state.accounts,
      activeAccountId: state.activeAccountId,
      loaded: true,
      loadError: null,
    });
    const ids = new Set(state.accounts.map((a) => a.id));
    const stores = registry.getState().stores;
    const gone = Object.keys(stores).filter((id) => !ids.has(id));
    if (gone.length > 0) {
      const kept: Record<string, AccountStore> = {};
      for (const [id, store] of Object.entries(stores)) if (ids.has(id)) kept[id] = store;
      registry.setState({ stores: kept });
      for (const id of gone) connections.delete(id);
    }
    for (const id of ids) void load(id);
  };

  const unsubscribers = [
    bridge.on('app.state', receiveAppState),
    bridge.on('account.snapshot', (snapshot) => {
      // A snapshot supersedes whatever a pending load would bring.
      const entry = loading.get(snapshot.accountId);
      loading.delete(snapshot.accountId);
      install(snapshot, entry?.events ?? []);
    }),
    bridge.on('account.events', (batch) => {
      const store = storeOf(batch.accountId);
      if (store) store.getState().actions.receiveEvents(batch);
      else loading.get(batch.accountId)?.events.push(batch);
      for (const listener of eventListeners) {
        try {
          listener(batch);
        } catch (error) {
          // One listener's bug must not keep the batch from the others.
          console.error('Event batch listener failed:', error);
        }
      }
    }),
    bridge.on('account.connection', ({ accountId, state }) => {
      connections.set(accountId, state);
      storeOf(accountId)?.getState().actions.receiveConnection(state);
    }),
  ];

  const resync = async () => {
    try {
      receiveAppState(unwrap(await bridge.invoke('app.getState', {})));
      await Promise.all(app.getState().accounts.map((a) => load(a.id, true)));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!app.getState().loaded) app.setState({ loadError: message });
    }
  };

  return {
    app,
    registry,
    resync,
    receiveAppState,
    onEvents(listener) {
      eventListeners.add(listener);
      return () => {
        eventListeners.delete(listener);
      };
    },
    dispose() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      eventListeners.clear();
    },
  };
}
