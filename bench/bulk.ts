/**
 * The bulk section of `npm run bench`: long writes that touch tens of thousands of rows in one
 * request, and how long the server stops answering anyone else while they run.
 *
 * - One request by an administrator subscribing 2 000 people to 10 streams, while 200 of those
 *   people hold a waiting long-poll (so the subscription events are really built and sent);
 *   timed, and the longest stall a cheap request saw meanwhile (probeStalls); then the same
 *   request with DELETE, unsubscribing them all again, timed likewise.
 * - Marking 20 000 unread messages of a stream as read (POST /mark_stream_as_read), marking
 *   20 000 others as read (POST /mark_all_as_read, repeated while it answers
 *   partially_completed), marking 5 000 of them unread again (POST /messages/flags/narrow, as
 *   "mark unread from here" does), and deleting a topic of 10 000 messages (POST
 *   /streams/{id}/delete_topic, repeated likewise): the longest stall during each.
 *
 * Each row also gives the server's CPU time for the request, which other load on a shared
 * machine inflates much less than the wall-clock figures.
 *
 * The messages are written straight into the stopped server's database with the server's own
 * db/ functions, as bench/seed.ts writes the people: sending 50 000 messages through the API
 * would take minutes and measure ingest, which has its own section.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { openDatabase } from '../server/db';
import { insertMessage } from '../server/db/messages';
import { requireRealm } from '../server/db/realm';
import { subscribe } from '../server/db/streams';
import { getUserByEmail } from '../server/db/users';
import { ApiClient } from '../shared/client';
import { loginAs, type StartedServer } from '../test/support/server';
import { startSeededServer } from './seed';
import { basicAuth, ms, probeStalls, processCpuMs, progress, QUICK, report, sleep } from './support';

const SIZES = QUICK
  ? { users: 500, streams: 10, queues: 50, unread: 5_000, topic: 2_000 }
  : { users: 2_000, streams: 10, queues: 200, unread: 20_000, topic: 10_000 };

/** Streams after the bulk ones: the admin's stream to mark read, the one for mark-all, the topic to delete. */
const EXTRA_STREAMS = 3;
const STALL_TARGET_MS = 50;
const TOPIC_TO_DELETE = 'to be deleted';

export async function bulkBench(): Promise<void> {
  const { server, seeded } = await startSeededServer({
    users: SIZES.users,
    streams: SIZES.streams + EXTRA_STREAMS,
    subscriptionsPerUser: 0,
  });
  try {
    const [readStream, allStream, topicStream] = seeded.streamIds.slice(SIZES.streams);
    if (readStream === undefined || allStream === undefined || topicStream === undefined)
      throw new Error('seeding made too few streams');
    await seedMessages(server, { readStream, allStream, topicStream });

    const admin = await loginAs(server, 'admin');
    // Spread over the people, as connected clients would be: every slice of the request has
    // some, and those of the later slices get the long member lists.
    const every = Math.floor(SIZES.users / SIZES.queues);
    const pollers = await startPollers(
      server,
      seeded.users.filter((_, i) => i % every === 0).slice(0, SIZES.queues),
    );
    try {
      await bulkSubscribe(
        server,
        admin,
        seeded.users.map((u) => u.id),
        seeded.streamNames.slice(0, SIZES.streams),
        pollers,
      );
      await bulkUnsubscribe(
        server,
        admin,
        seeded.users.map((u) => u.id),
        seeded.streamNames.slice(0, SIZES.streams),
        pollers,
      );
      await markStreamRead(server, admin, readStream);
      await markAllRead(server, admin);
      await markUnreadByNarrow(server, admin, streamNameOf(seeded.streamNames, SIZES.streams));
      await deleteTopic(server, admin, topicStream);
    } finally {
      await pollers.stop();
    }
  } finally {
    await server.dispose();
  }
}

/**
 * The admin's unread messages: `unread` in one stream (for mark_stream_as_read) and as many
 * in another (for mark_all_as_read), and a topic of `topic` read messages in a third (for
 * delete_topic); written with the server stopped, then the server started again on the same
 * data.
 */
