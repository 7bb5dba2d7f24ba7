/**
 * The API key never reaches the renderer, end to end: after signing in, a settings change and
 * a reconnect (server restart), nothing the page can read holds the key: window globals,
 * localStorage, sessionStorage, cookies, the page's HTML, and every WebSocket frame it sent or
 * received. And the bridge refuses a page of another origin even when it knows the secret.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { loginAs } from '../test/support/server';
import { connectionStatus, expect, openSettings, signInAndWait, test } from './support/app';

/** Runs in the page: every string reachable from window's own properties (depth-limited), with its path. */
function findInGlobals(needle: string): string[] {
  const found: string[] = [];
  const seen = new WeakSet<object>();
  const walk = (value: unknown, where: string, depth: number) => {
    if (typeof value === 'string') {
      if (value.includes(needle)) found.push(where);
      return;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
    if (depth > 4 || seen.has(value)) return;
    seen.add(value);
    // DOM nodes are covered by the HTML check; their property graph is huge.
    const NodeClass = (globalThis as { Node?: abstract new () => object }).Node;
    if (NodeClass && value instanceof NodeClass) return;
    let keys: string[];
    try {
      keys = Object.keys(value);
    } catch {
      return;
    }
    for (const key of keys) {
      let child: unknown;
      try {
        child = (value as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      walk(child, `${where}.${key}`, depth + 1);
    }
  };
  walk(globalThis, 'window', 0);
  return found;
}

test('no API key anywhere the renderer can read, also after a change and a reconnect', async ({
  server,
  alice,
  launchApp,
  openApp,
}) => {
  const app = await launchApp({ serverUrl: server.url });
  const frames: string[] = [];
  // Listening before the page loads: every frame of its bridge is recorded.
  const page = await openApp(app, (page) =>
    page.on('websocket', (ws) => {
      ws.on('framereceived', (f) => frames.push(String(f.payload)));
      ws.on('framesent', (f) => frames.push(String(f.payload)));
    }),
  );
  await signInAndWait(page, alice);

  // The key the app holds: the one the server hands out for alice, in the profile's secrets file.
  const apiKey = (await loginAs(server, 'alice')).credentials?.apiKey as string;
  expect(apiKey).toMatch(/^\S{20,}$/);
  const secrets = await readFile(path.join(app.profileDir, 'secrets.json'), 'utf8');
  expect(secrets).toContain(apiKey);

  await openSettings(page, 'Preferences');
  const time = page.getByRole('switch', { name: '24-hour time' });
  await time.press('Space');
  await expect(time).toBeChecked();
  await server.restart();
  // Reconnected: the restored queue's restart event reached the page.
  await expect.poll(() => frames.some((f) => f.includes('"type":"restart"')), { timeout: 60_000 }).toBe(true);
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 60_000 });
  await time.press('Space');
  await expect(time).not.toBeChecked();

  // The frames were recorded: the snapshot and the events passed through them.
  const wire = frames.join('\n');
  expect(wire).toContain('"account.snapshot"');
  expect(wire).toContain('"twenty_four_hour_time"');
  expect(wire).toContain(alice.email);
  expect(wire).not.toContain(apiKey);

  expect(await page.evaluate(findInGlobals, apiKey)).toEqual([]);
  // The walk does find a string where one is (a check that cannot find anything proves nothing).
  await page.evaluate("window.e2eProbe = { a: { b: ['x', 'probe-5f3a'] } }");
  expect(await page.evaluate(findInGlobals, 'probe-5f3a')).toEqual(['window.e2eProbe.a.b.1']);
  const storage = await page.evaluate<string>(
    'JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })',
  );
  // The bridge's own secret is there (sessionStorage), so the dump is not empty by accident.
  expect(storage).toContain('confab.bridge');
  expect(storage).not.toContain(apiKey);
  expect(await page.content()).not.toContain(apiKey);
});

test('the bridge refuses a page of another origin, even with the secret', async ({
  server,
  launchApp,
  openApp,
}) => {
  const app = await launchApp({ serverUrl: server.url });
  const appUrl = new URL(app.url);
  const bridgeUrl = `ws://${appUrl.host}/bridge?token=${appUrl.searchParams.get('token')}`;
  const tryBridge = (url: string) =>
    new Promise<string>((resolve) => {
      const ws = new WebSocket(url);
      ws.onopen = () => {
        ws.close();
        resolve('open');
      };
      ws.onerror = () => resolve('refused');
    });

  // Our own page may (the URL is right).
  const own = await openApp(app);
  await expect(own.getByRole('form', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });
  expect(await own.evaluate(tryBridge, bridgeUrl)).toBe('open');

  // A page served from another port is another origin.
  const foreign: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>elsewhere</title><p>elsewhere</p>');
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  try {
    const port = (foreign.address() as AddressInfo).port;
    const page = await own.context().newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    expect(await page.evaluate(tryBridge, bridgeUrl)).toBe('refused');
  } finally {
    await new Promise<void>((resolve) => foreign.close(() => resolve()));
  }
});

test('a reload of the tab keeps the app, signed in, though the address no longer carries the secret', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  // The page took the secret out of its address bar.
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toContainText(alice.email);
  await expect(connectionStatus(page)).toHaveText('Connected');
  // The page cookie is not readable by the page's scripts.
  expect(await page.evaluate('document.cookie')).toBe('');
});
