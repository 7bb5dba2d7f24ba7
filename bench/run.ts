/**
 * Benchmarks, printed as figures (never asserted). Run: npm run bench
 *
 * Starts the real server as a child process on a temporary data directory and measures
 * the paths every client lives on: register, a settings write, and how long the write's
 * event takes to reach another client's long-poll. Medians and p95 over many rounds; run
 * on an otherwise idle machine, and compare figures from one run with each other.
 *
 * Then the conversation view's section (./conversation.ts): scrolling a 100 000-message narrow,
 * a burst of 10 000 message events, opening a narrow from the offline cache. BENCH_ONLY=service
 * or BENCH_ONLY=conversations runs one section.
 */
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loginAs, startServerProcess } from '../test/support/server';
import { conversationBench } from './conversation';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const ONLY = process.env.BENCH_ONLY;

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
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  );
  if (ONLY !== 'conversations') await serviceBench();
  if (ONLY !== 'service') await conversationBench();
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
