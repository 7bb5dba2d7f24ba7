/**
 * Message ingest (issue 11): POST /messages to a stream with 50 subscribers, from 1 sender and
 * from 16 concurrent connections, each with one request in flight. The organization is the
 * demo one plus 50 seeded people, all subscribed to one seeded stream (and to nothing else of
 * the seed), so every message makes exactly 50 copies. The 16 connections send as one seeded
 * person (load() takes one set of headers); who sends changes nothing in what a message costs
 * but whose copy is marked read. Besides throughput and latency the section prints the
 * server's CPU time and the bytes it hands to write(2) per message: the database's WAL frames
 * are most of them, so that figure shows what a message costs the disk.
 */
import { readFileSync } from 'node:fs';
import { openDatabase } from '../server/db';
import { insertMessage } from '../server/db/messages';
import { requireRealm } from '../server/db/realm';
import { startSeededServer } from './seed';
import { basicAuth, type LoadResult, load, ms, progress, QUICK, report } from './support';

const SUBSCRIBERS = 50;
const CONCURRENT = 16;
/**
 * Messages the stream holds before the runs: enough that every subscriber's copies and unread
 * entries fill pages of their own, as in a stream with a history (the cost of a message
 * depends on it: an almost empty table puts many people's rows on one page).
 */
const HISTORY = QUICK ? 2000 : 5000;
const WARMUP_MS = QUICK ? 500 : 1500;
const ONE_SENDER_MS = QUICK ? 2000 : 5000;
const CONCURRENT_MS = QUICK ? 3000 : 10_000;

/**
 * Bytes the process has passed to write(2) and friends so far (`wchar` of /proc/PID/io; NaN
 * where there is none). Counted before the page cache, so it is what SQLite writes, whether or
 * not the kernel has put it on the disk yet. (Could move to support.ts if another section
 * wants it.)
 */
function processWrittenBytes(pid: number): number {
  try {
    const match = /^wchar:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match?.[1] ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Stores HISTORY messages in the stream with the service's own insertMessage, in one transaction. */
function writeHistory(dataDir: string, streamId: number, senderId: number): void {
  const db = openDatabase(dataDir);
  try {
    const realmId = requireRealm(db).id;
    const now = Math.floor(Date.now() / 1000);
    db.transaction(() => {
      for (let i = 0; i < HISTORY; i++) {
        const content = `Earlier message ${i}`;
        insertMessage(db, {
          realmId,
          senderId,
          to: { stream: streamId, topic: `history ${i % 10}` },
          content,
          renderedContent: `<p>${content}</p>`,
          dateSent: now - HISTORY + i,
        });
      }
    }).immediate();
  } finally {
    db.close();
  }
}

function rate(value: number): string {
  return `${Math.round(value).toLocaleString('en-US')} msg/s`;
}

export async function ingestBench(): Promise<void> {
  const { server, seeded } = await startSeededServer({
    users: SUBSCRIBERS,
    streams: 1,
    subscriptionsPerUser: 1,
  });
  try {
    const streamId = seeded.streamIds[0];
    const sender = seeded.users[0];
    if (streamId === undefined || !sender) throw new Error('nothing seeded');
    progress(`writing ${HISTORY} messages of history`);
    await server.stop();
    writeHistory(server.dataDir, streamId, sender.id);
    await server.restart();
    // Ordinary chat text: some Markdown, a link, a few words; ten topics in turn.
    const body = (i: number) =>
      new URLSearchParams({
        type: 'stream',
        to: String(streamId),
        topic: `ingest topic ${i % 10}`,
        content: `Message ${i} of the ingest benchmark, with **some** emphasis, \`code\` and a [link](https://example.com/${i}).`,
      }).toString();
    // Each run numbers its messages apart, so no two messages share a text.
    let offset = 0;
    const run = async (connections: number, durationMs: number): Promise<LoadResult & { kib: number }> => {
      const base = offset;
      const written = processWrittenBytes(server.pid);
      const result = await load({
        origin: server.url,
        method: 'POST',
        path: '/api/v1/messages',
        headers: {
          ...basicAuth(sender.email, sender.apiKey),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: (i) => body(base + i),
        connections,
        durationMs,
        serverPid: server.pid,
      });
      offset += result.requests;
      if (result.failures > 0) throw new Error(`${result.failures} of ${result.requests} sends failed`);
      const kib = (processWrittenBytes(server.pid) - written) / 1024 / result.requests;
      return { ...result, kib };
    };

    progress('warming up');
    await run(4, WARMUP_MS);
    progress(`1 sender, ${ONE_SENDER_MS / 1000} s`);
    const one = await run(1, ONE_SENDER_MS);
    progress(`${CONCURRENT} connections, ${CONCURRENT_MS / 1000} s`);
    const many = await run(CONCURRENT, CONCURRENT_MS);

    const detail = (r: LoadResult & { kib: number }) =>
      `p50 ${ms(r.latency.p50)}, p99 ${ms(r.latency.p99)}, server CPU ${Math.round(r.serverCpuUsPerRequest)} µs ` +
      `and ${r.kib.toFixed(0)} KiB written a message (${((r.kib * 1024) / SUBSCRIBERS).toFixed(0)} B a subscriber)`;
    console.log(`  1 sender: ${rate(one.perSecond)}, ${detail(one)}`);
    console.log(`  ${CONCURRENT} senders: ${rate(many.perSecond)}, ${detail(many)}`);
    report({
      path: `Message ingest, stream with ${SUBSCRIBERS} subscribers`,
      figure:
        `${rate(one.perSecond)} at 1 sender; ${rate(many.perSecond)}, p99 ${ms(many.latency.p99)} at ${CONCURRENT} senders ` +
        `(server CPU ${Math.round(many.serverCpuUsPerRequest)} µs a message)`,
      target: 'at least 2 000 msg/s, p99 at most 50 ms at 16 senders',
      holds: many.perSecond >= 2000 && many.latency.p99 <= 50,
    });
  } finally {
    await server.dispose();
  }
}
