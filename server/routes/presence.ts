/** Presence: POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence. */
import { doUpdatePresence, realmPresence, userPresence } from '../actions/presence';
import { route } from '../http';

export const presenceEndpoints = [
  route({
    endpoint: 'POST /users/me/presence',
    handle({ ctx, user, params }) {
      return doUpdatePresence(ctx, user, {
        status: params.status,
        newUserInput: params.new_user_input ?? false,
        pingOnly: params.ping_only ?? false,
        slimPresence: params.slim_presence ?? false,
        lastUpdateId: params.last_update_id,
        historyLimitDays: params.history_limit_days,
      });
    },
  }),
  route({
    endpoint: 'GET /realm/presence',
    handle({ ctx }) {
      return realmPresence(ctx);
    },
  }),
  route({
    endpoint: 'GET /users/{user_id_or_email}/presence',
    handle({ ctx, params }) {
      return userPresence(ctx, params.user_id_or_email);
    },
  }),
];
