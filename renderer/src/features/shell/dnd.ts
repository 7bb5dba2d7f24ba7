/**
 * Do not disturb: until a moment (epoch ms) or off (null). A small store shared by every
 * window (kept in localStorage, followed through the `storage` event), read by every
 * notification path in the renderer (`isDoNotDisturb()`). It ends by itself when its time
 * passes: the hook re-renders at that moment.
 */
import { useEffect, useState } from 'react';
import { create } from 'zustand';

export const DND_STORAGE_KEY = 'confab.doNotDisturbUntil';
/** "On" with no end: far enough away to never pass (the year 2286). */
export const DND_FOREVER = 10_000_000_000_000;

interface DndState {
  until: number | null;
}

function readStored(): number | null {
  try {
    const raw = globalThis.localStorage?.getItem(DND_STORAGE_KEY);
    if (!raw) return null;
    const value = Number(raw);
    return Number.isFinite(value) && value > Date.now() ? value : null;
  } catch {
    return null;
  }
}

const useDndStore = create<DndState>()(() => ({ until: readStored() }));

if (typeof window !== 'undefined') {
  // Another window changed it.
  window.addEventListener('storage', (event) => {
    if (event.key === DND_STORAGE_KEY || event.key === null) useDndStore.setState({ until: readStored() });
  });
}

/** Turns do not disturb on until `untilMs` (DND_FOREVER: until turned off), or off (null). */
export function setDoNotDisturb(untilMs: number | null): void {
  const until = untilMs !== null && untilMs > Date.now() ? untilMs : null;
  try {
    if (until === null) localStorage.removeItem(DND_STORAGE_KEY);
    else localStorage.setItem(DND_STORAGE_KEY, String(until));
  } catch {
    // Storage unavailable: this window still honours it.
  }
  useDndStore.setState({ until });
}

/** Whether notifications are held back now (for the notification code, outside React). */
export function isDoNotDisturb(nowMs: number = Date.now()): boolean {
  const { until } = useDndStore.getState();
  return until !== null && until > nowMs;
}

/** The end of do not disturb (epoch ms; DND_FOREVER: no end) while it is on, else null. */
export function useDoNotDisturb(): number | null {
  const until = useDndStore((s) => s.until);
  const [, expire] = useState(0);
  useEffect(() => {
    if (until === null || until >= DND_FOREVER) return;
    const left = until - Date.now();
    if (left <= 0) return;
    // Timers cap at about 24.8 days; re-check then.
    const timer = setTimeout(() => expire((n) => n + 1), Math.min(left + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [until]);
  return until !== null && until > Date.now() ? until : null;
}

/** One hour from `now`. */
export const forOneHour = (now: Date): number => now.getTime() + 60 * 60_000;

/** Tomorrow at 9:00 local time. */
export function untilTomorrowMorning(now: Date): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9, 0, 0, 0);
  return next.getTime();
}
