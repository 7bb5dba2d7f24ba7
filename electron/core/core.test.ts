/**
 * The core as the Electron glue and the browser host use it, against the real server:
 * sign-in, two cores (two app instances) signed in as the same user, settings round-trip
 * through the event queue, sign-out, and no API key in anything a renderer can see.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AccountSnapshot, AppState } from '../../shared/ipc';
import {
  pushedConnected as connected,
  coreTestBed,
  signInAs,
  signInConnected,
  type TestCore,
  waitFor,
} from '../../test/support/core';
import type { DemoUser, StartedServer } from '../../test/support/server';
import { FileSecretStore, type SecretStore } from './index';

interface Instance extends TestCore {
  secrets: FileSecretStore;
  secretsFile: string;
  /** How often the core asked the secret store for a key (each one a file read + decrypt). */
  secretReads: () => number;
}

let server: StartedServer;
const bed = coreTestBed('confab-core-', {}, (started) => {
  server = started;
});

async function instance(profileDir = bed.newProfile()): Promise<Instance> {
  const secretsFile = join(profileDir, 'secrets.json');
  const secrets = new FileSecretStore(secretsFile);
  let reads = 0;
  const counted: SecretStore = {
    encrypted: secrets.encrypted,
    get: (key) => {
      reads++;
      return secrets.get(key);
    },
    set: (key, value) => secrets.set(key, value),
    delete: (key) => secrets.delete(key),
  };
  const started = await bed.start({
    profileDir,
    secretStore: counted,
    demoCredentialsFile: join(server.dataDir, 'demo-credentials.json'),
  });
  return { ...started, secrets, secretsFile, secretReads: () => reads };
}

const signIn = (i: Instance, who: DemoUser) => signInAs(i, server, who);

