/**
 * Times as the user wants them: `twenty_four_hour_time` (14:05) or 12-hour (2:05 PM). One
 * formatter per setting value; every screen that shows a time uses this hook, so changing the
 * setting changes every time on screen at once.
 */
import { useMemo } from 'react';
import { useSetting } from '../../stores/hooks';

export interface TimeFormatter {
  /** The time of day: "14:05" or "2:05 PM". */
  time(date: Date | number): string;
  /** The day and time when not today: "Tue 14:05", "Mar 3, 14:05". */
  dateTime(date: Date | number, now?: Date): string;
  twentyFourHour: boolean;
}

export function timeFormatter(twentyFourHour: boolean, locale?: string): TimeFormatter {
  const timeFormat = new Intl.DateTimeFormat(locale, {
    hour: 'numeric',
    minute: '2-digit',
    hourCycle: twentyFourHour ? 'h23' : 'h12',
  });
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short' });
  const day = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' });
  const time = (date: Date | number) => timeFormat.format(date);
  return {
    twentyFourHour,
    time,
    dateTime(date, now = new Date()) {
      const d = new Date(date);
      const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
      const days = Math.floor(
        (startOfToday - new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime()) / 86_400_000,
      );
      if (days === 0) return time(d);
      if (days === -1) return `tomorrow ${time(d)}`;
      if (days > 0 && days < 7) return `${weekday.format(d)} ${time(d)}`;
      return `${day.format(d)}, ${time(d)}`;
    },
  };
}

export function useTimeFormatter(): TimeFormatter {
  const twentyFourHour = useSetting('twenty_four_hour_time') === true;
  return useMemo(() => timeFormatter(twentyFourHour), [twentyFourHour]);
}
