/** POST /fetch_api_key: login credentials for an API key. */
import { describe, expect, it } from 'vitest';
import { call, serviceWith, startTestService } from './support/service';

const { svc } = await serviceWith([]);

const failed = {
  result: 'error',
  msg: 'Your username or password is incorrect',
  code: 'AUTHENTICATION_FAILED',
};

describe('POST /fetch_api_key', () => {
  it('returns a random key of 32 characters and the email, and the key works', async () => {
    const r = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: svc.demo.users.alice, password: svc.demo.password },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      email: svc.demo.users.alice,
    });
    const me = await call(svc.url, 'GET', '/users/me', {
      auth: [svc.demo.users.alice, r.body.api_key as string],
    });
    expect(me.status).toBe(200);
  });

  it('gives every user their own stable key', async () => {
    const key = async (who: 'alice' | 'bob') =>
      (
        await call(svc.url, 'POST', '/fetch_api_key', {
          params: { username: svc.demo.users[who], password: svc.demo.password },
        })
      ).body.api_key;
    const [a1, a2, b] = [await key('alice'), await key('alice'), await key('bob')];
    expect(a1).toBe(a2);
    expect(a1).not.toBe(b);
  });

  it('accepts the username in any letter case', async () => {
    const r = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: svc.demo.users.bob.toUpperCase(), password: svc.demo.password },
    });
    expect(r.status).toBe(200);
    expect(r.body.email).toBe(svc.demo.users.bob);
  });

  it('answers a wrong password and an unknown user alike with 401 AUTHENTICATION_FAILED', async () => {
    const wrong = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: svc.demo.users.alice, password: `${svc.demo.password}x` },
    });
    const unknown = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: 'nobody@demo.confab.example', password: svc.demo.password },
    });
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual(failed);
    }
  });

  it('does not let a bot sign in with a password', async () => {
    const r = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: svc.demo.webhook_bot.email, password: '' },
    });
    expect(r.status).toBe(401);
    expect(r.body).toEqual(failed);
  });

  it.each(['username', 'password'])('requires %s', async (name) => {
    const params: Record<string, string> = { username: svc.demo.users.alice, password: svc.demo.password };
    delete params[name];
    const r = await call(svc.url, 'POST', '/fetch_api_key', { params });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      msg: `Missing '${name}' argument`,
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: name,
    });
  });

  it('answers a deactivated user with USER_DEACTIVATED, but only for the right password', async () => {
    svc.sql('UPDATE users SET is_active = 0 WHERE email = ?', svc.demo.users.guest);
    const right = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: svc.demo.users.guest, password: svc.demo.password },
    });
    expect(right.status).toBe(401);
    expect(right.body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
    const wrong = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: svc.demo.users.guest, password: 'nope' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(failed);
  });
});

describe('failed logins', () => {
  const login = (url: string, username: string, password: string) =>
    call(url, 'POST', '/fetch_api_key', { params: { username, password } });

  it('are limited to 5 per username in 30 minutes; then even the right password gets 429', async () => {
    const own = await startTestService();
    try {
      const user = own.demo.users.bob;
      // Letter case does not make a new username.
      for (const name of [user, user.toUpperCase(), user, user.toUpperCase(), user]) {
        const r = await login(own.url, name, 'wrong-password');
        expect(r.status).toBe(401);
        expect(r.body).toEqual(failed);
      }
      const start = Math.floor(Date.now() / 1000);
      const refused = await login(own.url, user, own.demo.password);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(1790);
      expect(retryAfter).toBeLessThanOrEqual(1800);
      expect(refused.body).toEqual({
        result: 'error',
        msg: 'API usage exceeded rate limit',
        code: 'RATE_LIMIT_HIT',
        'retry-after': retryAfter,
      });
      expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      const reset = Number(refused.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(start + 1790);
      expect(reset).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1801);

      // Other usernames are not affected; unknown usernames are limited alike (no enumeration).
      expect((await login(own.url, own.demo.users.alice, own.demo.password)).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await login(own.url, 'nobody@example.com', 'x')).status).toBe(401);
      expect((await login(own.url, 'nobody@example.com', 'x')).status).toBe(429);
    } finally {
      await own.close();
    }
  });

  it('successful logins and missing arguments do not count', async () => {
    const own = await startTestService();
    try {
      const user = own.demo.users.alice;
      for (let i = 0; i < 4; i++) expect((await login(own.url, user, 'wrong')).status).toBe(401);
      for (let i = 0; i < 3; i++) {
        expect((await login(own.url, user, own.demo.password)).status).toBe(200);
        const missing = await call(own.url, 'POST', '/fetch_api_key', { params: { username: user } });
        expect(missing.status).toBe(400);
      }
      expect((await login(own.url, user, 'wrong')).status).toBe(401);
      expect((await login(own.url, user, own.demo.password)).status).toBe(429);
    } finally {
      await own.close();
    }
  });
});
