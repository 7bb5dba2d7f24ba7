/** The envelope on every answer: unknown paths, wrong methods, bodies the server cannot take. */
import { describe, expect, it } from 'vitest';
import { call, serviceWithAuth } from './support/service';

const { svc, alice } = await serviceWithAuth(['alice']);

describe('HTTP conventions', () => {
  it('answers an unknown path with a 404 envelope', async () => {
    const r = await call(svc.url, 'GET', '/no/such/endpoint', { auth: alice });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ result: 'error', msg: 'Endpoint not found', code: 'NOT_FOUND' });
  });

  it('answers a wrong method on a known path with 405 and the allowed methods', async () => {
    const r = await call(svc.url, 'PUT', '/users/me', { auth: alice });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
    expect(r.body).toEqual({
      result: 'error',
      msg: 'Method Not Allowed',
      code: 'BAD_REQUEST',
      allowed_methods: ['GET', 'HEAD'],
    });
    const post = await call(svc.url, 'GET', '/fetch_api_key');
    expect(post.status).toBe(405);
    expect(post.body.allowed_methods).toEqual(['POST']);
  });

  it('answers a body over the size limit with 413 and changes nothing', async () => {
    const r = await call(svc.url, 'PATCH', '/settings', {
      auth: alice,
      body: `twenty_four_hour_time=true&pad=${'x'.repeat(1_100_000)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ result: 'error', msg: 'Request body is too large', code: 'BAD_REQUEST' });
    const me = await call(svc.url, 'POST', '/register', {
      auth: alice,
      params: { fetch_event_types: ['user_settings'] },
    });
    expect((me.body.user_settings as Record<string, unknown>).twenty_four_hour_time).toBe(false);
  });

  it('reads parameters only from form bodies: a JSON body sets nothing', async () => {
    const r = await call(svc.url, 'PATCH', '/settings', {
      auth: alice,
      body: JSON.stringify({ twenty_four_hour_time: true }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: [] });
  });

  it('reads multipart bodies as parameters (edges_multipart.test.ts has the rest)', async () => {
    const r = await call(svc.url, 'PATCH', '/settings', {
      auth: alice,
      body: '--x\r\nContent-Disposition: form-data; name="dense_mode"\r\n\r\nfalse\r\n--x--\r\n',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: [] });
  });

  it('answers a malformed URL with a 400 envelope', async () => {
    const r = await call(svc.url, 'GET', '/%zz', { auth: alice });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'Malformed URL', code: 'BAD_REQUEST' });
  });

  it('takes form parameters on DELETE and query parameters on GET', async () => {
    const missing = await call(svc.url, 'DELETE', '/events', { auth: alice });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      result: 'error',
      msg: "Missing 'queue_id' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'queue_id',
    });
    const bad = await call(svc.url, 'GET', '/events', { auth: alice, params: { queue_id: 'nope' } });
    expect(bad.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('serves generated avatars at avatar_url to signed-in users', async () => {
    const me = await call(svc.url, 'GET', '/users/me', { auth: alice });
    const path = me.body.avatar_url as string;
    expect(path).toMatch(/^\/avatar\/\d+\?v=1$/);
    const response = await fetch(svc.url + path, {
      headers: { Authorization: `Basic ${Buffer.from(alice.join(':')).toString('base64')}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toContain('>AD</text>');
    const anonymous = await call(svc.url, 'GET', path);
    expect(anonymous.status).toBe(401);
  });
});
