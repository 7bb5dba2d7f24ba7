import { describe, expect, it } from 'vitest';
import { connectionText } from './connectionText';

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
