/**
 * Messages through the core against the real server, with a TCP proxy (test/support/proxy.ts)
 * between the core and the server to take the network away: messages.fetch stores pages and
 * answers from the cache when the server is out of reach; live events keep the cache right; the
 * outbox sends in order and exactly once, across outages, restarts and a crash mid-send; a
 * refused message carries the server's words and can be retried; sign-out deletes the cache and
 * the outbox; a start without the server shows the last known state.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient, FetchLike } from '../../../shared/client';
import type { Narrow } from '../../../shared/domain';
import type {
  AccountSnapshot,
  AccountSummary,
  ConnectionState,
  MessagePage,
  OutboxItem,
  PushPayloads,
} from '../../../shared/ipc';
import type { Message, ServerEvent } from '../../../shared/protocol';
import {
  coreTestBed,
  pushedConnected,
  type RecordedRequest,
  recordingFetch,
  type TestCore,
  waitFor,
} from '../../../test/support/core';
import { startProxy, type TestProxy } from '../../../test/support/proxy';
import { loginAs, type StartedServer } from '../../../test/support/server';
import { cacheFileFor, outboxFileFor } from '.';

let server: StartedServer;
const bed = coreTestBed(
  'confab-messages-',
  { args: ['--heartbeat-seconds', '1', '--longpoll-seconds', '2'] },
  (s) => {
    server = s;
  },
);

const proxies: TestProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

let topics = 0;
const freshTopic = () => `topic ${++topics} ${Date.now()}`;

async function newProxy(): Promise<TestProxy> {
  const proxy = await startProxy({ port: server.port });
  proxies.push(proxy);
  return proxy;
}

/**
 * A fetch whose first POST /messages reaches the server, then `lose` decides what the core gets
 * instead of the answer (an error at once, or one when the request gives up); `count` tells how
 * many POSTs went through it.
 */
function losingFirstPost(lose: (init: Parameters<FetchLike>[1]) => Promise<never>) {
  let posts = 0;
  const wrap =
    (inner: FetchLike): FetchLike =>
    async (url, init) => {
      const response = await inner(url, init);
      if (init.method === 'POST' && new URL(url).pathname.endsWith('/api/v1/messages') && posts++ === 0) {
        await response.text();
        return lose(init);
      }
      return response;
    };
  return { wrap, count: () => posts };
}

async function streamIdOf(client: ApiClient, name: string): Promise<number> {
  const { streams } = (await client.request('GET', '/streams')) as {
    streams: { stream_id: number; name: string }[];
  };
  const stream = streams.find((s) => s.name === name);
  if (!stream) throw new Error(`no stream ${name}`);
  return stream.stream_id;
}

/**
 * A core signed in as alice through `proxy`, connected, with its requests recorded; `wrap`
 * puts a fault between the core and the recorder.
 */
async function aliceThrough(proxy: TestProxy, profileDir?: string, wrap?: (fetch: FetchLike) => FetchLike) {
  const wire = recordingFetch();
  const fetch = wrap ? wrap(wire.fetch) : wire.fetch;
  const t = await bed.start({ fetch, ...(profileDir ? { profileDir } : {}) });
  const account = await t.ok<AccountSummary>('accounts.signIn', {
    serverUrl: proxy.url,
    email: server.demo.users.alice,
    password: server.demo.password,
  });
  await pushedConnected(t, account.id);
  return { t, wire, account };
}

/** A core started on an existing profile (its account signed in before), requests recorded. */
async function restart(profileDir: string) {
  const wire = recordingFetch();
  const t = await bed.start({ fetch: wire.fetch, profileDir });
  return { t, wire };
}

const fetchPage = (t: TestCore, accountId: string, narrow: Narrow, numBefore = 100) =>
  t.invoke<MessagePage>('messages.fetch', { accountId, narrow, anchor: 'newest', numBefore, numAfter: 0 });

