/**
 * Benchmarks, printed as figures beside their targets (never asserted). Run: npm run bench
 * (`npm run bench -- --quick` for smaller sizes, under two minutes).
 *
 * Every section starts the real server as its own process on a temporary data directory (rate
 * limits off: these measure the service, not the limiter) and measures it from outside:
 * - http: authenticated GET /users/me beside a bare node:http JSON hello, same load generator;
 * - fanout: one write reaching K waiting long-polls; the cost of a message to users who hold
 *   many idle queues, and an idle queue's memory;
 * - ingest: messages to a stream with 50 subscribers from 1 and 16 senders;
 * - bulk: one request subscribing 2 000 users to 10 streams, and the longest stall meanwhile;
 * - register: the full register snapshot of a large organization, and the server's peak memory;
 * - unreads: the app's unread bookkeeping, 100 message events at 50 000 unreads;
 * - service: register, a settings write and its event at another client (the demo organization);
 * - conversations (./conversation.ts): scrolling a 100 000-message narrow, a burst of 10 000
 *   message events, opening a narrow from the offline cache (in Chromium).
 *
 * BENCH_ONLY=http,fanout (comma-separated section names) runs some sections. Each row prints
 * as it is measured; a table of every row closes the run. Run on an otherwise idle machine,
 * and compare figures from one run with each other.
 */
import { performance } from 'node:perf_hooks';
import { loginAs, startServerProcess } from '../test/support/server';
import { bulkBench } from './bulk';
import { conversationBench } from './conversation';
import { fanoutBench } from './fanout';
import { httpBench } from './http';
import { ingestBench } from './ingest';
import { registerBench } from './register';
import { machine, QUICK, reportedRows } from './support';
import { unreadsBench } from './unreads';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 50 : 200));

const SECTIONS: Record<string, () => Promise<void>> = {
  http: httpBench,
  fanout: fanoutBench,
  ingest: ingestBench,
  bulk: bulkBench,
  register: registerBench,
  unreads: unreadsBench,
  service: serviceBench,
  conversations: () => conversationBench(),
};

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, n=${sorted.length}`;
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

async function main(): Promise<void> {
  console.log(`machine: ${machine()}${QUICK ? ' (quick run: smaller sizes)' : ''}`);
  const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
  const unknown = only?.filter((name) => !(name in SECTIONS)) ?? [];
  if (unknown.length > 0) {
    console.error(
      `unknown BENCH_ONLY section(s): ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`,
    );
    process.exit(2);
  }
  const started = performance.now();
  for (const [name, run] of Object.entries(SECTIONS)) {
    if (only && !only.includes(name)) continue;
    console.log(`\n## ${name}`);
    await run();
  }
  const rows = reportedRows();
  if (rows.length > 0) {
    console.log('\n| path | figure | target | holds |\n|---|---|---|---|');
    for (const row of rows)
      console.log(
        `| ${row.path} | ${row.figure} | ${row.target} | ${row.holds === null ? '' : row.holds ? 'yes' : 'NO'} |`,
      );
    const missed = rows.filter((row) => row.holds === false).length;
    console.log(
      `\n${rows.length} rows, ${missed} targets missed, in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
}

async function serviceBench(): Promise<void> {
  // Hundreds of requests a minute from one user: the rate limiter (200/min by default) would
  // answer 429, so it is off here; this measures the service, not the limiter.
  const server = await startServerProcess({
    demo: true,
    args: ['--rate-limit-user', '0', '--rate-limit-ip', '0'],
  });
  try {
    const writer = await loginAs(server, 'alice');
    const reader = await loginAs(server, 'alice');

    const registerTimes: number[] = [];
    for (let i = 0; i < Math.min(ROUNDS, 100); i++) {
      const [ms, queue] = await time(() =>
        writer.registerQueue({ client_capabilities: { user_settings_object: true } }),
      );
      registerTimes.push(ms);
      if (queue.queue_id) await writer.deleteQueue(queue.queue_id);
    }
    console.log(`POST /register (full snapshot): ${stats(registerTimes)}`);

    const queue = await reader.registerQueue({
      event_types: ['user_settings'],
      client_capabilities: { user_settings_object: true },
    });
    const queueId = queue.queue_id;
    if (!queueId) throw new Error('no queue');
    let lastEventId = queue.last_event_id;

    const writeTimes: number[] = [];
    const deliveryTimes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const start = performance.now();
      const poll = reader.getEvents({ queue_id: queueId, last_event_id: lastEventId }).then((r) => {
        const arrived = performance.now();
        return { arrived, events: r.events };
      });
      const [ms] = await time(() => writer.updateSettings({ twenty_four_hour_time: i % 2 === 0 }));
      writeTimes.push(ms);
      const { arrived, events } = await poll;
      deliveryTimes.push(arrived - start);
      lastEventId = Math.max(lastEventId, ...events.map((e) => e.id));
    }
    console.log(`PATCH /settings (one setting): ${stats(writeTimes)}`);
    console.log(`settings change -> event at another client's long-poll: ${stats(deliveryTimes)}`);
  } finally {
    await server.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
