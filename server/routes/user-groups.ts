/** User groups: POST /user_groups/create, and GET /user_groups for clients. */
import { checkCanCreateUserGroup, doCreateUserGroup } from '../actions/user-groups';
import { listUserGroups } from '../db/realm-data';
import type { Endpoint } from '../http';
import { intList, str } from '../params';

export const userGroupEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/user_groups',
    auth: 'user',
    handle({ ctx }) {
      return { user_groups: listUserGroups(ctx.db, ctx.realmId) };
    },
  },
  {
    method: 'POST',
    path: '/user_groups/create',
    auth: 'user',
    handle({ ctx, user, params }) {
      // Permission first, as the family's decorator does: a guest learns nothing about the input.
      checkCanCreateUserGroup(user);
      const name = params.required('name', str);
      const description = params.required('description', str);
      const members = params.required('members', intList);
      // group_id: the later revision's addition (feature level 317); harmless to older clients.
      return { group_id: doCreateUserGroup(ctx, user, { name, description, members }) };
    },
  },
];
