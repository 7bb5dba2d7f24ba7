/**
 * The spec's User object, as the viewer may see it: one builder for register's realm_users,
 * GET /users, GET /users/me and realm_user events, so they cannot drift apart.
 */
import type { Db } from '../db';
import { EMAIL_VISIBILITY, type RealmRow } from '../db/realm';
import {
  keptProfileValues,
  type ProfileValueRow,
  profileFieldValues,
  type RosterRow,
} from '../db/realm-data';
import { maxMessageIdForUser, profileFieldValuesOfUsers, type UserRow } from '../db/users';
import { canAccessDeliveryEmail, isAdmin, isGuest, isOwner } from '../permissions';

export type ProfileData = Record<string, { value: string; rendered_value?: string }>;

export interface UserView {
  viewer: UserRow;
  realm: RealmRow;
  /** The client computes external-avatar URLs itself (spec client_extavatar). */
  clientExtavatar: boolean;
  /** Profile data of non-bots, by user id; omit to leave profile_data out. */
  profileData?: Map<number, ProfileData>;
}

/**
 * What a User object of lists shows beside the user: register keeps the lists it builds by
 * these (events/initial-state/roster.ts), so no other part of the viewer may change it.
 */
export interface ListView {
  /** The viewer may see real addresses (canAccessDeliveryEmail). */
  deliveryEmail: boolean;
  clientExtavatar: boolean;
  profileData?: Map<number, ProfileData> | undefined;
}

/** Our own avatar address; external avatars are left to clients that asked for that. */
export function avatarUrl(
  user: Pick<UserRow, 'id' | 'avatar_source' | 'avatar_version'>,
  clientExtavatar: boolean,
): string | null {
  if (clientExtavatar && user.avatar_source === 'G') return null;
  return `/avatar/${user.id}?v=${user.avatar_version}`;
}

/**
 * The text of a frozen row, which cannot change, is made once: toISOString costs about a
 * microsecond, and the rows the server keeps between requests (server/auth.ts) are frozen.
 */
const joinedOfFrozen = new WeakMap<object, string>();

export function dateJoined(user: Pick<UserRow, 'date_joined_ms'>): string {
  if (!Object.isFrozen(user)) return new Date(user.date_joined_ms).toISOString();
  let text = joinedOfFrozen.get(user);
  if (text === undefined) {
    text = new Date(user.date_joined_ms).toISOString();
    joinedOfFrozen.set(user, text);
  }
  return text;
}

export function profileDataOf(db: Db, realmId: number, userIds?: number[]): Map<number, ProfileData> {
  // Only the values asked for: one user's profile reads that user's rows.
  return profileDataFrom(
    userIds ? profileFieldValuesOfUsers(db, realmId, userIds) : profileFieldValues(db, realmId),
  );
}

/** profile_data by user id, from the values' rows in the fields' order. */
function profileDataFrom(rows: readonly ProfileValueRow[]): Map<number, ProfileData> {
  const result = new Map<number, ProfileData>();
  for (const row of rows) {
    let data = result.get(row.user_id);
    if (!data) {
      data = {};
      result.set(row.user_id, data);
    }
    data[String(row.field_id)] = profileValue(row.value, row.rendered_value);
  }
  return result;
}

/** One profile_data entry: rendered_value only for Markdown field types. */
export function profileValue(
  value: string,
  rendered: string | null,
): { value: string; rendered_value?: string } {
  return rendered === null ? { value } : { value, rendered_value: rendered };
}

/** The role as flags: in every User object, and in register's fields about the user. */
export function roleFlags(user: Pick<UserRow, 'role' | 'is_billing_admin'>) {
  return {
    is_admin: isAdmin(user),
    is_owner: isOwner(user),
    is_guest: isGuest(user),
    is_billing_admin: user.is_billing_admin === 1,
  };
}

/**
 * Fields every form of the User object has; each form adds its own to this object. (Node 20's
 * V8 gives an object spread into a literal with properties after it a map of its own, which
 * costs several microseconds for a User object, and again in each later spread or JSON.stringify.)
 */
