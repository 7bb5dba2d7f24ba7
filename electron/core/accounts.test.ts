/**
 * The account list (accounts.json) against the real server: what sign-in stores, that the
 * server's version and feature level are kept per account and refreshed at every register
 * (and by a restart event), and that a damaged file is set aside instead of blocking start.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../shared/client';
import type { AccountSummary, AppState } from '../../shared/ipc';
import {
  coreTestBed,
  isPoll,
  isRegister,
  pushedConnected,
  recordingFetch,
  waitFor,
} from '../../test/support/core';
import { loginAs, type StartedServer } from '../../test/support/server';
import { Accounts } from './accounts';
import { FileSecretStore } from './index';

let server: StartedServer;
const bed = coreTestBed('confab-accounts-', {}, (started) => {
  server = started;
});

const newProfile = () => bed.newProfile();
const accountsFile = (profileDir: string) => join(profileDir, 'accounts.json');
const readList = async (profileDir: string) =>
  JSON.parse(await readFile(accountsFile(profileDir), 'utf8')) as {
    accounts: AccountSummary[];
    activeAccountId: string | null;
  };

function accountsIn(profileDir: string) {
  return new Accounts({ profileDir, secretStore: new FileSecretStore(join(profileDir, 'secrets.json')) });
}

const startCore = (profileDir: string, fetchImpl?: FetchLike) =>
  bed.start({ profileDir, ...(fetchImpl && { fetch: fetchImpl }) });

/** The server's version and feature level, as a fresh register reports them. */
async function serverIdentity() {
  const client = await loginAs(server, 'guest');
  const snapshot = await client.registerQueue({ fetch_event_types: ['user_settings'] });
  if (snapshot.queue_id) await client.deleteQueue(snapshot.queue_id);
  return { serviceVersion: snapshot.service_version, featureLevel: snapshot.service_feature_level };
}

describe('Accounts', () => {
  it('signs in: the account is stored (no key in the list), active, with the user’s name', async () => {
    const profileDir = newProfile();
    const accounts = accountsIn(profileDir);
    const { account, apiKey } = await accounts.signIn(
      `${server.url}/`,
      server.demo.users.alice,
      server.demo.password,
    );
    expect(account).toEqual({
      id: expect.stringMatching(/^acct-[0-9a-f]{20}$/),
      serverUrl: server.url,
      email: server.demo.users.alice,
      userId: expect.any(Number),
      fullName: expect.any(String),
      serviceVersion: null,
      featureLevel: null,
    });
    const stored = await readList(profileDir);
    expect(stored).toEqual({ version: 1, accounts: [account], activeAccountId: account.id });
    expect(JSON.stringify(stored)).not.toContain(apiKey);
    expect(await accounts.apiKey(account.id)).toBe(apiKey);
  });

  it('keeps the server version per account across restarts and a new sign-in', async () => {
    const profileDir = newProfile();
    const accounts = accountsIn(profileDir);
    const { account } = await accounts.signIn(server.url, server.demo.users.bob, server.demo.password);
    expect(await accounts.update(account.id, { serviceVersion: '9.9', featureLevel: 123 })).toBe(true);
    expect(await accounts.update(account.id, { serviceVersion: '9.9', featureLevel: 123 })).toBe(false);

    const reread = accountsIn(profileDir);
    await reread.load();
    expect(reread.get(account.id)).toMatchObject({ serviceVersion: '9.9', featureLevel: 123 });
    // Signing in again keeps what we knew until the next register says otherwise.
    const again = await reread.signIn(server.url, server.demo.users.bob, server.demo.password);
    expect(again.account).toMatchObject({ serviceVersion: '9.9', featureLevel: 123 });
  });

  it('refuses a server address with credentials, or not http(s), before any request', async () => {
    const profileDir = newProfile();
    const accounts = accountsIn(profileDir);
    const withCredentials = server.url.replace('://', '://alice:secret@');
    for (const [url, reason] of [
      [withCredentials, 'it must not contain a user name or password'],
      ['ftp://127.0.0.1/', 'only http and https are supported'],
      ['not a url', 'it is not an absolute URL'],
    ] as const) {
      await expect(accounts.signIn(url, server.demo.users.alice, server.demo.password)).rejects.toMatchObject(
        {
          name: 'CoreError',
          code: 'BAD_REQUEST',
          message: `Not a server address: ${reason}`,
        },
      );
    }
    expect(accounts.appState()).toEqual({ accounts: [], activeAccountId: null });
  });

  it('sets a damaged accounts.json aside and starts with no accounts', async () => {
    const profileDir = newProfile();
    const accounts = accountsIn(profileDir);
    await accounts.signIn(server.url, server.demo.users.alice, server.demo.password);
    await writeFile(accountsFile(profileDir), '{"version": 1, "accounts": [');
    const reread = accountsIn(profileDir);
    await reread.load();
    expect(reread.appState()).toEqual({ accounts: [], activeAccountId: null });
    expect((await readdir(profileDir)).filter((f) => f.startsWith('accounts.json.damaged-'))).toHaveLength(1);
  });
});

