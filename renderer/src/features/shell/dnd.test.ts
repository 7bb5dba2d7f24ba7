import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DndState } from '../../../../shared/ipc';
import { createTestBridge, flush } from '../../../test/testBridge';
import { dndLabel } from './DoNotDisturb';
import {
  connectDoNotDisturb,
  DND_FOREVER,
  doNotDisturbError,
  forOneHour,
  isDoNotDisturb,
  setDoNotDisturb,
  untilTomorrowMorning,
} from './dnd';
import { timeFormatter } from './time';

/** The main process's side: one `until` for the app, answered and pushed as the core does. */
function fakeCore(initial: number | null = null) {
  const test = createTestBridge();
  const core: DndState = { until: initial };
  test.handle('dnd.get', () => ({ ...core }));
  test.handle('dnd.set', ({ until }) => {
    core.until = until;
    return { ...core };
  });
  return { ...test, core };
}

let stop: () => void = () => undefined;

describe('do not disturb', () => {
  let fake: ReturnType<typeof fakeCore>;
  beforeEach(async () => {
    fake = fakeCore();
    stop = connectDoNotDisturb(fake.bridge);
    await flush();
  });
  afterEach(async () => {
    await setDoNotDisturb(null);
    stop();
    vi.useRealTimers();
  });

  it('is on until its time passes', async () => {
    vi.useFakeTimers({ now: new Date(2030, 4, 6, 14, 5), toFake: ['Date'] });
    expect(isDoNotDisturb()).toBe(false);
    const until = forOneHour(new Date());
    const setting = setDoNotDisturb(until);
    // At once, before the main process answers.
    expect(isDoNotDisturb()).toBe(true);
    await setting;
    expect(fake.core.until).toBe(until);
    vi.setSystemTime(until - 60_000);
    expect(isDoNotDisturb()).toBe(true);
    vi.setSystemTime(until + 1);
    expect(isDoNotDisturb()).toBe(false);
  });

  it('turns off, and sends an end in the past as off', async () => {
    await setDoNotDisturb(DND_FOREVER);
    expect(isDoNotDisturb()).toBe(true);
    await setDoNotDisturb(null);
    expect(isDoNotDisturb()).toBe(false);
    await setDoNotDisturb(Date.now() - 1000);
    expect(isDoNotDisturb()).toBe(false);
    expect(fake.calls.filter((c) => c.channel === 'dnd.set').map((c) => c.request)).toEqual([
      { until: DND_FOREVER },
      { until: null },
      { until: null },
    ]);
  });

  it('follows the change another window made, pushed by the main process', () => {
    fake.push('dnd.changed', { until: DND_FOREVER });
    expect(isDoNotDisturb()).toBe(true);
    fake.push('dnd.changed', { until: null });
    expect(isDoNotDisturb()).toBe(false);
  });

  it('shows the change at once, and the main process’s value again with the reason when it fails', async () => {
    const failing = createTestBridge();
    failing.handle('dnd.get', () => ({ until: null }));
    stop();
    stop = connectDoNotDisturb(failing.bridge);
    await flush();
    const setting = setDoNotDisturb(DND_FOREVER);
    expect(isDoNotDisturb()).toBe(true);
    const held = failing.held.find((c) => c.channel === 'dnd.set');
    held?.resolve({ ok: false, error: { message: 'Invalid request for dnd.set', code: 'BAD_REQUEST' } });
    await setting;
    expect(isDoNotDisturb()).toBe(false);
    expect(doNotDisturbError()).toBe('Do not disturb was not changed: Invalid request for dnd.set');
    // The next change clears it.
    failing.handle('dnd.set', ({ until }) => ({ until }));
    await setDoNotDisturb(DND_FOREVER);
    expect(isDoNotDisturb()).toBe(true);
    expect(doNotDisturbError()).toBeNull();
  });
});

describe('do not disturb, as the main process has it', () => {
  afterEach(() => stop());

  it('reads the main process’s value when it connects (a new window, a reload)', async () => {
    const fake = fakeCore(DND_FOREVER);
    stop = connectDoNotDisturb(fake.bridge);
    await flush();
    expect(isDoNotDisturb()).toBe(true);
    const off = fakeCore(null);
    stop();
    stop = connectDoNotDisturb(off.bridge);
    await flush();
    expect(isDoNotDisturb()).toBe(false);
  });

  it('keeps a change made while the first read was on its way', async () => {
    const test = createTestBridge();
    test.handle('dnd.set', ({ until }) => ({ until }));
    stop = connectDoNotDisturb(test.bridge);
    await setDoNotDisturb(DND_FOREVER);
    // The read sent on connecting answers late, with the value from before the change.
    test.held.find((c) => c.channel === 'dnd.get')?.resolve({ ok: true, value: { until: null } });
    await flush();
    expect(isDoNotDisturb()).toBe(true);
  });
});

describe('do not disturb times and labels', () => {
  it('ends tomorrow at 9:00 local time', () => {
    const end = new Date(untilTomorrowMorning(new Date(2030, 11, 31, 23, 30)));
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes()]).toEqual([
      2031, 0, 1, 9, 0,
    ]);
  });

  it('says until when, in the chosen time format', () => {
    const now = new Date(2030, 4, 6, 13, 5);
    const end = new Date(2030, 4, 6, 14, 5).getTime();
    expect(dndLabel(end, timeFormatter(true, 'en-US'), now)).toBe('Do not disturb until 14:05');
    expect(dndLabel(end, timeFormatter(false, 'en-US'), now)).toMatch(/^Do not disturb until 2:05\sPM$/);
    expect(dndLabel(untilTomorrowMorning(now), timeFormatter(true, 'en-US'), now)).toBe(
      'Do not disturb until tomorrow 09:00',
    );
    expect(dndLabel(DND_FOREVER, timeFormatter(true, 'en-US'), now)).toBe('Do not disturb is on');
  });
});
