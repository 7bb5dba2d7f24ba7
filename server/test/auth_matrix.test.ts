/**
 * The auth matrix, table-driven from the endpoint catalogue (shared/protocol/endpoints.ts):
 * every endpoint without credentials, with a wrong key, as the incoming-webhook bot, and as
 * guest, member, moderator, administrator and owner, against the spec's permission for it.
 */

import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointSpec, endpointName, type Permission } from '../../shared/protocol';
import type { DemoUser } from '../../test/support/server';
import { exampleValues, makeFixtures, send, type Values } from './support/catalogue';
import { type RawResponse, serviceWith } from './support/service';

/** Every catalogue endpoint exists at the time of writing: none is left out. */
const EXCLUDED: Record<string, string> = {};

const ROLES = ['guest', 'alice', 'moderator', 'admin', 'owner'] as const satisfies readonly DemoUser[];
type Role = (typeof ROLES)[number];
const ROLE_LEVEL: Record<Role, number> = { guest: 600, alice: 400, moderator: 300, admin: 200, owner: 100 };

const NOT_ADMIN = {
  status: 400,
  body: { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' },
};
const GUEST_DENIED = {
  status: 400,
  body: { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' },
};
const PERMISSION_TEXTS = new Set([
  NOT_ADMIN.body.msg,
  GUEST_DENIED.body.msg,
  'User not authorized to create users',
  'Not logged in: API authentication required',
  'Invalid API key',
]);

/** The refusal a role gets for a permission, or null when the role holds it. */
function refusal(
  permission: Permission,
  role: Role,
): { status: number; body: Record<string, unknown> } | null {
  switch (permission) {
    case 'admin':
    case 'admin+can_create_users':
      return ROLE_LEVEL[role] <= 200 ? null : NOT_ADMIN;
    case 'member':
      return role === 'guest' ? GUEST_DENIED : null;
    default:
      return null;
  }
}

/** Optional parameters an endpoint needs in practice (see malformed.test.ts). */
const COMPANIONS: Record<string, string[]> = { 'POST /messages': ['topic'], 'GET /messages': ['anchor'] };

const { svc, ...clients } = await serviceWith(ROLES);
const fixtures = await makeFixtures(svc, clients.owner, clients.alice);

function valuesFor(endpoint: EndpointSpec): Values {
  const values = exampleValues(endpoint, fixtures, 'required');
  for (const name of COMPANIONS[endpointName(endpoint)] ?? []) {
    const p = endpoint.params.find((q) => q.name === name);
    if (p) values[name] = p.example;
  }
  return values;
}

const summary = (r: RawResponse) => `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;

const rest = ENDPOINTS.filter((e) => e.permission !== 'webhook' && !(endpointName(e) in EXCLUDED));
const webhooks = ENDPOINTS.filter((e) => e.permission === 'webhook');

describe('REST endpoints', () => {
  it.each(rest.map((e) => [endpointName(e), e] as const))('%s', async (_name, endpoint) => {
    const values = valuesFor(endpoint);
    const failures: string[] = [];

    // Without credentials, and with a wrong key.
    const anonymous = await send(svc, endpoint, values, null);
    const wrongKey = await send(svc, endpoint, values, [svc.demo.users.alice, 'not-the-key']);
    if (endpoint.permission === 'none') {
      if (anonymous.status !== 200) failures.push(`anonymous: ${summary(anonymous)}`);
    } else {
      expect(anonymous.status, summary(anonymous)).toBe(401);
      expect(anonymous.body).toEqual({
        result: 'error',
        msg: 'Not logged in: API authentication required',
        code: 'UNAUTHORIZED',
      });
      expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Confab"');
      expect(wrongKey.status, summary(wrongKey)).toBe(401);
      expect(wrongKey.body).toEqual({ result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });

      // The incoming-webhook bot may only post through its integration.
      const bot = await send(svc, endpoint, values, [
        svc.demo.webhook_bot.email,
        svc.demo.webhook_bot.api_key,
      ]);
      expect(bot.status, summary(bot)).toBe(400);
      expect(bot.body).toEqual({
        result: 'error',
        msg: 'This API is not available to incoming webhook bots.',
        code: 'BAD_REQUEST',
      });
    }

    for (const role of ROLES) {
      const r = await send(svc, endpoint, values, clients[role]);
      const expected = refusal(endpoint.permission, role);
      if (expected) {
        if (r.status !== expected.status || JSON.stringify(r.body) !== JSON.stringify(expected.body)) {
          failures.push(`${role}: expected ${JSON.stringify(expected.body)}, got ${summary(r)}`);
        }
      } else if (r.status === 401 || r.status >= 500 || PERMISSION_TEXTS.has(String(r.body.msg))) {
        failures.push(`${role}: refused or failed: ${summary(r)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('POST /users needs can_create_users besides the administrator role', async () => {
    const endpoint = ENDPOINTS.find((e) => endpointName(e) === 'POST /users') as EndpointSpec;
    svc.sql('UPDATE users SET can_create_users = 0 WHERE email = ?', svc.demo.users.admin);
    try {
      const r = await send(
        svc,
        endpoint,
        { ...valuesFor(endpoint), email: 'nocreate@example.com' },
        clients.admin,
      );
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        result: 'error',
        msg: 'User not authorized to create users',
        code: 'BAD_REQUEST',
      });
    } finally {
      svc.sql('UPDATE users SET can_create_users = 1 WHERE email = ?', svc.demo.users.admin);
    }
  });

  it('GET /streams with include_all_active: administrators only', async () => {
    const endpoint = ENDPOINTS.find((e) => endpointName(e) === 'GET /streams') as EndpointSpec;
    for (const role of ROLES) {
      const r = await send(svc, endpoint, { include_all_active: 'true' }, clients[role]);
      if (ROLE_LEVEL[role] <= 200) expect(r.status, role).toBe(200);
      else {
        expect(r.status, role).toBe(400);
        expect(r.body).toEqual({
          result: 'error',
          msg: 'User not authorized for this query',
          code: 'BAD_REQUEST',
        });
      }
    }
  });
});

describe('incoming webhooks', () => {
  it.each(webhooks.map((e) => [endpointName(e), e] as const))('%s', async (_name, endpoint) => {
    const payload = { featured_title: 'Tea', featured_url: 'https://tea.example' };
    const post = async (apiKey: string | undefined) => {
      const values = valuesFor(endpoint);
      if (apiKey === undefined) delete values.api_key;
      else values.api_key = apiKey;
      const query = new URLSearchParams(Object.entries(values).filter(([k]) => k !== 'integration_name'));
      const r = await fetch(`${svc.url}/api/v1/external/${values.integration_name}?${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    const none = await post(undefined);
    expect(none).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: "Missing 'api_key' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'api_key',
      },
    });
    expect(await post('not-a-key')).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' },
    });
    for (const role of ROLES) {
      const key = clients[role].credentials?.apiKey;
      expect(await post(key), role).toEqual({
        status: 400,
        body: {
          result: 'error',
          msg: 'This API is only available to incoming webhook bots.',
          code: 'BAD_REQUEST',
        },
      });
    }
    expect(await post(svc.demo.webhook_bot.api_key)).toEqual({
      status: 200,
      body: { result: 'success', msg: '' },
    });
  });
});
