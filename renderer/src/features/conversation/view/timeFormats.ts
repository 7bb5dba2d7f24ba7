/**
 * The times a message list shows, per `twenty_four_hour_time`: the time of day beside a
 * message, the exact date and time on hover (its `title`), and the day a conversation's run
 * starts on (in its recipient bar).
 */
import { useMemo } from 'react';
import { useSetting } from '../../../stores/hooks';
import { timeFormatter } from '../../shell/time';

export interface TimeFormats {
  time(date: Date): string;
  exact(date: Date): string;
  day(date: Date, now?: Date): string;
}

export function timeFormats(twentyFourHour: boolean, locale?: string): TimeFormats {
  const base = timeFormatter(twentyFourHour, locale);
  const exact = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: twentyFourHour ? 'h23' : 'h12',
  });
  const sameYear = new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'short', day: 'numeric' });
  const otherYear = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', year: 'numeric' });
  return {
    time: (date) => base.time(date),
    exact: (date) => exact.format(date),
    day(date, now = new Date()) {
      const start = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
      const days = Math.round((start(now) - start(date)) / 86_400_000);
      if (days === 0) return 'Today';
      if (days === 1) return 'Yesterday';
      return date.getFullYear() === now.getFullYear() ? sameYear.format(date) : otherYear.format(date);
    },
  };
}

export function useTimeFormats(): TimeFormats {
  const twentyFourHour = useSetting('twenty_four_hour_time') === true;
  return useMemo(() => timeFormats(twentyFourHour), [twentyFourHour]);
}
