/**
 * The organization's message policies as yes/no answers: who a policy value (edit_topic_policy,
 * move_messages_between_streams_policy, delete_own_message_policy) lets act, and whether a
 * time limit has run out for a user. The settings are read by db/message-settings.ts.
 */
import { POLICY } from '../db/message-settings';
import type { UserRow } from '../db/users';
import { isAdmin, isGuest, isModeratorOrAbove } from '../permissions';

/** Whether the policy lets the user act (full members: every member; no waiting period is kept). */
export function policyAllows(user: UserRow, policy: number): boolean {
  switch (policy) {
    case POLICY.everyone:
      return true;
    case POLICY.members:
    case POLICY.fullMembers:
      return !isGuest(user);
    case POLICY.moderators:
      return isModeratorOrAbove(user);
    default:
      return isAdmin(user);
  }
}

/**
 * Whether moving a message sent at `dateSent` is past the limit for this user: moderators and
 * administrators have none; null is no limit.
 */
export function pastMoveLimit(user: UserRow, limit: number | null, dateSent: number, now: number): boolean {
  return !isModeratorOrAbove(user) && limit !== null && now - dateSent > limit;
}
