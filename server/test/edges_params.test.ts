/**
 * Parameters as strictly as the interface family reads them: `1e0`, `1.0` and `-0` are not
 * integers (every integer kind, and every integer position inside a JSON value), bytes that
 * are not UTF-8 are refused wherever a text arrives (query, form body), and names refuse
 * control characters through one checker.
 */
import { describe, expect, it } from 'vitest';
import { FloatNumeral, readJson } from '../params/json';
import { unprintablePosition } from '../printable';
import { call, demoIds, query, serviceWithAuth } from './support/service';

const { svc, alice, admin } = await serviceWithAuth(['alice', 'admin']);
const { users, streams } = demoIds(svc);
const bobId = users.bob as number;
const generalId = streams.general as number;

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

  it('refuses -0, which is no integer either', async () => {
    const r = await call(svc.url, 'GET', '/messages?anchor=newest&num_before=-0&num_after=0', {
      auth: alice,
    });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: bad('num_before is not an integer'),
    });
    const list = await form('POST', '/user_groups/create', 'name=g0&description=d&members=[-0]');
    expect({ status: list.status, body: list.body }).toEqual({
      status: 400,
      body: bad('members[0] is not an integer'),
    });
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

describe('integers inside JSON values are written as integers', () => {
  const enc = encodeURIComponent;
  const future = Math.floor(Date.now() / 1000) + 86_400;
  // Each request would be taken with the integer written plainly; each answers exactly what
  // the parameter answers for any other value of the wrong type.
  it.each([
    [
      'a narrow operand',
      'GET',
      `/messages?anchor=newest&num_before=0&num_after=0&narrow=${enc(`[["stream", ${generalId}.0]]`)}`,
      null,
      'Invalid narrow',
    ],
    [
      'a narrow operand list',
      'GET',
      `/messages/matches_narrow?msg_ids=${enc('[1]')}&narrow=${enc(`[{"operator": "id", "operand": [1e0]}]`)}`,
      null,
      'Invalid narrow',
    ],
    [
      'a zod-checked list of ids',
      'GET',
      `/messages/matches_narrow?msg_ids=${enc('[1, 2.0]')}&narrow=${enc('[]')}`,
      null,
      'msg_ids is not a list of integers',
    ],
    [
      'principals',
      'POST',
      '/users/me/subscriptions',
      `subscriptions=${enc('[{"name": "general"}]')}&principals=${enc(`[${bobId}e0]`)}`,
      'principals is not a list of user ids or emails',
    ],
    [
      'subscription_data',
      'POST',
      '/users/me/subscriptions/properties',
      `subscription_data=${enc(`[{"stream_id": ${generalId}E0, "property": "pin_to_top", "value": true}]`)}`,
      'subscription_data[0]["stream_id"] is not an integer',
    ],
    [
      'profile data',
      'PATCH',
      '/users/me/profile_data',
      `data=${enc('[{"id": 1.0, "value": "x"}]')}`,
      'data[0]["id"] is not an integer',
    ],
    ['an int-list', 'POST', '/typing', `op=start&to=${enc(`[${bobId}.00]`)}`, 'to[0] is not an integer'],
    [
      "a draft's recipients",
      'POST',
      '/drafts',
      `drafts=${enc(`[{"type": "private", "to": [${bobId}e+0], "topic": "", "content": "x"}]`)}`,
      'drafts[0]["to"][0] is not an integer',
    ],
    ['a draft itself', 'POST', '/drafts', `drafts=${enc('[1e0]')}`, 'drafts[0] is not a dict'],
    [
      "a direct message's recipients",
      'POST',
      '/messages',
      `type=private&to=${enc(`[${bobId}e0]`)}&content=hi`,
      'Recipient lists may contain emails or user IDs, but not both.',
    ],
    [
      "a scheduled message's recipients",
      'POST',
      '/scheduled_messages',
      `type=direct&to=${enc(`[${bobId}.0]`)}&content=later&scheduled_delivery_timestamp=${future}`,
      'Recipient list may only contain user IDs',
    ],
  ] as [string, string, string, string | null, string][])(
    'refuses %s so written',
    async (_what, method, path, body, msg) => {
      const r =
        body === null ? await call(svc.url, method, path, { auth: alice }) : await form(method, path, body);
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: bad(msg) });
    },
  );

  it('answers the same as for a fraction that is no integer', async () => {
    const dm = await form('POST', '/messages', `type=private&to=${enc(`[${bobId}.5]`)}&content=hi`);
    expect(dm.body).toEqual(bad('Recipient lists may contain emails or user IDs, but not both.'));
    const data = await form('PATCH', '/users/me/profile_data', `data=${enc('[{"id": 1.5, "value": "x"}]')}`);
    expect(data.body).toEqual(bad('data[0]["id"] is not an integer'));
  });

  it('refuses a time limit so written, showing it as sent', async () => {
    const r = await form('PATCH', '/realm', 'message_content_edit_limit_seconds=6e2', admin);
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: bad("Bad value for 'message_content_edit_limit_seconds': 6e2"),
    });
    const retention = await form('PATCH', '/realm', 'message_retention_days=3.0', admin);
    expect(retention.body).toEqual(bad("Bad value for 'message_retention_days': 3.0"));
  });

  it('keeps a numeral written as a float apart from objects', async () => {
    const r = await form('POST', '/realm/profile_fields', 'name=Pick&field_type=3&field_data=1e0', admin);
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: bad('field_data is not a dict'),
    });
  });

  it("still takes a float where any number goes: a draft's timestamp", async () => {
    const drafts = enc('[{"type": "", "to": [], "topic": "", "content": "float time", "timestamp": 1.7e9}]');
    const r = await form('POST', '/drafts', `drafts=${drafts}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const listed = await call(svc.url, 'GET', '/drafts', { auth: alice });
    const draft = (listed.body.drafts as { content: string; timestamp: number }[]).find(
      (d) => d.content === 'float time',
    );
    expect(draft?.timestamp).toBe(1_700_000_000);
  });
});

describe('the JSON reader of parameters', () => {
  it('keeps whole numerals written as floats apart, and everything else as JSON.parse reads it', () => {
    // 2^64 written as an integer: a number (too large for an id, which integer checks refuse).
    const read = readJson('[1e0, 1.0, -0, 2E+1, 1.5, 100, -7, 18446744073709551616, "1e0"]')?.value;
    expect(read).toEqual([
      new FloatNumeral(1, '1e0'),
      new FloatNumeral(1, '1.0'),
      new FloatNumeral(-0, '-0'),
      new FloatNumeral(20, '2E+1'),
      1.5,
      100,
      -7,
      2 ** 64,
      '1e0',
    ]);
    expect(JSON.stringify(read)).toBe('[1,1,0,20,1.5,100,-7,18446744073709552000,"1e0"]');
    for (const text of [
      '{"a": 1, "a": [true, false, null], "b": {"c": "\\u00e9\\ud800 \u00e9"}}',
      '{"2": 1, "1": 2}',
      ' [ ] ',
      '"\\"\\\\"',
      '{"__proto__": {"x": 1}}',
    ]) {
      const value = readJson(text)?.value;
      expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
      if (typeof value === 'object' && value !== null) expect(Object.getPrototypeOf(value)).not.toBeNull();
    }
    expect(Object.getPrototypeOf(readJson('{"__proto__": {"x": 1}}')?.value)).toBe(Object.prototype);
  });

  it('refuses what JSON.parse refuses, and takes deep nesting', () => {
    for (const text of [
      '',
      '01',
      '1.',
      '.5',
      '+1',
      '[1,]',
      '{"a":1,}',
      "{'a':1}",
      '"\\x"',
      '"a\u0001"',
      'NaN',
      '[1] x',
      '\ufeff1',
    ]) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(readJson(text), text).toBeUndefined();
    }
    expect(readJson('"a\\nb"')?.value).toBe('a\nb');
    const depth = 100_000;
    expect(readJson(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toBeDefined();
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