const okPage = async (t: TestCore, accountId: string, narrow: Narrow, numBefore = 100) => {
  const result = await fetchPage(t, accountId, narrow, numBefore);
  if (!result.ok) throw new Error(`messages.fetch failed: ${result.error.message}`);
  return result.value;
};

/** Waits until the core tells that the account is no longer connected. */
const pushedCutOff = (t: TestCore, accountId: string) =>
  waitFor('the connection lost', () =>
    t.pushes.some(
      (p) =>
        p.channel === 'account.connection' &&
        (p.payload as { accountId: string }).accountId === accountId &&
        (p.payload as { state: ConnectionState }).state.status === 'reconnecting',
    ),
  );

/** The events the core pushed for the account so far. */
const pushedEvents = (t: TestCore) =>
  t.pushes
    .filter((p) => p.channel === 'account.events')
    .flatMap((p) => (p.payload as PushPayloads['account.events']).events) as ServerEvent[];

/** The latest outbox the core pushed for the account. */
function lastOutbox(t: TestCore): OutboxItem[] | undefined {
  const last = t.pushes.filter((p) => p.channel === 'outbox.changed').at(-1);
  return (last?.payload as PushPayloads['outbox.changed'] | undefined)?.items;
}

/** Every item of every outbox the core pushed, in order. */
const outboxHistory = (t: TestCore) =>
  t.pushes
    .filter((p) => p.channel === 'outbox.changed')
    .flatMap((p) => (p.payload as PushPayloads['outbox.changed']).items);

/** Our messages in a topic, oldest first, as their Markdown source. */
async function topicMessages(client: ApiClient, streamId: number, topic: string): Promise<Message[]> {
  const body = await client.request('GET', '/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    apply_markdown: false,
    narrow: [
      { operator: 'stream', operand: streamId },
      { operator: 'topic', operand: topic },
    ],
  });
  return body.messages as Message[];
}

const posts = (wire: { requests: RecordedRequest[] }) =>
  wire.requests.filter((r) => r.method === 'POST' && r.url.pathname.endsWith('/api/v1/messages'));
const formOf = (r: RecordedRequest) => new URLSearchParams(String(r.init.body ?? ''));

async function post(client: ApiClient, streamId: number, topic: string, content: string): Promise<number> {
  const body = await client.request('POST', '/messages', { type: 'stream', to: streamId, topic, content });
  return body.id as number;
}

