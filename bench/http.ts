/**
 * The http section: authenticated `GET /users/me` on a large organization beside a bare
 * node:http JSON hello (bench/bare-server.ts), both their own processes, measured by the same
 * keep-alive load generator in alternating rounds (bare, service, bare, service …) so that
 * the machine's noise falls on both alike. Figures are the rounds' medians: requests a second,
 * and the server's CPU time per request read from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { REPO_ROOT } from '../test/support/server';
import { startSeededServer } from './seed';
import { basicAuth, type LoadResult, load, median, progress, QUICK, report } from './support';

const PLAN = QUICK
  ? { users: 200, streams: 20, subscriptionsPerUser: 5 }
  : { users: 2000, streams: 200, subscriptionsPerUser: 10 };
const ROUNDS = QUICK ? 3 : 5;
const ROUND_MS = QUICK ? 1000 : 4000;
const WARMUP_MS = QUICK ? 700 : 3000;
const CONNECTIONS = 32;

interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts bench/bare-server.ts and waits for its `listening on` line. */
function startBareServer(): Promise<BareServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.once('exit', (code) => reject(new Error(`bare server exited first (code ${code})`)));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match?.[1]) {
        resolve({
          url: match[1],
          pid: child.pid ?? -1,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
  });
}

interface Side {
  name: string;
  run(durationMs: number): Promise<LoadResult>;
  results: LoadResult[];
}

export async function httpBench(): Promise<void> {
  const { server, seeded } = await startSeededServer(PLAN);
  const bare = await startBareServer();
  try {
    // Someone from the middle of the organization, as any client would be.
    const person = seeded.users[Math.floor(seeded.users.length / 2)];
    if (!person) throw new Error('no seeded user');
    const headers = basicAuth(person.email, person.apiKey);

    // The answer is checked once, so that the rounds measure the real endpoint, not an error.
    const check = await fetch(`${server.url}/api/v1/users/me`, { headers });
    const me = (await check.json()) as { result?: string; user_id?: number };
    if (check.status !== 200 || me.result !== 'success' || me.user_id !== person.id) {
      throw new Error(`GET /users/me answered ${check.status}: ${JSON.stringify(me)}`);
    }

    const sides: Side[] = [
      {
        name: 'bare node:http',
        run: (durationMs) =>
          load({ origin: bare.url, path: '/', connections: CONNECTIONS, durationMs, serverPid: bare.pid }),
        results: [],
      },
      {
        name: 'GET /users/me',
        run: (durationMs) =>
          load({
            origin: server.url,
            path: '/api/v1/users/me',
            headers,
            connections: CONNECTIONS,
            durationMs,
            serverPid: server.pid,
          }),
        results: [],
      },
    ];

    progress(`warming up both servers (${WARMUP_MS} ms each)`);
    for (const side of sides) await side.run(WARMUP_MS);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const side of sides) {
        const result = await side.run(ROUND_MS);
        side.results.push(result);
        progress(
          `round ${round} ${side.name}: ${result.perSecond.toFixed(0)} req/s, ` +
            `${result.serverCpuUsPerRequest.toFixed(0)} µs server CPU a request, p99 ${result.latency.p99.toFixed(1)} ms` +
            (result.failures > 0 ? `, ${result.failures} FAILED` : ''),
        );
      }
    }

    const [bareSide, confabSide] = sides as [Side, Side];
    const figures = (side: Side) => ({
      perSecond: median(side.results.map((r) => r.perSecond)),
      cpuUs: median(side.results.map((r) => r.serverCpuUsPerRequest)),
      p99: median(side.results.map((r) => r.latency.p99)),
      failures: side.results.reduce((sum, r) => sum + r.failures, 0),
    });
    const b = figures(bareSide);
    const c = figures(confabSide);
    console.log(
      `bare node:http: ${b.perSecond.toFixed(0)} req/s, ${b.cpuUs.toFixed(0)} µs server CPU a request, p99 ${b.p99.toFixed(1)} ms`,
    );
    console.log(
      `GET /users/me (${PLAN.users} seeded users): ${c.perSecond.toFixed(0)} req/s, ${c.cpuUs.toFixed(0)} µs server CPU a request, p99 ${c.p99.toFixed(1)} ms`,
    );
    const ratio = c.perSecond / b.perSecond;
    const cpuRatio = c.cpuUs / b.cpuUs;
    const failures = b.failures + c.failures;
    report({
      path: 'GET /users/me vs bare node:http',
      figure:
        `${(ratio * 100).toFixed(0)}% of bare throughput (${c.perSecond.toFixed(0)} vs ${b.perSecond.toFixed(0)} req/s; ` +
        `server CPU ${c.cpuUs.toFixed(0)} µs vs ${b.cpuUs.toFixed(0)} µs a request, ${cpuRatio.toFixed(1)}x)` +
        (failures > 0 ? `, ${failures} requests FAILED` : ''),
      target: 'at least 50% (CPU at most 2x bare)',
      holds: failures === 0 && ratio >= 0.5 && cpuRatio <= 2,
    });
  } finally {
    await bare.stop();
    await server.dispose();
  }
}
