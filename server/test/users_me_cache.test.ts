/**
 * What the server keeps between requests (issue 11): the organization's row, the users of
 * Authorization headers that authenticated, a user's profile values. Each change must show on
 * the very next request, whether the server's own connection wrote it (an endpoint) or another
 * connection did (an operator's tool), and a write that is rolled back must leave nothing kept.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../shared/client';
import { authenticateRequest } from '../auth';
import { type Db, openDatabase } from '../db';
import { createRealm, getRealm, realmSettings, requireRealm } from '../db/realm';
import { inKeptRead } from '../db/realm-data';
import { insertUser } from '../db/users';
import { ApiFailure } from '../errors';
import { authOf, call, type RawResponse, serviceWith } from './support/service';

// Demo ids: owner 1, admin 2, moderator 3, alice 4, bob 5, guest 6.
const ALICE = 4;
const BOB = 5;

const { svc, owner, admin, alice, bob, guest } = await serviceWith([
  'owner',
  'admin',
  'alice',
  'bob',
  'guest',
]);

const me = (auth: [string, string] | string) => call(svc.url, 'GET', '/users/me', { auth });
const unauthorized = (msg: string) => ({ status: 401, body: { result: 'error', msg, code: 'UNAUTHORIZED' } });
const status = (r: RawResponse) => ({ status: r.status, body: r.body });

describe('the organization, kept', () => {
  it("shows an administrator's change on the very next request", async () => {
    // Read once, so that the organization is kept before the change.
    expect((await me(authOf(alice))).body).not.toHaveProperty('delivery_email');
    const changed = await call(svc.url, 'PATCH', '/realm', {
      auth: authOf(admin),
      params: { email_address_visibility: '3' },
    });
    expect(changed.status).toBe(200);
    const after = await me(authOf(alice));
    expect(after.status).toBe(200);
    expect(after.body.delivery_email).toBe(svc.demo.users.alice);
    await call(svc.url, 'PATCH', '/realm', {
      auth: authOf(admin),
      params: { email_address_visibility: '1' },
    });
    expect((await me(authOf(alice))).body).not.toHaveProperty('delivery_email');
  });

  it('shows a change of a setting kept as JSON on the very next request', async () => {
    const setting = async () => {
      const r = await alice.registerQueue({ fetch_event_types: ['realm'] });
      if (r.queue_id) await alice.deleteQueue(r.queue_id);
      return (r as Record<string, unknown>).realm_waiting_period_threshold;
    };
    expect(await setting()).toBe(0);
    const changed = await call(svc.url, 'PATCH', '/realm', {
      auth: authOf(owner),
      params: { waiting_period_threshold: '7' },
    });
    expect(changed.status).toBe(200);
    expect(await setting()).toBe(7);
  });

  it("shows another connection's change on the very next request", async () => {
    expect((await me(authOf(alice))).body).not.toHaveProperty('delivery_email');
    svc.sql('UPDATE realm SET email_address_visibility = 3');
    try {
      expect((await me(authOf(alice))).body.delivery_email).toBe(svc.demo.users.alice);
    } finally {
      svc.sql('UPDATE realm SET email_address_visibility = 1');
    }
    expect((await me(authOf(alice))).body).not.toHaveProperty('delivery_email');
  });
});

describe('authenticated users, kept', () => {
  it('refuses a key on the very next request once another connection gave the user a new one', async () => {
    const [email, key] = authOf(bob);
    expect((await me([email, key])).status).toBe(200);
    const newKey = 'RegeneratedKey0123456789abcdefghi';
    svc.sql('UPDATE users SET api_key = ? WHERE id = ?', newKey, BOB);
    try {
      expect(status(await me([email, key]))).toEqual(unauthorized('Invalid API key'));
      const r = await me([email, newKey]);
      expect(r.status).toBe(200);
      expect(r.body.user_id).toBe(BOB);
    } finally {
      svc.sql('UPDATE users SET api_key = ? WHERE id = ?', key, BOB);
    }
    expect((await me([email, key])).status).toBe(200);
  });

  it('refuses a deactivated user on the very next request, and takes them back once reactivated', async () => {
    expect((await me(authOf(bob))).status).toBe(200);
    const deactivated = await call(svc.url, 'DELETE', `/users/${BOB}`, { auth: authOf(admin) });
    expect(deactivated.status).toBe(200);
    expect(status(await me(authOf(bob)))).toEqual(unauthorized('Account is deactivated'));
    const reactivated = await call(svc.url, 'POST', `/users/${BOB}/reactivate`, { auth: authOf(admin) });
    expect(reactivated.status).toBe(200);
    expect((await me(authOf(bob))).status).toBe(200);
  });

  it("applies a role change to the user's next request, its role checks included", async () => {
    const promote = await call(svc.url, 'PATCH', `/users/${ALICE}`, {
      auth: authOf(owner),
      params: { role: '200' },
    });
    expect(promote.status).toBe(200);
    expect((await me(authOf(alice))).body).toMatchObject({ role: 200, is_admin: true });
    // An administrator's endpoint, allowed now.
    const asAdmin = await call(svc.url, 'PATCH', `/users/${BOB}`, {
      auth: authOf(alice),
      params: { full_name: 'Bobby Smith' },
    });
    expect(asAdmin.status).toBe(200);
    const demote = await call(svc.url, 'PATCH', `/users/${ALICE}`, {
      auth: authOf(owner),
      params: { role: '400' },
    });
    expect(demote.status).toBe(200);
    expect((await me(authOf(alice))).body).toMatchObject({ role: 400, is_admin: false });
    const refused = await call(svc.url, 'PATCH', `/users/${BOB}`, {
      auth: authOf(alice),
      params: { full_name: 'Robert Smith' },
    });
    expect(status(refused)).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' },
    });
    await call(svc.url, 'PATCH', `/users/${BOB}`, {
      auth: authOf(admin),
      params: { full_name: 'Robert Smith' },
    });
  });

  it("shows the user's own name change on the very next request", async () => {
    const renamed = await call(svc.url, 'PATCH', '/settings', {
      auth: authOf(guest),
      params: { full_name: 'Gus Guest' },
    });
    expect(renamed.status).toBe(200);
    expect((await me(authOf(guest))).body.full_name).toBe('Gus Guest');
  });

  it('finds the user by the new address once another connection changed it, and not by the old', async () => {
    const [email, key] = authOf(bob);
    expect((await me([email, key])).status).toBe(200);
    svc.sql(
      'UPDATE users SET email = ?, delivery_email = ? WHERE id = ?',
      'bobby@example.com',
      'bobby@example.com',
      BOB,
    );
    try {
      expect(status(await me([email, key]))).toEqual(unauthorized('Invalid API key'));
      expect((await me(['bobby@example.com', key])).body.user_id).toBe(BOB);
    } finally {
      svc.sql('UPDATE users SET email = ?, delivery_email = ? WHERE id = ?', email, email, BOB);
    }
    expect((await me([email, key])).body.user_id).toBe(BOB);
  });

  it('keeps refusing a wrong key, and a header that failed is never taken for one that passed', async () => {
    const [email, key] = authOf(bob);
    const wrong = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    for (let i = 0; i < 2; i++) {
      expect(status(await me([email, wrong]))).toEqual(unauthorized('Invalid API key'));
      expect((await me([email, key])).status).toBe(200);
    }
  });
});

describe('the kept answer', () => {
  it('answers HEAD as GET, without the body', async () => {
    const headers = { Authorization: basicAuthHeader(...authOf(alice)) };
    const get = await fetch(`${svc.url}/api/v1/users/me`, { headers });
    const text = await get.text();
    const head = await fetch(`${svc.url}/api/v1/users/me`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(await head.text()).toBe('');
    expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(text)).toMatchObject({ result: 'success', msg: '', user_id: ALICE });
  });

  it('is the same text while nothing it shows changed', async () => {
    const first = await me(authOf(alice));
    const second = await me(authOf(alice));
    expect(second.body).toEqual(first.body);
  });
});

describe('profile values and the newest message, on the very next request', () => {
  it("shows a change of the user's profile values", async () => {
    expect(((await me(authOf(alice))).body.profile_data as Record<string, unknown>)['3']).toEqual({
      value: 'she/her',
    });
    const changed = await call(svc.url, 'PATCH', '/users/me/profile_data', {
      auth: authOf(alice),
      params: { data: JSON.stringify([{ id: 3, value: 'they/them' }]) },
    });
    expect(changed.status).toBe(200);
    expect(((await me(authOf(alice))).body.profile_data as Record<string, unknown>)['3']).toEqual({
      value: 'they/them',
    });
  });

  it('moves max_message_id with a message the user receives', async () => {
    const before = (await me(authOf(alice))).body.max_message_id as number;
    const sent = await call(svc.url, 'POST', '/messages', {
      auth: authOf(bob),
      params: { type: 'direct', to: JSON.stringify([ALICE]), content: 'hello' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.id).toBeGreaterThan(before);
    expect((await me(authOf(alice))).body.max_message_id).toBe(sent.body.id);
  });

  it('drops a removed field from every profile', async () => {
    const removed = await call(svc.url, 'DELETE', '/realm/profile_fields/3', { auth: authOf(admin) });
    expect(removed.status).toBe(200);
    expect((await me(authOf(alice))).body.profile_data).not.toHaveProperty('3');
  });
});

describe('a rolled-back write leaves nothing kept', () => {
  let dir: string;
  let db: Db;
  let realmId: number;
  const key = 'FirstKey0123456789abcdefghijklmno';
  const header = basicAuthHeader('kim@example.com', key);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'confab-kept-'));
    db = openDatabase(dir);
    realmId = db.transaction(() => createRealm(db, { name: 'Kept', now: 1_700_000_000 }))().id;
    insertUser(db, {
      realmId,
      email: 'kim@example.com',
      fullName: 'Kim',
      passwordHash: null,
      apiKey: key,
      role: 400,
      dateJoinedMs: 1_700_000_000_000,
      settings: {},
    });
  });

  afterAll(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  const rolledBack = (work: () => void) => {
    expect(() =>
      db.transaction(() => {
        work();
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
  };

  it('the organization as written inside the transaction', () => {
    expect(requireRealm(db).name).toBe('Kept');
    rolledBack(() => {
      db.prepare("UPDATE realm SET name = 'Gone', settings = '{\"mandatory_topics\":true}'").run();
      expect(requireRealm(db).name).toBe('Gone');
      expect(realmSettings(requireRealm(db))).toEqual({ mandatory_topics: true });
    });
    expect(getRealm(db)?.name).toBe('Kept');
    expect(inKeptRead(db, () => requireRealm(db).name)).toBe('Kept');
    expect(realmSettings(requireRealm(db))).toEqual({});
  });

  it('a user as written inside the transaction', () => {
    const other = 'OtherKey0123456789abcdefghijklmno';
    expect(inKeptRead(db, () => authenticateRequest(db, realmId, header)).full_name).toBe('Kim');
    rolledBack(() => {
      db.prepare('UPDATE users SET api_key = ?, full_name = ?').run(other, 'Kimberly');
      const inside = authenticateRequest(db, realmId, basicAuthHeader('kim@example.com', other));
      expect(inside.full_name).toBe('Kimberly');
      expect(() => authenticateRequest(db, realmId, header)).toThrow(ApiFailure);
    });
    expect(() => authenticateRequest(db, realmId, basicAuthHeader('kim@example.com', other))).toThrow(
      'Invalid API key',
    );
    expect(authenticateRequest(db, realmId, header).full_name).toBe('Kim');
  });

  it('drops a header once its address finds an older user (the older account wins)', () => {
    const laterKey = 'LaterKey0123456789abcdefghijklmno';
    insertUser(db, {
      realmId,
      email: 'lee@example.com',
      deliveryEmail: 'lee.real@example.com',
      fullName: 'Lee',
      passwordHash: null,
      apiKey: laterKey,
      role: 400,
      dateJoinedMs: 1_700_000_000_000,
      settings: {},
    });
    const lee = basicAuthHeader('lee.real@example.com', laterKey);
    expect(inKeptRead(db, () => authenticateRequest(db, realmId, lee)).full_name).toBe('Lee');
    // Kim, the older account, takes Lee's real address as her display email.
    db.prepare("UPDATE users SET email = 'lee.real@example.com' WHERE full_name = 'Kim'").run();
    try {
      expect(() => inKeptRead(db, () => authenticateRequest(db, realmId, lee))).toThrow('Invalid API key');
    } finally {
      db.prepare("UPDATE users SET email = 'kim@example.com' WHERE full_name = 'Kim'").run();
    }
    expect(inKeptRead(db, () => authenticateRequest(db, realmId, lee)).full_name).toBe('Lee');
  });

  it('the copy of the settings a caller changes is its own', () => {
    const settings = realmSettings(requireRealm(db));
    settings.mandatory_topics = true;
    expect(realmSettings(requireRealm(db))).toEqual({});
  });
});
