/**
 * The server tests' one home for talking to the service: the real HTTP server in-process on
 * 127.0.0.1 with a temporary data directory (started through startService, faster than a
 * child process), the demo users signed in, a second connection to its database, and
 * requests with exact control over their form.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll } from 'vitest';
import { type ApiClient, basicAuthHeader, encodeParams, type Params } from '../../../shared/client';
import {
  type DemoCredentials,
  type DemoUser,
  loginAs,
  makeTempDir,
  removeDir,
} from '../../../test/support/server';
import { DB_FILE_NAME } from '../../db';
import { type RunningService, type ServiceOptions, startService } from '../../service';

export interface TestService {
  url: string;
  port: number;
  dataDir: string;
  demo: DemoCredentials;
  service: RunningService;
  /** Signs in as a demo user through POST /fetch_api_key. */
  login(who: DemoUser): Promise<ApiClient>;
  /** A second connection to the service's database, for setting up states no endpoint makes yet. */
  sql(statement: string, ...params: unknown[]): void;
  close(): Promise<void>;
}

export type TestServiceOptions = Partial<Omit<ServiceOptions, 'host' | 'port' | 'dataDir'>> & {
  dataDir?: string;
};

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? (await makeTempDir('confab-test-'));
  const service = await startService({
    host: '127.0.0.1',
    port: 0,
    demo: true,
    // Test files fire hundreds of requests a minute as one user from one address; the rate
    // limits have their own tests (ratelimit.test.ts), which pass their own limits.
    rateLimits: { user: 1_000_000, ip: 1_000_000 },
    // Likewise they register many queues per user and may poll an early one last; the cap
    // has its own tests (edges_queues.test.ts).
    maxQueuesPerUser: 1_000_000,
    ...options,
    dataDir,
  });
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
  const result: TestService = {
    url: service.url,
    port: service.port,
    dataDir,
    demo,
    service,
    login: (who) => loginAs({ url: service.url, demo }, who),
    sql(statement, ...params) {
      const db = new Database(join(dataDir, DB_FILE_NAME));
      try {
        db.prepare(statement).run(...params);
      } finally {
        db.close();
      }
    },
    async close() {
      await service.close();
      if (!options.dataDir) await removeDir(dataDir);
    },
  };
  return result;
}

/** The service and a signed-in client per demo user named. */
export type ServiceWith<U extends DemoUser> = { svc: TestService } & Record<U, ApiClient>;

/**
 * The service of a test file, at its top level: `const { svc, alice } = await serviceWith(['alice'])`.
 * It closes once the file's tests are done.
 */
export async function serviceWith<const U extends DemoUser>(
  users: readonly U[],
  options: TestServiceOptions = {},
): Promise<ServiceWith<U>> {
  const started = await startWith(users, options);
  afterAll(() => started.svc.close());
  return started;
}

/** The service with the demo users named signed in; the caller closes it (a describe block's afterAll). */
export async function startWith<const U extends DemoUser>(
  users: readonly U[],
  options: TestServiceOptions = {},
): Promise<ServiceWith<U>> {
  const svc = await startTestService(options);
  return { svc, ...(await loginAll(svc, users)) };
}

/** As serviceWith, with each user's HTTP Basic credentials (email, API key) for call(). */
export async function serviceWithAuth<const U extends DemoUser>(
  users: readonly U[],
  options: TestServiceOptions = {},
): Promise<{ svc: TestService } & Record<U, [string, string]>> {
  const { svc, ...clients } = await serviceWith(users, options);
  const auths = {} as Record<U, [string, string]>;
  for (const who of users) auths[who] = authOf((clients as Record<U, ApiClient>)[who]);
  return { svc, ...auths };
}

/** Signs in each demo user named, in order. */
export async function loginAll<const U extends DemoUser>(
  svc: TestService,
  users: readonly U[],
): Promise<Record<U, ApiClient>> {
  const clients = {} as Record<U, ApiClient>;
  for (const who of users) clients[who] = await svc.login(who);
  return clients;
}

export const DEMO_USERS = ['owner', 'admin', 'moderator', 'alice', 'bob', 'guest'] as const;

/** Every demo user signed in, with their ids and emails as the service tells them. */
export async function everyone(svc: TestService): Promise<{
  clients: Record<DemoUser, ApiClient>;
  ids: Record<DemoUser, number>;
  emails: Record<DemoUser, string>;
}> {
  const clients = await loginAll(svc, DEMO_USERS);
  const ids = {} as Record<DemoUser, number>;
  const emails = {} as Record<DemoUser, string>;
  for (const who of DEMO_USERS) {
    const me = await clients[who].getOwnUser();
    ids[who] = me.user_id;
    emails[who] = me.email;
  }
  return { clients, ids, emails };
}

/** Reads the service's database through a second, read-only connection (ids, "nothing changed"). */
export function query<T>(svc: TestService, sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(svc.dataDir, DB_FILE_NAME), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Ids of the demo organization's users (by the local part of their email) and streams (by name). */
export function demoIds(svc: TestService): {
  users: Record<string, number>;
  streams: Record<string, number>;
} {
  const users: Record<string, number> = {};
  const streams: Record<string, number> = {};
  for (const u of query<{ id: number; email: string }>(svc, 'SELECT id, email FROM users'))
    users[u.email.split('@')[0] ?? ''] = u.id;
  for (const s of query<{ id: number; name: string }>(svc, 'SELECT id, name FROM streams'))
    streams[s.name] = s.id;
  return { users, streams };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface RawOptions {
  params?: Params;
  /** [email, key] for HTTP Basic, or a whole Authorization header. */
  auth?: [string, string] | string;
  headers?: Record<string, string>;
  /** A body sent as is (overrides params for non-GET requests). */
  body?: string;
  signal?: AbortSignal;
}

/** One request with exact control over its form, answering status, headers and JSON body. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: RawOptions = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (Array.isArray(options.auth)) headers.Authorization = basicAuthHeader(options.auth[0], options.auth[1]);
  else if (typeof options.auth === 'string') headers.Authorization = options.auth;
  let url = `${base}${path.startsWith('/avatar') ? '' : '/api/v1'}${path}`;
  const encoded = encodeParams(options.params ?? {});
  let body: string | undefined = options.body;
  if (method === 'GET' || method === 'HEAD') {
    if (encoded) url += `?${encoded}`;
  } else if (body === undefined) {
    body = encoded;
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
  }
  const response = await fetch(url, { method, headers, body, signal: options.signal ?? null });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { _text: text };
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** The credentials of a logged-in client as the `auth` option of call(). */
export function authOf(client: ApiClient): [string, string] {
  if (!client.credentials) throw new Error('client has no credentials');
  return [client.credentials.email, client.credentials.apiKey];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls without blocking until the queue has events beyond lastEventId, or gives up. */
export async function eventsAfter(
  client: ApiClient,
  queueId: string,
  lastEventId: number,
): Promise<Record<string, unknown>[]> {
  const response = await client.getEvents({
    queue_id: queueId,
    last_event_id: lastEventId,
    dont_block: true,
  });
  return response.events as Record<string, unknown>[];
}
