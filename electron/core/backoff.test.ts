import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../shared/client';
import { BACKOFF_CAP_MS, backoffDelayMs, isTransient, retryDelayMs } from './backoff';

const top = () => 0.999999;

describe('backoffDelayMs', () => {
  it('starts at 100 ms and doubles per attempt', () => {
    const ceilings = [0, 1, 2, 3, 4, 5, 6].map((n) => Math.round(backoffDelayMs(n, () => 1)));
    expect(ceilings).toEqual([100, 200, 400, 800, 1600, 3200, 6400]);
  });

  it('caps the ceiling at 10 s, however many attempts', () => {
    for (const n of [7, 8, 20, 100, 5000]) expect(backoffDelayMs(n, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(BACKOFF_CAP_MS).toBe(10_000);
  });

  it('spreads the delay uniformly over [0, ceiling) (full jitter)', () => {
    expect(backoffDelayMs(3, () => 0)).toBe(0);
    expect(backoffDelayMs(3, () => 0.5)).toBe(400);
    expect(backoffDelayMs(3, top)).toBeLessThan(800);
    expect(backoffDelayMs(12, () => 0.25)).toBe(2500);
  });
});

describe('retry classification', () => {
  it('treats the network, 5xx and 429 as transient, other answers as not', () => {
    expect(isTransient(new NetworkError('GET /events: fetch failed'))).toBe(true);
    expect(isTransient(new ApiError(502, 'HTTP_502', 'Bad gateway', {}))).toBe(true);
    expect(isTransient(new ApiError(500, 'HTTP_500', 'Internal', {}))).toBe(true);
    expect(isTransient(new ApiError(429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', {}, 3))).toBe(
      true,
    );
    expect(isTransient(new ApiError(400, 'BAD_EVENT_QUEUE_ID', 'Bad event queue ID: x', {}))).toBe(false);
    expect(isTransient(new ApiError(401, 'UNAUTHORIZED', 'Invalid API key', {}))).toBe(false);
    expect(isTransient(new Error('boom'))).toBe(false);
  });

  it("honours a 429's Retry-After even past the cap, and never waits less than it", () => {
    const limited = new ApiError(429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', {}, 12);
    expect(retryDelayMs(limited, 0, () => 1)).toBe(12_000);
    const short = new ApiError(429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', {}, 0.05);
    expect(retryDelayMs(short, 5, () => 0.5)).toBe(1600);
    const noHeader = new ApiError(429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', {}, null);
    expect(retryDelayMs(noHeader, 2, () => 0.5)).toBe(200);
  });

  it('uses the plain back-off for other errors', () => {
    expect(retryDelayMs(new NetworkError('refused'), 4, () => 0.5)).toBe(800);
    expect(retryDelayMs(new ApiError(503, 'HTTP_503', 'down', {}), 9, () => 1)).toBe(10_000);
  });
});
