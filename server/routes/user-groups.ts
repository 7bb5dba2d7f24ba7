/**
 * User groups: POST /user_groups/create and GET /user_groups; a group's name, description,
 * members and deactivation (issue 8).
 */
import {
  doCreateUserGroup,
  doDeactivateUserGroup,
  doUpdateUserGroup,
  doUpdateUserGroupMembers,
  userGroupMembers,
} from '../actions/user-groups';
import { listUserGroups } from '../db/realm-data';
import { route } from '../http';
import { actionRoute, fieldRoute, realmListRoute } from './shapes';

export const userGroupEndpoints = [
  realmListRoute('GET /user_groups', 'user_groups', listUserGroups),
  route({
    // The router checks the permission (members) first: a guest learns nothing about the input.
    endpoint: 'POST /user_groups/create',
    handle({ ctx, user, params }) {
      const { name, description, members } = params;
      // group_id: the later revision's addition (feature level 317); harmless to older clients.
      return { group_id: doCreateUserGroup(ctx, user, { name, description, members }) };
    },
  }),
];

/** One group: name and description, members, deactivation (issue 8). */
export const userGroupEditEndpoints = [
  actionRoute('PATCH /user_groups/{user_group_id}', ({ ctx, user, params }) => {
    const { name, description } = params;
    doUpdateUserGroup(ctx, user, params.user_group_id, { name, description });
  }),
  actionRoute('POST /user_groups/{user_group_id}/members', ({ ctx, user, params }) => {
    const lists = { add: params.add ?? [], delete: params.delete ?? [] };
    doUpdateUserGroupMembers(ctx, user, params.user_group_id, lists);
  }),
  fieldRoute('GET /user_groups/{user_group_id}/members', 'members', ({ ctx, user, params }) =>
    userGroupMembers(ctx, user, params.user_group_id),
  ),
  actionRoute('POST /user_groups/{user_group_id}/deactivate', ({ ctx, user, params }) =>
    doDeactivateUserGroup(ctx, user, params.user_group_id),
  ),
];
