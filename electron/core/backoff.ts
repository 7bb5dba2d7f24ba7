/**
 * Retry timing of the event loop: exponential back-off with full jitter (AWS Architecture
 * Blog, "Exponential Backoff And Jitter"): spreading retries uniformly over [0, ceiling)
 * keeps a fleet of clients from hammering a server that just came back, all at once.
 */
import { ApiError, NetworkError } from '../../shared/client';

export const BACKOFF_BASE_MS = 100;
export const BACKOFF_CAP_MS = 10_000;

/** Delay before retry number `attempt` (0 = first retry): random(0, min(cap, base * 2^attempt)). */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return random() * ceiling;
}

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
