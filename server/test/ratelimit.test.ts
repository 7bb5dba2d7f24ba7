/** Rate limits (NOTES.md): per user, per IP address when unauthenticated, with their headers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { loginAs, startServerProcess } from '../../test/support/server';
import { SlidingLimiter } from '../ratelimit';
import {
  authOf,
  call,
  type RawResponse,
  sleep,
  startTestService,
  startWith,
  type TestService,
} from './support/service';

const limitedBody = (retryAfter: number) => ({
  result: 'error',
  msg: 'API usage exceeded rate limit',
  code: 'RATE_LIMIT_HIT',
  'retry-after': retryAfter,
});

function rateHeaders(r: RawResponse) {
  return {
    limit: r.headers.get('x-ratelimit-limit'),
    remaining: r.headers.get('x-ratelimit-remaining'),
    reset: r.headers.get('x-ratelimit-reset'),
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('SlidingLimiter', () => {
  it('allows `limit` hits per window, refuses the next without counting it, and slides', () => {
    const limiter = new SlidingLimiter(3, 10_000);
    expect(limiter.hit('k', 1_000)).toEqual({ limit: 3, remaining: 2, reset: 11, retryAfter: 0 });
    expect(limiter.hit('k', 2_000)).toEqual({ limit: 3, remaining: 1, reset: 12, retryAfter: 0 });
    expect(limiter.hit('k', 3_000)).toEqual({ limit: 3, remaining: 0, reset: 13, retryAfter: 0 });
    expect(limiter.hit('k', 4_000)).toEqual({ limit: 3, remaining: 0, reset: 13, retryAfter: 7 });
    expect(limiter.peek('k', 10_500)).toEqual({ limit: 3, remaining: 0, reset: 13, retryAfter: 1 });
    // The first hit ages out at 11 s: one slot again.
    expect(limiter.hit('k', 11_001)).toEqual({ limit: 3, remaining: 0, reset: 22, retryAfter: 0 });
    expect(limiter.hit('other', 11_001).remaining).toBe(2);
  });

  it('forgets idle keys', () => {
    const limiter = new SlidingLimiter(1, 1_000);
    limiter.hit('a', 0);
    expect(limiter.peek('a', 500).retryAfter).toBe(1);
    expect(limiter.peek('a', 1_001)).toEqual({ limit: 1, remaining: 1, reset: 2, retryAfter: 0 });
  });
});

describe('per user', () => {
  let svc: TestService;
  let alice: ApiClient;
  let bob: ApiClient;
  beforeAll(async () => {
    ({ svc, alice, bob } = await startWith(['alice', 'bob'], {
      rateLimits: { user: 5, ip: 1000, windowSeconds: 60 },
    }));
  });
  afterAll(() => svc.close());

  it('counts down in the headers, then answers 429 with Retry-After, and changes nothing', async () => {
    const start = nowSeconds();
    for (let i = 4; i >= 0; i--) {
      const r = await call(svc.url, 'GET', '/users/me', { auth: authOf(alice) });
      expect(r.status).toBe(200);
      const h = rateHeaders(r);
      expect(h).toMatchObject({ limit: '5', remaining: String(i) });
      expect(Number(h.reset)).toBeGreaterThanOrEqual(start + 60);
      expect(Number(h.reset)).toBeLessThanOrEqual(nowSeconds() + 61);
    }
    const limited = await call(svc.url, 'PATCH', '/settings', {
      auth: authOf(alice),
      params: { full_name: 'Limited Alice' },
    });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual(limitedBody(retryAfter));
    expect(rateHeaders(limited)).toMatchObject({ limit: '5', remaining: '0' });
    // Another user is not affected, and sees that nothing changed.
    const bobsView = await call(svc.url, 'GET', '/users', { auth: authOf(bob) });
    expect(bobsView.status).toBe(200);
    const members = bobsView.body.members as { email: string; full_name: string }[];
    expect(members.find((m) => m.email === svc.demo.users.alice)?.full_name).toBe('Alice Doe');
  });

  it('never counts GET /events: the app polls all the time', async () => {
    const queue = await bob.registerQueue({ event_types: ['heartbeat'] });
    for (let i = 0; i < 3; i++) await call(svc.url, 'GET', '/users/me', { auth: authOf(bob) });
    for (let i = 0; i < 12; i++) {
      const r = await call(svc.url, 'GET', '/events', {
        auth: authOf(bob),
        params: { queue_id: queue.queue_id as string, dont_block: 'true' },
      });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    }
    // Bob used 5 of 5 (GET /users, register and three GETs), so the next counted request is refused.
    expect((await call(svc.url, 'GET', '/users/me', { auth: authOf(bob) })).status).toBe(429);
  });
});

describe('per IP address, unauthenticated', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ rateLimits: { user: 1000, ip: 3, windowSeconds: 60 } });
  });
  afterAll(() => svc.close());

  it('counts logins and failed authentications alike, then refuses with 429', async () => {
    const ok = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: svc.demo.users.alice, password: svc.demo.password },
    });
    expect(ok.status).toBe(200);
    expect(rateHeaders(ok)).toMatchObject({ limit: '3', remaining: '2' });
    const wrongKey = await call(svc.url, 'GET', '/users/me', {
      auth: [svc.demo.users.alice, 'x'.repeat(32)],
    });
    expect(wrongKey.status).toBe(401);
    expect(rateHeaders(wrongKey)).toMatchObject({ limit: '3', remaining: '1' });
    const noAuth = await call(svc.url, 'GET', '/users/me');
    expect(noAuth.status).toBe(401);
    expect(rateHeaders(noAuth)).toMatchObject({ limit: '3', remaining: '0' });

    const refused = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: svc.demo.users.alice, password: svc.demo.password },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(limitedBody(Number(refused.headers.get('retry-after'))));

    // An authenticated user is counted per user, not per address.
    const me = await call(svc.url, 'GET', '/users/me', {
      auth: [svc.demo.users.alice, ok.body.api_key as string],
    });
    expect(me.status).toBe(200);
    expect(rateHeaders(me)).toMatchObject({ limit: '1000', remaining: '999' });
  });

  it('does not limit pages outside the API', async () => {
    const page = await fetch(`${svc.url}/accounts/confirm_new_email/unknown`);
    expect(page.status).toBe(404);
    expect(page.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('a short window', () => {
  it('lets requests through again once Retry-After has passed', async () => {
    const svc = await startTestService({ rateLimits: { user: 2, ip: 1000, windowSeconds: 1 } });
    try {
      const alice = await svc.login('alice');
      const get = () => call(svc.url, 'GET', '/users/me', { auth: authOf(alice) });
      expect((await get()).status).toBe(200);
      expect((await get()).status).toBe(200);
      const refused = await get();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      // Wait as long as the server says, then ask again: no guessing at the window's end.
      let last = refused;
      for (let i = 0; i < 3 && last.status === 429; i++) {
        await sleep(Number(last.headers.get('retry-after')) * 1000);
        last = await get();
      }
      const status = last.status;
      expect(status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('defaults', () => {
  it('are 200 per user and 100 per address a minute', async () => {
    const svc = await startTestService({ rateLimits: {} });
    try {
      const login = await call(svc.url, 'POST', '/fetch_api_key', {
        params: { username: svc.demo.users.bob, password: svc.demo.password },
      });
      expect(rateHeaders(login)).toMatchObject({ limit: '100', remaining: '99' });
      const auth: [string, string] = [svc.demo.users.bob, login.body.api_key as string];
      for (let i = 199; i >= 0; i--) {
        const r = await call(svc.url, 'GET', '/users/me', { auth });
        expect(r.status).toBe(200);
        expect(r.headers.get('x-ratelimit-remaining')).toBe(String(i));
      }
      const refused = await call(svc.url, 'GET', '/users/me', { auth });
      expect(refused.status).toBe(429);
      expect(rateHeaders(refused)).toMatchObject({ limit: '200', remaining: '0' });
    } finally {
      await svc.close();
    }
  });

  it('are set on the command line, and 0 turns a limit off', async () => {
    const server = await startServerProcess({ args: ['--rate-limit-user', '0', '--rate-limit-ip', '2'] });
    try {
      const bob = await loginAs(server, 'bob');
      for (let i = 0; i < 3; i++) {
        const r = await call(server.url, 'GET', '/users/me', { auth: authOf(bob) });
        expect(r.status).toBe(200);
        expect(r.headers.get('x-ratelimit-limit')).toBeNull();
      }
      const login = () =>
        call(server.url, 'POST', '/fetch_api_key', { params: { username: 'x@example.com', password: 'y' } });
      expect(rateHeaders(await login())).toMatchObject({ limit: '2', remaining: '0' });
      expect((await login()).status).toBe(429);
    } finally {
      await server.dispose();
    }
  });
});

describe('bad options', () => {
  it.each([
    [['--rate-limit-user=-1'], "--rate-limit-user must be an integer from 0 to 1000000000, not '-1'"],
    [['--rate-limit-ip', 'many'], "--rate-limit-ip must be an integer from 0 to 1000000000, not 'many'"],
    [
      ['--rate-limit-window-seconds', '0'],
      "--rate-limit-window-seconds must be an integer from 1 to 86400, not '0'",
    ],
    [
      ['--smtp-url', 'mail.example.com'],
      "--smtp-url must be an smtp:// or smtps:// URL, not 'mail.example.com'",
    ],
    [['--public-url', 'example.com'], "--public-url must be an http(s) URL, not 'example.com'"],
  ])('%j: %s', async (args, message) => {
    await expect(startServerProcess({ args })).rejects.toThrow(message);
  });
});

describe('wrong old passwords in PATCH /settings', () => {
  it('count as failed logins of the user: after 5, even the right one waits', async () => {
    const svc = await startTestService();
    try {
      const guest = await svc.login('guest');
      const change = (old: string) =>
        call(svc.url, 'PATCH', '/settings', {
          auth: authOf(guest),
          params: { old_password: old, new_password: 'correct-horse-battery' },
        });
      for (let i = 0; i < 5; i++) {
        expect((await change('wrong')).body).toEqual({
          result: 'error',
          msg: 'Wrong password!',
          code: 'BAD_REQUEST',
        });
      }
      const refused = await change(svc.demo.password);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        result: 'error',
        msg: expect.stringMatching(/^You're making too many attempts! Try again in 1[78]\d\d seconds\.$/),
        code: 'BAD_REQUEST',
      });
      // The same limit guards POST /fetch_api_key; the password did not change.
      const login = await call(svc.url, 'POST', '/fetch_api_key', {
        params: { username: svc.demo.users.guest, password: svc.demo.password },
      });
      expect(login.status).toBe(429);
      expect(login.body.code).toBe('RATE_LIMIT_HIT');
    } finally {
      await svc.close();
    }
  });
});
