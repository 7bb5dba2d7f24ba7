import { describe, expect, it } from 'vitest';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffDelayMs } from './backoff';

const top = () => 0.999999;

describe('backoffDelayMs', () => {
  it('starts at 100 ms and doubles per attempt', () => {
    const ceilings = [0, 1, 2, 3, 4, 5, 6].map((n) => Math.round(backoffDelayMs(n, () => 1)));
    expect(ceilings).toEqual([100, 200, 400, 800, 1600, 3200, 6400]);
    expect(BACKOFF_BASE_MS).toBe(100);
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

  it('treats a negative attempt as the first', () => {
    expect(backoffDelayMs(-3, () => 1)).toBe(100);
  });

  it('stays within [0, ceiling) with the real Math.random, for every attempt', () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
      for (let i = 0; i < 50; i++) {
        const delay = backoffDelayMs(attempt);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
    }
  });

  it('takes other limits (the renderer bridge passes its own)', () => {
    const limits = { baseMs: 250, capMs: 1000 };
    expect([0, 1, 2, 3, 9].map((n) => backoffDelayMs(n, () => 1, limits))).toEqual([
      250, 500, 1000, 1000, 1000,
    ]);
    expect(backoffDelayMs(1, () => 0.5, { capMs: 150 })).toBe(75);
    expect(backoffDelayMs(1, () => 1, { baseMs: 10 })).toBe(20);
  });
});
