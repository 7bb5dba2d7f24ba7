/** Muted users: POST and DELETE /users/me/muted_users/{muted_user_id}. */
import { doMuteUser, doUnmuteUser } from '../actions/muted-users';
import { actionRoute } from './shapes';

export const mutedUserEndpoints = [
  actionRoute('POST /users/me/muted_users/{muted_user_id}', ({ ctx, user, params }) =>
    doMuteUser(ctx, user, params.muted_user_id),
  ),
  actionRoute('DELETE /users/me/muted_users/{muted_user_id}', ({ ctx, user, params }) =>
    doUnmuteUser(ctx, user, params.muted_user_id),
  ),
];
