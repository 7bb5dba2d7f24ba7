/**
 * The UpdateMachine against the real server (a child process on 127.0.0.1 with a temporary
 * data directory). The only things faked are the clock-free parts of the back-off (jitter and
 * the length of a sleep) and, where a test says so, what goes over the wire.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type Credentials, type FetchLike } from '../../shared/client';
import { MIN_SUPPORTED_FEATURE_LEVEL } from '../../shared/protocol';
import {
  collect,
  credentialsOf,
  isPoll,
  isRegister,
  recordingFetch,
  serverFixture,
  startConnected,
  statusPath,
  waitFor,
} from '../../test/support/core';
import type { StartedServer } from '../../test/support/server';
import {
  defaultSleep,
  REGISTER_PARAMS,
  RESTART_RESYNC_SPREAD_MS,
  type Sleep,
  UpdateMachine,
  type UpdateMachineOptions,
} from './update-machine';

const machines: UpdateMachine[] = [];
afterEach(async () => {
  await Promise.all(machines.splice(0).map((m) => m.stop()));
});

function machineFor(
  server: StartedServer,
  credentials: Credentials,
  fetchImpl: FetchLike,
  extra: Partial<UpdateMachineOptions> = {},
) {
  const client = new ApiClient({ serverUrl: server.url, credentials, fetch: fetchImpl });
  const machine = new UpdateMachine({ accountId: 'acct-test', client, ...extra });
  machines.push(machine);
  return machine;
}

/** A machine of alice's on `server`: its wire recorded, its reports collected. */
async function watchedMachine(server: StartedServer, extra: Partial<UpdateMachineOptions> = {}) {
  const credentials = await credentialsOf(server);
  const wire = recordingFetch();
  const machine = machineFor(server, credentials, wire.fetch, extra);
  const seen = collect(machine);
  return { credentials, wire, machine, seen };
}

async function currentSetting(
  credentials: Credentials,
  server: StartedServer,
  name: string,
): Promise<unknown> {
  const snapshot = await new ApiClient({ serverUrl: server.url, credentials }).registerQueue({
    fetch_event_types: ['user_settings'],
  });
  if (snapshot.queue_id)
    await new ApiClient({ serverUrl: server.url, credentials }).deleteQueue(snapshot.queue_id);
  return snapshot.user_settings?.[name];
}

