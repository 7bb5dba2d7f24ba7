/** GET, POST and DELETE /users/me/subscriptions, and POST /users/me/subscriptions/properties. */
import { z } from 'zod';
import { decodeRetention, decodeStreamPostPolicy } from '../actions/streams';
import {
  doSubscribe,
  doUnsubscribe,
  doUpdateSubscriptionProperties,
  type Principal,
  type PropertyChange,
} from '../actions/subscriptions';
import { badRequest } from '../errors';
import type { Endpoint } from '../http';
import { subscriptionState } from '../objects/streams';
import { bool, type Decoder, parseJsonText, stringList } from '../params';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON list of objects, each checked key by key with the interface family's wording. */
function listOfObjects(name: string, raw: string): Record<string, unknown>[] {
  const value = parseJsonText(name, raw);
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  value.forEach((item, i) => {
    if (!isObject(item)) throw badRequest(`${name}[${i}] is not a dict`);
  });
  return value as Record<string, unknown>[];
}

const streamSpecs: Decoder<{ name: string; description?: string }[]> = (name, raw) =>
  listOfObjects(name, raw).map((item, i) => {
    if (!('name' in item)) throw badRequest(`name key is missing from ${name}[${i}]`);
    if (typeof item.name !== 'string') throw badRequest(`${name}[${i}]["name"] is not a string`);
    if ('description' in item && typeof item.description !== 'string') {
      throw badRequest(`${name}[${i}]["description"] is not a string`);
    }
    return typeof item.description === 'string'
      ? { name: item.name, description: item.description }
      : { name: item.name };
  });

const principalsSchema = z.union([z.array(z.number().int().safe()), z.array(z.string())]);
const principals: Decoder<Principal[]> = (name, raw) => {
  const result = principalsSchema.safeParse(parseJsonText(name, raw));
  if (!result.success) throw badRequest(`${name} is not a list of user ids or emails`);
  return result.data;
};

const propertyChanges: Decoder<PropertyChange[]> = (name, raw) =>
  listOfObjects(name, raw).map((item, i) => {
    for (const key of ['stream_id', 'property', 'value']) {
      if (!(key in item)) throw badRequest(`${key} key is missing from ${name}[${i}]`);
    }
    if (typeof item.stream_id !== 'number' || !Number.isSafeInteger(item.stream_id)) {
      throw badRequest(`${name}[${i}]["stream_id"] is not an integer`);
    }
    if (typeof item.property !== 'string') throw badRequest(`${name}[${i}]["property"] is not a string`);
    return { stream_id: item.stream_id, property: item.property, value: item.value };
  });

export const subscriptionEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/users/me/subscriptions',
    auth: 'user',
    handle({ ctx, user, params }) {
      const includeSubscribers = params.optional('include_subscribers', bool, false);
      return { subscriptions: subscriptionState(ctx.db, user, includeSubscribers).subscriptions };
    },
  },
  {
    method: 'POST',
    path: '/users/me/subscriptions',
    auth: 'user',
    handle({ ctx, user, params }) {
      const streams = params.required('subscriptions', streamSpecs);
      const history = params.optional('history_public_to_subscribers', bool);
      const result = doSubscribe(ctx, user, {
        streams,
        principals: params.optional('principals', principals),
        authorizationErrorsFatal: params.optional('authorization_errors_fatal', bool, true),
        announce: params.optional('announce', bool, false),
        create: {
          inviteOnly: params.optional('invite_only', bool, false),
          isWebPublic: params.optional('is_web_public', bool, false),
          ...(history === undefined ? {} : { historyPublicToSubscribers: history }),
          streamPostPolicy: params.optional('stream_post_policy', decodeStreamPostPolicy, 1),
          ...(params.has('message_retention_days')
            ? { messageRetentionDays: params.required('message_retention_days', decodeRetention) }
            : {}),
        },
      });
      return { ...result };
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/subscriptions',
    auth: 'user',
    handle({ ctx, user, params }) {
      const names = params.required('subscriptions', stringList);
      return { ...doUnsubscribe(ctx, user, names, params.optional('principals', principals)) };
    },
  },
  {
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    auth: 'user',
    handle({ ctx, user, params }) {
      const changes = params.required('subscription_data', propertyChanges);
      doUpdateSubscriptionProperties(ctx, user, changes);
      return { ignored_parameters_unsupported: params.names().filter((n) => n !== 'subscription_data') };
    },
  },
];
