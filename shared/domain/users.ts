/**
 * The realm users substore: active users (`realm_users`) and deactivated ones
 * (`realm_non_active_users`), keyed by id, advanced by realm_user add / remove / update.
 */
import { type EventOf, type PersonUpdate, ROLES, type User } from '../protocol';
import { type ById, byId, withEntry, withoutEntries } from './records';

export interface UsersState {
  active: ById<User>;
  nonActive: ById<User>;
}

export type RealmUserEvent = EventOf<'realm_user'>;

export function usersFromSnapshot(active?: readonly User[], nonActive?: readonly User[]): UsersState {
  return { active: byId(active, (u) => u.user_id), nonActive: byId(nonActive, (u) => u.user_id) };
}

export function findUser(state: UsersState, userId: number): User | undefined {
  return state.active[userId] ?? state.nonActive[userId];
}

/** Moves a user between the active and the deactivated list. */
function setActive(state: UsersState, user: User, active: boolean): UsersState {
  const moved = { ...user, is_active: active };
  return active
    ? {
        active: withEntry(state.active, user.user_id, moved),
        nonActive: withoutEntries(state.nonActive, [user.user_id]),
      }
    : {
        active: withoutEntries(state.active, [user.user_id]),
        nonActive: withEntry(state.nonActive, user.user_id, moved),
      };
}

/** Fields of a person update the user object keeps even when it lacks them so far. */
const ALWAYS_KEPT = new Set([
  'full_name',
  'email',
  'timezone',
  'bot_owner_id',
  'avatar_url',
  'avatar_version',
]);

/** One `person` update (NOTES.md: user_id plus exactly one group of fields) on one user. */
export function updatePerson(user: User, person: PersonUpdate): User {
  const next: Record<string, unknown> = { ...user };
  for (const [key, value] of Object.entries(person)) {
    if (key === 'user_id' || key === 'is_active') continue;
    if (key === 'role' && typeof value === 'number') {
      next.role = value;
      next.is_owner = value === ROLES.owner;
      next.is_admin = value <= ROLES.administrator;
      next.is_guest = value === ROLES.guest;
    } else if (key === 'new_email') {
      next.email = value;
    } else if (key === 'custom_profile_field' && person.custom_profile_field) {
      const field = person.custom_profile_field;
      const data: Record<string, unknown> = { ...(user.profile_data ?? {}) };
      if (field.value === null) delete data[String(field.id)];
      else {
        data[String(field.id)] =
          field.rendered_value === undefined
            ? { value: field.value }
            : { value: field.value, rendered_value: field.rendered_value };
      }
      next.profile_data = data;
    } else if (ALWAYS_KEPT.has(key) || key in user) {
      // avatar_source and avatar_url_medium describe the account, not the user object.
      next[key] = value;
    }
  }
  return next as User;
}

export function handleRealmUserEvent(state: UsersState, event: RealmUserEvent): UsersState {
  switch (event.op) {
    case 'add':
      return {
        active: withEntry(state.active, event.person.user_id, event.person),
        nonActive: withoutEntries(state.nonActive, [event.person.user_id]),
      };
    case 'remove': {
      // The interface family's deactivation: the user moves to the non-active list.
      const user = findUser(state, event.person.user_id);
      return user ? setActive(state, user, false) : state;
    }
    case 'update': {
      const user = findUser(state, event.person.user_id);
      if (!user) return state;
      const active = event.person.is_active ?? Object.hasOwn(state.active, user.user_id);
      return setActive(state, updatePerson(user, event.person), active);
    }
  }
}
