/**
 * One account's state, built from the register snapshot and advanced by events.
 * Pure: the renderer's store and the main process both use it, so a window opened later
 * gets exactly the state the others have.
 */
import type { RegisterState, ServerEvent } from '../protocol';
import { applySettingsEvent, type UserSettingsState } from './settings';

export interface AccountState {
  userId: number | null;
  serviceVersion: string;
  featureLevel: number;
  userSettings: UserSettingsState;
  /** Events that this state has absorbed; the last one's id. */
  lastEventId: number;
}

export function accountStateFromSnapshot(snapshot: RegisterState): AccountState {
  return {
    userId: snapshot.user_id ?? null,
    serviceVersion: snapshot.service_version,
    featureLevel: snapshot.service_feature_level,
    userSettings: (snapshot.user_settings ?? {}) as UserSettingsState,
    lastEventId: snapshot.last_event_id,
  };
}

/**
 * Applies one event. One exhaustive switch over the known union: a new event type is a
 * compile error here until it is handled or explicitly ignored.
 */
export function applyEvent(state: AccountState, event: ServerEvent): AccountState {
  const next = reduce(state, event);
  return next.lastEventId === event.id
    ? next
    : { ...next, lastEventId: Math.max(next.lastEventId, event.id) };
}

function reduce(state: AccountState, event: ServerEvent): AccountState {
  switch (event.type) {
    case 'user_settings':
    case 'update_display_settings':
    case 'update_global_notifications': {
      const userSettings = applySettingsEvent(state.userSettings, event);
      return userSettings === state.userSettings ? state : { ...state, userSettings };
    }
    case 'restart':
      return { ...state, serviceVersion: event.service_version, featureLevel: event.service_feature_level };
    // Not yet kept by this store: handled by later substores.
    case 'heartbeat':
    case 'realm_user':
    case 'subscription':
    case 'stream':
    case 'drafts':
    case 'user_status':
    case 'custom_profile_fields':
    case 'user_group':
    case 'realm_playgrounds':
    case 'alert_words':
    case 'user_topic':
    case 'update_message_flags':
    case 'message':
    case 'delete_message':
    case 'realm_user_settings_defaults':
      return state;
    default:
      return assertNever(event);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled event ${JSON.stringify(value)}`);
}

/** Applies a batch in order, producing one new state. */
export function applyEvents(state: AccountState, events: readonly ServerEvent[]): AccountState {
  let next = state;
  for (const event of events) next = applyEvent(next, event);
  return next;
}
