/**
 * The UpdateMachine through a bad network: the real server behind a TCP proxy
 * (test/support/proxy.ts) that drops, stalls, refuses, or answers 503 in its place, and the
 * real server's own rate limit (429 with Retry-After). Each test checks the connection states
 * the UI is told, and that no event is lost or applied twice across the outage: settings
 * changed by another client during and after it all arrive, once each, and the machine's
 * final state equals a fresh register.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../shared/client';
import type { AccountSummary, ConnectionState, IpcResult, PushPayloads } from '../../shared/ipc';
import {
  collect,
  coreTestBed,
  credentialsOf,
  isPoll,
  isRegister,
  type RecordedRequest,
  recordingFetch,
  recordingSleep,
  serverFixture,
  startConnected,
  statusPath,
  waitFor,
} from '../../test/support/core';
import { startProxy, type TestProxy } from '../../test/support/proxy';
import type { StartedServer } from '../../test/support/server';
import { UpdateMachine, type UpdateMachineOptions } from './update-machine';

const machines: UpdateMachine[] = [];
const proxies: TestProxy[] = [];
afterEach(async () => {
  await Promise.all(machines.splice(0).map((m) => m.stop()));
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

/** A machine talking to the server through a fresh proxy; `other` talks to it directly. */
async function setup(server: StartedServer, who: 'alice' | 'bob', extra: Partial<UpdateMachineOptions> = {}) {
  const credentials = await credentialsOf(server, who);
  const proxy = await startProxy({ port: server.port });
  proxies.push(proxy);
  /** When each request was handed to fetch. */
  const sentAt = new Map<RecordedRequest, number>();
  const wire = recordingFetch({ before: (r) => void sentAt.set(r, Date.now()) });
  const client = new ApiClient({ serverUrl: proxy.url, credentials, fetch: wire.fetch });
  const machine = new UpdateMachine({ accountId: `acct-${who}`, client, ...extra });
  machines.push(machine);
  const seen = collect(machine);
  const other = new ApiClient({ serverUrl: server.url, credentials });
  return { credentials, proxy, wire, sentAt, machine, seen, other };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** Toggles a boolean setting from another client; returns the new value. */
async function toggle(t: Setup, name: 'dense_mode' | 'fluid_layout_width' | 'high_contrast_mode') {
  const snapshot = await t.other.registerQueue({ fetch_event_types: ['user_settings'] });
  if (snapshot.queue_id) await t.other.deleteQueue(snapshot.queue_id);
  const value = !snapshot.user_settings?.[name];
  await t.other.updateSettings({ [name]: value });
  return { property: name, value };
}

/** The settings a fresh register sees now. */
async function freshSettings(t: Setup) {
  const snapshot = await t.other.registerQueue({ fetch_event_types: ['user_settings'] });
  if (snapshot.queue_id) await t.other.deleteQueue(snapshot.queue_id);
  return snapshot.user_settings;
}

/**
 * Changes made during the outage and after recovery arrive exactly once each, in order, on
 * the one queue (no re-register), and the state equals a fresh register.
 */
async function expectNothingLost(t: Setup, duringOutage: { property: string; value: boolean }[]) {
  const after = await toggle(t, 'high_contrast_mode');
  const expected = [...duringOutage, after];
  const settingEvents = () =>
    t.seen.batches.flatMap((b) => b.events).filter((e) => e.type === 'user_settings');
  await waitFor('every change', () => settingEvents().length >= expected.length);
  // Nothing arrives twice: give a duplicate the time of two more answered polls to show up.
  const answered = () => t.wire.requests.filter((r) => isPoll(r) && r.outcome === 'response').length;
  const target = answered() + 2;
  await waitFor('two more answered polls', () => answered() >= target);
  expect(settingEvents().map((e) => ({ property: e.property, value: e.value }))).toEqual(expected);
  const ids = t.seen.batches.flatMap((b) => b.events.map((e) => e.id));
  expect(new Set(ids).size).toBe(ids.length);
  expect(t.seen.snapshots).toHaveLength(1);
  expect(t.machine.snapshot()?.state.user_settings).toEqual(await freshSettings(t));
}

/** Every reconnecting state carries the next attempt's time and why. */
function expectReconnectingStates(connections: readonly ConnectionState[], lastError: RegExp | string) {
  const reconnecting = connections.filter((c) => c.status === 'reconnecting');
  expect(reconnecting.length).toBeGreaterThan(0);
  for (const c of reconnecting) {
    expect(c.nextRetryAt).toEqual(expect.any(Number));
    if (typeof lastError === 'string') expect(c.lastError).toBe(lastError);
    else expect(c.lastError).toMatch(lastError);
  }
}

/** A poll is waiting on the server (so a fault now hits a request in flight). */
const pollInFlight = (t: Setup) =>
  waitFor('a waiting poll', () => t.wire.requests.find((r) => isPoll(r) && r.outcome === 'pending'));

describe('UpdateMachine through a failing network', () => {
  let server: StartedServer;
  // Short holds: a poll waits at most 2 s (its own timeout), heartbeats every second.
  serverFixture({ args: ['--heartbeat-seconds', '1', '--longpoll-seconds', '2'] }, (started) => {
    server = started;
  });

  it('dropped connections: reconnects at once and keeps the queue', async () => {
    const t = await setup(server, 'alice');
    await startConnected(t.machine);
    const during: { property: string; value: boolean }[] = [];

    // Drop whatever is open until a poll in flight is hit (one may be between two requests).
    for (let i = 0; !t.wire.requests.some((r) => isPoll(r) && r.outcome === 'error'); i++) {
      if (i > 100) throw new Error('no poll was dropped');
      await pollInFlight(t);
      t.proxy.drop();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    during.push(await toggle(t, 'dense_mode'));
    await waitFor('connected again', () => t.machine.connection().status === 'connected');

    expect(statusPath(t.seen.connections)).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expectReconnectingStates(t.seen.connections, /^GET \/events: /);
    await expectNothingLost(t, during);
  });

  it('stalled connections: the poll gives up after the server’s long-poll timeout', async () => {
    const t = await setup(server, 'alice');
    await startConnected(t.machine);
    const longpoll = t.machine.snapshot()?.state.event_queue_longpoll_timeout_seconds;
    expect(longpoll).toBe(2);

    let downAt = 0;
    t.machine.on('connection', (c) => {
      if (c.status === 'reconnecting' && downAt === 0) downAt = Date.now();
    });
    await pollInFlight(t);
    t.proxy.stall();
    const during = [await toggle(t, 'fluid_layout_width')];
    const down = await waitFor('reconnecting', () =>
      t.seen.connections.find((c) => c.status === 'reconnecting'),
    );
    // Nothing but the machine's own 2 s timeout ends a hung request.
    expect(down.lastError).toBe('No answer from the server in 2 s');
    // The first poll to fail (the one in flight, or the next if that one's answer was already
    // through) was cut short by the machine's own timeout: 2 s after it was sent.
    const hung = t.wire.requests.find((r) => isPoll(r) && r.outcome === 'error') as RecordedRequest;
    expect(downAt - (t.sentAt.get(hung) as number)).toBeGreaterThanOrEqual(1950);
    expect(t.machine.connection().status).toBe('reconnecting');

    await t.proxy.restore();
    await waitFor('connected again', () => t.machine.connection().status === 'connected');
    expect(statusPath(t.seen.connections)).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expectReconnectingStates(t.seen.connections, 'No answer from the server in 2 s');
    await expectNothingLost(t, during);
  });

  it('503 from a proxy: backs off 100, 200, 400 ms, then polls without blocking', async () => {
    const { delays, sleep } = recordingSleep();
    const t = await setup(server, 'bob', { random: () => 1, sleep });
    await startConnected(t.machine);

    t.proxy.respondWith(503, { count: 3 });
    const during = [await toggle(t, 'dense_mode')];
    await waitFor('three 503s', () => t.proxy.answered() === 3);
    await waitFor('connected again', () => t.machine.connection().status === 'connected');

    expect(delays).toEqual([100, 200, 400]);
    expect(statusPath(t.seen.connections)).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expectReconnectingStates(t.seen.connections, 'GET /events failed with HTTP 503');
    const polls = t.wire.requests.filter(isPoll);
    const firstFailed = polls.findIndex((r) => r.status === 503);
    expect(polls.slice(firstFailed, firstFailed + 4).map((r) => r.status)).toEqual([503, 503, 503, 200]);
    // The first poll after the failures asked not to block: the UI learns at once.
    expect(polls[firstFailed + 3]?.url.searchParams.get('dont_block')).toBe('true');
    await expectNothingLost(t, during);
  });

  it('429 from a proxy on the poll: waits the Retry-After, not the back-off', async () => {
    const { delays, sleep } = recordingSleep();
    const t = await setup(server, 'alice', { random: () => 0, sleep });
    await startConnected(t.machine);

    t.proxy.respondWith(429, { count: 1, headers: { 'Retry-After': '1' } });
    const during = [await toggle(t, 'dense_mode')];
    await waitFor(
      'connected again',
      () => t.proxy.answered() === 1 && t.machine.connection().status === 'connected',
    );
    // No jitter (random 0): without Retry-After the retry would have come at once.
    expect(delays).toEqual([1000]);
    expectReconnectingStates(t.seen.connections, 'GET /events failed with HTTP 429');
    await expectNothingLost(t, during);
  });

  it('refused connections: the retry times grow to the 10 s cap, then it reconnects', async () => {
    // Records each back-off and its announced time; sleeps only briefly, so the test is quick.
    const { delays, sleep } = recordingSleep((ms) => Math.min(ms, 20));
    const announced: number[] = [];
    const t = await setup(server, 'bob', { random: () => 1, sleep });
    t.machine.on('connection', (c) => {
      if (c.status === 'reconnecting' && c.nextRetryAt !== null) announced.push(c.nextRetryAt - Date.now());
    });
    await startConnected(t.machine);

    await t.proxy.cut();
    const during = [await toggle(t, 'fluid_layout_width')];
    await waitFor('ten back-offs', () => delays.length >= 10);
    expect(t.machine.connection().status).toBe('reconnecting');
    // The poll in flight was reset; every later attempt was refused.
    expectReconnectingStates(t.seen.connections, /^GET \/events: fetch failed/);
    expect(t.machine.connection().lastError).toMatch(/^GET \/events: fetch failed \(.*ECONNREFUSED/);
    expect(delays.slice(0, 10)).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000, 10_000]);
    // The UI was told each next attempt time: growing, then capped at 10 s from now.
    for (const [i, ms] of announced.slice(0, 10).entries()) {
      expect(ms).toBeLessThanOrEqual((delays[i] as number) + 1);
      expect(ms).toBeGreaterThan((delays[i] as number) - 1000);
    }

    await t.proxy.restore();
    await waitFor('connected again', () => t.machine.connection().status === 'connected');
    expect(statusPath(t.seen.connections)).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    await expectNothingLost(t, during);
  });
});

describe('UpdateMachine and the server’s rate limit', () => {
  let server: StartedServer;
  serverFixture(
    {
      args: ['--rate-limit-user', '5', '--rate-limit-window-seconds', '2'],
    },
    (started) => {
      server = started;
    },
  );

  it('waits at least Retry-After after a 429 before it registers again', async () => {
    const { delays, sleep } = recordingSleep();
    const t = await setup(server, 'alice', { random: () => 0, sleep });
    // Use up alice's allowance, so the machine's register is refused.
    const limited = await (async () => {
      for (let i = 0; i < 10; i++) {
        try {
          await t.other.getOwnUser();
        } catch (error) {
          return error;
        }
      }
      return null;
    })();
    expect(limited).toBeInstanceOf(ApiError);
    expect((limited as ApiError).status).toBe(429);

    let refusedAt = 0;
    t.machine.on('connection', (c) => {
      if (c.status === 'reconnecting' && refusedAt === 0) refusedAt = Date.now();
    });
    await startConnected(t.machine, 30_000);
    const registers = t.wire.requests.filter(isRegister);
    expect(registers.map((r) => r.status)).toEqual([429, 200]);
    const down = t.seen.connections.find((c) => c.status === 'reconnecting');
    expect(down?.lastError).toBe('API usage exceeded rate limit');
    // Without jitter (random 0) the back-off alone would retry at once: the whole wait is the
    // server's Retry-After (whole seconds, 1 or 2 with a 2 s window).
    expect([1000, 2000]).toContain(delays[0]);
    expect(delays).toHaveLength(1);
    const retryAfterMs = delays[0] as number;
    expect((down?.nextRetryAt as number) - refusedAt).toBeGreaterThanOrEqual(retryAfterMs - 5);
    expect((t.sentAt.get(registers[1] as RecordedRequest) as number) - refusedAt).toBeGreaterThanOrEqual(
      retryAfterMs - 5,
    );
    expect(statusPath(t.seen.connections)).toEqual(['connecting', 'reconnecting', 'connected']);
  });
});

describe('The core when the network comes back', () => {
  let server: StartedServer;
  const bed = coreTestBed('confab-network-', {}, (started) => {
    server = started;
  });

  it('app.networkChanged drops the back-off and reconnects at once', async () => {
    const proxy = await startProxy({ port: server.port });
    proxies.push(proxy);
    const { core } = await bed.start({ defaultServerUrl: proxy.url, isTrustedSender: () => true });
    const states: ConnectionState[] = [];
    core.onPush((channel, payload) => {
      if (channel === 'account.connection')
        states.push((payload as PushPayloads['account.connection']).state);
    });
    try {
      const signedIn = (await core.handleInvoke(null, 'accounts.signIn', {
        serverUrl: proxy.url,
        email: server.demo.users.alice,
        password: server.demo.password,
      })) as IpcResult<AccountSummary>;
      expect(signedIn.ok).toBe(true);
      await waitFor('connected', () => states.at(-1)?.status === 'connected');

      await proxy.cut();
      // Wait for a back-off long enough that only a wake can explain a quick recovery.
      const waiting = await waitFor(
        'a back-off of 2 s or more',
        () => {
          const last = states.at(-1);
          return (
            last?.status === 'reconnecting' &&
            last.nextRetryAt !== null &&
            last.nextRetryAt - Date.now() > 2000 &&
            last
          );
        },
        60_000,
      );
      await proxy.restore();
      expect(await core.handleInvoke(null, 'app.networkChanged', { online: true })).toEqual({
        ok: true,
        value: null,
      });
      await waitFor('connected again', () => states.at(-1)?.status === 'connected');
      expect(Date.now()).toBeLessThan(waiting.nextRetryAt as number);
      expect(statusPath(states)).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
      // Bad payloads are refused like any other channel's.
      expect(await core.handleInvoke(null, 'app.networkChanged', { online: 'yes' })).toMatchObject({
        ok: false,
        error: { code: 'BAD_REQUEST' },
      });
    } finally {
      await core.stop();
    }
  });
});
