/**
 * Retry timing of the event loop and the drafts outbox: the shared exponential back-off with
 * full jitter (shared/backoff.ts, also used by the renderer's WebSocket bridge), plus what only
 * an HTTP client needs: which failures are worth a retry, and a 429's Retry-After.
 */
import { backoffDelayMs } from '../../shared/backoff';
import { ApiError, NetworkError } from '../../shared/client';

/** Failures that say nothing about our request: the network, the server's health, its rate limit. */
export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && (error.status >= 500 || error.status === 429);
}

/** The back-off delay, but never sooner than a 429's Retry-After asks (even past the cap). */
export function retryDelayMs(error: unknown, attempt: number, random: () => number = Math.random): number {
  const delay = backoffDelayMs(attempt, random);
  if (error instanceof ApiError && error.status === 429 && error.retryAfter !== null) {
    return Math.max(delay, error.retryAfter * 1000);
  }
  return delay;
}
