// The Electron bundles: built by scripts/build-electron.ts, the preload run in a VM with a
// stand-in for the `electron` module (the binary is what we cannot have here).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../shared/client';
import { buildElectron } from './build-electron';
import { RUNTIME_ICONS } from './icons';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let tmp: string;
let outDir: string;
let serverDir: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'confab-build-'));
  outDir = path.join(tmp, 'electron');
  serverDir = path.join(tmp, 'server');
  await buildElectron(outDir);
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function requiredModules(code: string): string[] {
  return [...new Set([...code.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] ?? ''))].sort();
}

describe('main.cjs', () => {
  it('bundles everything but electron, Node built-ins and the native SQLite driver', async () => {
    const code = await readFile(path.join(outDir, 'main.cjs'), 'utf8');
    const external = requiredModules(code).filter((m) => m !== 'electron' && !m.startsWith('node:'));
    // The offline message cache (electron/core/messages/cache.ts): native, unpacked from app.asar.
    expect(external).toEqual(['better-sqlite3']);
    expect(code).toContain('registerSchemesAsPrivileged');
  });

  it("has main's images beside it in icons/, copies of the committed PNGs", async () => {
    for (const [name, source] of Object.entries(RUNTIME_ICONS)) {
      const copy = await readFile(path.join(outDir, 'icons', name));
      expect(copy.equals(await readFile(path.join(repoRoot, source)))).toBe(true);
    }
  });
});

type Listener = (event: unknown, payload: unknown) => void;

interface Bridge {
  invoke(channel: string, request: unknown): Promise<unknown>;
  on(channel: string, listener: (payload: unknown) => void): () => void;
}

/** Runs preload.cjs as a sandboxed preload would: `require` knows nothing but 'electron'. */
async function loadPreload() {
  const exposed: Record<string, unknown> = {};
  const invoked: Array<[string, unknown]> = [];
  const listeners = new Map<string, Set<Listener>>();
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, value: unknown) => {
        exposed[key] = value;
      },
    },
    ipcRenderer: {
      invoke: async (channel: string, request: unknown) => {
        invoked.push([channel, request]);
        return { ok: true, value: `answer from ${channel}` };
      },
      on: (channel: string, listener: Listener) => {
        const set = listeners.get(channel) ?? new Set();
        set.add(listener);
        listeners.set(channel, set);
      },
      removeListener: (channel: string, listener: Listener) => {
        listeners.get(channel)?.delete(listener);
      },
    },
  };
  const code = await readFile(path.join(outDir, 'preload.cjs'), 'utf8');
  const module = { exports: {} };
  const require = (id: string) => {
    if (id === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require ${id}`);
  };
  vm.runInNewContext(code, { require, module, exports: module.exports, console });
  return { exposed, invoked, listeners };
}

describe('preload.cjs', () => {
  it('requires nothing but electron', async () => {
    const code = await readFile(path.join(outDir, 'preload.cjs'), 'utf8');
    expect(requiredModules(code)).toEqual(['electron']);
    // zod stays out: the allow-list comes from a module without runtime imports.
    expect(code).not.toContain('ZodObject');
  });

  it('exposes one object, window.confab, with invoke and on only', async () => {
    const { exposed } = await loadPreload();
    expect(Object.keys(exposed)).toEqual(['confab']);
    expect(Object.keys(exposed.confab as object).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards contract invokes to their ipc channel', async () => {
    const { exposed, invoked } = await loadPreload();
    const bridge = exposed.confab as Bridge;
    const request = { accountId: 'a1', changes: { twenty_four_hour_time: true } };
    expect(await bridge.invoke('settings.update', request)).toEqual({
      ok: true,
      value: 'answer from confab:invoke:settings.update',
    });
    expect(invoked).toEqual([['confab:invoke:settings.update', request]]);
  });

  it('refuses channels outside the contract without touching ipc', async () => {
    const { exposed, invoked, listeners } = await loadPreload();
    const bridge = exposed.confab as Bridge;
    for (const channel of ['app.secret', 'toString', '__proto__', 'confab:invoke:app.getInfo']) {
      expect(await bridge.invoke(channel, {})).toEqual({
        ok: false,
        error: { message: `Unknown channel: ${channel}`, code: null },
      });
      expect(() => bridge.on(channel, () => undefined)).toThrow(`Unknown channel: ${channel}`);
    }
    expect(invoked).toEqual([]);
    expect(listeners.size).toBe(0);
  });

  it('delivers pushes without the ipc event, and unsubscribes', async () => {
    const { exposed, listeners } = await loadPreload();
    const bridge = exposed.confab as Bridge;
    const received: unknown[][] = [];
    const off = bridge.on('account.events', (...args: unknown[]) => received.push(args));
    const registered = [...(listeners.get('confab:push:account.events') ?? [])];
    expect(registered).toHaveLength(1);
    const payload = { accountId: 'a1', generation: 0, events: [] };
    registered[0]?.({ sender: 'the ipc event must not reach the page' }, payload);
    expect(received).toEqual([[payload]]);
    off();
    expect(listeners.get('confab:push:account.events')?.size).toBe(0);
  });
});

describe('server/main.cjs', () => {
  it('is one file that needs only better-sqlite3 at run time', async () => {
    const code = await readFile(path.join(serverDir, 'main.cjs'), 'utf8');
    // ajv's names occur in the validator source it generates (strings), not as imports.
    const external = requiredModules(code).filter(
      (m) => !m.startsWith('node:') && !builtinModules.includes(m) && !/^ajv(-formats)?\//.test(m),
    );
    expect(external).toEqual(['better-sqlite3']);
    // The CJS bundle cannot keep the entry's top-level await.
    expect(code).not.toMatch(/^await main\(\);/m);
  });

  it('starts under plain Node, serves the demo organization, and stops on SIGTERM', async () => {
    const dataDir = path.join(tmp, 'server-data');
    // The bundle sits outside the repository here; in the package, node_modules is beside dist/.
    const child = spawn(
      process.execPath,
      [
        path.join(serverDir, 'main.cjs'),
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--demo',
      ],
      {
        env: { ...process.env, NODE_PATH: path.join(repoRoot, 'node_modules') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
          if (match?.[1]) resolve(match[1]);
        });
        void exited.then((code) => reject(new Error(`exited with ${code} before listening: ${stderr}`)));
      });
      const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
        password: string;
        users: { alice: string };
      };
      const anonymous = new ApiClient({ serverUrl: url });
      const { api_key: apiKey } = await anonymous.fetchApiKey(demo.users.alice, demo.password);
      const alice = new ApiClient({ serverUrl: url, credentials: { email: demo.users.alice, apiKey } });
      // The emoji check reads emojibase's data at run time (createRequire(import.meta.url)).
      expect(
        await alice.request('POST', '/users/me/status', { emoji_name: 'smile', status_text: 'hi' }),
      ).toEqual({
        result: 'success',
        msg: '',
      });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
