/**
 * The HTTP layer: a Fastify instance that speaks the spec's conventions (form-encoded bodies,
 * the JSON envelope on every answer, 404 for unknown paths, 405 for a wrong method on a known
 * one, 4xx for anything the client got wrong), and the router that serves the endpoint
 * catalogue (shared/protocol/endpoints.ts). For each request the router authenticates as the
 * entry's `permission` says, checks the role, decodes every declared parameter, and only then
 * calls the route's handler with typed values; a route the catalogue lacks, or an entry no
 * route serves, stops the server at startup.
 */

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import multipart from '@fastify/multipart';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import {
  API_PREFIX,
  type EndpointName,
  type EndpointNamed,
  type EndpointSpec,
  endpointName,
  type ParamsOf,
  type Permission,
} from '../shared/protocol';
import { requireAdmin, requireMember } from './actions/access';
import { checkCanCreateUsers } from './actions/users';
import { authenticateRequest } from './auth';
import type { ServiceContext } from './context';
import { inKeptRead } from './db/realm-data';
import type { UserRow } from './db/users';
import { ApiFailure } from './errors';
import { closingResponse, lingeringClose } from './lingering-close';
import { paramDecoder, RequestParams } from './params';
import {
  DEFAULT_FILE_LIMIT_BYTES,
  MULTIPART_OPTIONS,
  type MultipartBody,
  NO_MULTIPART,
  readMultipart,
  type UploadedFile,
} from './params/multipart';
import { formEntries, strictUtf8, urlQueryEntries } from './params/text';
import { isExempt, limitRequest } from './ratelimit';

const METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** What every handler gets besides its parameters and user. */
export interface PublicRequest {
  ctx: ServiceContext;
  /** The request's texts as sent, for what the catalogue does not declare (params/index.ts). */
  raw: RequestParams;
  /** The file parts of a multipart/form-data body, in body order; none for other bodies. */
  files: UploadedFile[];
  http: FastifyRequest;
  reply: FastifyReply;
}

/** The signed-in user as the entry's permission makes it: none, a user, or maybe a spectator. */
type UserOf<E> = E extends { permission: 'none' | 'webhook' }
  ? unknown
  : E extends { spectators: true }
    ? { user: UserRow | null }
    : { user: UserRow };

/** A handler's request: the catalogue entry's decoded parameters, typed from the entry. */
export type RouteRequest<N extends EndpointName> = PublicRequest & {
  params: ParamsOf<N>;
} & UserOf<EndpointNamed<N>>;

/** What a handler returns: the success body's fields besides result and msg. */
export type SuccessFields = Record<string, unknown> | undefined;

/** The handler of one catalogue entry, named `METHOD /path` as the catalogue names it. */
export interface Route<N extends EndpointName> {
  endpoint: N;
  /** The largest file part this route takes (multipart bodies); default 25 MiB. */
  maxFileBytes?: number;
  /**
   * The handler only reads, synchronously: authentication and the handler then run in one
   * read transaction (one read lock a request, one state of the database; after a multipart
   * body, the handler alone), in which the rows the server keeps may be kept (db/realm-data.ts
   * inKeptRead).
   */
  readsOnly?: boolean;
  handle(req: RouteRequest<N>): SuccessFields | Promise<SuccessFields>;
}

/** A route of any entry, as tables hold them: the router builds each request for its entry. */
export interface AnyRoute {
  endpoint: EndpointName;
  maxFileBytes?: number;
  readsOnly?: boolean;
  handle(req: never): SuccessFields | Promise<SuccessFields>;
}

/** Declares a route; its handler's request is typed from the catalogue entry it names. */
export function route<N extends EndpointName>(definition: Route<N>): Route<N> {
  return definition;
}

/** One catalogue with the routes that serve it, and where its paths start. */
export interface RouteTable {
  catalogue: readonly EndpointSpec[];
  /** `/api/v1` for the REST API; '' for pages. */
  prefix: string;
  routes: readonly AnyRoute[];
}