describe('messages.fetch and the offline cache', () => {
  it('answers from the cache when the server cannot be reached, and fails for what it never saw', async () => {
    const proxy = await newProxy();
    const { t, account } = await aliceThrough(proxy);
    const alice = await loginAs(server, 'alice');
    const streamId = await streamIdOf(alice, 'engineering');
    const topic = freshTopic();
    const sent = [];
    for (const n of [1, 2, 3]) sent.push(await post(alice, streamId, topic, `cached **${n}**`));
    const narrow: Narrow = { kind: 'topic', streamId, topic };

    const online = await okPage(t, account.id, narrow);
    expect(online).toMatchObject({
      fromCache: false,
      foundOldest: true,
      foundNewest: true,
      foundAnchor: false,
    });
    expect(online.messages.map((m) => m.id)).toEqual(sent);
    // Rendered (apply_markdown), as the view shows it.
    expect(online.messages[0]?.content).toBe('<p>cached <strong>1</strong></p>');

    await proxy.cut();
    // At once (the request fails on the way) and once the session knows it is cut off.
    const first = await okPage(t, account.id, narrow);
    await pushedCutOff(t, account.id);
    const offline = await okPage(t, account.id, narrow);
    for (const page of [first, offline]) {
      expect(page).toEqual({ ...online, fromCache: true });
    }
    // A narrow never fetched: the usual error.
    const never = await fetchPage(t, account.id, { kind: 'topic', streamId, topic: freshTopic() });
    expect(never).toMatchObject({ ok: false, error: { code: 'NETWORK_ERROR' } });
    // Searches are not cached.
    await proxy.restore();
    t.core.wakeAll();
    await waitFor('connected again', async () => {
      const state = await t.ok<ConnectionState>('account.getConnection', { accountId: account.id });
      return state.status === 'connected';
    });
    const search: Narrow = { kind: 'search', query: 'cached' };
    const terms = [{ operator: 'search', operand: 'cached' }];
    const found = await t.ok<MessagePage>('messages.fetch', {
      accountId: account.id,
      narrow: search,
      terms,
      anchor: 'newest',
      numBefore: 10,
      numAfter: 0,
    });
    expect(found.fromCache).toBe(false);
    await proxy.cut();
    await pushedCutOff(t, account.id);
    const again = await t.invoke('messages.fetch', {
      accountId: account.id,
      narrow: search,
      terms,
      anchor: 'newest',
      numBefore: 10,
      numAfter: 0,
    });
    expect(again.ok).toBe(false);
  });

  it('keeps cached messages current with the live events: new, edited, deleted, reacted, starred', async () => {
    const proxy = await newProxy();
    const { t, account } = await aliceThrough(proxy);
    const alice = await loginAs(server, 'alice');
    const bob = await loginAs(server, 'bob');
    const owner = await loginAs(server, 'owner');
    const streamId = await streamIdOf(alice, 'engineering');
    const topic = freshTopic();
    const m1 = await post(alice, streamId, topic, 'one');
    const m2 = await post(alice, streamId, topic, 'two');
    const m3 = await post(alice, streamId, topic, 'three');
    const narrow: Narrow = { kind: 'topic', streamId, topic };
    await okPage(t, account.id, narrow);
    const starredBefore = await okPage(t, account.id, { kind: 'starred' });
    expect(starredBefore.foundNewest).toBe(true);

    await alice.request('PATCH', `/messages/${m1}`, { content: 'one, *edited*' });
    await owner.request('DELETE', `/messages/${m2}`);
    await bob.request('POST', `/messages/${m3}/reactions`, { emoji_name: 'octopus' });
    await alice.request('POST', '/messages/flags', { messages: [m3], op: 'add', flag: 'starred' });
    const m4 = await post(bob, streamId, topic, 'four');
    await waitFor('every event', () => {
      const events = pushedEvents(t);
      return (
        events.some((e) => e.type === 'message' && e.message.id === m4) &&
        events.some((e) => e.type === 'update_message_flags' && e.messages.includes(m3))
      );
    });

    await proxy.cut();
    await pushedCutOff(t, account.id);
    const cached = await okPage(t, account.id, narrow);
    expect(cached.fromCache).toBe(true);
    expect(cached.messages.map((m) => m.id)).toEqual([m1, m3, m4]);
    expect(cached.messages[0]).toMatchObject({ content: '<p>one, <em>edited</em></p>' });
    expect(cached.messages[0]?.last_edit_timestamp).toEqual(expect.any(Number));
    const bobId = (await bob.getOwnUser()).user_id;
    expect(cached.messages[1]?.reactions).toEqual([
      { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: bobId },
    ]);
    expect(cached.messages[1]?.flags).toContain('starred');
    expect(cached.messages[2]).toMatchObject({ content: '<p>four</p>', sender_id: bobId });
    const starred = await okPage(t, account.id, { kind: 'starred' });
    expect(starred.messages.map((m) => m.id)).toContain(m3);
  });
});

