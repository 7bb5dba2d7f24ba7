/**
 * Test support for the main-process core (electron/core): a core started the way the Electron
 * glue and browser mode start it, with its pushes and invoke results recorded; a fetch that
 * records (and, where a test says so, delays or rewrites) what goes over the wire to the real
 * server; what an UpdateMachine reports; and condition polling for the tests' own waits.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type Core, type CoreOptions, createCore, FileSecretStore } from '../../electron/core';
import {
  defaultSleep,
  type Sleep,
  type UpdateMachine,
  type UpdateMachineEvents,
} from '../../electron/core/update-machine';
import type { Credentials, FetchLike, RequestInitLike, ResponseLike } from '../../shared/client';
import type { AccountSummary, ConnectionState, IpcResult, PushChannel } from '../../shared/ipc';
import {
  type DemoUser,
  loginAs,
  makeTempDir,
  removeDir,
  type StartedServer,
  type StartOptions,
  startServerProcess,
} from './server';

/**
 * Polls `check` (sync or async) until it gives something truthy; fails with `what` after
 * `timeoutMs`. For the tests' own conditions: the code under test offers promises instead.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The sender a test core trusts (any other is refused, as an unknown frame or socket is). */
export const TEST_SENDER = { window: 'main' };

export interface TestCore {
  core: Core;
  profileDir: string;
  /** Everything the core pushed, in order. */
  pushes: { channel: PushChannel; payload: unknown }[];
  /** Every answer to invoke(), in order. */
  results: IpcResult<unknown>[];
  /** An invoke from TEST_SENDER. */
  invoke<T>(channel: string, payload: unknown): Promise<IpcResult<T>>;
  /** An invoke that must succeed: its value. */
  ok<T>(channel: string, payload: unknown): Promise<T>;
}

/** Options of a test core in `profileDir`: a 0600 secrets file there, browser mode, TEST_SENDER. */
export function testCoreOptions(profileDir: string, overrides: Partial<CoreOptions> = {}): CoreOptions {
  return {
    profileDir,
    secretStore: new FileSecretStore(join(profileDir, 'secrets.json')),
    mode: 'browser',
    appVersion: '0.0.0-test',
    defaultServerUrl: null,
    isTrustedSender: (sender) => sender === TEST_SENDER,
    ...overrides,
  };
}

/** Creates and starts a core, recording its pushes from the start. */
export async function startTestCore(options: CoreOptions): Promise<TestCore> {
  const core = createCore(options);
  const self: TestCore = {
    core,
    profileDir: options.profileDir,
    pushes: [],
    results: [],
    async invoke<T>(channel: string, payload: unknown) {
      const result = await core.handleInvoke(TEST_SENDER, channel, payload);
      self.results.push(result);
      return result as IpcResult<T>;
    },
    async ok<T>(channel: string, payload: unknown) {
      const result = await self.invoke<T>(channel, payload);
      if (!result.ok) throw new Error(`${channel} failed: ${result.error.message}`);
      return result.value;
    },
  };
  core.onPush((channel, payload) => self.pushes.push({ channel, payload }));
  await core.start();
  return self;
}

export interface CoreTestBed {
  /** A new, empty profile directory under the bed's temporary root. */
  newProfile(): string;
  /**
   * Starts a core for the bed's server, in a new profile unless `profileDir` says which;
   * it is stopped after the test.
   */
  start(overrides?: Partial<CoreOptions>): Promise<TestCore>;
}

/** How a test's server is started: always with the demo organization, whose users sign in. */
type DemoServerOptions = Omit<StartOptions, 'demo'>;

/**
 * The real demo server for the tests of a file or a describe block (call it there): started
 * before them and handed to `ready`, disposed after the last one.
 */
export function serverFixture(options: DemoServerOptions, ready: (server: StartedServer) => void): void {
  let server: StartedServer | undefined;
  beforeAll(async () => {
    server = await startServerProcess(options);
    ready(server);
  });
  afterAll(async () => {
    await server?.dispose();
  });
}

/**
 * The fixture of tests that run cores against the real server (call it at the top of a file
 * or a describe block): the demo server (see serverFixture) and a temporary root for profiles;
 * the cores a test started are stopped after it.
 */
export function coreTestBed(
  prefix: string,
  serverOptions: DemoServerOptions,
  ready: (server: StartedServer) => void,
): CoreTestBed {
  let server: StartedServer | undefined;
  let root: string | undefined;
  let profiles = 0;
  const running: TestCore[] = [];
  serverFixture(serverOptions, (started) => {
    server = started;
    ready(started);
  });
  beforeAll(async () => {
    root = await makeTempDir(prefix);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((t) => t.core.stop()));
  });
  afterAll(async () => {
    if (root) await removeDir(root);
  });
  const bed: CoreTestBed = {
    newProfile: () => join(root as string, `profile-${++profiles}`),
    async start(overrides = {}) {
      const profileDir = overrides.profileDir ?? bed.newProfile();
      const options = testCoreOptions(profileDir, { defaultServerUrl: server?.url ?? null, ...overrides });
      const started = await startTestCore(options);
      running.push(started);
      return started;
    },
  };
  return bed;
}

