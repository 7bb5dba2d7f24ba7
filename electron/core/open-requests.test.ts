import { describe, expect, it } from 'vitest';
import { OPEN_REQUEST_TTL_MS, OpenRequests } from './open-requests';

const request = { accountId: 'acct-1', narrow: { kind: 'dm' as const, userIds: [8] }, messageId: 42 };

describe('OpenRequests', () => {
  it('gives the request once, and none after its minute', () => {
    let now = 1_000;
    const requests = new OpenRequests(() => now);
    expect(requests.take()).toBeNull();
    requests.offer(request);
    now += OPEN_REQUEST_TTL_MS;
    expect(requests.take()).toEqual(request);
    expect(requests.take()).toBeNull();
    requests.offer(request);
    now += OPEN_REQUEST_TTL_MS + 1;
    expect(requests.take()).toBeNull();
  });

  it('keeps only the newest click', () => {
    const requests = new OpenRequests(() => 0);
    requests.offer(request);
    requests.offer({ ...request, messageId: 43 });
    expect(requests.take()?.messageId).toBe(43);
  });
});