describe('the outbox', () => {
  it('sends in order, exactly once, with the queue id and the local id', async () => {
    const proxy = await newProxy();
    const { t, wire, account } = await aliceThrough(proxy);
    const alice = await loginAs(server, 'alice');
    const streamId = await streamIdOf(alice, 'engineering');
    const topic = freshTopic();
    const items: OutboxItem[] = [];
    for (const n of [1, 2, 3, 4, 5])
      items.push(
        await t.ok<OutboxItem>('outbox.send', {
          accountId: account.id,
          message: { type: 'stream', to: [streamId], topic, content: `in order ${n}` },
        }),
      );
    expect(items[0]).toMatchObject({ status: 'queued', error: null, messageId: null, content: 'in order 1' });
    expect(new Set(items.map((i) => i.localId)).size).toBe(5);
    await waitFor('all sent and seen', () => lastOutbox(t)?.length === 0);

    const onServer = await topicMessages(alice, streamId, topic);
    expect(onServer.map((m) => m.content)).toEqual([1, 2, 3, 4, 5].map((n) => `in order ${n}`));
    const sent = posts(wire);
    expect(sent).toHaveLength(5);
    const queueIds = new Set(sent.map((r) => formOf(r).get('queue_id')));
    expect(queueIds.size).toBe(1);
    expect([...queueIds][0]).toMatch(/.+/);
    expect(sent.map((r) => formOf(r).get('local_id'))).toEqual(items.map((i) => i.localId));
    expect(sent.map((r) => formOf(r).get('to'))).toEqual(Array(5).fill(`[${streamId}]`));
    // Each item was queued, then sending, then (once its event came) gone; never back.
    const order = ['queued', 'sending', 'sent'];
    for (const item of items) {
      const seen = outboxHistory(t)
        .filter((i) => i.localId === item.localId)
        .map((i) => order.indexOf(i.status));
      expect(seen[0]).toBe(0);
      expect(seen).toContain(1);
      expect(seen).toEqual([...seen].sort());
    }
    expect(await t.ok('outbox.list', { accountId: account.id })).toEqual([]);
  });

  it('keeps a message written offline, and sends it once the server is reachable', async () => {
    const proxy = await newProxy();
    const { t, wire, account } = await aliceThrough(proxy);
    const alice = await loginAs(server, 'alice');
    const streamId = await streamIdOf(alice, 'engineering');
    const topic = freshTopic();
    await proxy.cut();
    await pushedCutOff(t, account.id);
    for (const n of [1, 2])
      await t.ok('outbox.send', {
        accountId: account.id,
        message: { type: 'stream', to: [streamId], topic, content: `offline ${n}` },
      });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(posts(wire).filter((r) => r.outcome === 'response')).toEqual([]);
    expect((await t.ok<OutboxItem[]>('outbox.list', { accountId: account.id })).map((i) => i.status)).toEqual(
      ['queued', 'queued'],
    );

    await proxy.restore();
    t.core.wakeAll();
    await waitFor('all sent and seen', () => lastOutbox(t)?.length === 0);
    expect((await topicMessages(alice, streamId, topic)).map((m) => m.content)).toEqual([
      'offline 1',
      'offline 2',
    ]);
  });

  it('sends what was queued before a restart, in order', async () => {
    const proxy = await newProxy();
    const first = await aliceThrough(proxy);
    const alice = await loginAs(server, 'alice');
    const streamId = await streamIdOf(alice, 'engineering');
    const topic = freshTopic();
    await proxy.cut();
    await pushedCutOff(first.t, first.account.id);
    for (const n of [1, 2, 3])
      await first.t.ok('outbox.send', {
        accountId: first.account.id,
        message: { type: 'stream', to: [streamId], topic, content: `after restart ${n}` },
      });
    await first.t.core.stop();

    await proxy.restore();
    const second = await restart(first.t.profileDir);
    expect(await second.t.ok<OutboxItem[]>('outbox.list', { accountId: first.account.id })).toHaveLength(3);
    await waitFor('all sent', async () => (await topicMessages(alice, streamId, topic)).length === 3);
    expect((await topicMessages(alice, streamId, topic)).map((m) => m.content)).toEqual([
      'after restart 1',
      'after restart 2',
      'after restart 3',
    ]);
    await waitFor('the outbox empty', () => lastOutbox(second.t)?.length === 0);
    expect(posts(second.wire)).toHaveLength(3);
  });

  it('never sends twice what a crash left sending: looks for it on the server first', async () => {
    const proxy = await newProxy();
    const first = await aliceThrough(proxy);
    await first.t.core.stop();
    const alice = await loginAs(server, 'alice');
    const streamId = await streamIdOf(alice, 'engineering');
    const topic = freshTopic();
    const createdAt = Date.now() - 1000;
    // The POST of the first reached the server before the app died; the second's never did.
    const reached = await post(alice, streamId, topic, 'made it before the crash');
    const item = (localId: string, content: string) => ({
      localId,
      type: 'stream',
      to: [streamId],
      topic,
      content,
      createdAt,
      status: 'sending',
      error: null,
      messageId: null,
      unsure: true,
    });
    const file = outboxFileFor(first.t.profileDir, first.account.id);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(
      file,
      JSON.stringify({
        items: [item('crash-1', 'made it before the crash'), item('crash-2', 'lost in the crash')],
        claimed: [],
      }),
    );

    const second = await restart(first.t.profileDir);
    await waitFor('both settled', () => lastOutbox(second.t)?.length === 0);
    const onServer = await topicMessages(alice, streamId, topic);
    expect(onServer.map((m) => m.content)).toEqual(['made it before the crash', 'lost in the crash']);
    // Only the one the server lacked was posted.
    expect(posts(second.wire).map((r) => formOf(r).get('content'))).toEqual(['lost in the crash']);
    const sentAs = new Map(
      outboxHistory(second.t)
        .filter((i) => i.status === 'sent')
        .map((i) => [i.localId, i.messageId]),
    );
    // The one found on the server was settled with its id, without a POST.
    expect(sentAs.get('crash-1')).toBe(reached);
    expect(sentAs.get('crash-2') ?? onServer[1]?.id).toBe(onServer[1]?.id);
  });

  it('never sends twice a message whose answer was lost on the way back', async () => {
    const proxy = await newProxy();
    // The first POST /messages reaches the server; its answer never reaches us.
    const lost = losingFirstPost(async () => {
      throw new TypeError('fetch failed');
    });
    const { t, wire, account } = await aliceThrough(proxy, undefined, lost.wrap);
    const alice = await loginAs(server, 'alice');
    const streamId = await streamIdOf(alice, 'engineering');
    const topic = freshTopic();
    await t.ok('outbox.send', {
      accountId: account.id,
      message: { type: 'stream', to: [streamId], topic, content: 'answer lost' },
    });
    await waitFor('settled', () => lastOutbox(t)?.length === 0);
    expect((await topicMessages(alice, streamId, topic)).map((m) => m.content)).toEqual(['answer lost']);
    // Not sent again: its echo on our queue, or a look on the server, said it was there.
    expect(posts(wire)).toHaveLength(1);
  });

  it('takes a message out of the outbox when its echo comes, though the answer never does', async () => {
    const proxy = await newProxy();
    // The first POST /messages reaches the server; its answer hangs until the request gives up.
    const held = losingFirstPost(
      (init) =>
        new Promise<never>((_, reject) =>
          (init.signal as AbortSignal | undefined)?.addEventListener('abort', () =>
            reject(new TypeError('fetch failed')),
          ),
        ),
    );
    const { t, wire, account } = await aliceThrough(proxy, undefined, held.wrap);
    const alice = await loginAs(server, 'alice');
    const streamId = await streamIdOf(alice, 'engineering');
    const topic = freshTopic();
    const item = await t.ok<OutboxItem>('outbox.send', {
      accountId: account.id,
      message: { type: 'stream', to: [streamId], topic, content: 'echo only' },
    });
    // The echo (local_message_id on our queue) settles it while the POST still waits.
    await waitFor('settled by the echo', () => lastOutbox(t)?.length === 0);
    expect(held.count()).toBe(1);
    const [message] = await topicMessages(alice, streamId, topic);
    expect(message?.content).toBe('echo only');
    const pushedSent = t.pushes
      .filter((p) => p.channel === 'outbox.changed')
      .flatMap((p) => (p.payload as PushPayloads['outbox.changed']).items)
      .filter((i) => i.localId === item.localId);
    expect(pushedSent.at(-1)?.status).not.toBe('failed');
    expect(posts(wire)).toHaveLength(1);
  });

  it("shows the server's refusal, retries and discards on request", async () => {
    const proxy = await newProxy();
    const { t, wire, account } = await aliceThrough(proxy);
    const alice = await loginAs(server, 'alice');
    const admin = await loginAs(server, 'owner');
    const announce = await streamIdOf(alice, 'announce');
    const topic = freshTopic();
    const refusal = await alice
      .request('POST', '/messages', { type: 'stream', to: announce, topic, content: 'probe' })
      .then(
        () => null,
        (error: Error) => error.message,
      );
    expect(refusal).toBe('Only organization administrators can send to this stream.');

    const item = await t.ok<OutboxItem>('outbox.send', {
      accountId: account.id,
      message: { type: 'stream', to: [announce], topic, content: 'to the announcements' },
    });
    const failed = await waitFor('refused', () => lastOutbox(t)?.find((i) => i.status === 'failed'));
    expect(failed).toMatchObject({ localId: item.localId, error: refusal, messageId: null });
    expect(posts(wire)).toHaveLength(1);

    // Allowed now: a retry goes out.
    await admin.request('PATCH', `/streams/${announce}`, { stream_post_policy: 1 });
    try {
      const retried = await t.ok<OutboxItem>('outbox.retry', {
        accountId: account.id,
        localId: item.localId,
      });
      expect(retried).toMatchObject({ status: 'queued', error: null });
      await waitFor('sent and seen', () => lastOutbox(t)?.length === 0);
      expect((await topicMessages(alice, announce, topic)).map((m) => m.content)).toEqual([
        'to the announcements',
      ]);
      expect(posts(wire)).toHaveLength(2);
    } finally {
      await admin.request('PATCH', `/streams/${announce}`, { stream_post_policy: 2 });
    }

    // Refused again, then discarded; an unknown one is said to be so.
    const second = await t.ok<OutboxItem>('outbox.send', {
      accountId: account.id,
      message: { type: 'stream', to: [announce], topic, content: 'again' },
    });
    await waitFor('refused again', () =>
      lastOutbox(t)?.find((i) => i.localId === second.localId && i.status === 'failed'),
    );
    expect(await t.ok('outbox.discard', { accountId: account.id, localId: second.localId })).toEqual([]);
    expect(await t.invoke('outbox.retry', { accountId: account.id, localId: second.localId })).toMatchObject({
      ok: false,
      error: { code: 'OUTBOX_ITEM_NOT_FOUND' },
    });
  });
});

