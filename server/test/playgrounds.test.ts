/** Code playgrounds: POST /realm/playgrounds, DELETE /realm/playgrounds/{id}, realm_playgrounds events. */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, admin, alice, moderator } = await serviceWith(['admin', 'alice', 'moderator']);

function add(client: ApiClient, params: Record<string, string>): Promise<RawResponse> {
  return call(svc.url, 'POST', '/realm/playgrounds', { auth: authOf(client), params });
}

async function playgrounds(): Promise<unknown> {
  const r = await alice.registerQueue({ fetch_event_types: ['realm_playgrounds'] });
  if (r.queue_id) await alice.deleteQueue(r.queue_id);
  return r.realm_playgrounds;
}

const python = {
  name: 'Python playground',
  highlighter_language: 'Python',
  url_prefix: 'https://python.example.com/?code=',
};

describe('POST /realm/playgrounds', () => {
  it('adds a playground, answers its id, and sends the whole list to everyone', async () => {
    const before = (await playgrounds()) as unknown[];
    const { events, result } = await verifyAction({
      clients: [admin, alice],
      action: () => add(admin, { ...python, name: '  Python playground ' }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const list = [...before, { id: result.body.id, ...python }];
    for (const got of events)
      expect(got).toEqual([{ type: 'realm_playgrounds', realm_playgrounds: list, id: 0 }]);
    expect(await playgrounds()).toEqual(list);
  });

  it('accepts the deprecated pygments_language name', async () => {
    const r = await add(admin, {
      name: 'Rust sandbox',
      pygments_language: 'Rust',
      url_prefix: 'http://play.example.org/rust#',
    });
    expect(r.status).toBe(200);
    expect(await playgrounds()).toContainEqual({
      id: r.body.id,
      name: 'Rust sandbox',
      highlighter_language: 'Rust',
      url_prefix: 'http://play.example.org/rust#',
    });
  });

  // [label, params, msg, errors field]: 400, nothing added.
  const rows: [string, Record<string, string>, string, string?][] = [
    [
      'a URL prefix that is no URL',
      { ...python, name: 'a', url_prefix: 'not a url' },
      'Enter a valid URL.',
      'url_prefix',
    ],
    [
      'a relative URL prefix',
      { ...python, name: 'a', url_prefix: '/play?code=' },
      'Enter a valid URL.',
      'url_prefix',
    ],
    [
      'a javascript: URL prefix',
      { ...python, name: 'a', url_prefix: 'javascript:alert(1)//' },
      'Enter a valid URL.',
      'url_prefix',
    ],
    [
      'an ftp URL prefix',
      { ...python, name: 'a', url_prefix: 'ftp://example.com/' },
      'Enter a valid URL.',
      'url_prefix',
    ],
    [
      'an empty URL prefix',
      { ...python, name: 'a', url_prefix: ' ' },
      'This field cannot be blank.',
      'url_prefix',
    ],
    ['an empty name', { ...python, name: '' }, 'This field cannot be blank.', 'name'],
    [
      'an empty language',
      { ...python, name: 'a', highlighter_language: '' },
      'This field cannot be blank.',
      'highlighter_language',
    ],
    [
      'odd characters in the language',
      { ...python, name: 'a', highlighter_language: 'py<script>' },
      'Invalid characters in highlighter language',
      'highlighter_language',
    ],
    [
      'a long language',
      { ...python, name: 'a', highlighter_language: 'x'.repeat(41) },
      'Ensure this value has at most 40 characters (it has 41).',
      'highlighter_language',
    ],
    [
      'a taken language and name',
      python,
      'Realm playground with this Realm, Highlighter language and Name already exists.',
      '__all__',
    ],
  ];
  it.each(rows)('refuses %s', async (_label, params, msg, field) => {
    const before = await playgrounds();
    const r = await add(admin, params);
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg, code: 'BAD_REQUEST', errors: { [field as string]: [msg] } },
    });
    expect(await playgrounds()).toEqual(before);
  });

  it('refuses missing parameters', async () => {
    for (const name of ['name', 'highlighter_language', 'url_prefix']) {
      const params: Record<string, string> = { ...python };
      delete params[name];
      const r = await add(admin, params);
      expect(r.body).toEqual({
        result: 'error',
        msg: `Missing '${name}' argument`,
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: name,
      });
    }
  });

  it('is for administrators only', async () => {
    const before = await playgrounds();
    for (const client of [alice, moderator]) {
      const r = await add(client, { ...python, name: 'mine' });
      expect({ status: r.status, body: r.body }).toEqual({
        status: 400,
        body: {
          result: 'error',
          msg: 'Must be an organization administrator',
          code: 'UNAUTHORIZED_PRINCIPAL',
        },
      });
    }
    expect(await playgrounds()).toEqual(before);
  });
});

describe('DELETE /realm/playgrounds/{playground_id}', () => {
  it('removes the playground and sends the new list to everyone', async () => {
    const id = (await add(admin, { ...python, name: 'Doomed' })).body.id as number;
    const others = ((await playgrounds()) as { id: number }[]).filter((p) => p.id !== id);
    const { events, result } = await verifyAction({
      clients: [admin, alice],
      action: () => call(svc.url, 'DELETE', `/realm/playgrounds/${id}`, { auth: authOf(admin) }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    for (const got of events) {
      expect(got).toEqual([{ type: 'realm_playgrounds', realm_playgrounds: others, id: 0 }]);
    }
  });

  it('refuses an unknown id, and non-administrators', async () => {
    const missing = await call(svc.url, 'DELETE', '/realm/playgrounds/99999', { auth: authOf(admin) });
    expect(missing.body).toEqual({ result: 'error', msg: 'Invalid playground', code: 'BAD_REQUEST' });
    const id = (await add(admin, { ...python, name: 'Kept' })).body.id as number;
    const before = await playgrounds();
    const r = await call(svc.url, 'DELETE', `/realm/playgrounds/${id}`, { auth: authOf(alice) });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' },
    });
    const bad = await call(svc.url, 'DELETE', '/realm/playgrounds/x', { auth: authOf(admin) });
    expect(bad.body).toEqual({
      result: 'error',
      msg: 'playground_id is not an integer',
      code: 'BAD_REQUEST',
    });
    expect(await playgrounds()).toEqual(before);
  });
});
