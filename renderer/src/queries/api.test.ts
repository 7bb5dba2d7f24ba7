import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../shared/protocol';
import { snapshotFixture } from '../../test/fixtures';
import { createTestBridge, flush } from '../../test/testBridge';
import { callApi, IpcCallError, uploadApi } from '../bridge/api';
import { createSync } from '../stores/sync';
import {
  apiQueryKey,
  EVENT_INVALIDATIONS,
  followApiInvalidations,
  invalidateOnEvents,
  isPartiallyCompleted,
  pathMatches,
} from './api';

const ev = (type: string, extra: Record<string, unknown> = {}) => ({ id: 1, type, ...extra }) as ServerEvent;

/** A query client holding an answered query for each path of account acct-1 (and one of acct-2). */
async function seeded(paths: string[]) {
  const queryClient = new QueryClient();
  for (const path of paths) {
    await queryClient.fetchQuery({ queryKey: apiQueryKey('acct-1', path), queryFn: () => ({ path }) });
  }
  await queryClient.fetchQuery({ queryKey: apiQueryKey('acct-2', '/streams'), queryFn: () => ({}) });
  const stale = () =>
    paths.filter((path) => queryClient.getQueryState(apiQueryKey('acct-1', path))?.isInvalidated);
  return { queryClient, stale };
}

const PATHS = [
  '/streams',
  '/streams/12',
  '/streams/12/members',
  '/users/me/subscriptions',
  '/users',
  '/users/9',
  '/users/me',
  '/user_groups',
  '/user_groups/3/members',
  '/realm/emoji',
  '/attachments',
  '/users/me/12/topics',
  '/users/me/alert_words',
  '/users/9/status',
  '/realm/linkifiers',
  '/messages/5/history',
];

describe('pathMatches', () => {
  it('takes {name} as one segment and a final ** as the path and all below it', () => {
    expect(pathMatches('/streams/**', '/streams')).toBe(true);
    expect(pathMatches('/streams/**', '/streams/12/members')).toBe(true);
    expect(pathMatches('/streams/**', '/streamsx')).toBe(false);
    expect(pathMatches('/users/me/{stream_id}/topics', '/users/me/12/topics')).toBe(true);
    expect(pathMatches('/users/me/{stream_id}/topics', '/users/me/12')).toBe(false);
    expect(pathMatches('/users/{user}', '/users/me')).toBe(true);
    expect(pathMatches('/users/{user}', '/users')).toBe(false);
    expect(pathMatches('/users/{user}', '/users/')).toBe(false);
    expect(pathMatches('/users', '/users/9')).toBe(false);
  });
});

describe('invalidateOnEvents', () => {
  it.each([
    [
      'stream',
      { op: 'update' },
      ['/streams', '/streams/12', '/streams/12/members', '/users/me/subscriptions', '/users/me/12/topics'],
    ],
    [
      'subscription',
      { op: 'peer_add' },
      ['/streams', '/streams/12', '/streams/12/members', '/users/me/subscriptions'],
    ],
    [
      'realm_user',
      { op: 'update' },
      ['/streams/12/members', '/users', '/users/9', '/users/me', '/user_groups', '/user_groups/3/members'],
    ],
    ['user_group', { op: 'add_members' }, ['/user_groups', '/user_groups/3/members']],
    ['realm_emoji', { op: 'update' }, ['/realm/emoji']],
    ['attachment', { op: 'add' }, ['/attachments']],
    ['user_topic', {}, ['/users/me/12/topics']],
    ['message', {}, ['/users/me/12/topics']],
    ['delete_message', {}, ['/users/me/12/topics', '/messages/5/history']],
    ['update_message', {}, ['/users/me/12/topics', '/messages/5/history']],
    ['alert_words', {}, ['/users/me/alert_words']],
    ['user_status', {}, ['/users/9/status']],
    ['realm_linkifiers', {}, ['/realm/linkifiers']],
    ['user_settings', { op: 'update' }, []],
    ['heartbeat', {}, []],
  ])('%s makes exactly its queries stale', async (type, extra, expected) => {
    const { queryClient, stale } = await seeded(PATHS);
    invalidateOnEvents(queryClient, 'acct-1', [ev(type, extra)]);
    expect(stale().sort()).toEqual([...expected].sort());
    // Another account's queries are its own events' business.
    expect(queryClient.getQueryState(apiQueryKey('acct-2', '/streams'))?.isInvalidated).toBe(false);
  });

  it('answers the patterns of a batch once each', async () => {
    const { queryClient } = await seeded([]);
    expect(
      invalidateOnEvents(queryClient, 'acct-1', [ev('realm_emoji'), ev('realm_emoji'), ev('attachment')]),
    ).toEqual(['/realm/emoji', '/attachments']);
    expect(invalidateOnEvents(queryClient, 'acct-1', [])).toEqual([]);
  });

  it('has patterns that all start at the API root', () => {
    for (const patterns of Object.values(EVENT_INVALIDATIONS)) {
      for (const pattern of patterns ?? []) expect(pattern).toMatch(/^\/[a-z_]/);
    }
  });

  it('follows the event batches of the sync, once per query client', async () => {
    const test = createTestBridge();
    test.handle('app.getState', () => ({ accounts: [], activeAccountId: null }));
    const sync = createSync(test.bridge);
    const { queryClient, stale } = await seeded(['/realm/emoji', '/attachments']);
    const stop = followApiInvalidations(queryClient, sync.onEvents);
    expect(followApiInvalidations(queryClient, sync.onEvents)).toBe(stop);
    test.push('account.events', { accountId: 'acct-1', generation: 1, events: [ev('realm_emoji')] });
    expect(stale()).toEqual(['/realm/emoji']);
    stop();
    test.push('account.events', { accountId: 'acct-1', generation: 1, events: [ev('attachment')] });
    expect(stale()).toEqual(['/realm/emoji']);
  });
});

