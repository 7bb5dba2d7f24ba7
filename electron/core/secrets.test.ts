import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptedFileSecretStore, FileSecretStore } from './secrets';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'confab-secrets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('FileSecretStore', () => {
  it('creates the file with mode 0600 and reads values back', async () => {
    const file = join(dir, 'nested', 'secrets.json');
    const store = new FileSecretStore(file);
    expect(store.encrypted).toBe(false);
    expect(await store.get('acct-1')).toBeNull();
    await store.set('acct-1', 'key-one');
    await store.set('acct-2', 'key-two');
    expect(await modeOf(file)).toBe(0o600);
    expect(await store.get('acct-1')).toBe('key-one');
    // A second instance (the next start of the app) sees the same values.
    expect(await new FileSecretStore(file).get('acct-2')).toBe('key-two');
  });

  it('narrows a wider mode back to 0600', async () => {
    const file = join(dir, 'secrets.json');
    await writeFile(file, JSON.stringify({ a: 'x' }), { mode: 0o644 });
    expect(await modeOf(file)).toBe(0o644);
    const store = new FileSecretStore(file);
    expect(await store.get('a')).toBe('x');
    expect(await modeOf(file)).toBe(0o600);
    await store.set('b', 'y');
    expect(await modeOf(file)).toBe(0o600);
  });

  it('deletes a key and leaves no temp files behind', async () => {
    const file = join(dir, 'secrets.json');
    const store = new FileSecretStore(file);
    await Promise.all([store.set('a', '1'), store.set('b', '2'), store.set('c', '3')]);
    await store.delete('b');
    await store.delete('never-there');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ a: '1', c: '3' });
    expect(await readdir(dir)).toEqual(['secrets.json']);
  });

  it('refuses a damaged file instead of overwriting every key', async () => {
    const file = join(dir, 'secrets.json');
    await writeFile(file, '{not json', { mode: 0o600 });
    const store = new FileSecretStore(file);
    await expect(store.set('a', '1')).rejects.toThrow(`The secrets file ${file} is damaged (not JSON)`);
    expect(await readFile(file, 'utf8')).toBe('{not json');
  });
});

describe('EncryptedFileSecretStore', () => {
  // Stands in for Electron's safeStorage, whose binary is not available here.
  const cipher = {
    encrypt: (plain: string) => Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)),
    decrypt: (data: Buffer) => Buffer.from(data.map((b) => b ^ 0x5a)).toString('utf8'),
  };

  it('stores only what the cipher produced, in a 0600 file', async () => {
    const file = join(dir, 'secrets.json');
    const store = new EncryptedFileSecretStore(file, cipher);
    expect(store.encrypted).toBe(true);
    await store.set('acct', 'the-secret-api-key');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('the-secret-api-key');
    expect(JSON.parse(text)).toEqual({ acct: cipher.encrypt('the-secret-api-key').toString('base64') });
    expect(await modeOf(file)).toBe(0o600);
    expect(await store.get('acct')).toBe('the-secret-api-key');
    expect(new EncryptedFileSecretStore(file, cipher, { encrypted: false }).encrypted).toBe(false);
  });
});
