/**
 * register's state for users (fetch_event_types `realm_user`, `user_status`,
 * `custom_profile_fields`). The User objects come from formatUser's builder, the same as
 * GET /users and the realm_user add events, so the snapshot and the events cannot drift; the
 * organization's lists are kept as JSON between registers (./roster.ts).
 */
import { ROLES } from '../../../shared/protocol';
import type { Db } from '../../db';
import type { RealmRow } from '../../db/realm';
import { listProfileFields, PROFILE_FIELD_TYPES } from '../../db/realm-data';
import { botsOfRealm, botsOwnedBy, type UserRow } from '../../db/users';
import { avatarUrl, formatBot, roleFlags } from '../../formats/users';
import { canAccessDeliveryEmail, isAdmin } from '../../permissions';
import type { AreaRequest, State, StateOptions } from './index';
import { lastActivity, roster, statuses } from './roster';

/** Users with no activity for this long count as long idle (the family's soft deactivation). */
export const LONG_IDLE_SECONDS = 30 * 24 * 60 * 60;

/** realm_users and realm_non_active_users, as this user may see them. */
function realmUsers(db: Db, user: UserRow, realm: RealmRow, options: StateOptions): State {
  const view = {
    deliveryEmail: canAccessDeliveryEmail(user, realm),
    clientExtavatar: options.clientExtavatar,
  };
  // Clients with user_avatar_url_field_optional get no avatar_url for long-idle users (other
  // than themselves), as in the family: they build it from /avatar/{user_id} when needed.
  const optional = options.clientCapabilities.user_avatar_url_field_optional === true;
  const activity = optional ? lastActivity(db, realm.id) : null;
  const cutoff = Math.floor(Date.now() / 1000) - LONG_IDLE_SECONDS;
  const [users, nonActive] = roster(db, realm.id)
    .listed(view)
    .lists((userId) => activity !== null && userId !== user.id && (activity.get(userId) ?? 0) < cutoff);
  return {
    realm_users: users,
    realm_non_active_users: nonActive,
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
  if (want('user_status')) state.user_status = statuses(ctx.db, realm.id);
  // The bots the user may administer: every bot for administrators, else their own.
  if (want('realm_bot')) {
    const bots = isAdmin(user) ? botsOfRealm(ctx.db, realm.id) : botsOwnedBy(ctx.db, user.id);
    state.realm_bots = bots.map(formatBot);
  }
  return state;
}
