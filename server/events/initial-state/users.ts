/**
 * register's state for users (fetch_event_types `realm_user`, `user_status`,
 * `custom_profile_fields`). The User objects come from formatUser, the same builder as
 * GET /users and the realm_user add events, so the snapshot and the events cannot drift.
 */
import { ROLES } from '../../../shared/protocol';
import type { Db } from '../../db';
import { lastActivityByUser } from '../../db/activity';
import type { RealmRow } from '../../db/realm';
import { listProfileFields, PROFILE_FIELD_TYPES } from '../../db/realm-data';
import { userStatuses } from '../../db/user-data';
import { botsOfRealm, botsOwnedBy, listUsers, type UserRow } from '../../db/users';
import { avatarUrl, formatBot, formatUser, profileDataOf, roleFlags } from '../../formats/users';
import { isAdmin } from '../../permissions';
import type { AreaRequest, State, StateOptions } from './index';

/** Users with no activity for this long count as long idle (the family's soft deactivation). */
export const LONG_IDLE_SECONDS = 30 * 24 * 60 * 60;

/**
 * Clients with user_avatar_url_field_optional get no avatar_url for long-idle users (other
 * than themselves), as the family does: they build it from /avatar/{user_id} when needed.
 */
function avatarOmitter(db: Db, viewer: UserRow, realm: RealmRow, optional: boolean) {
  if (!optional) return (formatted: Record<string, unknown>) => formatted;
  const lastActivity = lastActivityByUser(db, realm.id);
  const cutoff = Math.floor(Date.now() / 1000) - LONG_IDLE_SECONDS;
  return (formatted: Record<string, unknown>) => {
    const id = formatted.user_id as number;
    if (id === viewer.id || (lastActivity.get(id) ?? 0) >= cutoff) return formatted;
    const { avatar_url: _omitted, ...rest } = formatted;
    return rest;
  };
}

/** realm_users and realm_non_active_users, as this user may see them. */
function realmUsers(db: Db, user: UserRow, realm: RealmRow, options: StateOptions): State {
  const users = listUsers(db, realm.id);
  const { clientExtavatar } = options;
  const view = { viewer: user, realm, clientExtavatar, profileData: profileDataOf(db, realm.id) };
  const optional = options.clientCapabilities.user_avatar_url_field_optional === true;
  const shape = avatarOmitter(db, user, realm, optional);
  return {
    realm_users: users.filter((u) => u.is_active).map((u) => shape(formatUser(u, view))),
    realm_non_active_users: users.filter((u) => !u.is_active).map((u) => shape(formatUser(u, view))),
    // One organization per service: there are no bots shared across organizations.
    cross_realm_bots: [],
  };
}

/** The fields about the user themselves that come with realm_user. */
function ownFields(user: UserRow): State {
  return {
    email: user.email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    ...roleFlags(user),
    is_moderator: user.role === ROLES.moderator,
    can_create_users: user.can_create_users === 1,
    avatar_source: user.avatar_source,
    // The own avatar is always a URL, as in the interface family.
    avatar_url: avatarUrl(user, false),
    avatar_url_medium: avatarUrl(user, false),
    avatar_version: user.avatar_version,
  };
}

export function usersState({ ctx, user, want, options }: AreaRequest): State {
  const state: State = {};
  const { realm } = options;
  if (want('custom_profile_fields')) {
    state.custom_profile_fields = listProfileFields(ctx.db, realm.id);
    state.custom_profile_field_types = PROFILE_FIELD_TYPES;
  }
  if (want('realm_user')) {
    Object.assign(state, realmUsers(ctx.db, user, realm, options), ownFields(user));
  }
  if (want('user_status')) state.user_status = userStatuses(ctx.db, realm.id);
  // The bots the user may administer: every bot for administrators, else their own.
  if (want('realm_bot')) {
    const bots = isAdmin(user) ? botsOfRealm(ctx.db, realm.id) : botsOwnedBy(ctx.db, user.id);
    state.realm_bots = bots.map(formatBot);
  }
  return state;
}
