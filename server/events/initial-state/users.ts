/**
 * register's state for users (fetch_event_types `realm_user`, `user_status`,
 * `custom_profile_fields`). The User objects come from formatUser, the same builder as
 * GET /users and the realm_user add events, so the snapshot and the events cannot drift.
 */
import { ROLES } from '../../../shared/protocol';
import type { Db } from '../../db';
import type { RealmRow } from '../../db/realm';
import { listProfileFields, PROFILE_FIELD_TYPES } from '../../db/realm-data';
import { userStatuses } from '../../db/user-data';
import { listUsers, type UserRow } from '../../db/users';
import { avatarUrl, formatUser, profileDataOf, roleFlags } from '../../formats/users';
import type { AreaRequest, State } from './index';

/** realm_users and realm_non_active_users, as this user may see them. */
function realmUsers(db: Db, user: UserRow, realm: RealmRow, clientExtavatar: boolean): State {
  const users = listUsers(db, realm.id);
  const view = { viewer: user, realm, clientExtavatar, profileData: profileDataOf(db, realm.id) };
  return {
    realm_users: users.filter((u) => u.is_active).map((u) => formatUser(u, view)),
    realm_non_active_users: users.filter((u) => !u.is_active).map((u) => formatUser(u, view)),
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
    Object.assign(state, realmUsers(ctx.db, user, realm, options.clientExtavatar), ownFields(user));
  }
  if (want('user_status')) state.user_status = userStatuses(ctx.db, realm.id);
  return state;
}
