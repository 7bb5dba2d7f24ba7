/** POST /register: create an event queue and return the snapshot it starts from. */
import { z } from 'zod';
import { CLIENT_CAPABILITIES, type ClientCapabilities } from '../../shared/protocol';
import type { ServiceContext } from '../context';
import { getRealm } from '../db/realm';
import type { UserRow } from '../db/users';
import { fetchInitialState } from '../events/initial-state';
import type { QueueSettings } from '../events/queue';
import type { Endpoint, UserRequest } from '../http';
import { bool, jsonOf, type RequestParams, stringList } from '../params';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../version';

const capabilitiesSchema = z.record(z.string(), z.boolean());
const narrowSchema = z.array(z.tuple([z.string(), z.string()]));

/** Only the capabilities we know, as own properties (unknown ones are for newer servers). */
function knownCapabilities(given: Record<string, boolean>): ClientCapabilities {
  const result: ClientCapabilities = {};
  for (const name of CLIENT_CAPABILITIES) if (Object.hasOwn(given, name)) result[name] = given[name];
  return result;
}

/** The register parameters that shape a queue (shared with GET /events without queue_id). */
export function parseQueueParams(ctx: ServiceContext, user: UserRow, params: RequestParams) {
  const eventTypes = params.optional('event_types', stringList);
  const fetchEventTypes = params.optional('fetch_event_types', stringList) ?? eventTypes;
  const queue: QueueSettings = {
    userId: user.id,
    realmId: ctx.realmId,
    applyMarkdown: params.optional('apply_markdown', bool, false),
    clientExtavatar: params.optional('client_extavatar', bool, true),
    allPublicStreams: params.optional('all_public_streams', bool, false),
    capabilities: knownCapabilities(params.optional('client_capabilities', jsonOf(capabilitiesSchema), {})),
    narrow: params.optional('narrow', jsonOf(narrowSchema), []),
    eventTypes: eventTypes ? new Set(eventTypes) : null,
  };
  return {
    queue,
    fetchEventTypes: fetchEventTypes ? new Set(fetchEventTypes) : null,
    includeSubscribers: params.optional('include_subscribers', bool, false),
    slimPresence: params.optional('slim_presence', bool, false),
  };
}

export function baseUrl(req: UserRequest): string {
  return `${req.http.protocol}://${req.http.host}`;
}

export const registerEndpoints: Endpoint[] = [
  {
    method: 'POST',
    path: '/register',
    auth: 'user',
    handle(req) {
      const { ctx, user } = req;
      const parsed = parseQueueParams(ctx, user, req.params);
      const realm = getRealm(ctx.db);
      if (!realm) throw new Error('No realm');
      // No await between creating the queue and reading the state: nothing can slip between.
      const queue = ctx.queues.register(parsed.queue);
      try {
        const state = fetchInitialState(ctx.db, {
          user,
          realm,
          fetchEventTypes: parsed.fetchEventTypes,
          capabilities: parsed.queue.capabilities,
          clientExtavatar: parsed.queue.clientExtavatar,
          includeSubscribers: parsed.includeSubscribers,
          baseUrl: baseUrl(req),
        });
        return {
          queue_id: queue.id,
          last_event_id: queue.lastEventId,
          service_feature_level: SERVICE_FEATURE_LEVEL,
          service_version: SERVICE_VERSION,
          service_merge_base: SERVICE_MERGE_BASE,
          event_queue_longpoll_timeout_seconds: ctx.config.longpollSeconds,
          user_id: user.id,
          ...state,
        };
      } catch (error) {
        ctx.queues.delete(queue);
        throw error;
      }
    },
  },
];