describe('the cache and the outbox with the account', () => {
  it('are deleted on sign-out', async () => {
    const proxy = await newProxy();
    const { t, account } = await aliceThrough(proxy);
    const alice = await loginAs(server, 'alice');
    const streamId = await streamIdOf(alice, 'engineering');
    await okPage(t, account.id, { kind: 'stream', streamId });
    await proxy.cut();
    await t.ok('outbox.send', {
      accountId: account.id,
      message: { type: 'stream', to: [streamId], topic: freshTopic(), content: 'never sent' },
    });
    const cacheFile = cacheFileFor(t.profileDir, account.id);
    const outboxFile = outboxFileFor(t.profileDir, account.id);
    expect(existsSync(cacheFile)).toBe(true);
    expect(existsSync(outboxFile)).toBe(true);
    // Neither holds the key (the same one the server gives alice everywhere), nor its Basic form.
    const key = alice.credentials?.apiKey as string;
    expect(key.length).toBeGreaterThan(10);
    for (const file of [cacheFile, `${cacheFile}-wal`, outboxFile].filter((f) => existsSync(f))) {
      const bytes = await readFile(file);
      expect(bytes.includes(key), file).toBe(false);
      expect(bytes.includes(Buffer.from(`${server.demo.users.alice}:${key}`).toString('base64')), file).toBe(
        false,
      );
    }

    await t.ok('accounts.signOut', { accountId: account.id });
    for (const file of [cacheFile, `${cacheFile}-wal`, `${cacheFile}-shm`, outboxFile])
      expect(existsSync(file)).toBe(false);
  });

  it('starts without the server on the last known state, until a fresh register replaces it', async () => {
    const proxy = await newProxy();
    const first = await aliceThrough(proxy);
    const alice = await loginAs(server, 'alice');
    const streamId = await streamIdOf(alice, 'engineering');
    const narrow: Narrow = { kind: 'stream', streamId };
    const online = await okPage(first.t, first.account.id, narrow, 20);
    const real = await first.t.ok<AccountSnapshot>('account.getSnapshot', { accountId: first.account.id });
    await first.t.core.stop();
    await proxy.cut();

    const second = await restart(first.t.profileDir);
    const id = first.account.id;
    const cachedPush = await waitFor('the cached snapshot', () =>
      second.t.pushes.find((p) => p.channel === 'account.snapshot'),
    );
    const cached = cachedPush.payload as AccountSnapshot;
    expect(cached).toMatchObject({ accountId: id, generation: -1, cached: true });
    expect(cached.state.user_id).toBe(real.state.user_id);
    expect(cached.state.subscriptions).toEqual(real.state.subscriptions);
    expect(JSON.stringify(cached)).not.toContain('queue_id');
    expect(await second.t.ok('account.getSnapshot', { accountId: id })).toEqual(cached);
    const page = await okPage(second.t, id, narrow, 20);
    expect(page).toEqual({ ...online, fromCache: true });

    await proxy.restore();
    second.t.core.wakeAll();
    await waitFor('a fresh snapshot', () =>
      second.t.pushes.some(
        (p) => p.channel === 'account.snapshot' && (p.payload as AccountSnapshot).generation === 0,
      ),
    );
    const fresh = await second.t.ok<AccountSnapshot>('account.getSnapshot', { accountId: id });
    expect(fresh.generation).toBe(0);
    expect(fresh.cached).toBeUndefined();
  });
});