describe('UpdateMachine: register and the long-poll', () => {
  let server: StartedServer;
  serverFixture({ args: ['--heartbeat-seconds', '1'] }, (started) => {
    server = started;
  });

  it('registers with our capabilities and a snapshot of generation 0', async () => {
    const { wire, machine, seen } = await watchedMachine(server, { firstGeneration: 7 });
    machine.start();
    await waitFor('the snapshot', () => seen.snapshots[0]);
    const register = wire.requests.find(isRegister);
    const body = new URLSearchParams((register?.init.body as string | undefined) ?? '');
    expect(body.get('apply_markdown')).toBe('true');
    expect(JSON.parse(body.get('client_capabilities') ?? 'null')).toEqual({
      notification_settings_null: true,
      bulk_message_deletion: true,
      user_avatar_url_field_optional: true,
      stream_typing_notifications: true,
      user_settings_object: true,
    });
    expect(REGISTER_PARAMS.apply_markdown).toBe(true);
    const [snapshot] = seen.snapshots;
    expect(snapshot?.generation).toBe(7);
    expect(snapshot?.accountId).toBe('acct-test');
    expect(snapshot?.state.service_feature_level).toBeGreaterThanOrEqual(MIN_SUPPORTED_FEATURE_LEVEL);
    expect(typeof snapshot?.state.user_settings?.twenty_four_hour_time).toBe('boolean');
    expect(snapshot?.state).not.toHaveProperty('queue_id');
    expect(machine.snapshot()).toEqual(snapshot);
    expect(machine.connection()).toEqual({ status: 'connected', nextRetryAt: null, lastError: null });
  });

  it('drops heartbeats, stays connected and keeps polling; real events still arrive', async () => {
    const { credentials, wire, machine, seen } = await watchedMachine(server);
    machine.start();
    // Each poll ends with a heartbeat after 1 s; three answered polls means three heartbeats.
    await waitFor(
      'three answered polls',
      () => wire.requests.filter((r) => isPoll(r) && r.status === 200).length >= 3,
    );
    expect(seen.batches).toEqual([]);
    expect(statusPath(seen.connections)).toEqual(['connecting', 'connected']);
    // Heartbeats are acknowledged: each poll asks from a later event id than the one before.
    const acked = wire.requests.filter(isPoll).map((r) => Number(r.url.searchParams.get('last_event_id')));
    for (let i = 1; i < acked.length; i++) expect(acked[i]).toBeGreaterThan(acked[i - 1] as number);
    expect(machine.snapshot()?.state.last_event_id).toBeGreaterThanOrEqual(2);

    const before = machine.snapshot()?.state.user_settings?.dense_mode;
    await new ApiClient({ serverUrl: server.url, credentials }).updateSettings({ dense_mode: !before });
    const batch = await waitFor('the settings event', () => seen.batches[0]);
    expect(batch.generation).toBe(0);
    expect(batch.events).toEqual([
      { id: expect.any(Number), type: 'user_settings', op: 'update', property: 'dense_mode', value: !before },
    ]);
    // A later snapshot (a window opened now) already has the change and says so.
    expect(machine.snapshot()?.state.user_settings?.dense_mode).toBe(!before);
    expect(machine.snapshot()?.state.last_event_id).toBeGreaterThanOrEqual(batch.events[0]?.id ?? Infinity);
    expect(statusPath(seen.connections)).toEqual(['connecting', 'connected']);
  });

  it('stop() aborts the waiting poll at once', async () => {
    const { wire, machine, seen } = await watchedMachine(server);
    machine.start();
    const poll = await waitFor('a waiting poll', () =>
      wire.requests.find((r) => isPoll(r) && r.outcome === 'pending'),
    );
    await machine.stop();
    expect(poll.init.signal?.aborted).toBe(true);
    expect(machine.connection()).toEqual({ status: 'offline', nextRetryAt: null, lastError: null });
    expect(seen.connections.at(-1)?.status).toBe('offline');
    expect(wire.requests.filter((r) => r.outcome === 'pending')).toEqual([]);
  });

  it('stops with the reason when the server no longer accepts the key (401)', async () => {
    const alice = await credentialsOf(server);
    const bad = { email: alice.email, apiKey: 'x'.repeat(32) };
    const expected = await new ApiClient({ serverUrl: server.url, credentials: bad }).registerQueue().then(
      () => null,
      (error: unknown) => error,
    );
    expect(expected).toBeInstanceOf(ApiError);
    expect((expected as ApiError).status).toBe(401);
    const wire = recordingFetch();
    const machine = machineFor(server, bad, wire.fetch);
    machine.start();
    await waitFor('offline', () => machine.connection().status === 'offline');
    expect(machine.connection()).toEqual({
      status: 'offline',
      nextRetryAt: null,
      lastError: `Signed out by the server: ${(expected as ApiError).message}`,
    });
    expect(wire.requests.length).toBe(1);
  });

  it('refuses a server older than the minimum feature level', async () => {
    const credentials = await credentialsOf(server);
    // Plays an old server: the real register answer with an older feature level.
    const wire = recordingFetch({
      rewrite: (request, body) => {
        if (!isRegister(request)) return body;
        return JSON.stringify({ ...JSON.parse(body), service_feature_level: 88, service_version: '4.0' });
      },
    });
    const machine = machineFor(server, credentials, wire.fetch);
    const seen = collect(machine);
    machine.start();
    await waitFor('offline', () => machine.connection().status === 'offline');
    expect(machine.connection().lastError).toBe(
      'This server runs version 4.0 (feature level 88); Confab needs feature level 89 or later.',
    );
    expect(seen.snapshots).toEqual([]);
    expect(wire.requests.filter(isPoll)).toEqual([]);
  });

  it('re-registers with a fresh snapshot when an event fails validation', async () => {
    const credentials = await credentialsOf(server);
    let corrupted = 0;
    const wire = recordingFetch({
      rewrite: (request, body) => {
        if (!isPoll(request) || corrupted > 0 || !body.includes('"user_settings"')) return body;
        corrupted++;
        const parsed = JSON.parse(body);
        for (const e of parsed.events) if (e.type === 'user_settings') e.value = { not: 'a setting value' };
        return JSON.stringify(parsed);
      },
    });
    const machine = machineFor(server, credentials, wire.fetch);
    const seen = collect(machine);
    machine.start();
    const first = await waitFor('the snapshot', () => seen.snapshots[0]);
    const before = first.state.user_settings?.starred_message_counts;
    await new ApiClient({ serverUrl: server.url, credentials }).updateSettings({
      starred_message_counts: !before,
    });
    const second = await waitFor('a second snapshot', () => seen.snapshots[1]);
    expect(corrupted).toBe(1);
    expect(second.generation).toBe(1);
    expect(second.state.user_settings?.starred_message_counts).toBe(!before);
    // The bad batch never reached the listeners.
    expect(seen.batches).toEqual([]);
    expect(statusPath(seen.connections)).toEqual(['connecting', 'connected']);
  });
});

