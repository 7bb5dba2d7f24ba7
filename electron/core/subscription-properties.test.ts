/**
 * The `subscriptions.updateProperties` invoke against the real server: the write reaches the
 * server, its events come back through the account's event loop and the snapshot a later
 * window reads has the new values; the server's refusal comes back with its message.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../shared/client';
import type { AccountSnapshot, AccountSummary } from '../../shared/ipc';
import type { Subscription } from '../../shared/protocol';
import {
  recordingFetch,
  startTestCore,
  type TestCore,
  testCoreOptions,
  waitFor,
} from '../../test/support/core';
import { makeTempDir, removeDir, type StartedServer, startServerProcess } from '../../test/support/server';

let server: StartedServer;
let root: string;
let app: TestCore;
const wire = recordingFetch();

beforeAll(async () => {
  server = await startServerProcess({});
  root = await makeTempDir('confab-subprops-');
  app = await startTestCore(
    testCoreOptions(join(root, 'profile'), {
      defaultServerUrl: server.url,
      demoCredentialsFile: join(server.dataDir, 'demo-credentials.json'),
      fetch: wire.fetch,
    }),
  );
}, 60_000);
afterAll(async () => {
  await app?.core.stop();
  await server?.dispose();
  if (root) await removeDir(root);
});

const invoke = <T>(channel: string, payload: unknown) => app.invoke<T>(channel, payload);

describe('subscriptions.updateProperties', () => {
  it('writes through the server and the events update the snapshot', async () => {
    const signedIn = await invoke<AccountSummary>('accounts.signIn', {
      serverUrl: server.url,
      email: server.demo.users.alice,
      password: server.demo.password,
    });
    if (!signedIn.ok) throw new Error(signedIn.error.message);
    const accountId = signedIn.value.id;
    const snapshot = await waitFor('the first snapshot', async () => {
      const r = await invoke<AccountSnapshot | null>('account.getSnapshot', { accountId });
      return r.ok ? r.value : null;
    });
    const general = snapshot.state.subscriptions?.find((s) => s.name === 'general') as Subscription;
    expect(general.is_muted).toBe(false);

    const answer = await invoke('subscriptions.updateProperties', {
      accountId,
      updates: [
        { stream_id: general.stream_id, property: 'is_muted', value: true },
        { stream_id: general.stream_id, property: 'color', value: '#abcdef' },
      ],
    });
    expect(answer).toEqual({ ok: true, value: null });
    // Through the client's named function: one form-encoded POST, subscription_data as JSON text.
    const posts = wire.requests.filter((r) => r.url.pathname.endsWith('/users/me/subscriptions/properties'));
    expect(posts.map((r) => [r.method, r.status])).toEqual([['POST', 200]]);
    expect(new URLSearchParams(posts[0]?.init.body as string).get('subscription_data')).toBe(
      JSON.stringify([
        { stream_id: general.stream_id, property: 'is_muted', value: true },
        { stream_id: general.stream_id, property: 'color', value: '#abcdef' },
      ]),
    );
    const after = await waitFor('the events in the snapshot', async () => {
      const r = await invoke<AccountSnapshot | null>('account.getSnapshot', { accountId });
      const sub = r.ok
        ? r.value?.state.subscriptions?.find((s) => s.stream_id === general.stream_id)
        : undefined;
      return sub?.color === '#abcdef' && sub.is_muted ? sub : null;
    });
    expect(after).toMatchObject({ is_muted: true, in_home_view: false, color: '#abcdef' });
    expect(
      app.pushes.some(
        (p) => p.channel === 'account.events' && JSON.stringify(p.payload).includes('"#abcdef"'),
      ),
    ).toBe(true);

    const bad = await invoke('subscriptions.updateProperties', {
      accountId,
      updates: [{ stream_id: general.stream_id, property: 'no_such_property', value: true }],
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('ApiClient.updateSubscriptionProperties answers what the server ignored', async () => {
    const anonymous = new ApiClient({ serverUrl: server.url });
    const { api_key: apiKey, email } = await anonymous.fetchApiKey(
      server.demo.users.bob,
      server.demo.password,
    );
    const bob = anonymous.withCredentials({ email, apiKey });
    const { subscriptions } = await bob.request('GET', '/users/me/subscriptions');
    const first = (subscriptions as Subscription[])[0] as Subscription;
    await expect(
      bob.updateSubscriptionProperties([{ stream_id: first.stream_id, property: 'pin_to_top', value: true }]),
    ).resolves.toEqual({ ignored_parameters_unsupported: [] });
    await expect(
      bob.updateSubscriptionProperties([
        { stream_id: first.stream_id, property: 'no_such_property', value: 1 },
      ]),
    ).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('refuses a malformed request before it reaches the server', async () => {
    const r = await invoke('subscriptions.updateProperties', { accountId: 'x', updates: [] });
    expect(r.ok).toBe(false);
  });
});
