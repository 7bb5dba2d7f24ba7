/**
 * Do not disturb: until a moment (epoch ms) or off (null). The main process owns it for the
 * whole app (electron/core/dnd.ts: kept in the profile, honoured by its notifications); this
 * store mirrors it through the bridge (`dnd.get`, and the `dnd.changed` push every window gets),
 * so every window and the main process agree at once. It shows a change here at once and
 * settles on the core's answer; read by every notification path in the renderer
 * (`isDoNotDisturb()`). It ends by itself when its time passes: the hook re-renders then.
 */
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import { type ConfabBridge, DND_FOREVER } from '../../../../shared/ipc';
import { getBridge, onBridgeLink } from '../../bridge';
import { unwrap } from '../../bridge/result';

/** "On" with no end: far enough away to never pass (the year 2286). */
export { DND_FOREVER };

interface DndState {
  until: number | null;
  /** Why the last change did not reach the main process (it shows the core's value again). */
  error: string | null;
}

const useDndStore = create<DndState>()(() => ({ until: null, error: null }));

let link: { bridge: ConfabBridge; stop: () => void } | null = null;
/** Bumped by every change; an answer older than the latest change is not applied. */
let revision = 0;

/**
 * Follows the main process's do not disturb over `bridge`: reads it now, takes every push, and
 * reads again when a dropped bridge comes back. Done on first use with the app's bridge; a test
 * passes its own. The function returned stops following.
 */
export function connectDoNotDisturb(bridge: ConfabBridge): () => void {
  link?.stop();
  const offPush = bridge.on('dnd.changed', ({ until }) => {
    revision++;
    useDndStore.setState({ until, error: null });
  });
  const offLink = onBridgeLink((up) => {
    if (up) void read(bridge);
  });
  const stop = () => {
    offPush();
    offLink();
    if (link?.bridge === bridge) link = null;
  };
  link = { bridge, stop };
  void read(bridge);
  return stop;
}

function connected(): ConfabBridge {
  if (!link) connectDoNotDisturb(getBridge());
  return (link as { bridge: ConfabBridge }).bridge;
}

async function read(bridge: ConfabBridge): Promise<void> {
  const mine = revision;
  try {
    const { until } = unwrap(await bridge.invoke('dnd.get', {}));
    if (revision === mine) useDndStore.setState({ until });
  } catch {
    // The bridge is down: onBridgeLink reads again when it is back.
  }
}

/**
 * Turns do not disturb on until `untilMs` (DND_FOREVER: until turned off), or off (null), for
 * every window. Shown here at once; resolves once the main process has it (never rejects: on
 * failure the store shows the main process's value again and `useDoNotDisturbError` says why).
 */
export async function setDoNotDisturb(untilMs: number | null): Promise<void> {
  const bridge = connected();
  const until = untilMs !== null && untilMs > Date.now() ? Math.min(Math.round(untilMs), DND_FOREVER) : null;
  const mine = ++revision;
  useDndStore.setState({ until, error: null });
  try {
    const answer = unwrap(await bridge.invoke('dnd.set', { until }));
    if (revision === mine) useDndStore.setState({ until: answer.until });
  } catch (error) {
    if (revision !== mine) return;
    useDndStore.setState({
      error: `Do not disturb was not changed: ${error instanceof Error ? error.message : String(error)}`,
    });
    await read(bridge);
  }
}

/** Whether notifications are held back now (for the notification code, outside React). */
export function isDoNotDisturb(nowMs: number = Date.now()): boolean {
  connected();
  const { until } = useDndStore.getState();
  return until !== null && until > nowMs;
}

/** The end of do not disturb (epoch ms; DND_FOREVER: no end) while it is on, else null. */
export function useDoNotDisturb(): number | null {
  useEffect(() => {
    connected();
  }, []);
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

/** Why the last change of do not disturb failed, until the next change. */
export function useDoNotDisturbError(): string | null {
  return useDndStore((s) => s.error);
}

/** The same, outside React. */
export const doNotDisturbError = (): string | null => useDndStore.getState().error;

/** One hour from `now`. */
export const forOneHour = (now: Date): number => now.getTime() + 60 * 60_000;

/** Tomorrow at 9:00 local time. */
export function untilTomorrowMorning(now: Date): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9, 0, 0, 0);
  return next.getTime();
}