describe('Core against the real server', () => {
  it('offers the demo logins of the embedded server', async () => {
    const app = await instance();
    const info = await app.ok<{ demoLogins: { role: string; email: string }[] }>('app.getInfo', {});
    expect(info.demoLogins.map((d) => d.role)).toEqual([
      'owner',
      'admin',
      'moderator',
      'alice',
      'bob',
      'guest',
    ]);
    expect(info.demoLogins[3]).toEqual({
      role: 'alice',
      email: server.demo.users.alice,
      password: server.demo.password,
    });
  });

  it("surfaces the server's message for a wrong password, and stores nothing", async () => {
    const app = await instance();
    const result = await app.invoke('accounts.signIn', {
      serverUrl: server.url,
      email: server.demo.users.alice,
      password: 'not the password',
    });
    expect(result).toEqual({
      ok: false,
      error: { message: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' },
    });
    expect(await app.ok<AppState>('app.getState', {})).toEqual({ accounts: [], activeAccountId: null });
    await expect(stat(app.secretsFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a settings change in one instance reaches another signed in as the same user, within 2 s', async () => {
    const one = await instance();
    const two = await instance();
    const a = await signIn(one, 'alice');
    const b = await signIn(two, 'alice');
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ email: server.demo.users.alice, serverUrl: server.url.replace(/\/$/, '') });
    await connected(one, a.id);
    await connected(two, b.id);

    const snapshot = await two.ok<AccountSnapshot | null>('account.getSnapshot', { accountId: b.id });
    const before = snapshot?.state.user_settings?.twenty_four_hour_time;
    expect(typeof before).toBe('boolean');
    const pushedBefore = two.pushes.length;
    // A push listener reads the core's AccountState as it is with that push's events applied.
    const seenAtPush: unknown[] = [];
    two.core.onPush((channel) => {
      if (channel === 'account.events')
        seenAtPush.push(two.core.accountState(b.id)?.state.userSettings.twenty_four_hour_time);
    });

    const answer = await one.ok('settings.update', {
      accountId: a.id,
      changes: { twenty_four_hour_time: !before },
    });
    expect(answer).toEqual({ ignored_parameters_unsupported: [] });
    const batch = await waitFor(
      'the event in the other instance',
      () =>
        two.pushes
          .slice(pushedBefore)
          .find(
            (p) =>
              p.channel === 'account.events' &&
              JSON.stringify(p.payload).includes('"property":"twenty_four_hour_time"'),
          ),
      2000,
    );
    expect(batch.payload).toEqual({
      accountId: b.id,
      generation: snapshot?.generation,
      events: [
        {
          id: expect.any(Number),
          type: 'user_settings',
          op: 'update',
          property: 'twenty_four_hour_time',
          value: !before,
        },
      ],
    });
    const after = await two.ok<AccountSnapshot | null>('account.getSnapshot', { accountId: b.id });
    expect(after?.state.user_settings?.twenty_four_hour_time).toBe(!before);
    expect(seenAtPush).toContain(!before);
    expect(two.core.accountState(b.id)?.generation).toBe(snapshot?.generation);
    expect(two.core.accountState('nobody')).toBeNull();

    // The server's refusal of a bad value comes back with its message and code.
    const bad = await one.invoke('settings.update', { accountId: a.id, changes: { color_scheme: 99 } });
    expect(bad).toMatchObject({ ok: false, error: { message: 'Invalid color_scheme', code: 'BAD_REQUEST' } });
  });

  it('keeps several accounts side by side, remembers them, and signs out', async () => {
    const app = await instance();
    const alice = await signIn(app, 'alice');
    const bob = await signIn(app, 'bob');
    expect(alice.id).not.toBe(bob.id);
    let state = await app.ok<AppState>('app.getState', {});
    expect(state.accounts.map((x) => x.email)).toEqual([server.demo.users.alice, server.demo.users.bob]);
    expect(state.activeAccountId).toBe(bob.id);
    state = await app.ok<AppState>('accounts.setActive', { accountId: alice.id });
    expect(state.activeAccountId).toBe(alice.id);
    expect(app.pushes.filter((p) => p.channel === 'app.state').at(-1)?.payload).toEqual(state);
    await connected(app, alice.id);
    await connected(app, bob.id);
    expect(await app.ok('account.getConnection', { accountId: bob.id })).toEqual({
      status: 'connected',
      nextRetryAt: null,
      lastError: null,
    });

    // The file keeps accounts but no keys; the keys sit in the 0600 secrets file.
    const listed = await readFile(join(app.profileDir, 'accounts.json'), 'utf8');
    const aliceKey = await app.secrets.get(alice.id);
    expect(aliceKey).toEqual(expect.any(String));
    expect(listed).not.toContain(aliceKey);
    expect((await stat(app.secretsFile)).mode & 0o777).toBe(0o600);

    // The list learns each server's version from the first snapshot.
    state = await waitFor('the account list refreshed from the snapshots', () => {
      const last = app.pushes.filter((p) => p.channel === 'app.state').at(-1)?.payload as
        | AppState
        | undefined;
      return last?.accounts.every((x) => x.featureLevel !== null) && last;
    });
    expect(state.accounts[1]).toEqual({
      ...bob,
      serviceVersion: expect.any(String),
      featureLevel: expect.any(Number),
    });

    // Next start of the app: the same accounts, connected again without a password.
    await app.core.stop();
    const again = await instance(app.profileDir);
    expect(await again.ok<AppState>('app.getState', {})).toEqual(state);
    await connected(again, alice.id);
    const snap = await again.ok<AccountSnapshot | null>('account.getSnapshot', { accountId: alice.id });
    expect(snap?.state.user_id).toBe(alice.userId);

    // Sign out: machine stopped, key forgotten, the other account becomes active.
    const out = await again.ok<AppState>('accounts.signOut', { accountId: alice.id });
    expect(out).toEqual({ accounts: [expect.objectContaining({ id: bob.id })], activeAccountId: bob.id });
    expect(await again.secrets.get(alice.id)).toBeNull();
    expect(await again.invoke('account.getSnapshot', { accountId: alice.id })).toEqual({
      ok: false,
      error: { message: `No account with id ${alice.id}`, code: 'UNKNOWN_ACCOUNT' },
    });
    expect(
      again.pushes
        .filter(
          (p) =>
            p.channel === 'account.connection' && (p.payload as { accountId: string }).accountId === alice.id,
        )
        .at(-1)?.payload,
    ).toEqual({ accountId: alice.id, state: { status: 'offline', nextRetryAt: null, lastError: null } });
    expect(JSON.parse(await readFile(join(app.profileDir, 'accounts.json'), 'utf8')).accounts).toHaveLength(
      1,
    );
  });

  it('reads the key once per machine start, not per write, and says so when there is none', async () => {
    const first = await instance();
    const alice = await signIn(first, 'alice');
    // The key came from the sign-in itself.
    expect(first.secretReads()).toBe(0);
    await first.core.stop();

    const app = await instance(first.profileDir);
    expect(app.secretReads()).toBe(1);
    await connected(app, alice.id);
    const snapshot = await app.ok<AccountSnapshot | null>('account.getSnapshot', { accountId: alice.id });
    const dense = snapshot?.state.user_settings?.dense_mode;
    const general = snapshot?.state.subscriptions?.find((s) => s.name === 'general');
    expect(general).toBeDefined();
    await app.ok('settings.update', { accountId: alice.id, changes: { dense_mode: !dense } });
    await app.ok('settings.update', { accountId: alice.id, changes: { dense_mode: dense } });
    await app.ok('subscriptions.updateProperties', {
      accountId: alice.id,
      updates: [{ stream_id: general?.stream_id, property: 'pin_to_top', value: false }],
    });
    expect(app.secretReads()).toBe(1);

    // A key gone from the store: no machine, and writes say why rather than trying without one.
    await app.core.stop();
    await app.secrets.delete(alice.id);
    const keyless = await instance(first.profileDir);
    expect(
      await keyless.invoke('settings.update', { accountId: alice.id, changes: { dense_mode: true } }),
    ).toEqual({
      ok: false,
      error: { message: 'No stored credentials for this account: sign in again.', code: 'SIGNED_OUT' },
    });
  });

  it('switches the active account for the glue itself, without a sender to vouch for it', async () => {
    const app = await instance();
    const alice = await signIn(app, 'alice');
    const bob = await signIn(app, 'bob');
    // A frame that is not (yet) our app is refused the invoke...
    expect(
      await app.core.handleInvoke({ frame: 'loading' }, 'accounts.setActive', { accountId: alice.id }),
    ).toEqual({
      ok: false,
      error: { message: 'Refused: untrusted sender', code: 'UNTRUSTED_SENDER' },
    });
    // ...but a notification click in main goes straight to the core.
    const pushed = app.pushes.length;
    const state = await app.core.setActiveAccount(alice.id);
    expect(state).toEqual({
      accounts: [expect.objectContaining({ id: alice.id }), expect.objectContaining({ id: bob.id })],
      activeAccountId: alice.id,
    });
    // (The snapshots' name and version refreshes may push app.state around it, too.)
    expect(app.pushes.slice(pushed)).toContainEqual({ channel: 'app.state', payload: state });
    expect(await app.ok<AppState>('app.getState', {})).toMatchObject({ activeAccountId: alice.id });
    await expect(app.core.setActiveAccount('nobody')).rejects.toMatchObject({ code: 'UNKNOWN_ACCOUNT' });
    expect((await app.ok<AppState>('app.getState', {})).activeAccountId).toBe(alice.id);
  });

  it('never lets an API key reach the renderer', async () => {
    const app = await instance();
    const other = await instance();
    const alice = await signInConnected(server, 'alice', [app, other]);
    const key = await app.secrets.get(alice.id);
    expect(key?.length).toBeGreaterThanOrEqual(32);
    // Sanity: the scan below can see the key where it is stored.
    expect(await readFile(app.secretsFile, 'utf8')).toContain(key);

    // A whole session through every channel.
    await app.ok('app.getInfo', {});
    await app.ok('app.getState', {});
    const snapshot = await app.ok<AccountSnapshot | null>('account.getSnapshot', { accountId: alice.id });
    await app.ok('account.getConnection', { accountId: alice.id });
    const value = !snapshot?.state.user_settings?.dense_mode;
    await other.ok('settings.update', { accountId: alice.id, changes: { dense_mode: value } });
    await waitFor('the event', () => app.pushes.some((p) => p.channel === 'account.events'));
    await app.ok('accounts.setActive', { accountId: alice.id });
    await app.invoke('settings.update', { accountId: alice.id, changes: { no_such_setting: true } });
    await app.invoke('accounts.signIn', {
      serverUrl: server.url,
      email: server.demo.users.alice,
      password: 'x',
    });
    await app.ok('accounts.signOut', { accountId: alice.id });

    const seen = JSON.stringify([app.results, app.pushes, other.results, other.pushes]);
    expect(app.results.length).toBeGreaterThanOrEqual(8);
    expect(app.pushes.map((p) => p.channel)).toEqual(
      expect.arrayContaining(['app.state', 'account.snapshot', 'account.events', 'account.connection']),
    );
    expect(seen).not.toContain(key as string);
    expect(seen).not.toContain(server.demo.webhook_bot.api_key);
  });
});
