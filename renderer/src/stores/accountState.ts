/**
 * One account's renderer state and the pure transitions on it. The zustand store in
 * ./account.ts only wires these to `set`, so every rule here is testable without a DOM.
 *
 * Local echo (./echo.ts): a changed setting or subscription property is shown at once through
 * an overlay on the server's values and settles when the server's own event for it arrives.
 * The server's values in `account` are never edited locally, so a failed write rolls back by
 * dropping its overlay.
 */
import {
  type AccountState,
  accountStateFromSnapshot,
  applyEvents,
  mergePresences,
} from '../../../shared/domain';
import type { AccountSnapshot, ConnectionState, PushPayloads } from '../../../shared/ipc';
import type { SettingValue, Subscription } from '../../../shared/protocol';
import {
  acknowledgeWrite,
  echoWrite,
  keepInFlight,
  type Overlay,
  type PendingWrite,
  rollbackWrite,
  settleWrite,
} from './echo';

export type PendingSetting = PendingWrite<SettingValue>;

export interface SettingError {
  property: string;
  message: string;
}

export interface SubscriptionError {
  streamId: number;
  property: string;
  message: string;
}

export interface AccountStoreData {
  accountId: string;
  generation: number;
  /** The last event of this generation's queue that `account` has absorbed (the snapshot's at first). */
  lastEventId: number;
  account: AccountState;
  connection: ConnectionState;
  /** Settings being written, by property. */
  pending: Overlay<SettingValue>;
  settingError: SettingError | null;
  /** Subscription properties being written, by subscriptionKey(stream_id, property). */
  pendingSubscriptions: Overlay<SettingValue>;
  subscriptionError: SubscriptionError | null;
  /**
   * The newest presence data we hold, for POST /users/me/presence's last_update_id (the server
   * then answers only what changed since); null: everything.
   */
  presenceLastUpdateId: number | null;
  /**
   * The state is the main process's saved copy (the server could not be reached at start):
   * shown, marked as possibly out of date, until a fresh register replaces it.
   */
  cached: boolean;
}

export const INITIAL_CONNECTION: ConnectionState = {
  status: 'connecting',
  nextRetryAt: null,
  lastError: null,
};

export const subscriptionKey = (streamId: number, property: string): string => `${streamId}:${property}`;

/** register's presence_last_update_id, when the server gave one. */
function presenceLastUpdateIdOf(snapshot: AccountSnapshot): number | null {
  const id = (snapshot.state as { presence_last_update_id?: unknown }).presence_last_update_id;
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
}

export function stateFromSnapshot(
  snapshot: AccountSnapshot,
  connection: ConnectionState = INITIAL_CONNECTION,
): AccountStoreData {
  return {
    accountId: snapshot.accountId,
    generation: snapshot.generation,
    lastEventId: snapshot.state.last_event_id,
    account: accountStateFromSnapshot(snapshot.state),
    connection,
    pending: {},
    settingError: null,
    pendingSubscriptions: {},
    subscriptionError: null,
    presenceLastUpdateId: presenceLastUpdateIdOf(snapshot),
    cached: snapshot.cached === true,
  };
}

/**
 * A fresh snapshot replaces the server's side wholesale (never merged into state that may
 * be wrong), unless it is an older picture of the same queue than the state we hold. Overlays
 * the server already acknowledged are settled by it; writes still in flight stay visible until
 * their answer comes.
 */
export function replaceSnapshot(state: AccountStoreData, snapshot: AccountSnapshot): AccountStoreData {
  // The same queue, but older than what we already applied (read before a batch we got).
  if (snapshot.generation === state.generation && snapshot.state.last_event_id < state.lastEventId) {
    return state;
  }
  // The saved copy never replaces a state the server gave.
  if (snapshot.cached === true && !state.cached) return state;
  return {
    ...state,
    generation: snapshot.generation,
    lastEventId: snapshot.state.last_event_id,
    account: accountStateFromSnapshot(snapshot.state),
    pending: keepInFlight(state.pending),
    pendingSubscriptions: keepInFlight(state.pendingSubscriptions),
    presenceLastUpdateId: presenceLastUpdateIdOf(snapshot),
    cached: snapshot.cached === true,
  };
}

/**
 * Applies one poll's batch. A batch of another generation belongs to a queue whose state we
 * no longer hold (or not yet): dropping it is right, the matching snapshot carries its effect.
 * Events the state already absorbed (id <= lastEventId) are skipped, so a snapshot fetched
 * while a batch was in flight does not see it twice.
 */
export function applyEventBatch(
  state: AccountStoreData,
  batch: PushPayloads['account.events'],
): AccountStoreData {
  if (batch.generation !== state.generation || batch.accountId !== state.accountId) return state;
  const events = batch.events.filter((event) => event.id > state.lastEventId);
  if (events.length === 0) return state;
  const account = applyEvents(state.account, events);
  let pending = state.pending;
  let pendingSubscriptions = state.pendingSubscriptions;
  let lastEventId = state.lastEventId;
  for (const event of events) {
    lastEventId = Math.max(lastEventId, event.id);
    // Our own write came back: the server's value now says the same thing.
    if (event.type === 'user_settings') pending = settleWrite(pending, event.property, event.value);
    if (event.type === 'subscription' && event.op === 'update') {
      const key = subscriptionKey(event.stream_id, event.property);
      pendingSubscriptions = settleWrite(pendingSubscriptions, key, event.value);
      // A server that sends only the legacy form still settles a mute.
      if (event.property === 'in_home_view') {
        const muted = subscriptionKey(event.stream_id, 'is_muted');
        pendingSubscriptions = settleWrite(pendingSubscriptions, muted, event.value !== true);
      }
    }
  }
  return { ...state, lastEventId, account, pending, pendingSubscriptions };
}

