/**
 * The service's command line (a stable contract, see README):
 *   tsx server/main.ts --host 127.0.0.1 --port 9991 --data-dir DIR [--demo]
 *     [--heartbeat-seconds 60] [--queue-idle-seconds 600] [--longpoll-seconds 90]
 *     [--rate-limit-user 200] [--rate-limit-ip 100] [--rate-limit-window-seconds 60]
 *     [--public-url URL] [--smtp-url URL] [--work-budget-seconds 50] [--max-queues-per-user 20]
 *     [--drain-seconds 10]
 * (a rate limit of 0 turns it off; emails go to DATA_DIR/outbox, and to --smtp-url when given:
 * smtp://[user:password@]host:port or smtps://...).
 * Prints `listening on http://HOST:PORT` once it accepts requests; SIGTERM and SIGINT stop
 * it cleanly (exit 0): GET /health turns 503, waiting polls are answered, requests in progress
 * get up to --drain-seconds to finish, and the event queues are written to
 * DATA_DIR/queues.json, which the next start reads back (each queue then gets a `restart`
 * event). A bad option is one line on stderr and exit code 2.
 */
import { parseArgs } from 'node:util';
import { RATE_LIMIT_DEFAULTS } from './ratelimit';
import { DEFAULTS, type RunningService, startService } from './service';

const USAGE =
  'usage: server/main.ts --host 127.0.0.1 --port 9991 --data-dir DIR [--demo] ' +
  '[--heartbeat-seconds 60] [--queue-idle-seconds 600] [--longpoll-seconds 90] ' +
  '[--rate-limit-user 200] [--rate-limit-ip 100] [--rate-limit-window-seconds 60] ' +
  '[--public-url URL] [--smtp-url URL] [--work-budget-seconds 50] [--max-queues-per-user 20] ' +
  '[--drain-seconds 10]';

class UsageError extends Error {}

function integer(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not '${text}'`);
  }
  return Number(text);
}

/** A non-negative number of seconds, fractions allowed (the work budget of batched operations). */
function seconds(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(text))
    throw new UsageError(`--${name} must be a number of seconds, not '${text}'`);
  return Number(text);
}

function httpUrl(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!/^https?:\/\/[^\s/]+/.test(text)) {
    throw new UsageError(`--${name} must be an http(s) URL, not '${text}'`);
  }
  return text.replace(/\/+$/, '');
}

function smtpUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!/^smtps?:\/\/[^\s/]+/.test(text)) {
    throw new UsageError(`--smtp-url must be an smtp:// or smtps:// URL, not '${text}'`);
  }
  return text;
}

function parseCommandLine(argv: string[]) {
  let values: ReturnType<typeof parse>['values'];
  function parse() {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        demo: { type: 'boolean', default: false },
        'heartbeat-seconds': { type: 'string' },
        'queue-idle-seconds': { type: 'string' },
        'longpoll-seconds': { type: 'string' },
        'rate-limit-user': { type: 'string' },
        'rate-limit-ip': { type: 'string' },
        'rate-limit-window-seconds': { type: 'string' },
        'public-url': { type: 'string' },
        'smtp-url': { type: 'string' },
        'work-budget-seconds': { type: 'string' },
        'max-queues-per-user': { type: 'string' },
        'drain-seconds': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
  }
  try {
    values = parse().values;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Node's texts run on with advice about '--'; the first sentence says it all.
    throw new UsageError(message.split(/\.\s/)[0] ?? message);
  }
  if (values.help) return null;
  const dataDir = values['data-dir'];
  if (!dataDir) throw new UsageError('--data-dir is required');
  const host = values.host ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host must not be empty');
  const day = 86400;
  const options = {
    host,
    port: integer('port', values.port, 9991, 0, 65535),
    dataDir,
    demo: values.demo ?? false,
    heartbeatSeconds: integer(
      'heartbeat-seconds',
      values['heartbeat-seconds'],
      DEFAULTS.heartbeatSeconds,
      1,
      day,
    ),
    queueIdleSeconds: integer(
      'queue-idle-seconds',
      values['queue-idle-seconds'],
      DEFAULTS.queueIdleSeconds,
      1,
      day,
    ),
    longpollSeconds: integer(
      'longpoll-seconds',
      values['longpoll-seconds'],
      DEFAULTS.longpollSeconds,
      1,
      day,
    ),
    rateLimits: {
      user: integer('rate-limit-user', values['rate-limit-user'], RATE_LIMIT_DEFAULTS.user, 0, 1e9),
      ip: integer('rate-limit-ip', values['rate-limit-ip'], RATE_LIMIT_DEFAULTS.ip, 0, 1e9),
      windowSeconds: integer(
        'rate-limit-window-seconds',
        values['rate-limit-window-seconds'],
        RATE_LIMIT_DEFAULTS.windowSeconds,
        1,
        day,
      ),
    },
    publicUrl: httpUrl('public-url', values['public-url']),
    smtpUrl: smtpUrl(values['smtp-url']),
    workBudgetSeconds: seconds(
      'work-budget-seconds',
      values['work-budget-seconds'],
      DEFAULTS.workBudgetSeconds,
    ),
    maxQueuesPerUser: integer(
      'max-queues-per-user',
      values['max-queues-per-user'],
      DEFAULTS.maxQueuesPerUser,
      1,
      10_000,
    ),
    drainSeconds: seconds('drain-seconds', values['drain-seconds'], DEFAULTS.drainSeconds),
  };
  if (options.longpollSeconds <= options.heartbeatSeconds) {
    // Clients use the long-poll timeout as their HTTP timeout; it must outlast a heartbeat.
    throw new UsageError('--longpoll-seconds must be greater than --heartbeat-seconds');
  }
  return options;
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parseCommandLine>;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`confab-server: ${error.message} (${USAGE})\n`);
    process.exit(2);
  }
  if (options === null) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  let service: RunningService;
  try {
    service = await startService(options);
  } catch (error) {
    process.stderr.write(`confab-server: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Should closing ever hang past the drain, do not hang with it.
    setTimeout(
      () => {
        process.stderr.write(`confab-server: shutdown after ${signal} timed out\n`);
        process.exit(1);
      },
      options.drainSeconds * 1000 + 10_000,
    ).unref();
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`confab-server: shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdout.write(`listening on ${service.url}\n`);
}

// A promise chain, not a top-level await: the packaged app bundles this same entry as CommonJS
// (scripts/build-electron.ts), which has no top-level await. A failure still ends the process.
main().catch((error: unknown) => {
  process.stderr.write(
    `confab-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
