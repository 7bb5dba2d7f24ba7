/**
 * Muted users (POST/DELETE /users/me/muted_users/{muted_user_id}), as the interface family
 * does it: muting marks the muted user's messages read for the muter (an update_message_flags
 * event when there were any), and every change sends the whole list in a `muted_users` event
 * to the muter's clients.
 */
import type { ServiceContext } from '../context';
import { deleteMute, insertMute, isMuted, markSenderMessagesRead, mutedUsers } from '../db/muted-users';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import { accessUserById } from './access';
import { type EventBatch, runAction } from './transaction';

/** Any user of the organization, bots and deactivated users included, or "No such user". */
function mutedUserOf(ctx: ServiceContext, mutedUserId: number): UserRow {
  return accessUserById(ctx, mutedUserId, { allowDeactivated: true });
}

function sendMutedUsers(ctx: ServiceContext, events: EventBatch, user: UserRow): void {
  events.send({ type: 'muted_users', muted_users: mutedUsers(ctx.db, user.id) }, [user.id]);
}

/** POST /users/me/muted_users/{muted_user_id}. */
export function doMuteUser(ctx: ServiceContext, user: UserRow, mutedUserId: number): void {
  if (mutedUserId === user.id) throw badRequest('Cannot mute self');
  const muted = mutedUserOf(ctx, mutedUserId);
  runAction(ctx, (events) => {
    if (isMuted(ctx.db, user.id, muted.id)) throw badRequest('User already muted');
    insertMute(ctx.db, user.id, muted.id, Math.floor(Date.now() / 1000));
    const read = markSenderMessagesRead(ctx.db, user.id, muted.id);
    if (read.length > 0) {
      events.send({ type: 'update_message_flags', op: 'add', flag: 'read', messages: read, all: false }, [
        user.id,
      ]);
    }
    sendMutedUsers(ctx, events, user);
  });
}

/** DELETE /users/me/muted_users/{muted_user_id}. */
export function doUnmuteUser(ctx: ServiceContext, user: UserRow, mutedUserId: number): void {
  const muted = mutedUserOf(ctx, mutedUserId);
  runAction(ctx, (events) => {
    if (!isMuted(ctx.db, user.id, muted.id)) throw badRequest('User is not muted');
    deleteMute(ctx.db, user.id, muted.id);
    sendMutedUsers(ctx, events, user);
  });
}
