import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accountIdFor,
  type Core,
  type CoreOptions,
  createCore,
  FileSecretStore,
  normalizeServerUrl,
} from './index';

const TRUSTED = { trusted: true };
let dir: string;
let core: Core;

function makeCore(overrides: Partial<CoreOptions> = {}): Core {
  return createCore({
    profileDir: join(dir, 'profile'),
    secretStore: new FileSecretStore(join(dir, 'profile', 'secrets.json')),
    mode: 'browser',
    appVersion: '1.2.3',
    defaultServerUrl: 'http://127.0.0.1:9991',
    isTrustedSender: (sender) => sender === TRUSTED,
    ...overrides,
  });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'confab-router-'));
  core = makeCore();
  await core.start();
});
afterEach(async () => {
  await core.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A port nothing listens on: the OS gives it to us, we give it back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the IPC router', () => {
  it('refuses an untrusted sender before looking at anything else', async () => {
    for (const sender of [undefined, null, {}, 'renderer']) {
      expect(await core.handleInvoke(sender, 'app.getState', {})).toEqual({
        ok: false,
        error: { message: 'Refused: untrusted sender', code: 'UNTRUSTED_SENDER' },
      });
    }
    expect(await core.handleInvoke({}, 'no.such.channel', 42)).toMatchObject({
      error: { message: 'Refused: untrusted sender' },
    });
  });

  it('refuses unknown channels with BAD_REQUEST', async () => {
    expect(await core.handleInvoke(TRUSTED, 'accounts.stealKey', {})).toEqual({
      ok: false,
      error: { message: 'Unknown channel: "accounts.stealKey"', code: 'BAD_REQUEST' },
    });
    expect(await core.handleInvoke(TRUSTED, 42, {})).toEqual({
      ok: false,
      error: { message: 'Unknown channel: number', code: 'BAD_REQUEST' },
    });
    // Inherited object keys are not channels.
    expect(await core.handleInvoke(TRUSTED, 'toString', {})).toMatchObject({
      error: { code: 'BAD_REQUEST' },
    });
    expect(await core.handleInvoke(TRUSTED, '__proto__', {})).toMatchObject({
      error: { code: 'BAD_REQUEST' },
    });
  });

  it('refuses payloads that fail the channel schema, saying what is wrong', async () => {
    const missing = await core.handleInvoke(TRUSTED, 'accounts.signIn', {
      serverUrl: 'http://127.0.0.1:1',
      password: 'pw',
    });
    expect(missing).toEqual({
      ok: false,
      error: {
        message:
          'Invalid request for accounts.signIn: email: Invalid input: expected string, received undefined',
        code: 'BAD_REQUEST',
      },
    });

    const badUrl = await core.handleInvoke(TRUSTED, 'accounts.signIn', {
      serverUrl: 'file:///etc/passwd',
      email: 'a@b.c',
      password: 'pw',
    });
    expect(badUrl).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    if (badUrl.ok) throw new Error('unreachable');
    expect(badUrl.error.message).toMatch(/^Invalid request for accounts\.signIn: serverUrl: /);

    const badValue = await core.handleInvoke(TRUSTED, 'settings.update', {
      accountId: 'acct-x',
      changes: { twenty_four_hour_time: { nested: true } },
    });
    expect(badValue).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    if (badValue.ok) throw new Error('unreachable');
    expect(badValue.error.message).toMatch(
      /^Invalid request for settings\.update: changes\.twenty_four_hour_time: /,
    );

    for (const payload of [undefined, null, 'x', []]) {
      const result = await core.handleInvoke(TRUSTED, 'app.getState', payload);
      expect(result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    }
    expect(await core.handleInvoke(TRUSTED, 'account.getSnapshot', { accountId: '' })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
  });

  it('turns handler errors into data and never throws', async () => {
    expect(await core.handleInvoke(TRUSTED, 'account.getSnapshot', { accountId: 'acct-nope' })).toEqual({
      ok: false,
      error: { message: 'No account with id acct-nope', code: 'UNKNOWN_ACCOUNT' },
    });
    expect(await core.handleInvoke(TRUSTED, 'accounts.setActive', { accountId: 'acct-nope' })).toEqual({
      ok: false,
      error: { message: 'No account with id acct-nope', code: 'UNKNOWN_ACCOUNT' },
    });
    const throwing = makeCore({
      isTrustedSender: () => {
        throw new Error('glue bug');
      },
    });
    expect(await throwing.handleInvoke(TRUSTED, 'app.getState', {})).toEqual({
      ok: false,
      error: { message: 'glue bug', code: null },
    });
  });

  it('says which server could not be reached on sign-in', async () => {
    const port = await closedPort();
    const result = await core.handleInvoke(TRUSTED, 'accounts.signIn', {
      serverUrl: `http://127.0.0.1:${port}/`,
      email: 'alice@example.com',
      password: 'pw',
    });
    expect(result).toEqual({
      ok: false,
      error: { message: `Could not reach the server at http://127.0.0.1:${port}`, code: 'NETWORK_ERROR' },
    });
    expect(await core.handleInvoke(TRUSTED, 'app.getState', {})).toEqual({
      ok: true,
      value: { accounts: [], activeAccountId: null },
    });
  });
});

describe('app.getInfo', () => {
  const demo = {
    url: 'http://127.0.0.1:9991',
    password: 'demo-pass',
    users: {
      guest: 'guest@demo.test',
      owner: 'owner@demo.test',
      admin: 'admin@demo.test',
      moderator: 'mod@demo.test',
      alice: 'alice@demo.test',
      bob: 'bob@demo.test',
    },
    webhook_bot: { email: 'bot@demo.test', api_key: 'k'.repeat(32) },
  };

  it('describes the app, with the demo logins of the embedded server in role order', async () => {
    const file = join(dir, 'demo-credentials.json');
    await writeFile(file, JSON.stringify(demo));
    const withDemo = makeCore({ demoCredentialsFile: file, defaultServerUrl: 'http://127.0.0.1:9991/' });
    expect(await withDemo.handleInvoke(TRUSTED, 'app.getInfo', {})).toEqual({
      ok: true,
      value: {
        mode: 'browser',
        appVersion: '1.2.3',
        defaultServerUrl: 'http://127.0.0.1:9991/',
        secretStorageEncrypted: false,
        demoLogins: [
          { role: 'owner', email: 'owner@demo.test', password: 'demo-pass' },
          { role: 'admin', email: 'admin@demo.test', password: 'demo-pass' },
          { role: 'moderator', email: 'mod@demo.test', password: 'demo-pass' },
          { role: 'alice', email: 'alice@demo.test', password: 'demo-pass' },
          { role: 'bob', email: 'bob@demo.test', password: 'demo-pass' },
          { role: 'guest', email: 'guest@demo.test', password: 'demo-pass' },
        ],
      },
    });
  });

  it('offers no demo logins for another server, a missing file or a damaged one', async () => {
    const file = join(dir, 'demo-credentials.json');
    await writeFile(file, JSON.stringify(demo));
    const other = makeCore({ demoCredentialsFile: file, defaultServerUrl: 'https://chat.example.com' });
    expect(await other.handleInvoke(TRUSTED, 'app.getInfo', {})).toMatchObject({ value: { demoLogins: [] } });
    const missing = makeCore({ demoCredentialsFile: join(dir, 'nope.json') });
    expect(await missing.handleInvoke(TRUSTED, 'app.getInfo', {})).toMatchObject({
      value: { demoLogins: [] },
    });
    await writeFile(file, '{"url": "http://127.0.0.1:9991"');
    const damaged = makeCore({ demoCredentialsFile: file });
    expect(await damaged.handleInvoke(TRUSTED, 'app.getInfo', {})).toMatchObject({
      value: { demoLogins: [] },
    });
  });
});

describe('accounts', () => {
  it('ids are stable per (server, email), whatever the spelling', () => {
    const id = accountIdFor('https://Chat.Example.com/', 'Alice@Example.com');
    expect(id).toMatch(/^acct-[0-9a-f]{20}$/);
    expect(accountIdFor('https://chat.example.com', 'alice@example.com')).toBe(id);
    expect(accountIdFor('https://chat.example.com', 'bob@example.com')).not.toBe(id);
    expect(accountIdFor('https://other.example.com', 'alice@example.com')).not.toBe(id);
    expect(normalizeServerUrl('https://Chat.Example.com/team//')).toBe('https://chat.example.com/team');
  });

  it('sets a damaged accounts.json aside and starts with no accounts', async () => {
    const profileDir = join(dir, 'damaged');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(profileDir);
    await writeFile(join(profileDir, 'accounts.json'), '{"version": 1, "accounts": "nope"}');
    const damaged = makeCore({ profileDir });
    await damaged.start();
    expect(await damaged.handleInvoke(TRUSTED, 'app.getState', {})).toEqual({
      ok: true,
      value: { accounts: [], activeAccountId: null },
    });
    const names = await readdir(profileDir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^accounts\.json\.damaged-\d+$/);
  });
});
