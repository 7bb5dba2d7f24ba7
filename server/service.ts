/**
 * The service as a value: startService() opens the data directory, listens, and returns
 * a handle to stop it. main.ts is the command line around it; tests run it in-process.
 */
import type { AddressInfo } from 'node:net';
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
}

export interface RunningService {
  url: string;
  port: number;
  /** The event queues, as far as callers wait on them: a client's long-poll reaching a queue. */
  events: Pick<QueueManager, 'whenWaiting'>;
  /** Ends waiting polls, stops listening, closes the database. Safe to call twice. */
  close(): Promise<void>;
}

export const DEFAULTS = {
  heartbeatSeconds: 60,
  queueIdleSeconds: 600,
  longpollSeconds: 90,
  workBudgetSeconds: 50,
  maxQueuesPerUser: 20,
} as const;

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
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
    // Queues of the last graceful shutdown live on, each told of the restart.
    restoreQueues(ctx, Math.floor(Date.now() / 1000));
    // Waiting long-polls would hold the shutdown for up to a heartbeat: answer them now.
    app.addHook('preClose', async () => queues.close());

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
          stopScheduledDelivery(ctx);
          queues.close();
          await app.close();
          try {
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
