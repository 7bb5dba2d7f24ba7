/**
 * The service as a value: startService() opens the data directory, listens, and returns
 * a handle to stop it. main.ts is the command line around it; tests run it in-process.
 */
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startScheduledDelivery, stopScheduledDelivery } from './actions/scheduled-delivery';
import type { ServiceContext } from './context';
import { openDatabase } from './db';
import { createRealm, getRealm } from './db/realm';
import { prepareDemo } from './demo';
import { QueueManager } from './events/manager';
import { persistQueues, restoreQueues } from './events/persistence';
import { createHttpApp, registerEndpoints } from './http';
import { RATE_LIMIT_DEFAULTS, type RateLimitOptions, RateLimits } from './ratelimit';
import { apiRoutes, pageRoutes } from './routes';
import { databaseCheck, registerHealth } from './routes/health';

export interface ServiceOptions {
  host: string;
  /** 0 lets the OS choose a free port. */
  port: number;
  dataDir: string;
  /** Create the demo organization in an empty data directory, and write demo-credentials.json. */
  demo?: boolean;
  /** A waiting GET /events gets a heartbeat event after this long. Default 60. */
  heartbeatSeconds?: number;
  /** Queues no client has been connected to for this long are dropped. Default 600. */
  queueIdleSeconds?: number;
  /** Event queues one user may hold; registering another drops their longest-idle one. Default 20. */
  maxQueuesPerUser?: number;
  /** The HTTP timeout register tells clients to use for GET /events. Default 90. */
  longpollSeconds?: number;
  /** Time budget of batched operations; 0 does one batch per request. Default 50. */
  workBudgetSeconds?: number;
  /** Fastify's request log on stdout. Default false. */
  logger?: boolean;
  /** Rate limits (server/ratelimit.ts); unset fields take the interface family's defaults. */
  rateLimits?: Partial<RateLimitOptions>;
  /** The address links in emails point to. Default: the address the server listens on. */
  publicUrl?: string;
  /** An SMTP relay (smtp:// or smtps://) that gets every email besides <dataDir>/outbox. */
  smtpUrl?: string;
  /** How long close() lets requests in progress finish before it cuts them off. Default 10. */
  drainSeconds?: number;
}

export interface RunningService {
  url: string;
  port: number;
  /** The event queues, as far as callers wait on them: a client's long-poll reaching a queue. */
  events: Pick<QueueManager, 'whenWaiting'>;
  /**
   * The graceful shutdown: GET /health answers 503 draining, no new connection is accepted,
   * waiting polls are answered, requests in progress finish (for up to drainSeconds) and their
   * connections close after the response, idle connections close at once; then the queues
   * are written to the data directory and the database closes. Safe to call twice.
   */
  close(): Promise<void>;
}

export const DEFAULTS = {
  heartbeatSeconds: 60,
  queueIdleSeconds: 600,
  longpollSeconds: 90,
  workBudgetSeconds: 50,
  maxQueuesPerUser: 20,
  drainSeconds: 10,
} as const;

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/** A server's socket as Node's HTTP server holds it: the response it is writing now, if any. */
type ServerSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Follows the HTTP server's connections (one listener per connection, none per request), so
 * that a shutdown can drain them. Node's server.close() stops accepting and closes connections
 * between requests, but leaves keep-alive open on the answers still to come, and leaves
 * connections that have not yet sent a byte; drain() takes care of both.
 */