function baseUser(user: RosterRow): Record<string, unknown> {
  const flags = roleFlags(user);
  return {
    user_id: user.id,
    email: user.email,
    full_name: user.full_name,
    is_admin: flags.is_admin,
    is_owner: flags.is_owner,
    is_guest: flags.is_guest,
    is_billing_admin: flags.is_billing_admin,
    role: user.role,
    is_bot: user.is_bot === 1,
    is_active: user.is_active === 1,
    timezone: user.timezone,
    date_joined: dateJoined(user),
  };
}

/** A user in lists (register realm_users, GET /users, realm_user add events). */
export function formatUser(user: RosterRow, view: UserView): Record<string, unknown> {
  return formatListedUser(user, {
    deliveryEmail: canAccessDeliveryEmail(view.viewer, view.realm),
    clientExtavatar: view.clientExtavatar,
    profileData: view.profileData,
  });
}

/** formatUser for a viewer known by what the object depends on (ListView). */
export function formatListedUser(user: RosterRow, view: ListView): Record<string, unknown> {
  const result = baseUser(user);
  result.avatar_url = avatarUrl(user, view.clientExtavatar);
  result.avatar_version = user.avatar_version;
  result.bot_type = user.bot_type;
  if (user.is_bot) result.bot_owner_id = user.bot_owner_id;
  if (view.deliveryEmail) result.delivery_email = user.delivery_email;
  if (!user.is_bot && view.profileData) result.profile_data = view.profileData.get(user.id) ?? {};
  return result;
}

/** The profile values GET /users/me shows: none for bots. */
function ownProfileValues(db: Db, user: UserRow, realm: RealmRow): readonly ProfileValueRow[] | null {
  return user.is_bot ? null : keptProfileValues(db, realm.id, user.id);
}

/** GET /users/me's User: the requester, with avatar_version and max_message_id. */
function ownUser(
  user: UserRow,
  realm: RealmRow,
  maxMessageId: number,
  profile: readonly ProfileValueRow[] | null,
): Record<string, unknown> {
  const result = baseUser(user);
  result.avatar_url = avatarUrl(user, false);
  result.avatar_version = user.avatar_version;
  result.max_message_id = maxMessageId;
  if (realm.email_address_visibility !== EMAIL_VISIBILITY.everyone)
    result.delivery_email = user.delivery_email;
  if (profile !== null) result.profile_data = profileDataFrom(profile).get(user.id) ?? {};
  return result;
}

interface OwnUserText {
  realm: RealmRow;
  profile: readonly ProfileValueRow[] | null;
  maxMessageId: number;
  json: string;
}

/** ownUser's JSON by kept user row, with what else it was made from. */
const ownUserTexts = new WeakMap<UserRow, OwnUserText>();

/**
 * GET /users/me's User as JSON. Made from rows the server keeps (frozen: the same object is the
 * same row), the text is kept with them: a client's next GET /users/me, while the user, the
 * organization, the profile values and the newest message id stay the same, gets the same text
 * without building or writing it again.
 */
export function ownUserJson(db: Db, user: UserRow, realm: RealmRow): string {
  const maxMessageId = maxMessageIdForUser(db, user.id);
  const profile = ownProfileValues(db, user, realm);
  const kept = ownUserTexts.get(user);
  if (kept?.realm === realm && kept.profile === profile && kept.maxMessageId === maxMessageId) {
    return kept.json;
  }
  const json = JSON.stringify(ownUser(user, realm, maxMessageId, profile));
  if (Object.isFrozen(user) && Object.isFrozen(realm) && (profile === null || Object.isFrozen(profile))) {
    ownUserTexts.set(user, { realm, profile, maxMessageId, json });
  }
  return json;
}

/**
 * A bot as its administrators see it (register's realm_bots, realm_bot events): with its
 * API key. Default streams and services are not modelled: null and empty.
 */
export function formatBot(bot: UserRow): Record<string, unknown> {
  return {
    user_id: bot.id,
    email: bot.email,
    full_name: bot.full_name,
    bot_type: bot.bot_type,
    is_active: bot.is_active === 1,
    api_key: bot.api_key,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    avatar_url: avatarUrl(bot, false),
    owner_id: bot.bot_owner_id,
    services: [],
  };
}
