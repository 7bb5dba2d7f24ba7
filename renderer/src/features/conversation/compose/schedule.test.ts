import { describe, expect, it } from 'vitest';
import {
  checkScheduleTime,
  localDateTimeValue,
  parseLocalDateTime,
  scheduledText,
  schedulePresets,
  unixSeconds,
} from './schedule';

describe('schedulePresets', () => {
  it('offers tomorrow at 9:00 and the next Monday at 9:00', () => {
    // Wednesday 2026-03-04, 15:20 local time.
    const presets = schedulePresets(new Date(2026, 2, 4, 15, 20), false, 'en-US');
    expect(presets.map((p) => [p.id, p.label, localDateTimeValue(p.date)])).toEqual([
      ['tomorrow', 'Tomorrow at 9:00 AM', '2026-03-05T09:00'],
      ['monday', 'Monday at 9:00 AM', '2026-03-09T09:00'],
    ]);
  });

  it('takes the Monday a week on when today is Monday, and crosses months; 24-hour time per setting', () => {
    const presets = schedulePresets(new Date(2026, 2, 30, 8, 0), true, 'en-GB');
    expect(presets.map((p) => [p.label, localDateTimeValue(p.date)])).toEqual([
      ['Tomorrow at 09:00', '2026-03-31T09:00'],
      ['Monday at 09:00', '2026-04-06T09:00'],
    ]);
    // Sunday: Monday is tomorrow.
    expect(
      localDateTimeValue(schedulePresets(new Date(2026, 2, 8, 22, 0), true)[1]?.date ?? new Date(0)),
    ).toBe('2026-03-09T09:00');
  });
});

describe('custom times', () => {
  it("reads a date-time field's value in local time, and refuses what is no date", () => {
    expect(parseLocalDateTime('2026-03-04T09:30')?.getTime()).toBe(new Date(2026, 2, 4, 9, 30).getTime());
    expect(parseLocalDateTime('2026-02-30T09:30')).toBeNull();
    expect(parseLocalDateTime('')).toBeNull();
    expect(parseLocalDateTime('tomorrow')).toBeNull();
  });

  it('wants a time at least a minute ahead', () => {
    const now = new Date(2026, 2, 4, 9, 0);
    expect(checkScheduleTime(null, now)).toBe('Choose a date and time.');
    expect(checkScheduleTime(new Date(2026, 2, 4, 8, 0), now)).toBe('Choose a time in the future.');
    expect(checkScheduleTime(new Date(2026, 2, 4, 9, 0, 30), now)).toBe('Choose a time in the future.');
    expect(checkScheduleTime(new Date(2026, 2, 4, 9, 5), now)).toBeNull();
  });

  it('confirms in words, with the year only when not this one, and gives Unix seconds', () => {
    const now = new Date(2026, 2, 4, 9, 0);
    expect(scheduledText(new Date(2026, 2, 5, 9, 0), now, false, 'en-US')).toBe(
      'Thursday, March 5 at 9:00 AM',
    );
    expect(scheduledText(new Date(2027, 0, 4, 14, 5), now, true, 'en-US')).toBe(
      'Monday, January 4, 2027 at 14:05',
    );
    expect(unixSeconds(new Date(1_700_000_000_999))).toBe(1_700_000_000);
  });
});