function connectionDrainer(server: Server) {
  const sockets = new Set<ServerSocket>();
  server.on('connection', (socket: ServerSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    /** Open connections (those a timed-out drain cuts off). */
    get open(): number {
      return sockets.size;
    },
    /** Resolves true once every connection has closed, or false after timeoutMs. */
    drain(timeoutMs: number): Promise<boolean> {
      const closed = new Promise<boolean>((resolve) => server.close(() => resolve(true)));
      // A request that still arrives on an open connection is answered in full, then the
      // connection closes: the client opens its next one elsewhere.
      server.prependListener('request', (_request, response: ServerResponse) =>
        response.setHeader('Connection', 'close'),
      );
      const closeIdle = () => setImmediate(() => server.closeIdleConnections());
      for (const socket of sockets) {
        if (socket.destroyed) continue;
        const response = socket._httpMessage;
        if (response && !response.headersSent) response.setHeader('Connection', 'close');
        // Its headers promised keep-alive: close the connection once it is idle.
        else if (response) response.once('finish', closeIdle);
        // Connected, nothing sent yet (a pool's spare connection): nothing to answer.
        else if (socket.bytesRead === 0) socket.destroy();
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      return Promise.race([closed, timeout]).finally(() => clearTimeout(timer));
    },
  };
}

export function urlFor(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const heartbeatSeconds = positive(
    'heartbeatSeconds',
    options.heartbeatSeconds ?? DEFAULTS.heartbeatSeconds,
  );
  const queueIdleSeconds = positive(
    'queueIdleSeconds',
    options.queueIdleSeconds ?? DEFAULTS.queueIdleSeconds,
  );
  const longpollSeconds = positive('longpollSeconds', options.longpollSeconds ?? DEFAULTS.longpollSeconds);
  const workBudgetSeconds = options.workBudgetSeconds ?? DEFAULTS.workBudgetSeconds;
  if (!Number.isFinite(workBudgetSeconds) || workBudgetSeconds < 0)
    throw new Error('workBudgetSeconds must be a non-negative number');
  const drainSeconds = options.drainSeconds ?? DEFAULTS.drainSeconds;
  if (!Number.isFinite(drainSeconds) || drainSeconds < 0)
    throw new Error('drainSeconds must be a non-negative number');

  const db = openDatabase(options.dataDir);
  try {
    let realm = getRealm(db);
    if (!realm) {
      const now = Math.floor(Date.now() / 1000);
      realm = db.transaction(() => createRealm(db, { name: 'Confab', now }))();
    }
    const writeCredentials = options.demo ? await prepareDemo(db, options.dataDir) : null;

    const queues = new QueueManager({
      heartbeatMs: heartbeatSeconds * 1000,
      queueIdleMs: queueIdleSeconds * 1000,
      maxQueuesPerUser: positive('maxQueuesPerUser', options.maxQueuesPerUser ?? DEFAULTS.maxQueuesPerUser),
    });
    const ctx: ServiceContext = {
      db,
      realmId: realm.id,
      queues,
      config: {
        heartbeatMs: heartbeatSeconds * 1000,
        queueIdleMs: queueIdleSeconds * 1000,
        longpollSeconds,
        workBudgetSeconds,
        dataDir: options.dataDir,
        publicUrl: options.publicUrl ?? '',
        smtpUrl: options.smtpUrl ?? null,
      },
      rateLimits: new RateLimits({ ...RATE_LIMIT_DEFAULTS, ...options.rateLimits }),
    };
    const app = createHttpApp({ logger: options.logger ?? false });
    registerEndpoints(app, ctx, apiRoutes);
    registerEndpoints(app, ctx, pageRoutes);
    let draining = false;
    // A message bus, when there is one, adds its own check here.
    registerHealth(app, { checks: [databaseCheck(db, realm.id)], draining: () => draining });
    const connections = connectionDrainer(app.server);
    // Queues of the last graceful shutdown live on, each told of the restart.
    restoreQueues(ctx, Math.floor(Date.now() / 1000));

    await app.listen({ host: options.host, port: options.port });
    const port = (app.server.address() as AddressInfo).port;
    const url = urlFor(options.host, port);
    if (!options.publicUrl) ctx.config.publicUrl = url;
    writeCredentials?.(url);
    queues.start();
    // Scheduled messages go out at their time, also those that fell due while the service was down.
    startScheduledDelivery(ctx);

    let closing: Promise<void> | null = null;
    return {
      url,
      port,
      events: { whenWaiting: (queueId) => queues.whenWaiting(queueId) },
      close() {
        closing ??= (async () => {
          // In the order a load balancer needs: health says so first, then no new connection.
          draining = true;
          stopScheduledDelivery(ctx);
          const drained = connections.drain(drainSeconds * 1000);
          // Waiting polls are answered now, with no events (any on their way stay queued);
          // their clients poll again with last_event_id, reaching the queue after the restart.
          queues.close();
          if (!(await drained)) {
            process.stderr.write(
              `confab-server: ${connections.open} connection(s) still busy after ${drainSeconds} s, closed\n`,
            );
          }
          // Closes whatever the drain left (Fastify's forceCloseConnections), then its hooks.
          await app.close();
          try {
            // Last, so that events of the requests that finished while draining are kept.
            persistQueues(ctx);
          } finally {
            db.close();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    if (db.open) db.close();
    throw error;
  }
}