describe('UpdateMachine: queue garbage collection', () => {
  let server: StartedServer;
  serverFixture({ args: ['--queue-idle-seconds', '2'] }, (started) => {
    server = started;
  });

  it('re-registers after BAD_EVENT_QUEUE_ID with generation + 1 and a fresh snapshot', async () => {
    const credentials = await credentialsOf(server);
    const other = new ApiClient({ serverUrl: server.url, credentials });
    let held = false;
    let changedTo: boolean | null = null;
    // The first poll is held back long enough for the server to collect the idle queue (2 s
    // idle, swept every second), the way a laptop that slept would come back. Meanwhile
    // another client changes a setting: the event dies with the queue, the new snapshot has it.
    const wire = recordingFetch({
      before: async (request) => {
        if (!isPoll(request) || held) return;
        held = true;
        const before = await currentSetting(credentials, server, 'fluid_layout_width');
        changedTo = !before;
        await other.updateSettings({ fluid_layout_width: changedTo });
        await new Promise((resolve) => setTimeout(resolve, 4500));
      },
    });
    const machine = machineFor(server, credentials, wire.fetch);
    const seen = collect(machine);
    machine.start();
    const fresh = await waitFor('a second snapshot', () => seen.snapshots[1]);
    const [firstPoll] = wire.requests.filter(isPoll);
    expect(firstPoll?.status).toBe(400);
    expect(seen.snapshots.map((s) => s.generation)).toEqual([0, 1]);
    expect(fresh.state.user_settings?.fluid_layout_width).toBe(changedTo);
    expect(wire.requests.filter(isRegister)).toHaveLength(2);
    await waitFor('a poll on the new queue', () => wire.requests.filter(isPoll).length >= 2);
    expect(new Set(wire.requests.filter(isPoll).map((r) => r.url.searchParams.get('queue_id'))).size).toBe(2);
    // A lost queue is not a lost connection: no reconnecting in between.
    expect(statusPath(seen.connections)).toEqual(['connecting', 'connected']);

    // Events flow on the new queue, tagged with the new generation.
    await other.updateSettings({ fluid_layout_width: !changedTo });
    const batch = await waitFor('an event on the new queue', () => seen.batches[0]);
    expect(batch.generation).toBe(1);
    expect(batch.events).toMatchObject([
      { type: 'user_settings', property: 'fluid_layout_width', value: !changedTo },
    ]);
  });
});

