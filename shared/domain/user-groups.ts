/** The user groups substore (`realm_user_groups`), keyed by group id. */
import type { z } from 'zod';
import type { EventOf, userGroupSchema } from '../protocol';
import { type ById, byId, mapEntries, removeIds, withEntry, withoutEntries } from './records';

export type UserGroup = z.infer<typeof userGroupSchema>;
export type UserGroupsState = ById<UserGroup>;
export type UserGroupEvent = EventOf<'user_group'>;

export const userGroupsFromSnapshot = (groups: readonly UserGroup[] | undefined): UserGroupsState =>
  byId(groups, (g) => g.id);

export function handleUserGroupEvent(state: UserGroupsState, event: UserGroupEvent): UserGroupsState {
  switch (event.op) {
    case 'add':
      return withEntry(state, event.group.id, event.group);
    case 'remove':
      return withoutEntries(state, [event.group_id]);
    case 'update': {
      const group = state[event.group_id];
      return group ? withEntry(state, event.group_id, { ...group, ...event.data }) : state;
    }
    case 'add_members': {
      const group = state[event.group_id];
      if (!group) return state;
      const added = event.user_ids.filter((u) => !group.members.includes(u));
      return added.length === 0
        ? state
        : withEntry(state, event.group_id, { ...group, members: [...group.members, ...added] });
    }
    case 'remove_members': {
      const group = state[event.group_id];
      if (!group) return state;
      const members = removeIds(group.members, new Set(event.user_ids));
      return members === group.members
        ? state
        : withEntry(state, event.group_id, { ...group, members: [...members] });
    }
  }
}

/** A deactivated user leaves every group. */
export function dropGroupMembers(state: UserGroupsState, userIds: readonly number[]): UserGroupsState {
  const drop = new Set(userIds);
  return mapEntries(state, (group) => {
    const members = removeIds(group.members, drop);
    return members === group.members ? group : { ...group, members: [...members] };
  });
}
