/** User groups: creation with the interface family's checks, `user_group` events to everyone. */
import type { ServiceContext } from '../context';
import { getUserGroup, insertUserGroup, userGroupNameExists } from '../db/realm-data';
import { activeUserIds, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { isGuest } from '../permissions';
import { accessUserById, insufficientPermission, invalidUserId } from './access';
import { runAction } from './transaction';

export const MAX_USER_GROUP_NAME_LENGTH = 100;
export const MAX_USER_GROUP_DESCRIPTION_LENGTH = 1024;
/** Prefixes reserved for system groups and mention syntax. */
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** The family's default user_group_edit_policy: members and above; never guests. */
export function checkCanCreateUserGroup(user: UserRow): void {
  if (isGuest(user)) throw insufficientPermission();
}

export function checkUserGroupName(name: string): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if ([...name].length > MAX_USER_GROUP_NAME_LENGTH) {
    throw badRequest(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  }
  for (const prefix of INVALID_NAME_PREFIXES) {
    if (name.startsWith(prefix)) throw badRequest(`User group name cannot start with '${prefix}'.`);
  }
  return name;
}

export function checkUserGroupDescription(description: string): string {
  if ([...description].length > MAX_USER_GROUP_DESCRIPTION_LENGTH) {
    throw badRequest(`User group description cannot exceed ${MAX_USER_GROUP_DESCRIPTION_LENGTH} characters.`);
  }
  if (description.includes('\0')) throw badRequest('User group description must not contain null bytes');
  return description;
}

/** POST /user_groups/create: returns the new group's id. */
export function doCreateUserGroup(
  ctx: ServiceContext,
  user: UserRow,
  group: { name: string; description: string; members: number[] },
): number {
  checkCanCreateUserGroup(user);
  const name = checkUserGroupName(group.name);
  const description = checkUserGroupDescription(group.description);
  if (name.includes('\0')) throw badRequest('User group name must not contain null bytes');
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