describe('the api bridge helpers', () => {
  it('callApi sends api.call and answers the body', async () => {
    const test = createTestBridge();
    test.handle('api.call', () => ({ streams: [] }));
    expect(await callApi(test.bridge, 'acct-1', 'GET', '/streams', { include_public: true })).toEqual({
      streams: [],
    });
    expect(test.calls).toEqual([
      {
        channel: 'api.call',
        request: { accountId: 'acct-1', method: 'GET', path: '/streams', params: { include_public: true } },
      },
    ]);
    await callApi(test.bridge, 'acct-1', 'GET', '/users/me');
    expect(test.calls[1]?.request).toEqual({ accountId: 'acct-1', method: 'GET', path: '/users/me' });
  });

  it('callApi throws the refusal with its code', async () => {
    const test = createTestBridge();
    const pending = callApi(test.bridge, 'acct-1', 'POST', '/register');
    test.held[0]?.resolve({
      ok: false,
      error: { message: 'Refused: POST /register: …', code: 'BAD_REQUEST' },
    });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IpcCallError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'Refused: POST /register: …' });
  });

  it('uploadApi sends the file as base64 with its name and type', async () => {
    const test = createTestBridge();
    test.handle('api.upload', () => ({ url: '/user_uploads/1/x/a.txt' }));
    const bytes = new Uint8Array(70_000).map((_, i) => i % 256);
    const file = { name: 'a.bin', type: 'application/octet-stream', arrayBuffer: async () => bytes.buffer };
    expect(await uploadApi(test.bridge, 'acct-1', '/user_uploads', file)).toEqual({
      url: '/user_uploads/1/x/a.txt',
    });
    expect(test.calls[0]?.request).toEqual({
      accountId: 'acct-1',
      path: '/user_uploads',
      fileName: 'a.bin',
      mimeType: 'application/octet-stream',
      dataBase64: btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join('')),
    });
  });

  it('isPartiallyCompleted reads the code of a partial answer', () => {
    expect(isPartiallyCompleted({ code: 'REQUEST_TIMEOUT', updated_count: 2000 })).toBe(true);
    expect(isPartiallyCompleted({})).toBe(false);
  });
});

describe('event batches reach onEvents listeners', () => {
  it('after the store applied them, for every account', async () => {
    const test = createTestBridge();
    test.handle('app.getState', () => ({
      accounts: [
        {
          id: 'acct-1',
          serverUrl: 'http://x',
          email: 'a@x',
          userId: 12,
          fullName: null,
          serviceVersion: null,
          featureLevel: null,
        },
      ],
      activeAccountId: 'acct-1',
    }));
    test.handle('account.getSnapshot', () => snapshotFixture());
    test.handle('account.getConnection', () => ({ status: 'connected', nextRetryAt: null, lastError: null }));
    const sync = createSync(test.bridge);
    await sync.resync();
    await flush();
    const seen: unknown[] = [];
    const stop = sync.onEvents((batch) => {
      seen.push([batch.accountId, sync.registry.getState().stores['acct-1']?.getState().lastEventId]);
    });
    const batch = {
      accountId: 'acct-1',
      generation: 1,
      events: [{ id: 9, type: 'heartbeat' } as ServerEvent],
    };
    test.push('account.events', batch);
    expect(seen).toEqual([['acct-1', 9]]);
    stop();
    test.push('account.events', { ...batch, events: [{ id: 10, type: 'heartbeat' } as ServerEvent] });
    expect(seen).toHaveLength(1);
  });
});
