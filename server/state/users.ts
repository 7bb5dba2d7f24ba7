/**
 * register's state for users (fetch_event_types `realm_user`, `user_status`,
 * `custom_profile_fields`). The User objects come from formatUser, the same builder as
 * GET /users and the realm_user add events, so the snapshot and the events cannot drift.
 */
import type { ClientCapabilities } from '../../shared/protocol';
import type { ServiceContext } from '../context';
import type { RealmRow } from '../db/realm';
import { listProfileFields, PROFILE_FIELD_TYPES } from '../db/realm-data';
import { userStatuses } from '../db/user-data';
import { isAdmin, listUsers, type UserRow } from '../db/users';
import { avatarUrl, formatUser, profileDataOf } from '../objects/users';

export interface UsersStateOptions {
  clientCapabilities: ClientCapabilities;
  clientExtavatar: boolean;
  /** The organization register already read. */
  realm: RealmRow;
}

export function usersState(
  ctx: ServiceContext,
  user: UserRow,
  want: (type: string) => boolean,
  options: UsersStateOptions,
): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  const { realm } = options;
  if (want('custom_profile_fields')) {
    state.custom_profile_fields = listProfileFields(ctx.db, realm.id);
    state.custom_profile_field_types = PROFILE_FIELD_TYPES;
  }
  if (want('realm_user')) {
    const users = listUsers(ctx.db, realm.id);
    const view = {
      viewer: user,
      realm,
      clientExtavatar: options.clientExtavatar,
      profileData: profileDataOf(ctx.db, realm.id),
    };
    state.realm_users = users.filter((u) => u.is_active).map((u) => formatUser(u, view));
    state.realm_non_active_users = users.filter((u) => !u.is_active).map((u) => formatUser(u, view));
    // One organization per service: there are no bots shared across organizations.
    state.cross_realm_bots = [];
    Object.assign(state, {
      email: user.email,
      delivery_email: user.delivery_email,
      full_name: user.full_name,
      is_admin: isAdmin(user),
      is_owner: user.role === 100,
      is_moderator: user.role === 300,
      is_guest: user.role === 600,
      is_billing_admin: user.is_billing_admin === 1,
      can_create_users: user.can_create_users === 1,
      avatar_source: user.avatar_source,
      // The own avatar is always a URL, as in the interface family.
      avatar_url: avatarUrl(user, false),
      avatar_url_medium: avatarUrl(user, false),
      avatar_version: user.avatar_version,
    });
  }
  if (want('user_status')) state.user_status = userStatuses(ctx.db, realm.id);
  return state;
}
