/**
 * Object permission checks, after the interface family's access_* helpers (access_stream_by_id,
 * access_message, access_user_by_id): each takes what a request names and answers the object
 * the user may act on, or throws the family's error. A missing object and one the user may not
 * see get the same error, so an answer never reveals that a private stream or message exists.
 * The role requirements (administrator, owner) live here too. The yes/no rules behind them are
 * server/permissions.ts; routes and actions call these instead of repeating the checks.
 */
import type { ServiceContext } from '../context';
import { getMessage, type MessageRow, userMessageFlags } from '../db/messages';
import { directMemberIds, getUserGroupRow, type UserGroupRow } from '../db/realm-data';
import { getStream, getStreamByName, isSubscribed, type StreamRow } from '../db/streams';
import { getUserById, type UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import {
  canAccessStream,
  canReadStreamHistory,
  isAdmin,
  isGuest,
  isModeratorOrAbove,
  isOwner,
} from '../permissions';

/** The interface family's error for administrator-only operations (HTTP 400, NOTES.md). */
export function requireAdmin(user: UserRow): void {
  if (!isAdmin(user))
    throw new ApiFailure(400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
}

export function requireOwner(user: UserRow): void {
  if (!isOwner(user)) throw new ApiFailure(400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
}

/** A policy (stream creation, invitations, user groups) does not allow the user this. */
export const insufficientPermission = () => badRequest('Insufficient permission');

/** Members and above; never guests (the family's default for user groups and the like). */
export function requireMember(user: UserRow): void {
  if (isGuest(user)) throw insufficientPermission();
}

export function streamNotFound(stream: number | string): ApiFailure {
  return typeof stream === 'number'
    ? new ApiFailure(400, 'STREAM_DOES_NOT_EXIST', `Stream with ID '${stream}' does not exist`, {
        stream_id: stream,
      })
    : new ApiFailure(400, 'STREAM_DOES_NOT_EXIST', `Stream '${stream}' does not exist`, { stream });
}

const invalidStreamId = () => badRequest('Invalid stream ID');

export interface StreamAccess {
  /** Administrators may also act on private streams they are not subscribed to. */
  allowRealmAdmin?: boolean;
}

/** The stream if the user may use its content (permissions.ts canAccessStream), else "Invalid stream ID". */
export function accessStreamById(
  ctx: ServiceContext,
  user: UserRow,
  streamId: number,
  access: StreamAccess = {},
): StreamRow {
  const stream = getStream(ctx.db, streamId);
  if (!stream || stream.realm_id !== ctx.realmId || !canAccessStream(ctx.db, user, stream, access))
    throw invalidStreamId();
  return stream;
}

/** As accessStreamById, for a stream named by its name: "Stream '<name>' does not exist". */
export function accessStreamByName(
  ctx: ServiceContext,
  user: UserRow,
  name: string,
  access: StreamAccess = {},
): StreamRow {
  const stream = getStreamByName(ctx.db, ctx.realmId, name);
  if (!stream || !canAccessStream(ctx.db, user, stream, access)) throw streamNotFound(name);
  return stream;
}

/**
 * The stream an administrator may change (the family's access_stream_for_delete_or_update):
 * any stream of the organization for administrators; others get "Must be an organization
 * administrator", or "Invalid stream ID" for a private stream they are not in.
 */
export function accessStreamForDeleteOrUpdate(
  ctx: ServiceContext,
  user: UserRow,
  streamId: number,
): StreamRow {
  const stream = getStream(ctx.db, streamId);
  if (!stream || stream.realm_id !== ctx.realmId || stream.deactivated === 1) throw invalidStreamId();
  if (!isAdmin(user)) {
    if (stream.invite_only === 1 && !isSubscribed(ctx.db, user.id, stream.id)) throw invalidStreamId();
    requireAdmin(user);
  }
  return stream;
}

/** The posting policy (stream_post_policy) error for this sender, or null when allowed. */
function postPolicyError(sender: UserRow, stream: StreamRow): string | null {
  switch (stream.stream_post_policy) {
    case 2:
      return isAdmin(sender) ? null : 'Only organization administrators can send to this stream.';
    case 3:
      // Full members: everyone but guests (the organization's waiting period is not modelled).
      return isGuest(sender) ? 'Guests cannot send to this stream.' : null;
    case 4:
      return isModeratorOrAbove(sender)
        ? null
        : 'Only organization administrators and moderators can send to this stream.';
    default:
      return null;
  }
}

/**
 * Whether the sender may post to the stream (the family's access_stream_for_send_message):
 * access to it, then its posting policy; throws the family's error otherwise.
 */
export function accessStreamForSendMessage(ctx: ServiceContext, sender: UserRow, stream: StreamRow): void {
  // A bot acts for its owner: it may post where the owner may.
  const actor =
    (sender.is_bot && sender.bot_owner_id !== null && getUserById(ctx.db, sender.bot_owner_id)) || sender;
  const mayAccess =
    canAccessStream(ctx.db, sender, stream) ||
    (actor !== sender && isSubscribed(ctx.db, actor.id, stream.id));
  if (!mayAccess) throw badRequest(`Not authorized to send to stream '${stream.name}'`);
  const error = postPolicyError(actor, stream);
  if (error) throw badRequest(error);
}

/**
 * The message and the user's flag bits (undefined without a copy: history of a stream the
 * user may read), or "Invalid message(s)".
 */
export function accessMessage(
  ctx: ServiceContext,
  user: UserRow,
  messageId: number,
): { row: MessageRow; bits: number | undefined } {
  const row = getMessage(ctx.db, messageId);
  if (row && row.realm_id === user.realm_id) {
    const bits = userMessageFlags(ctx.db, user.id, messageId);
    if (bits !== undefined) return { row, bits };
    const stream = row.stream_id === null ? undefined : getStream(ctx.db, row.stream_id);
    if (stream && canReadStreamHistory(ctx.db, user, stream)) return { row, bits };
  }
  throw badRequest('Invalid message(s)');
}

/** The family's default error for a user that is missing or not to be acted on. */
export const noSuchUser = () => badRequest('No such user');
/** For users in lists of ids (group members, person-picker values). */
export const invalidUserId = (userId: number) => badRequest(`Invalid user ID: ${userId}`);
/** For recipients of messages and drafts. */
export const invalidRecipientId = (userId: number) => badRequest(`Invalid user ID ${userId}`);

export interface UserAccess {
  /** Deactivated users count too (the family's allow_deactivated). */
  allowDeactivated?: boolean;
  /** The endpoint's error: the family words it differently per endpoint. Default: "No such user". */
  error?: (userId: number) => ApiFailure;
}

/** A user of this organization, active unless `allowDeactivated`; bots included. */
export function accessUserById(
  ctx: ServiceContext,
  userId: number,
  { allowDeactivated = false, error = noSuchUser }: UserAccess = {},
): UserRow {
  const user = getUserById(ctx.db, userId);
  if (!user || user.realm_id !== ctx.realmId || (!allowDeactivated && user.is_active !== 1))
    throw error(userId);
  return user;
}

export interface ActingUserAccess {
  /** Deactivated users count too (the family's allow_deactivated). */
  allowDeactivated?: boolean;
  /** Bots count too (the family's allow_bots). */
  allowBots?: boolean;
  /** The actor must be able to administer the user (the family's for_admin). */
  forAdmin?: boolean;
}

/**
 * The family's access_user_by_id: "No such user" for a missing user or an unwanted bot,
 * "User is deactivated", and with `forAdmin` "Insufficient permission" unless the actor is
 * an administrator or owns the bot.
 */
export function accessUserFor(
  ctx: ServiceContext,
  acting: UserRow,
  userId: number,
  { allowDeactivated = false, allowBots = false, forAdmin = false }: ActingUserAccess = {},
): UserRow {
  const target = getUserById(ctx.db, userId);
  if (!target || target.realm_id !== ctx.realmId || (target.is_bot === 1 && !allowBots)) throw noSuchUser();
  if (target.is_active !== 1 && !allowDeactivated) throw badRequest('User is deactivated');
  if (forAdmin && target.bot_owner_id !== acting.id && !isAdmin(acting)) throw insufficientPermission();
  return target;
}

/**
 * A user group (the family's access_user_group_by_id): "Invalid user group" for a missing or
 * deactivated one; to change it (not `forRead`), system groups are "Insufficient permission",
 * and so are groups the user is not a member of, unless a moderator or above.
 */
export function accessUserGroupById(
  ctx: ServiceContext,
  user: UserRow,
  groupId: number,
  { forRead = false }: { forRead?: boolean } = {},
): UserGroupRow {
  const group = getUserGroupRow(ctx.db, ctx.realmId, groupId);
  if (!group || group.deactivated === 1) throw badRequest('Invalid user group');
  if (forRead) return group;
  if (group.is_system_group === 1) throw insufficientPermission();
  if (!isModeratorOrAbove(user) && !directMemberIds(ctx.db, group.id).includes(user.id))
    throw insufficientPermission();
  return group;
}
