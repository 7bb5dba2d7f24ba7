/** HTTP Basic authentication of the REST API and the 401s of NOTES.md. */
import { beforeAll, describe, expect, it } from 'vitest';
import { authOf, call, serviceWithAuth } from './support/service';

const { svc, alice, bob } = await serviceWithAuth(['alice', 'bob']);

const CHALLENGE = 'Basic realm="Confab"';
const invalidKey = { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' };

describe('HTTP Basic authentication', () => {
  it('accepts the email and API key', async () => {
    const r = await call(svc.url, 'GET', '/users/me', { auth: alice });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: 'success', msg: '', email: svc.demo.users.alice });
  });

  it('accepts the email in any letter case', async () => {
    const r = await call(svc.url, 'GET', '/users/me', { auth: [alice[0].toUpperCase(), alice[1]] });
    expect(r.status).toBe(200);
    expect(r.body.email).toBe(svc.demo.users.alice);
  });

  it('answers a request without credentials with 401 and a challenge', async () => {
    const r = await call(svc.url, 'GET', '/users/me');
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(r.body).toEqual({
      result: 'error',
      msg: 'Not logged in: API authentication required',
      code: 'UNAUTHORIZED',
    });
  });

  it.each([
    ['another scheme', 'Bearer abcdef'],
    ['no colon in the credentials', `Basic ${Buffer.from('alice-without-colon').toString('base64')}`],
    ['not base64 at all', 'Basic ***'],
  ])('rejects a malformed header (%s)', async (_why, header) => {
    const r = await call(svc.url, 'GET', '/users/me', { auth: header });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(r.body).toEqual({
      result: 'error',
      msg: 'Invalid authorization header for basic auth',
      code: 'UNAUTHORIZED',
    });
  });

  it('rejects a wrong key, an unknown email and another user’s key identically', async () => {
    const wrongKey = await call(svc.url, 'GET', '/users/me', { auth: [alice[0], 'x'.repeat(32)] });
    const unknownEmail = await call(svc.url, 'GET', '/users/me', {
      auth: ['nobody@demo.confab.example', alice[1]],
    });
    const othersKey = await call(svc.url, 'GET', '/users/me', { auth: [alice[0], bob[1]] });
    for (const r of [wrongKey, unknownEmail, othersKey]) {
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe(CHALLENGE);
      expect(r.body).toEqual(invalidKey);
    }
  });

  it('applies to every endpoint that needs a user', async () => {
    for (const [method, path] of [
      ['POST', '/register'],
      ['GET', '/events'],
      ['DELETE', '/events'],
      ['PATCH', '/settings'],
    ] as const) {
      const r = await call(svc.url, method, path, { params: { queue_id: 'x', twenty_four_hour_time: true } });
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.body.code).toBe('UNAUTHORIZED');
    }
  });

  it('refuses incoming-webhook bots on the REST API', async () => {
    const r = await call(svc.url, 'GET', '/users/me', {
      auth: [svc.demo.webhook_bot.email, svc.demo.webhook_bot.api_key],
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      msg: 'This API is not available to incoming webhook bots.',
      code: 'BAD_REQUEST',
    });
  });
});

describe('deactivated users', () => {
  let guest: [string, string];
  beforeAll(async () => {
    guest = authOf(await svc.login('guest'));
    svc.sql('UPDATE users SET is_active = 0 WHERE email = ?', svc.demo.users.guest);
  });

  it('get 401 UNAUTHORIZED "Account is deactivated" with the right key (NOTES.md: REST keeps UNAUTHORIZED)', async () => {
    const r = await call(svc.url, 'GET', '/users/me', { auth: guest });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(r.body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' });
  });

  it('get the plain invalid-key answer with a wrong key (nothing is revealed)', async () => {
    const r = await call(svc.url, 'GET', '/users/me', { auth: [guest[0], 'wrong'] });
    expect(r.status).toBe(401);
    expect(r.body).toEqual(invalidKey);
  });
});
