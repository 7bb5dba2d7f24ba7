/**
 * One account's renderer state and the pure transitions on it. The zustand store in
 * ./account.ts only wires these to `set`, so every rule here is testable without a DOM.
 *
 * Local echo: a changed setting is shown at once through `pending` (an overlay on the
 * server's values) and settles when the server's own event for it arrives. The server's
 * values in `account` are never edited locally, so a failed change rolls back by dropping
 * the overlay.
 */
import { type AccountState, accountStateFromSnapshot, applyEvents } from '../../../shared/domain';
import type { AccountSnapshot, ConnectionState, PushPayloads } from '../../../shared/ipc';
import type { SettingValue } from '../../../shared/protocol';

export interface PendingSetting {
  value: SettingValue;
  /** Which change this is; an answer to an older request never touches a newer one. */
  seq: number;
  /** The server accepted it; we still wait for its event (or a fresh snapshot). */
  acknowledged: boolean;
}

export interface SettingError {
  property: string;
  message: string;
}

export interface AccountStoreData {
  accountId: string;
  generation: number;
  account: AccountState;
  connection: ConnectionState;
  pending: Readonly<Record<string, PendingSetting>>;
  settingError: SettingError | null;
}

export const INITIAL_CONNECTION: ConnectionState = {
  status: 'connecting',
  nextRetryAt: null,
  lastError: null,
};

export function stateFromSnapshot(
  snapshot: AccountSnapshot,
  connection: ConnectionState = INITIAL_CONNECTION,
): AccountStoreData {
  return {
    accountId: snapshot.accountId,
    generation: snapshot.generation,
    account: accountStateFromSnapshot(snapshot.state),
    connection,
    pending: {},
    settingError: null,
  };
}

/**
 * A fresh snapshot replaces the server's side wholesale (never merged into state that may
 * be wrong), unless it is an older picture of the same queue than the state we hold. Overlays the server already acknowledged are settled by it; changes still in
 * flight stay visible until their answer comes.
 */
export function replaceSnapshot(state: AccountStoreData, snapshot: AccountSnapshot): AccountStoreData {
  // The same queue, but older than what we already applied (read before a batch we got).
  if (snapshot.generation === state.generation && snapshot.state.last_event_id < state.account.lastEventId) {
    return state;
  }
  const pending: Record<string, PendingSetting> = {};
  for (const [property, entry] of Object.entries(state.pending)) {
    if (!entry.acknowledged) pending[property] = entry;
  }
  return {
    ...state,
    generation: snapshot.generation,
    account: accountStateFromSnapshot(snapshot.state),
    pending,
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
  const events = batch.events.filter((event) => event.id > state.account.lastEventId);
  if (events.length === 0) return state;
  const account = applyEvents(state.account, events);
  let pending = state.pending;
  for (const event of events) {
    if (event.type !== 'user_settings') continue;
    const entry = pending[event.property];
    // Our own change came back: the server's value now says the same thing.
    if (entry && entry.value === event.value) pending = without(pending, event.property);
  }
  return { ...state, account, pending };
}

export function setConnection(state: AccountStoreData, connection: ConnectionState): AccountStoreData {
  return { ...state, connection };
}

/** The user changed a setting: show it at once. */
export function echoSetting(
  state: AccountStoreData,
  property: string,
  value: SettingValue,
  seq: number,
): AccountStoreData {
  return {
    ...state,
    pending: { ...state.pending, [property]: { value, seq, acknowledged: false } },
    settingError: null,
  };
}

/**
 * The server accepted change `seq`. If its value is already what we hold (the server sends no
 * event for a change that changes nothing), the overlay is done; otherwise its event settles it.
 */
export function acknowledgeSetting(state: AccountStoreData, property: string, seq: number): AccountStoreData {
  const entry = state.pending[property];
  if (!entry || entry.seq !== seq) return state;
  if (state.account.userSettings[property] === entry.value) {
    return { ...state, pending: without(state.pending, property) };
  }
  return { ...state, pending: { ...state.pending, [property]: { ...entry, acknowledged: true } } };
}

/** Change `seq` failed: drop its overlay (unless a newer change replaced it) and say why. */
export function rollbackSetting(
  state: AccountStoreData,
  property: string,
  seq: number,
  message: string,
): AccountStoreData {
  const entry = state.pending[property];
  const pending = entry && entry.seq === seq ? without(state.pending, property) : state.pending;
  return { ...state, pending, settingError: { property, message } };
}

export function dismissSettingError(state: AccountStoreData): AccountStoreData {
  return state.settingError ? { ...state, settingError: null } : state;
}

/** What the UI shows for a setting: the pending overlay, else the server's value. */
export function effectiveSetting(state: AccountStoreData, property: string): unknown {
  const entry = state.pending[property];
  return entry ? entry.value : state.account.userSettings[property];
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}
