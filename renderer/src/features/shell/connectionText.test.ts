import { describe, expect, it } from 'vitest';
import { connectionBannerText, connectionText, STALE_AFTER_MS } from './connectionText';

describe('connectionText', () => {
  it('says each status in words', () => {
    expect(connectionText({ status: 'connected', nextRetryAt: null, lastError: null }, 0)).toBe('Connected');
    expect(connectionText({ status: 'connecting', nextRetryAt: null, lastError: null }, 0)).toBe(
      'Connecting…',
    );
    expect(
      connectionText({ status: 'offline', nextRetryAt: null, lastError: 'Your API key is invalid' }, 0),
    ).toBe('Offline: Your API key is invalid');
    expect(connectionText({ status: 'offline', nextRetryAt: null, lastError: null }, 0)).toBe(
      'Offline: no connection to the server',
    );
  });

  it('counts down to the next try, rounding up', () => {
    const state = { status: 'reconnecting' as const, nextRetryAt: 10_000, lastError: 'fetch failed' };
    expect(connectionText(state, 6_500)).toBe('Reconnecting… next try in 4s');
    expect(connectionText(state, 9_999)).toBe('Reconnecting… next try in 1s');
    expect(connectionText(state, 10_000)).toBe('Reconnecting…');
    expect(connectionText({ ...state, nextRetryAt: null }, 0)).toBe('Reconnecting…');
  });
});

describe('connectionBannerText', () => {
  it('shows nothing while connected or connecting', () => {
    expect(connectionBannerText('connected', null, 0)).toBeNull();
    expect(connectionBannerText('connecting', 0, STALE_AFTER_MS * 10)).toBeNull();
  });

  it('says the saved copy is shown, whatever the status, until a fresh register', () => {
    const saved = 'Showing what was saved on this computer; it may be out of date.';
    expect(connectionBannerText('connecting', null, 0, true)).toBe(saved);
    expect(connectionBannerText('connected', null, 0, true)).toBe(saved);
    expect(connectionBannerText('reconnecting', 0, 0, true)).toBe(`${saved} Reconnecting to the server…`);
    expect(connectionBannerText('reconnecting', 0, 0, false)).toBe('Reconnecting to the server…');
  });

  it('says reconnecting, and that data may be out of date once the gap reaches two minutes', () => {
    expect(STALE_AFTER_MS).toBe(120_000);
    expect(connectionBannerText('reconnecting', 1_000, 1_000)).toBe('Reconnecting to the server…');
    expect(connectionBannerText('reconnecting', 1_000, 1_000 + STALE_AFTER_MS - 1)).toBe(
      'Reconnecting to the server…',
    );
    expect(connectionBannerText('reconnecting', 1_000, 1_000 + STALE_AFTER_MS)).toBe(
      'Reconnecting to the server… Data may be out of date.',
    );
    expect(connectionBannerText('reconnecting', null, 10 * STALE_AFTER_MS)).toBe(
      'Reconnecting to the server…',
    );
  });

  it('says offline, that changes are kept, and the gap after two minutes', () => {
    expect(connectionBannerText('offline', 0, 60_000)).toBe(
      'You are offline. Your changes are kept on this computer and sent when you are back.',
    );
    expect(connectionBannerText('offline', 0, 3 * 60_000)).toBe(
      'You are offline. Data may be out of date. Your changes are kept on this computer and sent when you are back.',
    );
  });
});