describe('Core.openNarrow', () => {
  it('makes the account active, then asks the windows to show the conversation', async () => {
    const t = await bed.start();
    const alice = await t.ok<AccountSummary>('accounts.signIn', {
      serverUrl: server.url,
      email: server.demo.users.alice,
      password: server.demo.password,
    });
    const bob = await t.ok<AccountSummary>('accounts.signIn', {
      serverUrl: server.url,
      email: server.demo.users.bob,
      password: server.demo.password,
    });
    await t.ok('accounts.setActive', { accountId: bob.id });
    const narrow: Narrow = { kind: 'dm', userIds: [bob.userId as number] };
    const before = t.pushes.length;
    await t.core.openNarrow(alice.id, narrow, 42);
    // Among them: only app pushes (the sessions report on their own).
    const after = t.pushes.slice(before).filter((p) => p.channel.startsWith('app.'));
    expect(after.map((p) => p.channel)).toEqual(['app.state', 'app.openNarrow']);
    expect(after[0]?.payload).toMatchObject({ activeAccountId: alice.id });
    expect(after[1]?.payload).toEqual({ accountId: alice.id, narrow, messageId: 42 });
    await expect(t.core.openNarrow('acct-unknown', narrow, null)).rejects.toThrow();
    expect(t.pushes.filter((p) => p.channel === 'app.openNarrow')).toHaveLength(1);
    // A window that missed the push (created for the click) takes the request, once.
    expect(await t.ok('app.takeOpenNarrow', {})).toEqual({ accountId: alice.id, narrow, messageId: 42 });
    expect(await t.ok('app.takeOpenNarrow', {})).toBeNull();
  });
});
