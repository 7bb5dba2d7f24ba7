/**
 * Do not disturb in the core (dnd.ts): kept in the profile across restarts, ending by itself,
 * pushed to every window, and reached only through the router's validated dnd.get / dnd.set.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DND_FOREVER, type DndState, type PushChannel } from '../../shared/ipc';
import { DoNotDisturb } from './dnd';
import { type Core, createCore, FileSecretStore } from './index';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'confab-dnd-'));
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

/** A service on the test's profile, recording what it pushes. */
function service(now?: () => number) {
  const pushes: { channel: PushChannel; payload: unknown }[] = [];
  const dnd = new DoNotDisturb({
    profileDir: dir,
    push: (channel, payload) => pushes.push({ channel, payload }),
    ...(now ? { now } : {}),
  });
  return { dnd, pushes };
}

const stored = async () => JSON.parse(await readFile(join(dir, 'dnd.json'), 'utf8')) as unknown;

describe('DoNotDisturb', () => {
  it('is off in a new profile', async () => {
    const { dnd, pushes } = service();
    await dnd.load();
    expect(dnd.state()).toEqual({ until: null });
    expect(dnd.isOn()).toBe(false);
    expect(pushes).toEqual([]);
  });

  it('keeps its end in the profile, and a restart reads it back', async () => {
    const until = Date.now() + 3_600_000;
    const first = service();
    expect(await first.dnd.set(until)).toEqual({ until });
    expect(first.dnd.isOn()).toBe(true);
    expect(first.pushes).toEqual([{ channel: 'dnd.changed', payload: { until } }]);
    expect(await stored()).toEqual({ version: 1, until });
    first.dnd.close();

    const restarted = service();
    await restarted.dnd.load();
    expect(restarted.dnd.state()).toEqual({ until });
    expect(restarted.dnd.isOn()).toBe(true);

    // Turned off: written, pushed, and off after the next restart too.
    expect(await restarted.dnd.set(null)).toEqual({ until: null });
    expect(restarted.pushes).toEqual([{ channel: 'dnd.changed', payload: { until: null } }]);
    expect(await stored()).toEqual({ version: 1, until: null });
    restarted.dnd.close();
    const again = service();
    await again.dnd.load();
    expect(again.dnd.state()).toEqual({ until: null });
  });

  it('pushes only a change: the same end twice is one push', async () => {
    const { dnd, pushes } = service();
    await dnd.set(DND_FOREVER);
    await dnd.set(DND_FOREVER);
    await dnd.set(null);
    await dnd.set(null);
    expect(pushes.map((p) => p.payload)).toEqual([{ until: DND_FOREVER }, { until: null }]);
    dnd.close();
  });

  it('ends by itself when its time passes, telling every window', async () => {
    vi.useFakeTimers({ now: new Date(2030, 4, 6, 14, 5), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { dnd, pushes } = service();
    const until = Date.now() + 60_000;
    await dnd.set(until);
    vi.advanceTimersByTime(59_999);
    expect(dnd.state()).toEqual({ until });
    expect(pushes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(dnd.isOn()).toBe(false);
    expect(dnd.state()).toEqual({ until: null });
    expect(pushes.at(-1)).toEqual({ channel: 'dnd.changed', payload: { until: null } });
    await vi.waitFor(async () => expect(await stored()).toEqual({ version: 1, until: null }));
  });

  it('an end that passed while the app was closed reads as off', async () => {
    const now = 5_000_000;
    await writeFile(join(dir, 'dnd.json'), JSON.stringify({ version: 1, until: now - 1 }));
    const { dnd, pushes } = service(() => now);
    await dnd.load();
    expect(dnd.state()).toEqual({ until: null });
    expect(dnd.isOn()).toBe(false);
    expect(pushes).toEqual([]);
  });

  it('"until turned off" stays on past the longest timer', async () => {
    vi.useFakeTimers({ now: new Date(2030, 4, 6, 14, 5), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { dnd, pushes } = service();
    await dnd.set(DND_FOREVER);
    vi.advanceTimersByTime(2 ** 31 + 5);
    expect(dnd.state()).toEqual({ until: DND_FOREVER });
    expect(pushes).toHaveLength(1);
    dnd.close();
  });

  it('turns off for an end already past, and caps an end beyond DND_FOREVER', async () => {
    const { dnd } = service(() => 1_000);
    expect(await dnd.set(999)).toEqual({ until: null });
    expect(await dnd.set(DND_FOREVER * 2)).toEqual({ until: DND_FOREVER });
    dnd.close();
  });

  it('sets a damaged file aside and starts off', async () => {
    for (const text of ['{not json', JSON.stringify({ version: 1, until: 'soon' })]) {
      await rm(dir, { recursive: true, force: true });
      dir = await mkdtemp(join(tmpdir(), 'confab-dnd-'));
      await writeFile(join(dir, 'dnd.json'), text);
      const { dnd } = service();
      await dnd.load();
      expect(dnd.state()).toEqual({ until: null });
      const names = await readdir(dir);
      expect(names).not.toContain('dnd.json');
      expect(names.some((n) => n.startsWith('dnd.json.damaged-'))).toBe(true);
      // And it works from there.
      const until = Date.now() + 1000_000;
      await dnd.set(until);
      expect(await stored()).toEqual({ version: 1, until });
      dnd.close();
    }
  });
});

describe('do not disturb through the core', () => {
  const SENDER = { trusted: true };
  const cores: Core[] = [];

  async function start(): Promise<{ core: Core; pushes: { channel: PushChannel; payload: unknown }[] }> {
    const profileDir = join(dir, 'profile');
    const core = createCore({
      profileDir,
      secretStore: new FileSecretStore(join(profileDir, 'secrets.json')),
      mode: 'browser',
      appVersion: '1.2.3',
      defaultServerUrl: null,
      isTrustedSender: (sender) => sender === SENDER,
    });
    cores.push(core);
    const pushes: { channel: PushChannel; payload: unknown }[] = [];
    core.onPush((channel, payload) => pushes.push({ channel, payload }));
    await core.start();
    return { core, pushes };
  }

  afterEach(async () => {
    for (const core of cores.splice(0)) await core.stop();
  });

  it('dnd.set turns it on for every window and the notification rules; dnd.get reads it after a restart', async () => {
    const { core, pushes } = await start();
    expect(await core.handleInvoke(SENDER, 'dnd.get', {})).toEqual({ ok: true, value: { until: null } });
    expect(core.isDoNotDisturb()).toBe(false);

    const until = Date.now() + 3_600_000;
    const answer = await core.handleInvoke(SENDER, 'dnd.set', { until });
    expect(answer).toEqual({ ok: true, value: { until } satisfies DndState });
    expect(pushes).toEqual([{ channel: 'dnd.changed', payload: { until } }]);
    expect(core.isDoNotDisturb()).toBe(true);
    await core.stop();

    const { core: restarted } = await start();
    expect(restarted.isDoNotDisturb()).toBe(true);
    expect(await restarted.handleInvoke(SENDER, 'dnd.get', {})).toEqual({ ok: true, value: { until } });
    expect(await restarted.handleInvoke(SENDER, 'dnd.set', { until: null })).toEqual({
      ok: true,
      value: { until: null },
    });
    expect(restarted.isDoNotDisturb()).toBe(false);
  });

  it('refuses ends that are not whole epoch ms up to DND_FOREVER, and changes nothing', async () => {
    const { core, pushes } = await start();
    for (const until of [
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      DND_FOREVER + 1,
      Number.MAX_VALUE,
      1.5,
      '1893456000000',
      true,
      {},
      undefined,
    ]) {
      const result = await core.handleInvoke(SENDER, 'dnd.set', { until });
      expect(result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
      expect((result as { error: { message: string } }).error.message).toMatch(
        /^Invalid request for dnd\.set: until: /,
      );
    }
    expect(await core.handleInvoke(SENDER, 'dnd.set', null)).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    expect(await core.handleInvoke({}, 'dnd.set', { until: null })).toMatchObject({
      ok: false,
      error: { code: 'UNTRUSTED_SENDER' },
    });
    expect(pushes).toEqual([]);
    expect(await core.handleInvoke(SENDER, 'dnd.get', {})).toEqual({ ok: true, value: { until: null } });
    await expect(readFile(join(dir, 'profile', 'dnd.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
