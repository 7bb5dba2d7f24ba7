/** The user_status substore: each user's status, keyed by user id; empty statuses are absent. */
import type { EventOf } from '../protocol';
import { type ById, withEntry, withoutEntries } from './records';

export interface UserStatus {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}
export type UserStatusState = ById<UserStatus>;
export type UserStatusEvent = EventOf<'user_status'>;

export function userStatusFromSnapshot(raw: Readonly<Record<string, unknown>> | undefined): UserStatusState {
  const out: Record<number, UserStatus> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
      out[Number(key)] = value as UserStatus;
    }
  }
  return out;
}

/** An event carries only what changed; `''` clears text or emoji, `away:false` clears away. */
export function handleUserStatusEvent(state: UserStatusState, event: UserStatusEvent): UserStatusState {
  const status: UserStatus = { ...state[event.user_id] };
  if (event.away !== undefined) {
    if (event.away) status.away = true;
    else delete status.away;
  }
  if (event.status_text !== undefined) {
    if (event.status_text) status.status_text = event.status_text;
    else delete status.status_text;
  }
  if (event.emoji_name !== undefined) {
    if (event.emoji_name) {
      status.emoji_name = event.emoji_name;
      if (event.emoji_code !== undefined) status.emoji_code = event.emoji_code;
      if (event.reaction_type !== undefined) status.reaction_type = event.reaction_type;
    } else {
      delete status.emoji_name;
      delete status.emoji_code;
      delete status.reaction_type;
    }
  }
  return Object.keys(status).length > 0
    ? withEntry(state, event.user_id, status)
    : withoutEntries(state, [event.user_id]);
}

/** A deactivated user's status is gone. */
export const dropUserStatuses = (state: UserStatusState, userIds: readonly number[]): UserStatusState =>
  withoutEntries(state, userIds);
