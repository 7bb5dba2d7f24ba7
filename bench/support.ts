/**
 * What every benchmark shares: the machine line, percentiles, one printed row per figure
 * (beside its target), a bounded keep-alive load generator on undici's Pool, and the server
 * process's CPU time and peak memory read from /proc.
 *
 * Benchmarks print; they never assert. `holds` is the row's verdict on this machine, printed
 * as "ok" or "MISSED", and summed at the end of `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/** `npm run bench -- --quick` (or BENCH_QUICK=1): smaller sizes, the whole suite in under two minutes. */
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} cores (${cpu.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, ${process.platform}`;
}

export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function percentiles(samples: readonly number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN };
}

export function median(samples: readonly number[]): number {
  return percentiles(samples).p50;
}

export interface Row {
  /** The path people feel, e.g. "GET /users/me vs bare node:http". */
  path: string;
  /** What was measured, with units, e.g. "61% of bare (server CPU 38 µs vs 21 µs a request)". */
  figure: string;
  /** The target as the issue words it, e.g. "at least 50%". */
  target: string;
  /** Whether the figure meets the target; null when the row has no target. */
  holds: boolean | null;
}

const printed: Row[] = [];

/** Prints one row at once (so a long run shows progress) and keeps it for the summary. */
export function report(row: Row): void {
  printed.push(row);
  const verdict = row.holds === null ? '' : row.holds ? '  [ok]' : '  [MISSED]';
  console.log(`${row.path}: ${row.figure}  (target: ${row.target})${verdict}`);
}

/** Every row printed so far, for the closing table. */
export function reportedRows(): readonly Row[] {
  return printed;
}

export function ms(value: number): string {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
}

/** A progress line on stderr, so that long set-up (seeding, thousands of queues) is not silent. */
export function progress(text: string): void {
  process.stderr.write(`  … ${text}\n`);
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU time of a process so far, in ms (Linux /proc; NaN elsewhere). */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Peak resident memory of a process so far (VmHWM), in MiB (Linux /proc; NaN elsewhere). */
export function processPeakRssMiB(pid: number): number {
  return statusKiB(pid, 'VmHWM') / 1024;
}

/** Resident memory of a process now (VmRSS), in MiB (Linux /proc; NaN elsewhere). */
export function processRssMiB(pid: number): number {
  return statusKiB(pid, 'VmRSS') / 1024;
}

function statusKiB(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface LoadOptions {
  /** Origin, e.g. http://127.0.0.1:9991 */
  origin: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string | ((i: number) => string);
  headers?: Record<string, string>;
  /** A form-encoded or JSON body, or a function of the request's index. */
  body?: string | ((i: number) => string);
  /** Concurrent connections, each with one request in flight (default 32). */
  connections?: number;
  /** Run for this long (default 3000 ms)… */
  durationMs?: number;
  /** …or stop after this many requests, whichever comes first. */
  maxRequests?: number;
  /** A process whose CPU time is measured over the run (the server). */
  serverPid?: number;
}

export interface LoadResult {
  requests: number;
  /** Answers that were not 2xx; a benchmark should print them, and a non-zero count is a fault. */
  failures: number;
  elapsedMs: number;
  perSecond: number;
  latency: Percentiles;
  /** Server CPU time per answered request, in µs (NaN when no serverPid or no /proc). */
  serverCpuUsPerRequest: number;
}

/**
 * A bounded keep-alive load: `connections` loops, each sending its next request when the
 * previous answer has been read in full. The same generator measures every server it is
 * pointed at, so figures from one run compare.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const connections = options.connections ?? 32;
  const durationMs = options.durationMs ?? 3000;
  const maxRequests = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const pool = new Pool(options.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const latencies: number[] = [];
  let started = 0;
  let failures = 0;
  const cpuBefore = options.serverPid === undefined ? Number.NaN : processCpuMs(options.serverPid);
  const begin = performance.now();
  const deadline = begin + durationMs;
  const worker = async () => {
    while (performance.now() < deadline && started < maxRequests) {
      const i = started++;
      const path = typeof options.path === 'function' ? options.path(i) : options.path;
      const body = typeof options.body === 'function' ? options.body(i) : options.body;
      const t0 = performance.now();
      const response = await pool.request({
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        body,
      });
      await response.body.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (response.statusCode < 200 || response.statusCode > 299) failures++;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsedMs = performance.now() - begin;
  const cpuAfter = options.serverPid === undefined ? Number.NaN : processCpuMs(options.serverPid);
  await pool.close();
  return {
    requests: latencies.length,
    failures,
    elapsedMs,
    perSecond: (latencies.length * 1000) / elapsedMs,
    latency: percentiles(latencies),
    serverCpuUsPerRequest: ((cpuAfter - cpuBefore) * 1000) / latencies.length,
  };
}

/** `Authorization: Basic …` for an email and API key. */
export function basicAuth(email: string, apiKey: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` };
}

export function sleep(msToWait: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, msToWait));
}

/**
 * How long the server stalls while `work` runs: a cheap request (GET /api/v1/server_settings)
 * every 10 ms, one at a time; the slowest answer is the longest time no other request was
 * answered. This is the event-loop lag a client sees.
 */
export async function probeStalls<T>(
  origin: string,
  work: Promise<T>,
): Promise<{ value: T; longestMs: number; probes: number }> {
  const pool = new Pool(origin, { connections: 1 });
  let done = false;
  let longestMs = 0;
  let probes = 0;
  const prober = (async () => {
    while (!done) {
      const t0 = performance.now();
      const response = await pool.request({ path: '/api/v1/server_settings', method: 'GET' });
      await response.body.arrayBuffer();
      longestMs = Math.max(longestMs, performance.now() - t0);
      probes++;
      await sleep(10);
    }
  })();
  let value: T;
  try {
    value = await work;
  } finally {
    // The probe in flight when the work ends may be the one that waited out the whole stall:
    // it is counted before the figure is returned.
    done = true;
    await prober;
    await pool.close();
  }
  return { value, longestMs, probes };
}
