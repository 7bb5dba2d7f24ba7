/** Muted users: POST and DELETE /users/me/muted_users/{muted_user_id}. */
import { doMuteUser, doUnmuteUser } from '../actions/muted-users';
import { route } from '../http';

export const mutedUserEndpoints = [
  route({
    endpoint: 'POST /users/me/muted_users/{muted_user_id}',
    handle({ ctx, user, params }) {
      doMuteUser(ctx, user, params.muted_user_id);
      return {};
    },
  }),
  route({
    endpoint: 'DELETE /users/me/muted_users/{muted_user_id}',
    handle({ ctx, user, params }) {
      doUnmuteUser(ctx, user, params.muted_user_id);
      return {};
    },
  }),
];
