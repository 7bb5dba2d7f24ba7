/**
 * Drafts through the core, against the real server: written locally first, synced by the
 * outbox exactly once through server stops, app restarts and lost answers; merged with other
 * clients; local only when synchronization is off; and never lost on sign-out.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient, FetchLike } from '../../../shared/client';
import type { AppState, LocalDraft } from '../../../shared/ipc';
import {
  coreTestBed,
  pushedConnected,
  type RecordedRequest,
  recordingFetch,
  signInAs,
  signInConnected,
  type TestCore,
  waitFor,
} from '../../../test/support/core';
import { type DemoUser, loginAs, type StartedServer } from '../../../test/support/server';
import { draftsFileFor } from './log';

const SYNC_TIMEOUT = 45_000;

interface Instance extends TestCore {
  requests: RecordedRequest[];
  /** While true, every request of this instance fails as if the network were down. */
  net: { down: boolean };
}

let server: StartedServer;
const bed = coreTestBed(
  'confab-drafts-',
  { args: ['--rate-limit-user', '0', '--rate-limit-ip', '0'] },
  (s) => {
    server = s;
  },
);

async function instance(
  options: { profileDir?: string; wrap?: (fetch: FetchLike) => FetchLike } = {},
): Promise<Instance> {
  const net = { down: false };
  const recorded = recordingFetch({
    before: () => {
      if (net.down) throw new TypeError('fetch failed');
    },
  });
  const fetch = options.wrap ? options.wrap(recorded.fetch) : recorded.fetch;
  const started = await bed.start({ ...(options.profileDir && { profileDir: options.profileDir }), fetch });
  return { ...started, requests: recorded.requests, net };
}

const signIn = (i: Instance, who: DemoUser) => signInAs(i, server, who);

const connected = (i: Instance, accountId: string) => pushedConnected(i, accountId, SYNC_TIMEOUT);

const list = (i: Instance, accountId: string) => i.ok<LocalDraft[]>('drafts.list', { accountId });

const save = (i: Instance, accountId: string, content: string, localId?: string) =>
  i.ok<LocalDraft>('drafts.save', {
    accountId,
    draft: { ...(localId ? { localId } : {}), type: '', to: [], topic: '', content },
  });

/** Waits until the instance's drafts are exactly `contents`, all with `status`. */
async function expectDrafts(i: Instance, accountId: string, contents: string[], status = 'synced') {
  const want = [...contents].sort();
  let last: LocalDraft[] = [];
  try {
    await waitFor(
      'the drafts',
      async () => {
        last = await list(i, accountId);
        const have = last.map((d) => d.content).sort();
        return JSON.stringify(have) === JSON.stringify(want) && last.every((d) => d.status === status);
      },
      SYNC_TIMEOUT,
    );
  } catch {
    throw new Error(`drafts are ${JSON.stringify(last)}, wanted ${JSON.stringify(want)} ${status}`);
  }
  return last;
}

async function serverDrafts(client: ApiClient): Promise<{ id: number; content: string }[]> {
  const body = await client.request('GET', '/drafts');
  return (body.drafts as { id: number; content: string }[]).sort((a, b) =>
    a.content.localeCompare(b.content),
  );
}

async function clearServerDrafts(client: ApiClient): Promise<void> {
  for (const d of await serverDrafts(client)) await client.request('DELETE', `/drafts/${d.id}`);
}

/** A new instance signed in and connected as `who`, who has no drafts on the server. */
async function signedInWithoutDrafts(who: DemoUser) {
  const api = await loginAs(server, who);
  await clearServerDrafts(api);
  const app = await instance();
  const account = await signInConnected(server, who, [app], SYNC_TIMEOUT);
  return { api, app, account };
}

/** Requests to /drafts (attempts too, unless `answered`), as "METHOD path". */
const draftWrites = (requests: readonly RecordedRequest[], answered = false) =>
  requests
    .filter((r) => r.url.pathname.includes('/drafts') && (!answered || r.outcome === 'response'))
    .map((r) => `${r.method} ${r.url.pathname}`);

