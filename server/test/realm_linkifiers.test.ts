/** Linkifiers: GET /realm/linkifiers, GET /realm/filters, POST/PATCH/DELETE /realm/filters, realm_linkifiers events. */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, admin, alice, guest } = await serviceWith(['admin', 'alice', 'guest']);

function send(client: ApiClient, method: string, path: string, params: Record<string, string> = {}) {
  return call(svc.url, method, path, { auth: authOf(client), params });
}
const add = (client: ApiClient, params: Record<string, string>): Promise<RawResponse> =>
  send(client, 'POST', '/realm/filters', params);

async function linkifiers(): Promise<unknown[]> {
  const r = await send(alice, 'GET', '/realm/linkifiers');
  return r.body.linkifiers as unknown[];
}

const issue = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };

describe('linkifiers', () => {
  it('adds one, answers its id, and sends the whole list to everyone', async () => {
    const { events, result } = await verifyAction({
      clients: [admin, alice, guest],
      action: () => add(admin, issue),
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const list = [{ id: result.body.id, ...issue }];
    for (const got of events)
      expect(got).toEqual([{ type: 'realm_linkifiers', realm_linkifiers: list, id: 0 }]);
    expect(await linkifiers()).toEqual(list);
    const legacy = await send(guest, 'GET', '/realm/filters');
    expect(legacy.body).toEqual({
      result: 'success',
      msg: '',
      filters: [[issue.pattern, issue.url_template, result.body.id]],
    });
  });

  it('accepts the older url_format_string name, and templates with several groups', async () => {
    const r = await add(admin, {
      pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)!(?P<pr>\\d+)',
      url_format_string: 'https://git.example/{org}/{repo}/pull/{pr}',
    });
    expect(r.status).toBe(200);
    expect(await linkifiers()).toContainEqual({
      id: r.body.id,
      pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)!(?P<pr>\\d+)',
      url_template: 'https://git.example/{org}/{repo}/pull/{pr}',
    });
  });

  it('updates and removes one, with events', async () => {
    const id = (await add(admin, { pattern: 'T(?P<n>\\d+)', url_template: 'https://t.example/{n}' })).body.id;
    const updated = await verifyAction({
      clients: [alice],
      action: () =>
        send(admin, 'PATCH', `/realm/filters/${id}`, {
          pattern: 'TK-(?P<n>\\d+)',
          url_template: 'https://t.example/{n}',
        }),
    });
    expect(updated.result.body).toEqual({ result: 'success', msg: '' });
    expect(updated.events[0]?.[0]?.realm_linkifiers).toContainEqual({
      id,
      pattern: 'TK-(?P<n>\\d+)',
      url_template: 'https://t.example/{n}',
    });
    const removed = await verifyAction({
      clients: [admin, alice],
      action: () => send(admin, 'DELETE', `/realm/filters/${id}`),
    });
    expect(removed.result.body).toEqual({ result: 'success', msg: '' });
    expect((await linkifiers()).map((l) => (l as { id: number }).id)).not.toContain(id);
  });

  const notAdmin = {
    result: 'error',
    msg: 'Must be an organization administrator',
    code: 'UNAUTHORIZED_PRINCIPAL',
  };
  it('is for administrators only', async () => {
    for (const who of [alice, guest]) {
      expect((await add(who, issue)).body).toEqual(notAdmin);
      expect((await send(who, 'DELETE', '/realm/filters/1')).body).toEqual(notAdmin);
      expect((await send(who, 'PATCH', '/realm/filters/1', issue)).body).toEqual(notAdmin);
    }
  });

  it('says when a linkifier does not exist', async () => {
    for (const method of ['PATCH', 'DELETE']) {
      const r = await send(admin, method, '/realm/filters/987654', issue);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ result: 'error', msg: 'Linkifier not found.', code: 'BAD_REQUEST' });
    }
  });

  // [label, params, msg, field]: 400 with the model's errors, nothing added.
  const rows: [string, Record<string, string>, string, string][] = [
    [
      'a blank pattern',
      { pattern: '', url_template: 'https://x.example/' },
      'This field cannot be blank.',
      'pattern',
    ],
    [
      'a pattern that does not compile',
      { pattern: '(?P<id>[0-9]+', url_template: 'https://x.example/{id}' },
      'Bad regular expression: Unterminated group',
      'pattern',
    ],
    ['a blank template', { pattern: 'x', url_template: '' }, 'This field cannot be blank.', 'url_template'],
    [
      'a template with a space',
      { pattern: '(?P<id>\\d+)', url_template: 'https://x.example/ {id}' },
      'Invalid URL template.',
      'url_template',
    ],
    [
      'a template with a broken expression',
      { pattern: '(?P<id>\\d+)', url_template: 'https://x.example/{i d}' },
      'Invalid URL template.',
      'url_template',
    ],
    [
      'a javascript: template',
      { pattern: '(?P<id>\\d+)', url_template: 'javascript:alert({id})' },
      'Invalid URL template.',
      'url_template',
    ],
    [
      'a template variable the pattern lacks',
      { pattern: '#(?P<id>\\d+)', url_template: 'https://x.example/{id}/{other}' },
      "Group 'other' in URL template is not present in linkifier pattern.",
      '__all__',
    ],
    [
      'a group the template lacks',
      { pattern: '(?P<a>\\w+)#(?P<id>\\d+)', url_template: 'https://x.example/{id}' },
      "Group 'a' in linkifier pattern is not present in URL template.",
      '__all__',
    ],
    ['a pattern already used', issue, 'Realm filter with this Realm and Pattern already exists.', '__all__'],
  ];
  it.each(rows)('refuses %s', async (_label, params, msg, field) => {
    const before = await linkifiers();
    const r = await add(admin, params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST', errors: { [field]: [msg] } });
    expect(await linkifiers()).toEqual(before);
  });

  it('refuses an update to a pattern another linkifier has', async () => {
    const id = (await add(admin, { pattern: 'Q(?P<n>\\d+)', url_template: 'https://q.example/{n}' })).body.id;
    const r = await send(admin, 'PATCH', `/realm/filters/${id}`, issue);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('Realm filter with this Realm and Pattern already exists.');
  });
});

describe('register', () => {
  it('gives realm_linkifiers to users and to spectators of a public organization', async () => {
    const list = await linkifiers();
    const r = await alice.registerQueue({ fetch_event_types: ['realm_linkifiers', 'realm'] });
    expect(r.realm_linkifiers).toEqual(list);
    expect(r.max_file_upload_size_mib).toBe(25);
    svc.sql('UPDATE realm SET enable_spectator_access = 1');
    try {
      const spectator = await call(svc.url, 'POST', '/register', {
        params: { fetch_event_types: '["realm_linkifiers"]' },
      });
      expect(spectator.status).toBe(200);
      expect(spectator.body.realm_linkifiers).toEqual(list);
    } finally {
      svc.sql('UPDATE realm SET enable_spectator_access = 0');
    }
  });
});