/** Signs the core in as one of the demo server's users. */
export const signInAs = (t: TestCore, server: StartedServer, who: DemoUser) =>
  t.ok<AccountSummary>('accounts.signIn', {
    serverUrl: server.url,
    email: server.demo.users[who],
    password: server.demo.password,
  });

/** Signs every core in as the same demo user and waits until each is connected. */
export async function signInConnected(
  server: StartedServer,
  who: DemoUser,
  cores: readonly TestCore[],
  timeoutMs?: number,
): Promise<AccountSummary> {
  const accounts: AccountSummary[] = [];
  for (const t of cores) accounts.push(await signInAs(t, server, who));
  const account = accounts[0];
  if (!account) throw new Error('signInConnected needs a core');
  for (const t of cores) await pushedConnected(t, account.id, timeoutMs);
  return account;
}

/** Waits until the core has pushed that the account is connected. */
export const pushedConnected = (t: TestCore, accountId: string, timeoutMs?: number) =>
  waitFor(
    `${accountId} connected`,
    () =>
      t.pushes.some(
        (p) =>
          p.channel === 'account.connection' &&
          (p.payload as { accountId: string }).accountId === accountId &&
          (p.payload as { state: ConnectionState }).state.status === 'connected',
      ),
    timeoutMs,
  );

/** A demo user's email and API key, for a client or machine of the test's own. */
export async function credentialsOf(server: StartedServer, who: DemoUser = 'alice'): Promise<Credentials> {
  const client = await loginAs(server, who);
  if (!client.credentials) throw new Error('loginAs gave no credentials');
  return client.credentials;
}

export interface RecordedRequest {
  method: string;
  url: URL;
  init: RequestInitLike;
  /** 'pending' until the answer (or the failure) arrives. */
  outcome: 'pending' | 'response' | 'error';
  status: number | null;
}

export interface RecordingOptions {
  /** Runs before the request is sent (a test can hold it here). */
  before?: (request: RecordedRequest) => Promise<void> | void;
  /** May replace the body of an answer (to play an older or a misbehaving server). */
  rewrite?: (request: RecordedRequest, body: string) => string;
}

export function recordingFetch(options: RecordingOptions = {}): {
  fetch: FetchLike;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  const fetchImpl: FetchLike = async (url, init) => {
    const request: RecordedRequest = {
      method: init.method,
      url: new URL(url),
      init,
      outcome: 'pending',
      status: null,
    };
    requests.push(request);
    try {
      await options.before?.(request);
      const response = await (globalThis.fetch as unknown as FetchLike)(url, init);
      const text = await response.text();
      request.outcome = 'response';
      request.status = response.status;
      const body = options.rewrite ? options.rewrite(request, text) : text;
      const answer: ResponseLike = {
        status: response.status,
        headers: response.headers,
        text: async () => body,
      };
      return answer;
    } catch (error) {
      request.outcome = 'error';
      throw error;
    }
  };
  return { fetch: fetchImpl, requests };
}

export const isPoll = (r: RecordedRequest) => r.method === 'GET' && r.url.pathname.endsWith('/events');
export const isRegister = (r: RecordedRequest) => r.method === 'POST' && r.url.pathname.endsWith('/register');

/** Everything a machine tells its listeners, in order. */
export function collect(machine: UpdateMachine) {
  const seen = {
    snapshots: [] as UpdateMachineEvents['snapshot'][],
    batches: [] as UpdateMachineEvents['events'][],
    connections: [] as ConnectionState[],
  };
  machine.on('snapshot', (s) => seen.snapshots.push(s));
  machine.on('events', (b) => seen.batches.push(b));
  machine.on('connection', (c) => seen.connections.push(c));
  return seen;
}

/** The statuses a machine went through, with repeats of the same status folded. */
export function statusPath(connections: readonly ConnectionState[]): string[] {
  const path: string[] = [];
  for (const c of connections) if (path[path.length - 1] !== c.status) path.push(c.status);
  return path;
}

/** Starts the machine and waits until it is connected. */
export async function startConnected(machine: UpdateMachine, timeoutMs?: number): Promise<void> {
  machine.start();
  await waitFor('connected', () => machine.connection().status === 'connected', timeoutMs);
}

/** A Sleep that records every wait asked of it; `shorten` says how long it really waits. */
export function recordingSleep(shorten: (ms: number) => number = (ms) => ms): {
  delays: number[];
  sleep: Sleep;
} {
  const delays: number[] = [];
  const sleep: Sleep = (ms, signal) => {
    delays.push(ms);
    return defaultSleep(shorten(ms), signal);
  };
  return { delays, sleep };
}
