/**
 * POST /register: create an event queue and return the snapshot it starts from. Without
 * credentials, organizations with public access (enable_spectator_access) get a spectator
 * snapshot and no queue (queue_id null); others answer 401.
 */
import type { FastifyReply } from 'fastify';
import { CLIENT_CAPABILITIES, type ClientCapabilities, type ParamsOf } from '../../shared/protocol';
import type { ServiceContext } from '../context';
import { requireRealm } from '../db/realm';
import type { UserRow } from '../db/users';
import { badRequest, unauthorized } from '../errors';
import { fetchInitialState } from '../events/initial-state';
import { answerParts } from '../events/initial-state/shared';
import { NARROW_OPERATORS, type QueueSettings } from '../events/queue';
import { type PublicRequest, route } from '../http';
import { isGuest } from '../permissions';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../version';

/** The decoded parameters that shape a queue: POST /register's, also GET /events' without queue_id. */
type QueueParams = ParamsOf<'POST /register'>;

/** Only the capabilities we know, as own properties (unknown ones are for newer servers). */
function knownCapabilities(given: Record<string, boolean>): ClientCapabilities {
  const result: ClientCapabilities = {};
  for (const name of CLIENT_CAPABILITIES) if (Object.hasOwn(given, name)) result[name] = given[name];
  return result;
}

/** The narrow of a queue: pairs of operator and operand, with operators the filter knows. */
function checkNarrowOperators(narrow: [string, string][]): [string, string][] {
  for (const [operator] of narrow) {
    if (!(NARROW_OPERATORS as readonly string[]).includes(operator)) {
      throw badRequest(`Operator ${operator} not supported.`);
    }
  }
  return narrow;
}

/** Parameters shared by POST /register and by GET /events without queue_id. */
function commonParams(params: QueueParams, authenticated: boolean) {
  const eventTypes = params.event_types;
  const fetchEventTypes = params.fetch_event_types ?? eventTypes;
  return {
    applyMarkdown: params.apply_markdown ?? false,
    // The family's default: true for users, false for spectators (feature level 92).
    clientExtavatar: params.client_extavatar ?? authenticated,
    allPublicStreams: params.all_public_streams ?? false,
    capabilities: knownCapabilities(params.client_capabilities ?? {}),
    narrow: checkNarrowOperators(params.narrow ?? []),
    eventTypes: eventTypes ? new Set(eventTypes) : null,
    fetchEventTypes: fetchEventTypes ? new Set(fetchEventTypes) : null,
    includeSubscribers: params.include_subscribers ?? false,
    slimPresence: params.slim_presence ?? false,
  };
}

function checkAllPublicStreams(user: UserRow, allPublicStreams: boolean): void {
  // Guests cannot see public streams they are not subscribed to.
  if (allPublicStreams && isGuest(user)) throw badRequest('User not authorized for this query');
}

/**
 * The register parameters that shape a queue. GET /events also takes the capabilities as
 * top-level booleans (the family's internal form), which win over client_capabilities.
 */
export function parseQueueParams(ctx: ServiceContext, user: UserRow, params: QueueParams) {
  const common = commonParams(params, true);
  checkAllPublicStreams(user, common.allPublicStreams);
  for (const name of CLIENT_CAPABILITIES) {
    const flat = params[name];
    if (flat !== undefined) common.capabilities[name] = flat;
  }
  const queue: QueueSettings = {
    userId: user.id,
    realmId: ctx.realmId,
    applyMarkdown: common.applyMarkdown,
    clientExtavatar: common.clientExtavatar,
    allPublicStreams: common.allPublicStreams,
    capabilities: common.capabilities,
    narrow: common.narrow,
    eventTypes: common.eventTypes,
  };
  return { queue, ...common };
}

/**
 * Sends a 200 JSON answer given as parts, one after the other, as Fastify would send it whole
 * (the headers set on the reply, such as the rate limit's, then the type and length): the
 * kept parts of a large organization's snapshot are megabytes that a single buffer would copy
 * at every register.
 */
function sendJsonParts(reply: FastifyReply, parts: readonly Buffer[]): void {
  let length = 0;
  for (const part of parts) length += part.length;
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', String(length));
  res.writeHead(200);
  // Corked, the parts leave in one write rather than one each.
  res.cork();
  for (const part of parts) res.write(part);
  res.uncork();
  res.end();
}

export function baseUrl(req: PublicRequest): string {
  return `${req.http.protocol}://${req.http.host}`;
}

function versionFields() {
  return {
    service_feature_level: SERVICE_FEATURE_LEVEL,
    service_version: SERVICE_VERSION,
    service_merge_base: SERVICE_MERGE_BASE,
  };
}

export const registerEndpoints = [
  route({
    endpoint: 'POST /register',
    handle(req) {
      const { ctx, user } = req;
      const realm = requireRealm(ctx.db);

      if (user === null) {
        // Parameter errors first, as for everyone; then whether spectators are welcome.
        const common = commonParams(req.params, false);
        if (realm.enable_spectator_access !== 1)
          throw unauthorized('Not logged in: API authentication required');
        if (common.clientExtavatar)
          throw badRequest("Invalid 'client_extavatar' parameter for anonymous request");
        if (common.includeSubscribers) {
          throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
        }
        const state = fetchInitialState(ctx, { ...common, user: null, realm, baseUrl: baseUrl(req) });
        return {
          queue_id: null,
          last_event_id: -1,
          ...versionFields(),
          event_queue_longpoll_timeout_seconds: ctx.config.longpollSeconds,
          ...state,
        };
      }

      const parsed = parseQueueParams(ctx, user, req.params);
      // No await between creating the queue and reading the state: nothing can slip between.
      const queue = ctx.queues.register(parsed.queue);
      try {
        const state = fetchInitialState(ctx, { ...parsed, user, realm, baseUrl: baseUrl(req) });
        // Written here rather than by the router: the snapshot's kept parts are JSON already.
        const parts = answerParts({
          result: 'success',
          msg: '',
          queue_id: queue.id,
          last_event_id: queue.lastEventId,
          ...versionFields(),
          event_queue_longpoll_timeout_seconds: ctx.config.longpollSeconds,
          user_id: user.id,
          ...state,
        });
        sendJsonParts(req.reply, parts);
        return undefined;
      } catch (error) {
        ctx.queues.delete(queue);
        throw error;
      }
    },
  }),
];
