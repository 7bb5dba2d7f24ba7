/**
 * The per-account zustand store (vanilla, one per signed-in account) built from the
 * register snapshot. Components never see the store itself: they use the hooks in ./hooks.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AccountSnapshot,
  ConfabBridge,
  ConnectionState,
  IpcResult,
  PushPayloads,
} from '../../../shared/ipc';
import type {
  SettingValue,
  SubscriptionPropertyChange,
  SubscriptionPropertyName,
  SubscriptionPropertyValues,
} from '../../../shared/protocol';
import {
  type AccountStoreData,
  acknowledgeSetting,
  acknowledgeSubscriptionProperty,
  applyEventBatch,
  dismissSettingError,
  dismissSubscriptionError,
  echoSetting,
  echoSubscriptionProperty,
  receivePresences,
  replaceSnapshot,
  rollbackSetting,
  rollbackSubscriptionProperty,
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
  /**
   * From the user: change one property of a subscription (is_muted, color, pin_to_top, ...).
   * Null ("follow my own setting") is not offered yet: the overlay holds setting values.
   */
  updateSubscriptionProperty<P extends SubscriptionPropertyName>(
    streamId: number,
    property: P,
    value: Exclude<SubscriptionPropertyValues[P], null>,
  ): Promise<void>;
  dismissSubscriptionError(): void;
  /**
   * Reports the user's presence (POST /users/me/presence, slim_presence) and takes in the
   * answer: everyone's presence that changed since the last report. Resolves once applied;
   * never rejects (a failed report is retried at the next ping).
   */
  reportPresence(status: 'active' | 'idle'): Promise<void>;
}

export type AccountStoreState = AccountStoreData & { actions: AccountActions };
export type AccountStore = StoreApi<AccountStoreState>;

type Transition = (state: AccountStoreData) => AccountStoreData;

/** One echoed write: what to show at once, how to send it, and how it settles or rolls back. */
interface Write<T> {
  echo: Transition;
  send(): Promise<IpcResult<T>>;
  /** A reason to roll back a write the server answered with success (e.g. ignored it). */
  refuse?(value: T): string | null;
  acknowledge: Transition;
  rollback(message: string): Transition;
}

/** Why a write failed, in words for a person. */
function failureMessage(result: IpcResult<unknown>): string | null {
  if (result.ok) return null;
  // The transport's wording ("PATCH /settings: fetch failed") means nothing to a person; the
  // service's own messages are shown as they are.
  return result.error.code === 'NETWORK_ERROR' ? UNREACHABLE : result.error.message;
}

export function createAccountStore(
  snapshot: AccountSnapshot,
  bridge: Pick<ConfabBridge, 'invoke'>,
  connection?: ConnectionState,
): AccountStore {
  let seq = 0;
  return createStore<AccountStoreState>()((set, get) => {
    // Every transition is one `set`, so a batch of events is one update for subscribers.
    const apply = (transition: Transition) =>
      set((state) => {
        const next = transition(state);
        return next === state ? state : { ...next, actions: state.actions };
      });

    const write = async <T>(w: Write<T>): Promise<void> => {
      apply(w.echo);
      let message: string | null;
      try {
        const result = await w.send();
        message = failureMessage(result) ?? (result.ok && w.refuse ? w.refuse(result.value) : null);
      } catch (error) {
        message = error instanceof Error ? error.message : String(error);
      }
      apply(message === null ? w.acknowledge : w.rollback(message));
    };

    return {
      ...stateFromSnapshot(snapshot, connection),
      actions: {
        receiveSnapshot: (next) => apply((state) => replaceSnapshot(state, next)),
        receiveEvents: (batch) => apply((state) => applyEventBatch(state, batch)),
        receiveConnection: (next) => apply((state) => setConnection(state, next)),
        dismissSettingError: () => apply(dismissSettingError),
        async reportPresence(status) {
          const { accountId, presenceLastUpdateId } = get();
          const params = {
            status,
            slim_presence: true,
            new_user_input: status === 'active',
            ...(presenceLastUpdateId === null ? {} : { last_update_id: presenceLastUpdateId }),
          };
          try {
            const result = await bridge.invoke('api.call', {
              accountId,
              method: 'POST',
              path: '/users/me/presence',
              params,
            });
            if (result.ok) apply((state) => receivePresences(state, result.value));
          } catch {
            // The bridge is down: the next ping tries again.
          }
        },
        dismissSubscriptionError: () => apply(dismissSubscriptionError),
        updateSetting(property, value) {
          const mine = ++seq;
          return write({
            echo: (state) => echoSetting(state, property, value, mine),
            send: () =>
              bridge.invoke('settings.update', {
                accountId: get().accountId,
                changes: { [property]: value },
              }),
            refuse: (answer) =>
              answer.ignored_parameters_unsupported.includes(property)
                ? `This server does not support changing ${property}.`
                : null,
            acknowledge: (state) => acknowledgeSetting(state, property, mine),
            rollback: (message) => (state) => rollbackSetting(state, property, mine, message),
          });
        },
        updateSubscriptionProperty(streamId, property, value) {
          const mine = ++seq;
          return write({
            echo: (state) => echoSubscriptionProperty(state, streamId, property, value, mine),
            send: () =>
              bridge.invoke('subscriptions.updateProperties', {
                accountId: get().accountId,
                // One property with its own value type; TypeScript cannot correlate P across the union.
                updates: [{ stream_id: streamId, property, value } as SubscriptionPropertyChange],
              }),
            acknowledge: (state) => acknowledgeSubscriptionProperty(state, streamId, property, mine),
            rollback: (message) => (state) =>
              rollbackSubscriptionProperty(state, streamId, property, mine, message),
          });
        },
      },
    };
  });
}
