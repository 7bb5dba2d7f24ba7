/** POST /fetch_api_key: login credentials for an API key. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestService, type TestService } from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

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
