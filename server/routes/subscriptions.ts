/**
 * GET, POST and DELETE /users/me/subscriptions, and POST /users/me/subscriptions/properties;
 * beyond the spec, GET /users/{user_id}/subscriptions/{stream_id}.
 */
import {
  doSubscribe,
  doUnsubscribe,
  doUpdateSubscriptionProperties,
  isUserSubscribed,
} from '../actions/subscriptions';
import { subscriptionState } from '../formats/streams';
import { route } from '../http';
import { fieldRoute } from './shapes';

export const subscriptionEndpoints = [
  route({
    endpoint: 'GET /users/me/subscriptions',
    handle({ ctx, user, params }) {
      const includeSubscribers = params.include_subscribers ?? false;
      return { subscriptions: subscriptionState(ctx.db, user, includeSubscribers).subscriptions };
    },
  }),
  route({
    endpoint: 'POST /users/me/subscriptions',
    async handle({ ctx, user, params }) {
      const { history_public_to_subscribers: history, message_retention_days: retention } = params;
      const result = await doSubscribe(ctx, user, {
        streams: params.subscriptions,
        principals: params.principals,
        authorizationErrorsFatal: params.authorization_errors_fatal ?? true,
        announce: params.announce ?? false,
        create: {
          inviteOnly: params.invite_only ?? false,
          isWebPublic: params.is_web_public ?? false,
          ...(history === undefined ? {} : { historyPublicToSubscribers: history }),
          streamPostPolicy: params.stream_post_policy ?? 1,
          // null is a value here: the organization's default.
          ...(retention === undefined ? {} : { messageRetentionDays: retention }),
        },
      });
      return { ...result };
    },
  }),
  route({
    endpoint: 'DELETE /users/me/subscriptions',
    async handle({ ctx, user, params }) {
      return { ...(await doUnsubscribe(ctx, user, params.subscriptions, params.principals)) };
    },
  }),
  route({
    endpoint: 'POST /users/me/subscriptions/properties',
    handle({ ctx, user, params, raw }) {
      doUpdateSubscriptionProperties(ctx, user, params.subscription_data);
      return { ignored_parameters_unsupported: raw.names().filter((n) => n !== 'subscription_data') };
    },
  }),
];

/** Beyond the spec (issue 8): GET /users/{user_id}/subscriptions/{stream_id}. */
export const subscriptionStatusEndpoints = [
  fieldRoute('GET /users/{user_id}/subscriptions/{stream_id}', 'is_subscribed', ({ ctx, user, params }) =>
    isUserSubscribed(ctx, user, params.user_id, params.stream_id),
  ),
];
