/**
 * Retry timing shared by every reconnecting loop of the app (the main process's event loop and
 * drafts outbox, the renderer's WebSocket bridge in browser mode): exponential back-off with
 * full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"). Spreading retries
 * uniformly over [0, ceiling) keeps a fleet of clients from hammering a server that just came
 * back, all at once. Pure: no timers, no platform APIs; the caller schedules the wait.
 */

/** DESIGN.md, data flow 4: start at 100 ms, double, cap at 10 s. */
export const BACKOFF_BASE_MS = 100;
export const BACKOFF_CAP_MS = 10_000;

export interface BackoffLimits {
  /** Ceiling of the first retry (attempt 0). Default BACKOFF_BASE_MS. */
  baseMs?: number;
  /** Largest ceiling, however many attempts. Default BACKOFF_CAP_MS. */
  capMs?: number;
}

/**
 * Delay before retry number `attempt` (0 = first retry): random(0, min(cap, base * 2^attempt)).
 * `random` returns a number in [0, 1) like Math.random; a test passes its own for determinism.
 */
export function backoffDelayMs(
  attempt: number,
  random: () => number = Math.random,
  { baseMs = BACKOFF_BASE_MS, capMs = BACKOFF_CAP_MS }: BackoffLimits = {},
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  return random() * ceiling;
}
