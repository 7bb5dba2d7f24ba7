import { afterEach, describe, expect, it, vi } from 'vitest';
import { dndLabel } from './DoNotDisturb';
import { DND_FOREVER, forOneHour, isDoNotDisturb, setDoNotDisturb, untilTomorrowMorning } from './dnd';
import { timeFormatter } from './time';

describe('do not disturb', () => {
  afterEach(() => {
    setDoNotDisturb(null);
    vi.useRealTimers();
  });

  it('is on until its time passes', () => {
    vi.useFakeTimers({ now: new Date(2030, 4, 6, 14, 5) });
    expect(isDoNotDisturb()).toBe(false);
    setDoNotDisturb(forOneHour(new Date()));
    expect(isDoNotDisturb()).toBe(true);
    vi.advanceTimersByTime(59 * 60_000);
    expect(isDoNotDisturb()).toBe(true);
    vi.advanceTimersByTime(60_001);
    expect(isDoNotDisturb()).toBe(false);
  });

  it('turns off, and ignores an end in the past', () => {
    setDoNotDisturb(DND_FOREVER);
    expect(isDoNotDisturb()).toBe(true);
    setDoNotDisturb(null);
    expect(isDoNotDisturb()).toBe(false);
    setDoNotDisturb(Date.now() - 1000);
    expect(isDoNotDisturb()).toBe(false);
  });

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