describe('UpdateMachine: server restart', () => {
  let server: StartedServer;
  serverFixture({}, (started) => {
    server = started;
  });

  it('after SIGTERM and a restart, goes on with the restored queue at once (no re-register)', async () => {
    const { credentials, wire, machine, seen } = await watchedMachine(server);
    await startConnected(machine);
    const queueId = wire.requests.find(isPoll)?.url.searchParams.get('queue_id');

    await server.stop('SIGTERM');
    const down = await waitFor('reconnecting', () =>
      seen.connections.find((c) => c.status === 'reconnecting'),
    );
    expect(down.nextRetryAt).toEqual(expect.any(Number));
    expect(down.lastError).toEqual(expect.any(String));

    await server.restart();
    const restart = await waitFor('the restart event', () =>
      seen.batches.flatMap((b) => b.events).find((e) => e.type === 'restart'),
    );
    expect(restart).toMatchObject({
      type: 'restart',
      service_version: seen.snapshots[0]?.state.service_version,
      service_feature_level: seen.snapshots[0]?.state.service_feature_level,
      server_generation: expect.any(Number),
    });
    await waitFor('connected', () => machine.connection().status === 'connected');
    expect(statusPath(seen.connections)).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    // Same server feature level: the restored queue has every event, so no new snapshot.
    expect(seen.snapshots).toHaveLength(1);
    expect(wire.requests.filter(isRegister)).toHaveLength(1);
    expect(new Set(wire.requests.filter(isPoll).map((r) => r.url.searchParams.get('queue_id')))).toEqual(
      new Set([queueId]),
    );

    const before = machine.snapshot()?.state.user_settings?.high_contrast_mode;
    await new ApiClient({ serverUrl: server.url, credentials }).updateSettings({
      high_contrast_mode: !before,
    });
    const batch = await waitFor('the change made after the restart', () =>
      seen.batches.find((b) => b.events.some((e) => e.type === 'user_settings')),
    );
    expect(batch.generation).toBe(0);
    expect(batch.events).toMatchObject([
      { type: 'user_settings', property: 'high_contrast_mode', value: !before },
    ]);
    expect(machine.snapshot()?.state.user_settings?.high_contrast_mode).toBe(!before);
  });

  it('re-registers after a restart that changed the feature level, at a random time', async () => {
    const credentials = await credentialsOf(server);
    // Plays an upgrade: the restart event announces the next feature level.
    const registeredAt: number[] = [];
    const wire = recordingFetch({
      before: (request) => {
        if (isRegister(request)) registeredAt.push(Date.now());
      },
      rewrite: (request, body) => {
        if (!isPoll(request) || !body.includes('"restart"')) return body;
        const parsed = JSON.parse(body);
        for (const e of parsed.events) if (e.type === 'restart') e.service_feature_level += 1;
        return JSON.stringify(parsed);
      },
    });
    // random() 0.001 of the 5-minute spread: the re-register comes 300 ms later.
    const machine = machineFor(server, credentials, wire.fetch, { random: () => 0.001 });
    const seen = collect(machine);
    let restartAt = 0;
    let levelAtRestart: number | undefined;
    machine.on('events', (batch) => {
      if (!batch.events.some((e) => e.type === 'restart')) return;
      restartAt = Date.now();
      levelAtRestart = machine.snapshot()?.state.service_feature_level;
    });
    await startConnected(machine);
    const level = seen.snapshots[0]?.state.service_feature_level as number;
    expect(RESTART_RESYNC_SPREAD_MS).toBe(300_000);

    await server.restart();
    const upgraded = await waitFor('the restart event', () =>
      seen.batches.flatMap((b) => b.events).find((e) => e.type === 'restart'),
    );
    expect(upgraded).toMatchObject({ service_feature_level: level + 1 });
    // Until the new snapshot, the account knows the new level from the event.
    expect(levelAtRestart).toBe(level + 1);
    const fresh = await waitFor('a new snapshot', () => seen.snapshots[1], 30_000);
    // Not at once: after the random share of the spread.
    expect((registeredAt[1] as number) - restartAt).toBeGreaterThanOrEqual(290);
    expect(fresh.generation).toBe(1);
    expect(fresh.state.service_feature_level).toBe(level);
    expect(wire.requests.filter(isRegister)).toHaveLength(2);
    await waitFor('connected', () => machine.connection().status === 'connected');
  });
});

describe('UpdateMachine: refused connections', () => {
  let server: StartedServer;
  serverFixture({}, (started) => {
    server = started;
  });

  it('backs off up to 10 s while refused, and wake() retries at once without blocking', async () => {
    const delays: number[] = [];
    let hang = false;
    let hanging = false;
    // Records each back-off; sleeps only briefly so the test sees many of them. Later the
    // sleep hangs until aborted, so only wake() can bring the machine back.
    const sleep: Sleep = async (ms, signal) => {
      delays.push(ms);
      if (!hang) return defaultSleep(Math.min(ms, 25), signal);
      hanging = true;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      hanging = false;
    };
    const { wire, machine, seen } = await watchedMachine(server, { random: () => 1, sleep });
    await startConnected(machine);

    await server.stop('SIGTERM');
    await waitFor('ten back-offs', () => delays.length >= 10);
    hang = true;
    const state = machine.connection();
    expect(state.status).toBe('reconnecting');
    expect(state.nextRetryAt).toEqual(expect.any(Number));
    expect(state.lastError).toMatch(/ECONNREFUSED/);
    expect(delays.slice(0, 9)).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000]);
    for (const d of delays) expect(d).toBeLessThanOrEqual(10_000);

    await waitFor('the machine waiting in a back-off', () => hanging);
    await server.restart();
    const sent = wire.requests.length;
    machine.wake();
    await waitFor('connected again', () => machine.connection().status === 'connected', 30_000);
    expect(statusPath(seen.connections)).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    // The first poll that got an answer after the outage did not block.
    const answeredPoll = wire.requests.slice(sent).find((r) => isPoll(r) && r.outcome === 'response');
    expect(answeredPoll?.url.searchParams.get('dont_block')).toBe('true');
  });
});
