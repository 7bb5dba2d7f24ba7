/**
 * Malformed input, table-driven from the endpoint catalogue (shared/protocol/endpoints.ts):
 * for every parameter of every endpoint, wrong JSON, wrong types, values outside the enum,
 * a missing required parameter, overlong text, null bytes and unknown ids. Each must be a
 * 4xx error envelope, and nothing may change (a register snapshot before and after).
 */

import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointSpec, endpointName, type ParamSpec } from '../../shared/protocol';
import { exampleValues, makeFixtures, send, type Values } from './support/catalogue';
import { serviceWith } from './support/service';
import { normalizeState, VOLATILE_KEYS } from './support/verify-action';

/**
 * Endpoints left out, with the reason. Every endpoint of the catalogue exists at the time of
 * writing; what is left out here cannot be driven by generic malformed values.
 */
const EXCLUDED: Record<string, string> = {
  // Its body is whatever the third party sends; its own test covers missing keys and bad JSON.
  'POST /external/{integration_name}': 'free-form body: server/test/webhooks tests cover it',
};

/**
 * Parameters where any text is valid: passwords, and lookup keys (a topic name that matches
 * nothing is an empty result, not an error). No null-byte case for them.
 */
const FREE_TEXT = new Set([
  'password',
  'old_password',
  'new_password',
  'username',
  'anchor',
  'to',
  'topic_name',
]);

/** Optional parameters an endpoint needs in practice, sent with the required ones. */
const COMPANIONS: Record<string, string[]> = {
  'POST /messages': ['topic'], // a stream message needs a topic ("Missing topic")
  'GET /messages': ['anchor'], // no anchor and no use_first_unread_anchor: "Missing 'anchor' argument"
};

interface Case {
  label: string;
  /** The value, or undefined to leave the parameter out. */
  value: string | undefined;
}

function casesFor(endpoint: EndpointSpec, p: ParamSpec): Case[] {
  const cases: Case[] = [];
  const add = (label: string, value: string | undefined) => cases.push({ label, value });
  if (p.required && p.in !== 'path') add('missing', undefined);
  if (p.in === 'path') {
    if (p.kind === 'int') {
      add('not a number', 'abc');
      add('unknown id', '987654321');
      add('negative id', '-1');
    } else if (p.name === 'email') add('unknown email', 'nobody@nowhere.invalid');
    else add('unknown name', 'no-such-thing');
    return cases;
  }
  switch (p.kind) {
    case 'bool':
      add('not JSON', 'True');
      add('a number', '1');
      add('a string', '"true"');
      break;
    case 'int':
      add('not JSON', 'abc');
      add('a fraction', '1.5');
      add('a string', '"1"');
      add('empty', '');
      if (p.name === 'stream_id') add('unknown id', '987654321');
      break;
    case 'int-enum': {
      const values = (p.values ?? []) as number[];
      add('not JSON', 'abc');
      add('outside the set', String(Math.max(...values) + 100));
      add('below the set', String(Math.min(...values) - 1));
      add('a string', `"${values[0]}"`);
      break;
    }
    case 'str-enum':
      add('outside the set', 'no-such-value');
      add('empty', '');
      break;
    case 'int-list':
      add('not JSON', '[1,');
      add('not a list', '{}');
      add('strings', '["a"]');
      add('unknown id', '[987654321]');
      break;
    case 'string-list':
      add('not JSON', '["a",');
      add('not a list', '"a"');
      add('numbers', '[1]');
      break;
    case 'json-array':
      add('not JSON', '[{');
      add('an object', '{}');
      add('a string', '"x"');
      if (p.name === 'principals') add('unknown id', '[987654321]');
      break;
    case 'json-object':
      add('not JSON', '{"a":');
      add('a list', '[1]');
      add('a string', '"x"');
      break;
    case 'retention':
      add('a word', 'sometimes');
      add('negative', '-5');
      add('a fraction', '1.5');
      break;
    case 'string':
      if (!FREE_TEXT.has(p.name) && endpoint.method !== 'GET') add('null byte', 'a\u0000b');
      if (p.maxLength !== undefined) add('overlong', 'x'.repeat(p.maxLength + 1));
      break;
  }
  return cases;
}

const { svc, owner, alice } = await serviceWith(['owner', 'alice']);
const fixtures = await makeFixtures(svc, owner, alice);

/** Everything the owner's register shows, for "nothing changed". */
async function snapshot(): Promise<unknown> {
  const state = await owner.request('POST', '/register', {
    include_subscribers: true,
    client_capabilities: { notification_settings_null: true, user_settings_object: true },
  });
  await owner.request('DELETE', '/events', { queue_id: state.queue_id as string });
  for (const key of VOLATILE_KEYS) delete state[key];
  return normalizeState(state);
}

const included = ENDPOINTS.filter((e) => !(endpointName(e) in EXCLUDED));

describe('malformed parameters', () => {
  it('leaves out only endpoints named with a reason', () => {
    expect(ENDPOINTS.length - included.length).toBe(Object.keys(EXCLUDED).length);
  });

  it.each(included.map((e) => [endpointName(e), e] as const))('%s', async (_name, endpoint) => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const p of endpoint.params) {
      // The queue fixture must survive the DELETE /events cases.
      for (const c of casesFor(endpoint, p)) {
        const values: Values = exampleValues(endpoint, fixtures, 'required');
        for (const name of COMPANIONS[endpointName(endpoint)] ?? []) {
          const companion = endpoint.params.find((q) => q.name === name);
          if (companion && name !== p.name) values[name] = companion.example;
        }
        if (c.value === undefined) delete values[p.name];
        else values[p.name] = c.value;
        const r = await send(svc, endpoint, values, endpoint.permission === 'webhook' ? null : owner);
        const envelope =
          r.body.result === 'error' &&
          typeof r.body.msg === 'string' &&
          r.body.msg !== '' &&
          typeof r.body.code === 'string';
        if (r.status < 400 || r.status >= 500 || !envelope) {
          failures.push(
            `${p.name} ${c.label} (${JSON.stringify(c.value)?.slice(0, 40)}): ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`,
          );
        } else if (c.value === undefined && p.in !== 'path') {
          // The family's exact form for a missing parameter.
          const expected = {
            result: 'error',
            msg: `Missing '${p.name}' argument`,
            code: 'REQUEST_VARIABLE_MISSING',
            var_name: p.name,
          };
          if (JSON.stringify(r.body) !== JSON.stringify(expected) || r.status !== 400) {
            failures.push(`${p.name} missing: ${r.status} ${JSON.stringify(r.body)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