async function seedMessages(
  server: StartedServer,
  streams: { readStream: number; allStream: number; topicStream: number },
): Promise<void> {
  await server.stop();
  progress(`seeding ${2 * SIZES.unread + SIZES.topic} messages`);
  const db = openDatabase(server.dataDir);
  try {
    const realmId = requireRealm(db).id;
    const admin = getUserByEmail(db, realmId, server.demo.users.admin);
    const sender = getUserByEmail(db, realmId, server.demo.users.alice);
    if (!admin || !sender) throw new Error('the demo organization lacks admin or alice');
    const now = Math.floor(Date.now() / 1000);
    db.transaction(() => {
      for (const streamId of [streams.readStream, streams.allStream, streams.topicStream]) {
        subscribe(db, admin.id, streamId);
        subscribe(db, sender.id, streamId);
      }
      const write = (streamId: number, topic: string, n: number, readBy: number[] = []) => {
        for (let i = 0; i < n; i++)
          insertMessage(db, {
            realmId,
            senderId: sender.id,
            to: { stream: streamId, topic },
            content: `Bench message ${i}`,
            renderedContent: `<p>Bench message ${i}</p>`,
            dateSent: now,
            readBy,
          });
      };
      write(streams.readStream, 'unread', SIZES.unread);
      write(streams.allStream, 'unread', SIZES.unread);
      // Read already: mark_all_as_read is to find only the other stream's.
      write(streams.topicStream, TOPIC_TO_DELETE, SIZES.topic, [admin.id]);
    }).immediate();
  } finally {
    db.close();
  }
  await server.restart();
}

interface Pollers {
  /** Events received so far by type and op (`subscription add`, `subscription peer_add` …). */
  received: Map<string, number>;
  stop(): Promise<void>;
}

/**
 * The long-poll loop of every queue, run in a worker thread: the answers carry megabytes of
 * JSON (each `add` event lists every stream's subscribers), and parsing them on this thread
 * would delay probeStalls' answers and charge the bench's own lag to the server. Plain
 * JavaScript (an eval'd worker is CommonJS and gets no TypeScript loader) on Node's fetch.
 */