/**
 * The answer of POST /users/me/presence (modern form, slim_presence): every user's presence
 * that changed since `presenceLastUpdateId`, which moves to the answer's own.
 */
export function receivePresences(
  state: AccountStoreData,
  answer: Readonly<Record<string, unknown>>,
): AccountStoreData {
  const presences = answer.presences;
  const account =
    typeof presences === 'object' && presences !== null
      ? {
          ...state.account,
          presence: mergePresences(state.account.presence, presences as Record<string, unknown>),
        }
      : state.account;
  const lastId = answer.presence_last_update_id;
  const presenceLastUpdateId =
    typeof lastId === 'number' && Number.isInteger(lastId) && lastId >= 0
      ? Math.max(lastId, state.presenceLastUpdateId ?? -1)
      : state.presenceLastUpdateId;
  if (account.presence === state.account.presence && presenceLastUpdateId === state.presenceLastUpdateId) {
    return state;
  }
  return {
    ...state,
    account: account.presence === state.account.presence ? state.account : account,
    presenceLastUpdateId,
  };
}

export function setConnection(state: AccountStoreData, connection: ConnectionState): AccountStoreData {
  return { ...state, connection };
}

// ---- settings -------------------------------------------------------------------------------

/** The user changed a setting: show it at once. */
export function echoSetting(
  state: AccountStoreData,
  property: string,
  value: SettingValue,
  seq: number,
): AccountStoreData {
  return { ...state, pending: echoWrite(state.pending, property, value, seq), settingError: null };
}

/** The server accepted change `seq` (see acknowledgeWrite). */
export function acknowledgeSetting(state: AccountStoreData, property: string, seq: number): AccountStoreData {
  const pending = acknowledgeWrite(state.pending, property, seq, state.account.userSettings[property]);
  return pending === state.pending ? state : { ...state, pending };
}

/** Change `seq` failed: drop its overlay (unless a newer change replaced it) and say why. */
export function rollbackSetting(
  state: AccountStoreData,
  property: string,
  seq: number,
  message: string,
): AccountStoreData {
  return {
    ...state,
    pending: rollbackWrite(state.pending, property, seq),
    settingError: { property, message },
  };
}

export function dismissSettingError(state: AccountStoreData): AccountStoreData {
  return state.settingError ? { ...state, settingError: null } : state;
}

/** What the UI shows for a setting: the pending overlay, else the server's value. */
export function effectiveSetting(state: AccountStoreData, property: string): unknown {
  const entry = state.pending[property];
  return entry ? entry.value : state.account.userSettings[property];
}

// ---- subscription properties ----------------------------------------------------------------

/** The server's value of one subscription property (undefined: not subscribed). */
function serverSubscriptionValue(state: AccountStoreData, streamId: number, property: string): unknown {
  const sub: Subscription | undefined = state.account.subscriptions.subscribed[streamId];
  return sub?.[property];
}

/** One subscription property's overlay entry changed by `change`, and the error line set. */
function withSubscriptionOverlay(
  state: AccountStoreData,
  change: (overlay: Overlay<SettingValue>) => Overlay<SettingValue>,
  subscriptionError: SubscriptionError | null,
): AccountStoreData {
  return { ...state, pendingSubscriptions: change(state.pendingSubscriptions), subscriptionError };
}

/** The user changed a subscription property: show it at once. */
export function echoSubscriptionProperty(
  state: AccountStoreData,
  streamId: number,
  property: string,
  value: SettingValue,
  seq: number,
): AccountStoreData {
  const key = subscriptionKey(streamId, property);
  return withSubscriptionOverlay(state, (overlay) => echoWrite(overlay, key, value, seq), null);
}

export function acknowledgeSubscriptionProperty(
  state: AccountStoreData,
  streamId: number,
  property: string,
  seq: number,
): AccountStoreData {
  const key = subscriptionKey(streamId, property);
  const server = serverSubscriptionValue(state, streamId, property);
  const pendingSubscriptions = acknowledgeWrite(state.pendingSubscriptions, key, seq, server);
  return pendingSubscriptions === state.pendingSubscriptions ? state : { ...state, pendingSubscriptions };
}

/** Change `seq` failed: drop its overlay (unless a newer change replaced it) and say why. */
export function rollbackSubscriptionProperty(
  state: AccountStoreData,
  streamId: number,
  property: string,
  seq: number,
  message: string,
): AccountStoreData {
  const key = subscriptionKey(streamId, property);
  const error = { streamId, property, message };
  return withSubscriptionOverlay(state, (overlay) => rollbackWrite(overlay, key, seq), error);
}

export function dismissSubscriptionError(state: AccountStoreData): AccountStoreData {
  return state.subscriptionError ? { ...state, subscriptionError: null } : state;
}

/**
 * What the UI shows for a subscription property: a pending write, else the server's value.
 * is_muted and its legacy inverse in_home_view answer for each other.
 */
export function effectiveSubscriptionProperty(
  state: AccountStoreData,
  streamId: number,
  property: string,
): unknown {
  const entry = state.pendingSubscriptions[subscriptionKey(streamId, property)];
  if (entry) return entry.value;
  const inverse = property === 'is_muted' ? 'in_home_view' : property === 'in_home_view' ? 'is_muted' : null;
  const inverseEntry =
    inverse === null ? undefined : state.pendingSubscriptions[subscriptionKey(streamId, inverse)];
  if (inverseEntry) return inverseEntry.value !== true;
  return serverSubscriptionValue(state, streamId, property);
}