/** Form bodies arrive as URLSearchParams; any other body is kept as text for the handler. */
export class RawBody {
  constructor(readonly text: string) {}
}

/** A form body that keeps its text: webhook senders post JSON under a form Content-Type too. */
export class FormBody extends URLSearchParams {
  constructor(readonly text: string) {
    super(text);
  }
}

/**
 * Answers a route's fields already written as a JSON object, in the success envelope: for a
 * route that keeps its answer's text. The route then returns nothing.
 */
export function sendSuccessJson(reply: FastifyReply, fields: string): void {
  const rest = fields === '{}' ? '}' : `,${fields.slice(1)}`;
  reply.type('application/json; charset=utf-8').send(`{"result":"success","msg":""${rest}`);
}

export function errorBody(msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) {
  return { result: 'error', msg, code, ...extra };
}

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Request body size did not match Content-Length',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type',
  FST_ERR_BAD_URL: 'Malformed URL',
  FST_ERR_MAX_PARAM_LENGTH: 'URL parameter is too long',
};

/**
 * Sends an error envelope. When the request's body was not read to its end (over the size
 * limit, or refused before or while it was read), the client may still be sending it: the
 * connection then closes in stages after the envelope (lingering-close.ts), so the client
 * reads the answer instead of a reset.
 */
/**
 * Whether the request has a body (a length or a transfer coding says so) not yet received to
 * its end. A request without one may not be complete yet either: a route runs as soon as its
 * headers are parsed, before Node's parser has seen the request end.
 */
function bodyUnread(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}

function sendEnvelope(
  reply: FastifyReply,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): FastifyReply {
  const socket = reply.raw.socket;
  if (!bodyUnread(reply.request.raw) || !socket) return reply.status(status).headers(headers).send(body);
  reply.hijack();
  // A request may fail while Node's HTTP parser is still at work on its first bytes (a
  // Content-Length over the limit fails as the headers are parsed, no hook coming first): the
  // parser may yet stop reading the socket, so the socket is taken from it once it is done.
  process.nextTick(() => lingeringClose(socket, closingResponse(status, body, headers)));
  return reply;
}

/** Errors of the HTTP parser (before any request exists): the envelope, then a staged close. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, msg] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request header fields are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timeout']
        : [400, 'Malformed HTTP request'];
  if (socket.writable) lingeringClose(socket, closingResponse(status, errorBody(msg)));
  else socket.destroy();
}

function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof ApiFailure) {
    return sendEnvelope(reply, error.status, error.body(), error.headers);
  }
  const fe = error as Partial<FastifyError>;
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const msg = (fe.code && FASTIFY_MESSAGES[fe.code]) ?? fe.message ?? 'Bad request';
    return sendEnvelope(reply, status, errorBody(msg));
  }
  // A bug, not the client's mistake: say so, and keep the details in our log.
  console.error('Internal server error:', error);
  return reply.status(500).send(errorBody('Internal server error', 'INTERNAL_SERVER_ERROR'));
}

/**
 * @fastify/multipart without its onRequest and onResponse hooks: they only remove the temporary
 * files of saveRequestFiles, which the server never calls (it reads parts into memory), and
 * they cost every request two async hooks and a listener. It is registered as the plugin itself
 * is (its parser and request methods serve every route).
 */
const multipartWithoutHooks = Object.assign(
  (instance: FastifyInstance, options: typeof MULTIPART_OPTIONS, done: (error?: Error) => void) => {
    const addHook = instance.addHook;
    const skipped = new Set(['onRequest', 'onResponse']);
    instance.addHook = function (this: FastifyInstance, name: string, hook: unknown) {
      return skipped.has(name) ? this : addHook.call(this, name as 'onRequest', hook as never);
    } as FastifyInstance['addHook'];
    try {
      (multipart as unknown as typeof multipartWithoutHooks)(instance, options, done);
    } finally {
      instance.addHook = addHook;
    }
  },
  // fastify-plugin's marks (no encapsulation, the plugin's name and Fastify version).
  Object.fromEntries(Object.getOwnPropertySymbols(multipart).map((key) => [key, (multipart as never)[key]])),
);