describe('The server version of each account, in the core', () => {
  it('is refreshed at every register: a stale stored version is replaced at start', async () => {
    const profileDir = newProfile();
    const accounts = accountsIn(profileDir);
    const { account } = await accounts.signIn(server.url, server.demo.users.alice, server.demo.password);
    // As if the server had been upgraded while the app was closed.
    await accounts.update(account.id, { serviceVersion: '0.1', featureLevel: 1 });

    const { pushes } = await startCore(profileDir);
    const identity = await serverIdentity();
    const pushed = await waitFor('the refreshed list', () =>
      pushes
        .filter((p) => p.channel === 'app.state')
        .map((p) => p.payload as AppState)
        .find((s) => s.accounts[0]?.featureLevel === identity.featureLevel),
    );
    expect(pushed.accounts[0]).toEqual({ ...account, ...identity });
    expect((await readList(profileDir)).accounts[0]).toEqual({ ...account, ...identity });
  });

  it('is refreshed by the restart event of a restored queue, without a register', async () => {
    const profileDir = newProfile();
    const accounts = accountsIn(profileDir);
    const { account } = await accounts.signIn(server.url, server.demo.users.bob, server.demo.password);
    // Plays a server that comes back as a patch release: same feature level, another version.
    const wire = recordingFetch({
      rewrite: (request, body) => {
        if (!isPoll(request) || !body.includes('"restart"')) return body;
        const parsed = JSON.parse(body);
        for (const e of parsed.events) if (e.type === 'restart') e.service_version = '99.0-patched';
        return JSON.stringify(parsed);
      },
    });
    const started = await startCore(profileDir, wire.fetch);
    const { pushes } = started;
    const identity = await serverIdentity();
    await pushedConnected(started, account.id);
    await waitFor('the list refreshed', () =>
      pushes.some((p) => p.channel === 'app.state' && (p.payload as AppState).accounts[0]?.featureLevel),
    );

    await server.restart();
    const pushed = await waitFor(
      'the list with the new version',
      () =>
        pushes
          .filter((p) => p.channel === 'app.state')
          .map((p) => p.payload as AppState)
          .find((s) => s.accounts[0]?.serviceVersion === '99.0-patched'),
      30_000,
    );
    expect(pushed.accounts[0]).toEqual({ ...account, ...identity, serviceVersion: '99.0-patched' });
    expect((await readList(profileDir)).accounts[0]?.serviceVersion).toBe('99.0-patched');
    // The restored queue went on: one snapshot only.
    expect(pushes.filter((p) => p.channel === 'account.snapshot')).toHaveLength(1);
    expect(wire.requests.filter(isRegister)).toHaveLength(1);
  });
});
