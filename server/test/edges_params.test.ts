/**
 * Parameters as strictly as the interface family reads them: `1e0` and `1.0` are not
 * integers (every integer kind), bytes that are not UTF-8 are refused wherever a text
 * arrives (query, form body), and names refuse control characters through one checker.
 */
import { describe, expect, it } from 'vitest';
import { unprintablePosition } from '../printable';
import { call, query, serviceWithAuth } from './support/service';

const { svc, alice, admin } = await serviceWithAuth(['alice', 'admin']);

const bad = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

/** A form-encoded request with the body exactly as written. */
const form = (method: string, path: string, body: string, auth = alice) =>
  call(svc.url, method, path, {
    auth,
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });

describe('integers are written as integers', () => {
  it.each([
    ['an int', 'GET', '/messages?anchor=newest&num_before=1e0&num_after=0', 'num_before is not an integer'],
    ['an int', 'GET', '/messages?anchor=newest&num_before=1.0&num_after=0', 'num_before is not an integer'],
  ])('refuses %s written with an exponent or a fraction', async (_kind, method, path, msg) => {
    const r = await call(svc.url, method, path, { auth: alice });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(bad(msg));
  });

  it('refuses such items in an integer list, and an int-enum so written', async () => {
    const list = await form('POST', '/user_groups/create', 'name=g1&description=d&members=[1,2e0]');
    expect(list.status).toBe(400);
    expect(list.body).toEqual(bad('members[1] is not an integer'));
    const enumerated = await form('POST', '/realm/profile_fields', 'name=Team&field_type=1e0', admin);
    expect(enumerated.status).toBe(400);
    expect(enumerated.body).toEqual(bad('field_type is not an integer'));
    const setting = await form('PATCH', '/settings', 'color_scheme=1.0');
    expect(setting.status).toBe(400);
    expect(setting.body).toEqual(bad('color_scheme is not an integer'));
  });

  it('still takes integers with JSON whitespace, and negative ones where allowed', async () => {
    const r = await call(svc.url, 'GET', '/messages?anchor=newest&num_before=%201%20&num_after=0', {
      auth: alice,
    });
    expect(r.status).toBe(200);
    const group = await form('POST', '/user_groups/create', 'name=g2&description=d&members=[ ]');
    expect(group.status).toBe(200);
  });
});

describe('texts that are not UTF-8', () => {
  it('are refused in a form body, percent-encoded or raw, and nothing is stored', async () => {
    for (const body of ['full_name=Al%FFice', Buffer.from('full_name=Al\xffice', 'latin1')]) {
      const r = await call(svc.url, 'PATCH', '/settings', {
        auth: alice,
        body: body as string,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(bad('Invalid characters in parameter'));
    }
    const [row] = query<{ full_name: string }>(svc, "SELECT full_name FROM users WHERE email LIKE 'alice@%'");
    expect(row?.full_name).not.toContain('\ufffd');
  });

  it('are refused in a query string', async () => {
    const r = await call(svc.url, 'GET', '/messages?anchor=newest&num_before=0&num_after=0&narrow=%C3', {
      auth: alice,
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(bad('Invalid characters in parameter'));
  });

  it('are taken when they are UTF-8, escaped or not', async () => {
    const r = await form('PATCH', '/settings', 'full_name=Al%C3%AFce+W%C3%B6nder');
    expect(r.status).toBe(200);
    const raw = await call(svc.url, 'PATCH', '/settings', {
      auth: alice,
      body: Buffer.from('full_name=Alïce', 'utf8') as unknown as string,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(raw.status).toBe(200);
    const [row] = query<{ full_name: string }>(svc, "SELECT full_name FROM users WHERE email LIKE 'alice@%'");
    expect(row?.full_name).toBe('Alïce');
  });
});

describe('names refuse control characters', () => {
  it('finds the first one by code point', () => {
    expect(unprintablePosition('plain name')).toBeNull();
    expect(unprintablePosition('emoji 👩‍💻 names')).toBeNull();
    expect(unprintablePosition('👩\u0007')).toBe(2);
    expect(unprintablePosition('a\u0000')).toBe(2);
    expect(unprintablePosition('x\ud800')).toBe(2);
  });

  it.each([
    [
      'stream',
      'POST',
      '/users/me/subscriptions',
      'subscriptions=[{"name":"bad\\u001bname"}]',
      'Invalid character in stream name, at position 4!',
    ],
    [
      'user group',
      'POST',
      '/user_groups/create',
      'name=a%07b&description=d&members=[]',
      'Invalid character in user group name, at position 2!',
    ],
    ['full name', 'PATCH', '/settings', 'full_name=Alice%1B', 'Invalid characters in name!'],
  ])('in a %s name', async (_what, method, path, body, msg) => {
    const r = await form(method, path, body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(bad(msg));
  });

  it('in custom profile field names and choice texts', async () => {
    const name = await form('POST', '/realm/profile_fields', 'name=Te%0Dam&field_type=1', admin);
    expect(name.status).toBe(400);
    expect(name.body).toEqual(bad('Invalid character in field name, at position 3!'));
    const choices = encodeURIComponent(JSON.stringify({ a: { text: 'ok\u0085', order: '1' } }));
    const choice = await form(
      'POST',
      '/realm/profile_fields',
      `name=Pick&field_type=3&field_data=${choices}`,
      admin,
    );
    expect(choice.status).toBe(400);
    expect(choice.body).toEqual(bad('Invalid character in choice text, at position 3!'));
  });
});
