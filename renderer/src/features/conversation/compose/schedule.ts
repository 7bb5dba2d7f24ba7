/**
 * "Send later": the preset times (tomorrow at 9:00, Monday at 9:00), a custom time typed in a
 * date-time field, and the words that confirm it. Pure: the current time is passed in.
 */

export interface SchedulePreset {
  id: 'tomorrow' | 'monday';
  label: string;
  date: Date;
}

/** 9:00 on the day `days` after `now` (local time). */
function nineOn(now: Date, days: number): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, 9, 0, 0, 0);
}

/** The presets: tomorrow at 9:00 and the next Monday at 9:00 (a week on, when today is Monday). */
export function schedulePresets(now: Date, twentyFourHour: boolean, locale?: string): SchedulePreset[] {
  const tomorrow = nineOn(now, 1);
  const daysToMonday = (8 - now.getDay()) % 7 || 7;
  const monday = nineOn(now, daysToMonday);
  const time = (d: Date) => timeText(d, twentyFourHour, locale);
  return [
    { id: 'tomorrow', label: `Tomorrow at ${time(tomorrow)}`, date: tomorrow },
    { id: 'monday', label: `Monday at ${time(monday)}`, date: monday },
  ];
}

function timeText(date: Date, twentyFourHour: boolean, locale?: string): string {
  return new Intl.DateTimeFormat(locale, {
    hour: twentyFourHour ? '2-digit' : 'numeric',
    minute: '2-digit',
    hour12: !twentyFourHour,
  }).format(date);
}

/** A date-time field's value ("2026-03-04T09:30", local time) as a Date; null when not one. */
export function parseLocalDateTime(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/u.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as number[];
  const date = new Date(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0, 0);
  // new Date rolls over (Feb 30 -> Mar 2): that is not the day typed.
  if (date.getMonth() !== (mo ?? 1) - 1 || date.getDate() !== d || date.getHours() !== h) return null;
  return date;
}

/** A Date as a date-time field's value (local time, to the minute). */
export function localDateTimeValue(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T${p(date.getHours())}:${p(date.getMinutes())}`;
}

/** Why a chosen time cannot be used, or null: it must be a time, and in the future. */
export function checkScheduleTime(date: Date | null, now: Date): string | null {
  if (!date) return 'Choose a date and time.';
  if (date.getTime() <= now.getTime() + 60_000) return 'Choose a time in the future.';
  return null;
}

/** Unix seconds, as the service takes a delivery time. */
export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/** "Tuesday, March 4 at 9:00 AM" (with the year when it is not this year's). */
export function scheduledText(date: Date, now: Date, twentyFourHour: boolean, locale?: string): string {
  const day = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  }).format(date);
  return `${day} at ${timeText(date, twentyFourHour, locale)}`;
}
