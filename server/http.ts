/**
 * The HTTP layer: a Fastify instance that speaks the spec's conventions. Form-encoded
 * bodies, the JSON envelope on every answer (404 for unknown paths, 405 for a wrong method
 * on a known one, 4xx for anything the client got wrong), and HTTP Basic authentication.
 */
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { API_PREFIX } from '../shared/protocol';
import { authenticateRequest } from './auth';
import type { ServiceContext } from './context';
import type { UserRow } from './db/users';
import { ApiFailure } from './errors';
import { queryEntries, RequestParams } from './params';
import { isExempt, limitRequest } from './ratelimit';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface PublicRequest {
  ctx: ServiceContext;
  params: RequestParams;
  /** Path parameters such as `:draft_id`, undecoded. */
  path: Record<string, string>;
  http: FastifyRequest;
  reply: FastifyReply;
}
export interface UserRequest extends PublicRequest {
  user: UserRow;
}

/** What a handler returns: the success body's fields besides result and msg. */
export type SuccessFields = Record<string, unknown> | undefined;

export type Endpoint =
  | {
      method: HttpMethod;
      path: string;
      auth: 'none';
      handle(req: PublicRequest): SuccessFields | Promise<SuccessFields>;
    }
  | {
      method: HttpMethod;
      path: string;
      auth: 'user';
      handle(req: UserRequest): SuccessFields | Promise<SuccessFields>;
    }
  | {
      method: HttpMethod;
      path: string;
      /** Authenticated when credentials are sent, else a spectator (user null): POST /register. */
      auth: 'optional';
      handle(req: PublicRequest & { user: UserRow | null }): SuccessFields | Promise<SuccessFields>;
    };

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

function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof ApiFailure) {
    return reply.status(error.status).headers(error.headers).send(error.body());
  }
  const fe = error as Partial<FastifyError>;
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const msg = (fe.code && FASTIFY_MESSAGES[fe.code]) ?? fe.message ?? 'Bad request';
    return reply.status(status).send(errorBody(msg));
  }
  // A bug, not the client's mistake: say so, and keep the details in our log.
  console.error('Internal server error:', error);
  return reply.status(500).send(errorBody('Internal server error', 'INTERNAL_SERVER_ERROR'));
}

export function createHttpApp(options: { logger: boolean }): FastifyInstance {
  const app = Fastify({
    logger: options.logger,
    // On shutdown, waiting long-polls are answered first (preClose); a client that polls
    // again at once would keep its keep-alive connection busy forever, so close them all.
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: (error, _request, reply) => {
      sendError(reply, error);
    },
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, new FormBody(body as string));
  });
  // Multipart bodies would need a parser we do not have; refusing beats ignoring parameters.
  app.addContentTypeParser('multipart/form-data', (_req, _payload, done) => {
    done(
      new ApiFailure(415, 'BAD_REQUEST', 'Unsupported Content-Type: send parameters form-encoded'),
      undefined,
    );
  });
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

/** Query parameters merged with a form body (the body wins), as the interface family reads them. */
export function requestParams(request: FastifyRequest): RequestParams {
  const body = request.body instanceof URLSearchParams ? request.body.entries() : [];
  return new RequestParams(queryEntries(request.query), body);
}

/**
 * Registers endpoints (paths relative to /api/v1 unless absolute with `prefix: ''`), then
 * answers every other method on their paths with 405.
 */
export function registerEndpoints(
  app: FastifyInstance,
  ctx: ServiceContext,
  endpoints: readonly Endpoint[],
  prefix = API_PREFIX,
): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const endpoint of endpoints) {
    const url = prefix + endpoint.path;
    let methods = methodsByPath.get(url);
    if (!methods) {
      methods = new Set();
      methodsByPath.set(url, methods);
    }
    methods.add(endpoint.method);
    if (endpoint.method === 'GET') methods.add('HEAD');
    // Rate limits apply to the REST API (not avatars or email links), per user once
    // authenticated, per IP address otherwise (a failed authentication counts there).
    const limited = prefix === API_PREFIX && !isExempt(endpoint.method, endpoint.path);
    app.route({
      method: endpoint.method,
      url,
      handler: async (request, reply) => {
        const base = {
          ctx,
          params: requestParams(request),
          path: (request.params ?? {}) as Record<string, string>,
          http: request,
          reply,
        };
        let user: UserRow | undefined;
        const credentialsSent = (request.headers.authorization ?? '').trim() !== '';
        if (endpoint.auth === 'user' || (endpoint.auth === 'optional' && credentialsSent)) {
          try {
            user = authenticateRequest(ctx.db, ctx.realmId, request.headers.authorization);
          } catch (error) {
            if (limited) limitRequest(ctx.rateLimits, reply, { ip: request.ip });
            throw error;
          }
        }
        if (limited) limitRequest(ctx.rateLimits, reply, user ? { userId: user.id } : { ip: request.ip });
        const fields =
          endpoint.auth === 'user'
            ? await endpoint.handle({ ...base, user: user as UserRow })
            : endpoint.auth === 'optional'
              ? await endpoint.handle({ ...base, user: user ?? null })
              : await endpoint.handle(base);
        if (reply.sent) return reply;
        return reply.send({ result: 'success', msg: '', ...fields });
      },
    });
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
