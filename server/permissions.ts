/**
 * Who may see and use what: yes/no rules over roles, streams and addresses. Nothing here
 * throws. actions/access.ts turns these answers into the API's errors for the object a
 * request names, and the code that picks event recipients asks the same questions, so an
 * answer and the events about it cannot follow different rules. Role values are the wire
 * contract's ROLES (shared/protocol).
 */
import { ROLES } from '../shared/protocol';
import type { Db } from './db';
import { EMAIL_VISIBILITY, type RealmRow } from './db/realm';
import { isSubscribed, type StreamRow, streamSubscriberIds } from './db/streams';
import type { UserRow } from './db/users';
import { activeUserRoles } from './db/users';

type WithRole = Pick<UserRow, 'role'>;

export const isOwner = (user: WithRole): boolean => user.role === ROLES.owner;
/** Owners and administrators. */
export const isAdmin = (user: WithRole): boolean => user.role <= ROLES.administrator;
/** Owners, administrators and moderators. */
export const isModeratorOrAbove = (user: WithRole): boolean => user.role <= ROLES.moderator;
export const isGuest = (user: WithRole): boolean => user.role === ROLES.guest;

/** Whether the user may see that the stream exists (and its metadata). */
export function canSeeStream(user: WithRole, stream: StreamRow, subscribed: boolean): boolean {
  if (subscribed || stream.is_web_public === 1) return true;
  if (isGuest(user)) return false;
  return stream.invite_only === 0 || isAdmin(user);
}

/**
 * Whether the user may use the stream's content: post to it, keep a draft for it, mark it
 * read, delete a topic (administrators included: a private stream needs a subscription, as
 * the interface family's access_stream_by_id does). Web-public streams for every user of the
 * realm, guests included (the family: "any realm user, even guests, can access web-public
 * streams"); public streams for members; private ones for subscribers. Streams of another
 * realm and deactivated streams: never. `allowRealmAdmin` also lets administrators in (the
 * family's allow_realm_admin), which is exactly who may see the stream.
 */
export function canAccessStream(
  db: Db,
  user: UserRow,
  stream: StreamRow,
  { allowRealmAdmin = false }: { allowRealmAdmin?: boolean } = {},
): boolean {
  if (stream.realm_id !== user.realm_id || stream.deactivated === 1) return false;
  if (stream.is_web_public === 1) return true;
  if (stream.invite_only === 0 && !isGuest(user)) return true;
  if (allowRealmAdmin && isAdmin(user)) return true;
  return isSubscribed(db, user.id, stream.id);
}

/** Whether the user may see who is subscribed to the stream. */
export function canSeeSubscribers(user: WithRole, stream: StreamRow, subscribed: boolean): boolean {
  if (subscribed) return true;
  if (stream.invite_only === 1) return isAdmin(user);
  return canSeeStream(user, stream, false);
}

/**
 * Whether the user may read the stream's whole history, whether or not they have a copy of
 * each message: public streams for members, and streams with history public to subscribers
 * for their subscribers. (Protected history is read through the user's own copies only.)
 */
export function canReadStreamHistory(db: Db, user: UserRow, stream: StreamRow): boolean {
  if (stream.is_web_public === 1) return true;
  const subscribed = isSubscribed(db, user.id, stream.id);
  if (stream.invite_only === 0) return !isGuest(user) || subscribed;
  return subscribed && stream.history_public_to_subscribers === 1;
}

/** Active users of the stream's realm for whom `may` holds, told whether each is subscribed. */
function activeUserIdsWho(
  db: Db,
  stream: StreamRow,
  may: (user: WithRole, subscribed: boolean) => boolean,
): number[] {
  const subscribers = new Set(streamSubscriberIds(db, stream.id));
  // Only the id and role of each active user: whole rows (settings JSON and all) cost hundreds
  // of milliseconds at 10 000 users, on every stream update.
  return activeUserRoles(db, stream.realm_id)
    .filter((u) => may(u, subscribers.has(u.id)))
    .map((u) => u.id);
}

/** Active users of the realm who may see the stream, given its current row. */
export function streamViewerIds(db: Db, stream: StreamRow): number[] {
  return activeUserIdsWho(db, stream, (user, subscribed) => canSeeStream(user, stream, subscribed));
}

/** Active users of the realm who may see the stream's subscribers (and get peer events). */
export function subscriberViewerIds(db: Db, stream: StreamRow): number[] {
  return activeUserIdsWho(db, stream, (user, subscribed) => canSeeSubscribers(user, stream, subscribed));
}

/**
 * Whether the viewer sees real addresses in user lists. The field exists only when the
 * organization limits visibility (spec User.delivery_email), and then only administrators
 * (and moderators, when the setting lets moderators see them) have access.
 */
export function canAccessDeliveryEmail(viewer: WithRole, realm: RealmRow): boolean {
  switch (realm.email_address_visibility) {
    case EMAIL_VISIBILITY.admins:
      return isAdmin(viewer);
    case EMAIL_VISIBILITY.moderators:
      return isModeratorOrAbove(viewer);
    default:
      return false;
  }
}
