/**
 * User groups: creation, name and description, members and deactivation, with the interface
 * family's checks; `user_group` events to everyone.
 */
import type { ServiceContext } from '../context';
import { requireRealm } from '../db/realm';
import {
  addGroupMembers,
  deactivateUserGroup,
  directMemberIds,
  getUserGroup,
  insertUserGroup,
  removeGroupMembers,
  setUserGroupText,
  streamIdsUsingGroup,
  type UserGroupRow,
  userGroupNameExists,
} from '../db/realm-data';
import { activeUserIds, type UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import { checkPrintable } from '../printable';
import { accessUserById, accessUserGroupById, insufficientPermission, invalidUserId } from './access';
import { allowedBy, realmPolicy } from './streams';
import { type EventBatch, runAction } from './transaction';

export const MAX_USER_GROUP_NAME_LENGTH = 100;
export const MAX_USER_GROUP_DESCRIPTION_LENGTH = 1024;
/** Prefixes reserved for system groups and mention syntax. */
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

export function checkUserGroupName(name: string): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if ([...name].length > MAX_USER_GROUP_NAME_LENGTH) {
    throw badRequest(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  }
  for (const prefix of INVALID_NAME_PREFIXES) {
    if (name.startsWith(prefix)) throw badRequest(`User group name cannot start with '${prefix}'.`);
  }
  if (name.includes('\0')) throw badRequest('User group name must not contain null bytes');
  checkPrintable(name, 'user group name');
  return name;
}

export function checkUserGroupDescription(description: string): string {
  if ([...description].length > MAX_USER_GROUP_DESCRIPTION_LENGTH) {
    throw badRequest(`User group description cannot exceed ${MAX_USER_GROUP_DESCRIPTION_LENGTH} characters.`);
  }
  if (description.includes('\0')) throw badRequest('User group description must not contain null bytes');
  return description;
}

/**
 * The organization's user_group_edit_policy: who may create groups and edit any (the family's
 * require_user_group_edit_permission; guests never). Editing a group also needs membership or
 * a moderator's role (accessUserGroupById).
 */
function requireGroupEditPolicy(ctx: ServiceContext, user: UserRow): void {
  if (!allowedBy(user, realmPolicy(requireRealm(ctx.db), 'user_group_edit_policy'))) {
    throw insufficientPermission();
  }
}

/** A group the user may edit: the policy first, then the group's own rules. */
function editableGroup(ctx: ServiceContext, user: UserRow, groupId: number): UserGroupRow {
  requireGroupEditPolicy(ctx, user);
  return accessUserGroupById(ctx, user, groupId);
}

/** POST /user_groups/create: returns the new group's id. */
export function doCreateUserGroup(
  ctx: ServiceContext,
  user: UserRow,
  group: { name: string; description: string; members: number[] },
): number {
  requireGroupEditPolicy(ctx, user);
  const name = checkUserGroupName(group.name);
  const description = checkUserGroupDescription(group.description);
  const members = [...new Set(group.members)];
  return runAction(ctx, (events) => {
    for (const id of members) accessUserById(ctx, id, { error: invalidUserId });
    if (userGroupNameExists(ctx.db, ctx.realmId, name)) {
      throw badRequest(`User group '${name}' already exists.`);
    }
    const id = insertUserGroup(ctx.db, { realmId: ctx.realmId, name, description, members });
    const created = getUserGroup(ctx.db, ctx.realmId, id);
    events.send({ type: 'user_group', op: 'add', group: created }, activeUserIds(ctx.db, ctx.realmId));
    return id;
  });
}

/** A user_group event to every active user of the organization. */
function sendGroupEvent(ctx: ServiceContext, events: EventBatch, event: Record<string, unknown>): void {
  events.send({ type: 'user_group', ...event }, activeUserIds(ctx.db, ctx.realmId));
}

/** A new name must be valid and not another group's (a group may change its name's case). */
function checkRename(ctx: ServiceContext, group: UserGroupRow, name: string): string {
  checkUserGroupName(name);
  const renamesItself = name.toLowerCase() === group.name.toLowerCase();
  if (!renamesItself && userGroupNameExists(ctx.db, ctx.realmId, name))
    throw badRequest(`User group '${name}' already exists.`);
  return name;
}

/**
 * PATCH /user_groups/{user_group_id}: name and/or description; one `update` event per
 * changed field, as the family sends them.
 */
export function doUpdateUserGroup(
  ctx: ServiceContext,
  user: UserRow,
  groupId: number,
  change: { name?: string | undefined; description?: string | undefined },
): void {
  if (change.name === undefined && change.description === undefined) throw badRequest('No new data supplied');
  runAction(ctx, (events) => {
    const group = editableGroup(ctx, user, groupId);
    const name = change.name === undefined ? undefined : checkRename(ctx, group, change.name);
    const description =
      change.description === undefined ? undefined : checkUserGroupDescription(change.description);
    if (name !== undefined && name !== group.name) {
      setUserGroupText(ctx.db, group.id, 'name', name);
      sendGroupEvent(ctx, events, { op: 'update', group_id: group.id, data: { name } });
    }
    if (description !== undefined && description !== group.description) {
      setUserGroupText(ctx.db, group.id, 'description', description);
      sendGroupEvent(ctx, events, { op: 'update', group_id: group.id, data: { description } });
    }
  });
}

/**
 * POST /user_groups/{user_group_id}/members: adds active users that are not members yet,
 * then removes members; add_members / remove_members events.
 */
export function doUpdateUserGroupMembers(
  ctx: ServiceContext,
  user: UserRow,
  groupId: number,
  lists: { add: number[]; delete: number[] },
): void {
  const add = [...new Set(lists.add)];
  const remove = [...new Set(lists.delete)];
  if (add.length === 0 && remove.length === 0)
    throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  runAction(ctx, (events) => {
    const group = editableGroup(ctx, user, groupId);
    const members = new Set(directMemberIds(ctx.db, group.id));
    for (const id of add) {
      accessUserById(ctx, id, { error: invalidUserId });
      if (members.has(id)) throw badRequest(`User ${id} is already a member of this group`);
    }
    for (const id of remove) {
      if (!members.has(id)) throw badRequest(`There is no member '${id}' in this user group`);
    }
    if (add.length > 0) {
      addGroupMembers(ctx.db, group.id, add);
      sendGroupEvent(ctx, events, { op: 'add_members', group_id: group.id, user_ids: add });
    }
    if (remove.length > 0) {
      removeGroupMembers(ctx.db, group.id, remove);
      sendGroupEvent(ctx, events, { op: 'remove_members', group_id: group.id, user_ids: remove });
    }
  });
}

/** GET /user_groups/{user_group_id}/members: active members (system groups: by role). */
export function userGroupMembers(ctx: ServiceContext, user: UserRow, groupId: number): number[] {
  const group = accessUserGroupById(ctx, user, groupId, { forRead: true });
  return (getUserGroup(ctx.db, ctx.realmId, group.id)?.members as number[] | undefined) ?? [];
}

/**
 * POST /user_groups/{user_group_id}/deactivate: not while a stream's permission names the
 * group (the family's CANNOT_DEACTIVATE_GROUP_IN_USE, with its objections). Clients of our
 * feature level know no deactivated groups: they get `remove`.
 */
export function doDeactivateUserGroup(ctx: ServiceContext, user: UserRow, groupId: number): void {
  runAction(ctx, (events) => {
    const group = editableGroup(ctx, user, groupId);
    const streams = streamIdsUsingGroup(ctx.db, group.id);
    if (streams.length > 0) {
      const objections = streams.map((id) => ({
        type: 'channel',
        channel_id: id,
        settings: ['can_remove_subscribers_group'],
      }));
      throw new ApiFailure(400, 'CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', {
        objections,
      });
    }
    deactivateUserGroup(ctx.db, group.id);
    sendGroupEvent(ctx, events, { op: 'remove', group_id: group.id });
  });
}