// Generous: a loaded 2-core machine, a server restart and back-off waits.
describe('drafts against the real server', { timeout: 120_000 }, () => {
  it('edits made with the server down reach it exactly once, across an app restart', async () => {
    const { api, app, account: alice } = await signedInWithoutDrafts('alice');
    const first = await save(app, alice.id, 'first draft');
    expect(first).toMatchObject({ content: 'first draft', serverId: null, status: 'pending' });
    await expectDrafts(app, alice.id, ['first draft']);

    await server.stop();
    await save(app, alice.id, 'first draft, edited offline', first.localId);
    const second = await save(app, alice.id, 'written offline');
    await save(app, alice.id, 'written offline, twice', second.localId);
    const third = await save(app, alice.id, 'deleted before it was ever sent');
    expect(await app.ok('drafts.delete', { accountId: alice.id, localId: third.localId })).toHaveLength(2);
    await expectDrafts(app, alice.id, ['first draft, edited offline', 'written offline, twice'], 'pending');

    // The app quits and starts again, still without a server.
    await app.core.stop();
    const again = await instance({ profileDir: app.profileDir });
    const restored = await expectDrafts(
      again,
      alice.id,
      ['first draft, edited offline', 'written offline, twice'],
      'pending',
    );
    expect(restored.find((d) => d.content === 'first draft, edited offline')?.localId).toBe(first.localId);

    await server.restart();
    await expectDrafts(again, alice.id, ['first draft, edited offline', 'written offline, twice']);
    expect((await serverDrafts(api)).map((d) => d.content)).toEqual([
      'first draft, edited offline',
      'written offline, twice',
    ]);
    // One create per draft in all: the edit of the first draft went out as a PATCH.
    const writes = [...draftWrites(app.requests, true), ...draftWrites(again.requests, true)].filter(
      (w) => !w.startsWith('GET'),
    );
    expect(writes.filter((w) => w === 'POST /api/v1/drafts')).toHaveLength(2);
    expect(writes.filter((w) => w.startsWith('DELETE'))).toEqual([]);
    const log = draftsFileFor(app.profileDir, alice.id);
    expect(log).toBe(join(app.profileDir, 'drafts', `${alice.id}.jsonl`));
    expect((await stat(log)).mode & 0o777).toBe(0o600);
  });

  it('a create whose answer was lost is not created twice, even across a restart', async () => {
    const api = await loginAs(server, 'owner');
    await clearServerDrafts(api);
    let lost = false;
    // The server gets the first POST /drafts and answers, but the answer never arrives; then
    // the network stays down until the app quits.
    const lossy = (inner: FetchLike): FetchLike => {
      return async (url, init) => {
        if (lost) throw new TypeError('fetch failed');
        const response = await inner(url, init);
        if (init.method === 'POST' && new URL(url).pathname.endsWith('/drafts')) {
          lost = true;
          throw new TypeError('socket hang up');
        }
        return response;
      };
    };
    const app = await instance({ wrap: lossy });
    const owner = await signIn(app, 'owner');
    await connected(app, owner.id);
    await save(app, owner.id, 'sent once');
    await waitFor('the lost answer', () => lost, SYNC_TIMEOUT);
    await app.core.stop();

    const again = await instance({ profileDir: app.profileDir });
    await expectDrafts(again, owner.id, ['sent once']);
    expect((await serverDrafts(api)).map((d) => d.content)).toEqual(['sent once']);
    expect(draftWrites(again.requests).filter((w) => w.startsWith('POST'))).toEqual([]);
    expect(draftWrites(again.requests)).toContain('GET /api/v1/drafts');
  });

  it('keeps both texts when the draft changed here and on another client while apart', async () => {
    const { api, app, account: bob } = await signedInWithoutDrafts('bob');
    const one = await save(app, bob.id, 'base one');
    const two = await save(app, bob.id, 'base two');
    const synced = await expectDrafts(app, bob.id, ['base one', 'base two']);
    const idOf = (localId: string) => synced.find((d) => d.localId === localId)?.serverId as number;
    const baseTime = Math.max(...synced.map((d) => d.timestamp));

    app.net.down = true;
    app.core.wakeAll();
    // Here: both edited now. There: `one` edited later than here, `two` edited earlier.
    await api.request('PATCH', `/drafts/${idOf(two.localId)}`, {
      draft: { type: '', to: [], topic: '', content: 'two, older edit there', timestamp: baseTime + 0.001 },
    });
    await waitFor('a later millisecond', () => Date.now() / 1000 > baseTime + 0.01);
    await save(app, bob.id, 'one, edit here', one.localId);
    await save(app, bob.id, 'two, newer edit here', two.localId);
    await api.request('PATCH', `/drafts/${idOf(one.localId)}`, {
      draft: {
        type: '',
        to: [],
        topic: '',
        content: 'one, newer edit there',
        timestamp: Date.now() / 1000 + 30,
      },
    });
    app.net.down = false;
    app.core.wakeAll();

    const all = ['one, edit here', 'one, newer edit there', 'two, newer edit here', 'two, older edit there'];
    const merged = await expectDrafts(app, bob.id, all);
    // The newer text stays the draft (same local and server id), the older is a new draft.
    const byContent = new Map(merged.map((d) => [d.content, d]));
    expect(byContent.get('one, newer edit there')).toMatchObject({
      localId: one.localId,
      serverId: idOf(one.localId),
    });
    expect(byContent.get('two, newer edit here')).toMatchObject({
      localId: two.localId,
      serverId: idOf(two.localId),
    });
    expect((await serverDrafts(api)).map((d) => d.content)).toEqual(all);
  });

  it("merges another client's adds, edits and removals, pushing each change", async () => {
    const api = await loginAs(server, 'moderator');
    await clearServerDrafts(api);
    const one = await instance();
    const two = await instance();
    const me = await signInConnected(server, 'moderator', [one, two], SYNC_TIMEOUT);

    const draft = await save(one, me.id, 'from instance one');
    const there = await expectDrafts(two, me.id, ['from instance one']);
    expect(there[0]?.localId).not.toBe(draft.localId);
    await save(two, me.id, 'edited in instance two', there[0]?.localId);
    await expectDrafts(one, me.id, ['edited in instance two']);
    expect((await list(one, me.id))[0]?.localId).toBe(draft.localId);
    const pushed = one.pushes.filter((p) => p.channel === 'drafts.changed').at(-1)?.payload;
    expect(pushed).toEqual({ accountId: me.id, drafts: await list(one, me.id) });

    await one.ok('drafts.delete', { accountId: me.id, localId: draft.localId });
    await expectDrafts(two, me.id, []);
    expect(await serverDrafts(api)).toEqual([]);
  });

  it('with synchronization off, drafts stay local and nothing goes to the server', async () => {
    const { api, app, account: admin } = await signedInWithoutDrafts('admin');
    await app.ok('settings.update', {
      accountId: admin.id,
      changes: { enable_drafts_synchronization: false },
    });
    const first = await save(app, admin.id, 'private thought');
    await waitFor(
      'local-only',
      async () => (await list(app, admin.id))[0]?.status === 'local-only',
      SYNC_TIMEOUT,
    );
    const since = app.requests.length;
    await save(app, admin.id, 'private thought, edited', first.localId);
    const other = await save(app, admin.id, 'another');
    await app.ok('drafts.delete', { accountId: admin.id, localId: other.localId });
    await save(app, admin.id, 'kept here');
    await expectDrafts(app, admin.id, ['private thought, edited', 'kept here'], 'local-only');

    // Turned back on: now (and only now) the drafts go to the server.
    const turnedOn = app.requests.length;
    await app.ok('settings.update', {
      accountId: admin.id,
      changes: { enable_drafts_synchronization: true },
    });
    await expectDrafts(app, admin.id, ['private thought, edited', 'kept here']);
    expect(draftWrites(app.requests.slice(since, turnedOn))).toEqual([]);
    expect((await serverDrafts(api)).map((d) => d.content)).toEqual(['kept here', 'private thought, edited']);
  });

  it('keeps a draft the server refuses, saying why, without retrying it', async () => {
    const app = await instance();
    const guest = await signIn(app, 'guest');
    await connected(app, guest.id);
    await app.ok('drafts.save', {
      accountId: guest.id,
      draft: { type: 'stream', to: [999_999], topic: 'nowhere', content: 'to a stream that does not exist' },
    });
    const [refused] = await expectDrafts(app, guest.id, ['to a stream that does not exist'], 'local-only');
    expect(refused).toMatchObject({ syncError: 'Invalid stream ID', serverId: null });
    expect(draftWrites(app.requests).filter((w) => w.startsWith('POST'))).toHaveLength(1);
  });

  it('refuses a sign-out that would leave drafts behind unless forced, and keeps them on disk', async () => {
    const { api, app, account: alice } = await signedInWithoutDrafts('alice');
    app.net.down = true;
    app.core.wakeAll();
    await save(app, alice.id, 'unsent one');
    await save(app, alice.id, 'unsent two');

    expect(await app.invoke('accounts.signOut', { accountId: alice.id })).toEqual({
      ok: false,
      error: { message: 'You have 2 drafts not yet saved to the server.', code: 'UNSYNCED_DRAFTS' },
    });
    expect((await app.ok<AppState>('app.getState', {})).accounts.map((a) => a.id)).toEqual([alice.id]);

    const out = await app.ok<AppState>('accounts.signOut', { accountId: alice.id, force: true });
    expect(out.accounts).toEqual([]);
    const log = await readFile(draftsFileFor(app.profileDir, alice.id), 'utf8');
    expect(log).toContain('unsent one');
    expect(log).toContain('unsent two');

    // Signed in again: the drafts are there, and now reach the server.
    app.net.down = false;
    await signIn(app, 'alice');
    await expectDrafts(app, alice.id, ['unsent one', 'unsent two']);
    expect((await serverDrafts(api)).map((d) => d.content)).toEqual(['unsent one', 'unsent two']);
    expect(await app.ok('accounts.signOut', { accountId: alice.id })).toEqual({
      accounts: [],
      activeAccountId: null,
    });
  });

  it('validates requests: null bytes, unknown accounts, bad ids', async () => {
    const app = await instance();
    const alice = await signIn(app, 'alice');
    expect(
      await app.invoke('drafts.save', {
        accountId: alice.id,
        draft: { type: '', to: [], topic: '', content: 'a\u0000b' },
      }),
    ).toEqual({
      ok: false,
      error: {
        message: 'Invalid request for drafts.save: draft.content: Message must not contain null bytes',
        code: 'BAD_REQUEST',
      },
    });
    expect(await app.invoke('drafts.list', { accountId: 'acct-nobody' })).toEqual({
      ok: false,
      error: { message: 'No account with id acct-nobody', code: 'UNKNOWN_ACCOUNT' },
    });
    const bad = await app.invoke('drafts.delete', { accountId: alice.id, localId: '../x' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await list(app, alice.id)).toEqual(expect.any(Array));
  });
});
