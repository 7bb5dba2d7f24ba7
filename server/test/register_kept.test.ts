/**
 * register keeps the parts of the snapshot an organization shares between registers and
 * brings them up to date after each write (server/events/initial-state/shared.ts, roster.ts,
 * streams.ts). After writes of every kind those parts come from, through the API and through
 * another connection to the database, the snapshots a running service gives must be the ones
 * a service building them whole gives, for viewers who see the lists differently.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { DemoUser } from '../../test/support/server';
import { makeTempDir, removeDir } from '../../test/support/server';
import { authOf, call, startTestService, type TestService } from './support/service';

// Demo ids: owner 1, admin 2, moderator 3, alice 4, bob 5, guest 6.
const ALICE = 4;
const BOB = 5;

const FULL_CAPABILITIES = JSON.stringify({
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
});

/** Who registers, and how: delivery emails, external avatars, left-out avatars, subscribers. */
const VIEWERS: { who: DemoUser; params: Record<string, string> }[] = [
  { who: 'owner', params: { client_capabilities: FULL_CAPABILITIES, include_subscribers: 'true' } },
  { who: 'alice', params: { client_capabilities: FULL_CAPABILITIES, slim_presence: 'true' } },
  { who: 'guest', params: { client_extavatar: 'false' } },
];

/**
 * What differs between two registers of the same state, or between two services: presence
 * lives in each service's memory, read from the database once (server/presence.ts).
 */
const VOLATILE = [
  'queue_id',
  'last_event_id',
  'server_timestamp',
  'realm_uri',
  'presences',
  'presence_last_update_id',
];

const dataDir = await makeTempDir('confab-kept-');
const svc: TestService = await startTestService({ dataDir });
// A second service on the same database: every write of the first is another connection's to
// it, after which it builds every kept part whole, as a service started afresh would.
const fresh: TestService = await startTestService({ dataDir });
const auths = {} as Record<DemoUser, [string, string]>;
for (const who of ['owner', 'alice', 'bob', 'guest'] as const) auths[who] = authOf(await svc.login(who));
afterAll(async () => {
  await fresh.close();
  await svc.close();
  await removeDir(dataDir);
});

async function send(
  who: DemoUser,
  method: string,
  path: string,
  params: Record<string, string>,
  service: TestService = svc,
) {
  const response = await call(service.url, method, path, { auth: auths[who], params });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(200);
  return response.body;
}

async function registerAll(service: TestService): Promise<Record<string, unknown>[]> {
  const states: Record<string, unknown>[] = [];
  for (const { who, params } of VIEWERS) {
    const state = await send(who, 'POST', '/register', params, service);
    for (const key of VOLATILE) delete state[key];
    states.push(state);
  }
  return states;
}

/** The running service's snapshots after a write, as the other service builds them whole. */
async function expectCurrent(): Promise<Record<string, unknown>[]> {
  const running = await registerAll(svc);
  expect(running).toEqual(await registerAll(fresh));
  return running;
}

describe('register after writes', () => {
  it('gives what a service building its snapshot afresh gives', async () => {
    await expectCurrent();
    const writes: [DemoUser, string, string, Record<string, string>][] = [
      ['alice', 'PATCH', '/settings', { full_name: 'Alice Renamed' }],
      ['owner', 'PATCH', `/users/${BOB}`, { role: '300' }],
      ['owner', 'PATCH', `/users/${BOB}`, { profile_data: JSON.stringify([{ id: 1, value: 'Tester' }]) }],
      ['alice', 'POST', '/users/me/status', { status_text: 'on holiday' }],
      ['bob', 'PATCH', '/settings', { presence_enabled: 'false' }],
      ['owner', 'POST', '/user_groups/create', { name: 'kept', description: 'd', members: `[${ALICE}]` }],
      ['owner', 'POST', '/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'kept new' }]) }],
      ['bob', 'POST', '/messages', { type: 'stream', to: 'kept new', topic: 't', content: 'first' }],
      [
        'owner',
        'POST',
        '/users',
        { email: 'kept@example.com', password: 'a long password', full_name: 'Kept' },
      ],
    ];
    for (const [who, method, path, params] of writes) {
      await send(who, method, path, params);
      await expectCurrent();
    }
    const created = (await send('owner', 'GET', '/users/kept@example.com', {})).user as { user_id: number };
    await send('owner', 'DELETE', `/users/${created.user_id}`, {});
    await expectCurrent();
    const streams = (await send('owner', 'GET', '/streams', {})).streams as {
      stream_id: number;
      name: string;
    }[];
    const kept = streams.find((s) => s.name === 'kept new');
    await send('owner', 'POST', '/default_streams', { stream_id: String(kept?.stream_id) });
    await expectCurrent();
    await send('owner', 'PATCH', `/streams/${kept?.stream_id}`, { description: 'Kept, described' });
    await expectCurrent();
  });

  it('is sent with the headers of any other answer', async () => {
    const register = await fetch(`${svc.url}/api/v1/register`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(auths.alice.join(':'))}` },
    });
    const body = Buffer.from(await register.arrayBuffer());
    const other = await fetch(`${svc.url}/api/v1/users/me`, {
      headers: { authorization: `Basic ${btoa(auths.alice.join(':'))}` },
    });
    await other.arrayBuffer();
    expect(register.status).toBe(200);
    expect(register.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(register.headers.get('content-length')).toBe(String(body.length));
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({ result: 'success', msg: '' });
    const names = (response: Response) =>
      [...response.headers.keys()].filter((name) => name !== 'content-length' && name !== 'date').sort();
    expect(names(register)).toEqual(names(other));
    expect(names(register)).toContain('x-ratelimit-remaining');
  });

  it('follows the writes of another connection to the database', async () => {
    await registerAll(svc);
    svc.sql("UPDATE users SET full_name = 'Alice Direct' WHERE id = ?", ALICE);
    svc.sql('UPDATE user_status SET status_text = ? WHERE user_id = ?', 'back soon', ALICE);
    const running = await expectCurrent();
    expect(JSON.stringify(running)).toContain('Alice Direct');
    expect(JSON.stringify(running)).toContain('back soon');
  });
});
