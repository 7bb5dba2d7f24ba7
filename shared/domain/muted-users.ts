/** The muted users substore (`muted_users`): who the user muted, and when, keyed by user id. */
import type { EventOf, MutedUser } from '../protocol';
import { type ById, byId } from './records';

export type MutedUsersState = ById<MutedUser>;

export const mutedUsersFromSnapshot = (list: readonly MutedUser[] | undefined): MutedUsersState =>
  byId(list, (m) => m.id);

/** The event carries the whole list after any change. */
export function handleMutedUsersEvent(
  state: MutedUsersState,
  event: EventOf<'muted_users'>,
): MutedUsersState {
  const next = mutedUsersFromSnapshot(event.muted_users);
  const keys = Object.keys(next);
  const same =
    keys.length === Object.keys(state).length &&
    keys.every((k) => state[Number(k)]?.timestamp === next[Number(k)]?.timestamp);
  return same ? state : next;
}

/** As register lists them: oldest mute first. */
export function mutedUsersToSnapshot(state: MutedUsersState): MutedUser[] {
  return (Object.values(state) as MutedUser[]).sort((a, b) => a.timestamp - b.timestamp || a.id - b.id);
}
