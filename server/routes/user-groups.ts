/** User groups: POST /user_groups/create, and GET /user_groups for clients. */
import { doCreateUserGroup } from '../actions/user-groups';
import { listUserGroups } from '../db/realm-data';
import { route } from '../http';

export const userGroupEndpoints = [
  route({
    endpoint: 'GET /user_groups',
    handle: ({ ctx }) => ({ user_groups: listUserGroups(ctx.db, ctx.realmId) }),
  }),
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
