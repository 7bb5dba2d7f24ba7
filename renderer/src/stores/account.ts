/**
 * The per-account zustand store (vanilla, one per signed-in account) built from the
 * register snapshot. Components never see the store itself: they use the hooks in ./hooks.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AccountSnapshot, ConfabBridge, ConnectionState, PushPayloads } from '../../../shared/ipc';
import type { SettingValue } from '../../../shared/protocol';
import {
  type AccountStoreData,
  acknowledgeSetting,
  applyEventBatch,
  dismissSettingError,
  echoSetting,
  replaceSnapshot,
  rollbackSetting,
  setConnection,
  stateFromSnapshot,
} from './accountState';

export const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

export interface AccountActions {
  /** From the main process. */
  receiveSnapshot(snapshot: AccountSnapshot): void;
  receiveEvents(batch: PushPayloads['account.events']): void;
  receiveConnection(connection: ConnectionState): void;
  /** From the user: change one setting (local echo, then renderer -> main -> server). */
  updateSetting(property: string, value: SettingValue): Promise<void>;
  dismissSettingError(): void;
}

export type AccountStoreState = AccountStoreData & { actions: AccountActions };
export type AccountStore = StoreApi<AccountStoreState>;

export function createAccountStore(
  snapshot: AccountSnapshot,
  bridge: Pick<ConfabBridge, 'invoke'>,
  connection?: ConnectionState,
): AccountStore {
  let seq = 0;
  return createStore<AccountStoreState>()((set, get) => {
    // Every transition is one `set`, so a batch of events is one update for subscribers.
    const apply = (transition: (state: AccountStoreData) => AccountStoreData) =>
      set((state) => {
        const next = transition(state);
        return next === state ? state : { ...next, actions: state.actions };
      });

    return {
      ...stateFromSnapshot(snapshot, connection),
      actions: {
        receiveSnapshot: (next) => apply((state) => replaceSnapshot(state, next)),
        receiveEvents: (batch) => apply((state) => applyEventBatch(state, batch)),
        receiveConnection: (next) => apply((state) => setConnection(state, next)),
        dismissSettingError: () => apply(dismissSettingError),
        async updateSetting(property, value) {
          const mine = ++seq;
          apply((state) => echoSetting(state, property, value, mine));
          let message: string | null = null;
          try {
            const result = await bridge.invoke('settings.update', {
              accountId: get().accountId,
              changes: { [property]: value },
            });
            if (!result.ok) {
              // The transport's wording ("PATCH /settings: fetch failed") means nothing to a
              // person; the service's own messages are shown as they are.
              message = result.error.code === 'NETWORK_ERROR' ? UNREACHABLE : result.error.message;
            } else if (result.value.ignored_parameters_unsupported.includes(property)) {
              message = `This server does not support changing ${property}.`;
            }
          } catch (error) {
            message = error instanceof Error ? error.message : String(error);
          }
          if (message === null) apply((state) => acknowledgeSetting(state, property, mine));
          else {
            const failure = message;
            apply((state) => rollbackSetting(state, property, mine, failure));
          }
        },
      },
    };
  });
}