const POLLER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const abort = new AbortController();
parentPort.on('message', () => abort.abort());
const counts = {};
async function loop(q) {
  let last = q.lastEventId;
  for (;;) {
    const url = workerData.origin + '/api/v1/events?queue_id=' + encodeURIComponent(q.queueId) + '&last_event_id=' + last;
    const response = await fetch(url, { headers: { authorization: q.authorization }, signal: abort.signal });
    const body = JSON.parse(await response.text());
    if (body.result !== 'success') throw new Error('GET /events: ' + body.msg);
    for (const event of body.events) {
      last = Math.max(last, event.id);
      const key = event.op === undefined ? event.type : event.type + ' ' + event.op;
      counts[key] = (counts[key] || 0) + 1;
    }
    parentPort.postMessage(counts);
  }
}
Promise.allSettled(workerData.queues.map(loop)).then((ends) => {
  const failed = ends.find((end) => end.status === 'rejected' && !abort.signal.aborted);
  if (failed) throw failed.reason;
  process.exit(0);
});
`;

/**
 * One event queue per person (registered here), each with a long-poll waiting at all times
 * (polled again as soon as it answers, in a worker thread), as a connected client keeps one.
 */
async function startPollers(
  server: StartedServer,
  people: { email: string; apiKey: string }[],
): Promise<Pollers> {
  progress(`registering ${people.length} event queues`);
  const queues = await Promise.all(
    people.map(async (person) => {
      const client = new ApiClient({ serverUrl: server.url, credentials: person });
      const queue = await client.registerQueue({
        event_types: ['subscription', 'stream', 'message', 'update_message_flags', 'delete_message'],
      });
      if (!queue.queue_id) throw new Error('no queue');
      return {
        queueId: queue.queue_id,
        lastEventId: queue.last_event_id,
        authorization: basicAuth(person.email, person.apiKey).authorization,
      };
    }),
  );
  const received = new Map<string, number>();
  const worker = new Worker(POLLER_SOURCE, { eval: true, workerData: { origin: server.url, queues } });
  worker.on('message', (counts: Record<string, number>) => {
    for (const [key, n] of Object.entries(counts)) received.set(key, n);
  });
  const failure = new Promise<never>((_, reject) => worker.once('error', reject));
  failure.catch(() => {});
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    received,
    async stop() {
      worker.postMessage('stop');
      await Promise.race([exited, failure]);
    },
  };
}

/** What `timed` measured: the work's value, its wall time, and the server's CPU time meanwhile. */
interface Timed<T> {
  value: T;
  elapsedMs: number;
  serverCpuMs: number;
}

/**
 * Times `work` (wall clock, and the server process's CPU time, which other load on the
 * machine does not inflate as much), then lets half a second pass before resolving.
 * probeStalls reads its figures as soon as the work resolves, before its last probe is
 * answered; when the server was blocked until the work's answer, that last probe is the one
 * that waited longest, so it must land first. The grace also catches a stall right after the
 * answer (events being delivered).
 */
async function timed<T>(serverPid: number, work: () => Promise<T>): Promise<Timed<T>> {
  const cpu0 = processCpuMs(serverPid);
  const t0 = performance.now();
  const value = await work();
  const elapsedMs = performance.now() - t0;
  const serverCpuMs = processCpuMs(serverPid) - cpu0;
  await sleep(500);
  return { value, elapsedMs, serverCpuMs };
}

/** Waits until `check` holds, for at most `limitMs`. */
async function until(check: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = performance.now() + limitMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

async function bulkSubscribe(
  server: StartedServer,
  admin: ApiClient,
  userIds: number[],
  streamNames: string[],
  pollers: Pollers,
): Promise<void> {
  progress(`subscribing ${userIds.length} people to ${streamNames.length} streams`);
  const { value, longestMs, probes } = await probeStalls(
    server.url,
    timed(server.pid, () =>
      admin.request('POST', '/users/me/subscriptions', {
        subscriptions: streamNames.map((name) => ({ name })),
        principals: userIds,
      }),
    ),
  );
  const subscribed = Object.values(value.value.subscribed as Record<string, string[]>).reduce(
    (n, names) => n + names.length,
    0,
  );
  // Every waiting client hears of its new subscriptions (one `add` event each).
  const { delivered, count: adds } = await everyQueueGot(pollers, 'subscription add');
  const path = `bulk subscribe ${userIds.length} users to ${streamNames.length} streams`;
  report({
    path,
    figure: `${ms(value.elapsedMs)}, server CPU ${ms(value.serverCpuMs)} (${subscribed} subscriptions; ${adds} of ${SIZES.queues} waiting clients got their add event${delivered ? '' : ', the rest never did'})`,
    target: 'under 1 s',
    holds: value.elapsedMs < 1000 && subscribed === userIds.length * streamNames.length && delivered,
  });
  stallMeanwhile(longestMs, probes);
}

async function bulkUnsubscribe(
  server: StartedServer,
  admin: ApiClient,
  userIds: number[],
  streamNames: string[],
  pollers: Pollers,
): Promise<void> {
  progress(`unsubscribing ${userIds.length} people from ${streamNames.length} streams`);
  const { value, longestMs, probes } = await probeStalls(
    server.url,
    timed(server.pid, () =>
      admin.request('DELETE', '/users/me/subscriptions', { subscriptions: streamNames, principals: userIds }),
    ),
  );
  const removed = (value.value.removed as string[] | undefined)?.length ?? 0;
  // Every waiting client hears that it left (one `remove` event each).
  const { delivered, count: removes } = await everyQueueGot(pollers, 'subscription remove');
  report({
    path: `bulk unsubscribe ${userIds.length} users from ${streamNames.length} streams`,
    figure: `${ms(value.elapsedMs)}, server CPU ${ms(value.serverCpuMs)} (left ${removed} of ${streamNames.length} streams; ${removes} of ${SIZES.queues} waiting clients got their remove event${delivered ? '' : ', the rest never did'})`,
    target: 'under 1 s',
    holds: value.elapsedMs < 1000 && removed === streamNames.length && delivered,
  });
  stallMeanwhile(longestMs, probes);
}

/** Waits (up to 30 s) until every waiting client got one event of `kind`; how many did. */
async function everyQueueGot(pollers: Pollers, kind: string): Promise<{ delivered: boolean; count: number }> {
  const delivered = await until(() => (pollers.received.get(kind) ?? 0) >= SIZES.queues, 30_000);
  return { delivered, count: pollers.received.get(kind) ?? 0 };
}

/** The row under a bulk request: the longest wait of a cheap request while it ran. */
function stallMeanwhile(longestMs: number, probes: number): void {
  report({
    path: 'longest event-loop stall meanwhile',
    figure: `${ms(longestMs)} (${probes} probes)`,
    target: `at most ${STALL_TARGET_MS} ms`,
    holds: longestMs <= STALL_TARGET_MS,
  });
}

function stallRow(path: string, run: Timed<unknown>, longestMs: number, probes: number, note = ''): void {
  report({
    path,
    figure: `longest stall ${ms(longestMs)} (${probes} probes; the request took ${ms(run.elapsedMs)}, server CPU ${ms(run.serverCpuMs)}${note})`,
    target: `no stall over ${STALL_TARGET_MS} ms`,
    holds: longestMs <= STALL_TARGET_MS,
  });
}

async function markStreamRead(server: StartedServer, admin: ApiClient, streamId: number): Promise<void> {
  progress(`marking ${SIZES.unread} messages of a stream as read`);
  const { value, longestMs, probes } = await probeStalls(
    server.url,
    timed(server.pid, () => admin.request('POST', '/mark_stream_as_read', { stream_id: streamId })),
  );
  stallRow(`mark stream as read, ${SIZES.unread} unread`, value, longestMs, probes);
}

/** Repeats a request while it answers partially_completed, as the spec's clients do. */
async function untilComplete(send: () => Promise<Record<string, unknown>>): Promise<number> {
  for (let requests = 1; ; requests++) {
    const body = await send();
    if (body.result === 'success') return requests;
  }
}

async function markAllRead(server: StartedServer, admin: ApiClient): Promise<void> {
  progress(`marking ${SIZES.unread} messages as read (mark_all_as_read)`);
  const { value, longestMs, probes } = await probeStalls(
    server.url,
    timed(server.pid, () => untilComplete(() => admin.request('POST', '/mark_all_as_read'))),
  );
  const note = value.value > 1 ? ` in ${value.value} requests` : '';
  stallRow(`mark all as read, ${SIZES.unread} unread`, value, longestMs, probes, note);
}

/** The family's bound on one flags/narrow request (MAX_MESSAGES_PER_UPDATE). */
const FLAGS_NARROW_MESSAGES = 5000;

function streamNameOf(names: string[], index: number): string {
  const name = names[index];
  if (name === undefined) throw new Error(`no stream ${index}`);
  return name;
}

/** Marks the newest 5 000 messages of a stream unread, as "mark unread from here" does. */
async function markUnreadByNarrow(
  server: StartedServer,
  admin: ApiClient,
  streamName: string,
): Promise<void> {
  progress(`marking ${FLAGS_NARROW_MESSAGES} messages unread (flags/narrow)`);
  const { value, longestMs, probes } = await probeStalls(
    server.url,
    timed(server.pid, () =>
      admin.request('POST', '/messages/flags/narrow', {
        anchor: 'newest',
        num_before: FLAGS_NARROW_MESSAGES,
        num_after: 0,
        narrow: [{ operator: 'stream', operand: streamName }],
        op: 'remove',
        flag: 'read',
      }),
    ),
  );
  stallRow(`mark ${FLAGS_NARROW_MESSAGES} messages unread (flags/narrow)`, value, longestMs, probes);
}

async function deleteTopic(server: StartedServer, admin: ApiClient, streamId: number): Promise<void> {
  progress(`deleting a topic of ${SIZES.topic} messages`);
  const { value, longestMs, probes } = await probeStalls(
    server.url,
    timed(server.pid, () =>
      untilComplete(() =>
        admin.request('POST', `/streams/${streamId}/delete_topic`, { topic_name: TOPIC_TO_DELETE }),
      ),
    ),
  );
  const note = value.value > 1 ? ` in ${value.value} requests` : '';
  stallRow(`delete topic of ${SIZES.topic} messages`, value, longestMs, probes, note);
}
