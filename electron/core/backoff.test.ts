import { describe, expect, it } from 'vitest';
import * as shared from '../../shared/backoff';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffDelayMs } from '../../shared/backoff';
import { ApiError, NetworkError } from '../../shared/client';
import { isTransient, retryDelayMs } from './backoff';

describe('backoffDelayMs', () => {
  it('is the shared back-off (shared/backoff.ts), re-exported for the core', () => {
    expect(backoffDelayMs).toBe(shared.backoffDelayMs);
    expect([BACKOFF_BASE_MS, BACKOFF_CAP_MS]).toEqual([100, 10_000]);
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
