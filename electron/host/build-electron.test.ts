// The Electron bundles: built by scripts/build-electron.ts, the preload run in a VM with a
// stand-in for the `electron` module (the binary is what we cannot have here).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron } from '../../scripts/build-electron';

let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'confab-build-'));
  await buildElectron(outDir);
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

function requiredModules(code: string): string[] {
  return [...new Set([...code.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] ?? ''))].sort();
}

describe('main.cjs', () => {
  it('bundles everything but electron and Node built-ins', async () => {
    const code = await readFile(path.join(outDir, 'main.cjs'), 'utf8');
    const external = requiredModules(code).filter((m) => m !== 'electron' && !m.startsWith('node:'));
    expect(external).toEqual([]);
    expect(code).toContain('registerSchemesAsPrivileged');
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
