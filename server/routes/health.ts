/**
 * GET /health, for load balancers and supervisors: 200 while this process can serve requests,
 * 503 otherwise. It lives at the server's root, outside the REST API and its catalogue: no
 * credentials, no rate limit, never cached. Each dependency the service needs is one check
 * (today the database; a message bus adds its own), run on every request.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../db';
import { errorBody } from '../http';

export const HEALTH_PATH = '/health';

/** A check longer than this counts as failed: a load balancer's probe must not hang with it. */
export const CHECK_TIMEOUT_MS = 2000;

/** One dependency: `run` returns when it answers and throws (or rejects) when it does not. */
export interface HealthCheck {
  /** Names the check in the body's `checks`. */
  name: string;
  run(): void | Promise<void>;
}

export interface HealthSource {
  checks: readonly HealthCheck[];
  /** True from the start of a graceful shutdown: the load balancer should stop sending. */
  draining(): boolean;
}

/** The database answers a trivial query: its organization's row. */
export function databaseCheck(db: Db, realmId: number): HealthCheck {
  let statement: ReturnType<Db['prepare']> | null = null;
  return {
    name: 'database',
    run() {
      statement ??= db.prepare('SELECT id FROM realm WHERE id = ?');
      if (statement.get(realmId) === undefined) throw new Error('the organization is missing');
    },
  };
}

type Outcome = 'ok' | 'failed' | 'timed out';

async function runCheck(check: HealthCheck): Promise<[Outcome, unknown]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<[Outcome, unknown]>((resolve) => {
    timer = setTimeout(() => resolve(['timed out', null]), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      (async (): Promise<[Outcome, unknown]> => {
        await check.run();
        return ['ok', null];
      })(),
      timeout,
    ]);
  } catch (error) {
    return ['failed', error];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs every check at once. The body says only which check failed: the reason (a host name,
 * a file path) goes to the log, once per change, not to whoever asks.
 */
export async function healthReport(
  checks: readonly HealthCheck[],
  logged: Map<string, string> = new Map(),
): Promise<{ ok: boolean; checks: Record<string, Outcome> }> {
  const outcomes = await Promise.all(checks.map(runCheck));
  const report: Record<string, Outcome> = {};
  let ok = true;
  checks.forEach((check, i) => {
    const [outcome, error] = outcomes[i] as [Outcome, unknown];
    report[check.name] = outcome;
    if (outcome === 'ok') {
      logged.delete(check.name);
      return;
    }
    ok = false;
    const reason = outcome === 'failed' ? String(error instanceof Error ? error.message : error) : outcome;
    if (logged.get(check.name) !== reason) {
      logged.set(check.name, reason);
      console.error(`health: ${check.name} check ${outcome}: ${reason}`);
    }
  });
  return { ok, checks: report };
}

function unavailable(reply: FastifyReply, body: Record<string, unknown>): FastifyReply {
  return reply.status(503).header('Cache-Control', 'no-store').send(body);
}

/** Registers GET (and HEAD) /health, and 405 for other methods, as the router does for its paths. */
export function registerHealth(app: FastifyInstance, source: HealthSource): void {
  const logged = new Map<string, string>();
  const draining = (reply: FastifyReply) =>
    unavailable(reply.header('Connection', 'close'), {
      ...errorBody('The server is shutting down', 'SERVICE_UNAVAILABLE'),
      status: 'draining',
    });
  app.route({
    method: 'GET',
    url: HEALTH_PATH,
    handler: async (_request, reply) => {
      if (source.draining()) return draining(reply);
      const report = await healthReport(source.checks, logged);
      // Shutdown may have begun while an asynchronous check ran.
      if (source.draining()) return draining(reply);
      if (!report.ok) {
        const failing = Object.keys(report.checks).filter((name) => report.checks[name] !== 'ok');
        return unavailable(reply, {
          ...errorBody(`Not ready: ${failing.join(', ')}`, 'SERVICE_UNAVAILABLE'),
          status: 'unavailable',
          checks: report.checks,
        });
      }
      return reply
        .header('Cache-Control', 'no-store')
        .send({ result: 'success', msg: '', status: 'ok', checks: report.checks });
    },
  });
  const allowed = ['GET', 'HEAD'];
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: HEALTH_PATH,
    handler: async (_request, reply) =>
      reply
        .status(405)
        .header('Allow', allowed.join(', '))
        .send(errorBody('Method Not Allowed', 'BAD_REQUEST', { allowed_methods: allowed })),
  });
}