export function createHttpApp(options: { logger: boolean }): FastifyInstance {
  const app = Fastify({
    logger: options.logger,
    // service.close() drains first (waiting polls answered, requests finished); whatever
    // outlasts the drain, a client polling again at once included, is closed here.
    forceCloseConnections: true,
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: (error, _request, reply) => {
      sendError(reply, error);
    },
  });

  app.removeAllContentTypeParsers();
  // Bytes that are not UTF-8 are refused, not turned into U+FFFD (params/text.ts).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_req, body, done) => {
    try {
      done(null, new FormBody(strictUtf8(body as Buffer)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // multipart/form-data: the router reads it (params/multipart.ts), once the user may send it.
  app.register(multipartWithoutHooks, MULTIPART_OPTIONS);
  // Webhooks read whatever their sender posts; everything else just ignores the body.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    done(null, new RawBody(body as string));
  });

  app.setErrorHandler((error, _request, reply) => sendError(reply, error));
  app.setNotFoundHandler((_request, reply) => {
    reply.status(404).send(errorBody('Endpoint not found', 'NOT_FOUND'));
  });
  return app;
}

/**
 * Query parameters merged with a form body or a multipart body's text parts (the body wins),
 * as the interface family reads them.
 */
export function requestParams(
  request: FastifyRequest,
  multipartFields: readonly [string, string][] = [],
): RequestParams {
  const body = request.body instanceof FormBody ? formEntries(request.body.text) : multipartFields;
  return new RequestParams(urlQueryEntries(request.url), body);
}

/**
 * Pairs each catalogue entry with its route, or says what does not pair: a route the
 * catalogue lacks, an entry no route serves, or an entry served twice.
 */
export function pairRoutes(table: Pick<RouteTable, 'catalogue' | 'routes'>): [EndpointSpec, AnyRoute][] {
  const byName = new Map(table.catalogue.map((spec) => [endpointName(spec), spec]));
  const routed = new Map<string, AnyRoute>();
  const problems: string[] = [];
  for (const r of table.routes) {
    if (!byName.has(r.endpoint)) problems.push(`route ${r.endpoint} has no catalogue entry`);
    else if (routed.has(r.endpoint)) problems.push(`${r.endpoint} has two routes`);
    else routed.set(r.endpoint, r);
  }
  for (const name of byName.keys()) {
    if (!routed.has(name)) problems.push(`catalogue entry ${name} has no route`);
  }
  if (problems.length > 0) throw new Error(`Routes and endpoint catalogue differ: ${problems.join('; ')}`);
  return [...routed.values()].map((r) => [byName.get(r.endpoint) as EndpointSpec, r]);
}

/**
 * The role checks of the catalogue's permissions, before any parameter is read (a guest
 * learns nothing about the input); `user`, `none` and `webhook` need none.
 */
const ROLE_CHECKS: Partial<Record<Permission, (user: UserRow) => void>> = {
  member: requireMember,
  admin: requireAdmin,
  'admin+can_create_users': checkCanCreateUsers,
};

/** How a request must authenticate: REST Basic auth, optionally (spectators), or not at all. */
function authLevel(spec: EndpointSpec): 'none' | 'user' | 'optional' {
  if (spec.permission === 'none' || spec.permission === 'webhook') return 'none';
  return spec.spectators ? 'optional' : 'user';
}

/** The Fastify form of a catalogue path: `{name}` segments become `:name`. */
const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The handler Fastify calls for one catalogue entry. */
function routeHandler(ctx: ServiceContext, spec: EndpointSpec, r: AnyRoute, limited: boolean) {
  const auth = authLevel(spec);
  const checkRole = spec.roleCheck === 'action' ? undefined : ROLE_CHECKS[spec.permission];
  const decode = paramDecoder(spec);
  const fileLimitBytes = r.maxFileBytes ?? DEFAULT_FILE_LIMIT_BYTES;
  const handle = r.handle as (req: unknown) => SuccessFields | Promise<SuccessFields>;

  /** The signed-in user as the entry permits, with the rate limit and the role checked. */
  const authorize = (request: FastifyRequest, reply: FastifyReply): UserRow | null => {
    let user: UserRow | null = null;
    const header = request.headers.authorization;
    if (auth === 'user' || (auth === 'optional' && header !== undefined && header.trim() !== '')) {
      try {
        user = authenticateRequest(ctx.db, ctx.realmId, header);
      } catch (error) {
        if (limited) limitRequest(ctx.rateLimits, reply, { ip: request.ip });
        throw error;
      }
    }
    if (limited) limitRequest(ctx.rateLimits, reply, user ? { userId: user.id } : { ip: request.ip });
    if (user && checkRole) checkRole(user);
    return user;
  };

  /** The request of the route's own entry: params decoded by that entry, user as it permits. */
  const routeRequest = (
    request: FastifyRequest,
    reply: FastifyReply,
    user: UserRow | null,
    body: MultipartBody,
  ) => {
    const raw = requestParams(request, body.fields);
    const params = decode(raw, (request.params ?? {}) as Record<string, string>);
    return { ctx, params, raw, files: body.files, http: request, reply, user };
  };

  const answer = (reply: FastifyReply, fields: SuccessFields): void => {
    if (!reply.sent) reply.send({ result: 'success', msg: '', ...fields });
  };

  /** A reading handler's fields, computed in one read transaction. */
  const read = (run: () => SuccessFields | Promise<SuccessFields>): SuccessFields =>
    inKeptRead(ctx.db, () => {
      const fields = run();
      if (fields instanceof Promise) throw new Error(`${r.endpoint} reads only, but its handler is async`);
      return fields;
    });

  // A multipart body is read (after the checks: the user must be allowed to send it) before
  // the parameters; any other body was read already, and the request runs without a pause.
  const withMultipart = async (request: FastifyRequest, reply: FastifyReply) => {
    const user = authorize(request, reply);
    const body = await readMultipart(request, fileLimitBytes);
    const req = routeRequest(request, reply, user, body);
    answer(reply, r.readsOnly ? read(() => handle(req)) : await handle(req));
  };

  return (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
    if (request.isMultipart()) return withMultipart(request, reply);
    if (r.readsOnly) {
      answer(
        reply,
        read(() => handle(routeRequest(request, reply, authorize(request, reply), NO_MULTIPART))),
      );
      return undefined;
    }
    const fields = handle(routeRequest(request, reply, authorize(request, reply), NO_MULTIPART));
    if (fields instanceof Promise) return fields.then((f) => answer(reply, f));
    answer(reply, fields);
    return undefined;
  };
}

/** Registers a table's routes, then answers every other method on their paths with 405. */
export function registerEndpoints(app: FastifyInstance, ctx: ServiceContext, table: RouteTable): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const [spec, r] of pairRoutes(table)) {
    const url = table.prefix + fastifyPath(spec.path);
    // Keyed by the path's shape: `/users/:email` and `/users/:user_id` are one path to the router.
    const shape = url.replace(/:\w+/g, ':_');
    let methods = methodsByPath.get(shape);
    if (!methods) {
      methods = new Set();
      methodsByPath.set(shape, methods);
    }
    methods.add(spec.method);
    if (spec.method === 'GET') methods.add('HEAD');
    // Rate limits apply to the REST API (not avatars or email links), per user once
    // authenticated, per IP address otherwise (a failed authentication counts there).
    const limited = table.prefix === API_PREFIX && !isExempt(spec.method, spec.path);
    app.route({ method: spec.method, url, handler: routeHandler(ctx, spec, r, limited) });
  }

  for (const [url, methods] of methodsByPath) {
    const allowed = METHODS.filter((m) => methods.has(m));
    const others = METHODS.filter((m) => !methods.has(m));
    app.route({
      method: others,
      url,
      handler: async (_request, reply) =>
        reply
          .status(405)
          .header('Allow', allowed.join(', '))
          .send(errorBody('Method Not Allowed', 'BAD_REQUEST', { allowed_methods: allowed })),
    });
  }
}
