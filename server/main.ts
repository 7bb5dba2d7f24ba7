/**
 * The service's command line (a stable contract, see README):
 *   tsx server/main.ts --host 127.0.0.1 --port 9991 --data-dir DIR [--demo]
 *     [--heartbeat-seconds 60] [--queue-idle-seconds 600] [--longpoll-seconds 90]
 * Prints `listening on http://HOST:PORT` once it accepts requests; SIGTERM and SIGINT stop
 * it cleanly (exit 0). A bad option is one line on stderr and exit code 2.
 */
import { parseArgs } from 'node:util';
import { DEFAULTS, type RunningService, startService } from './service';

const USAGE =
  'usage: server/main.ts --host 127.0.0.1 --port 9991 --data-dir DIR [--demo] ' +
  '[--heartbeat-seconds 60] [--queue-idle-seconds 600] [--longpoll-seconds 90]';

class UsageError extends Error {}

function integer(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not '${text}'`);
  }
  return Number(text);
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
    // Should closing ever hang, do not hang with it.
    setTimeout(() => {
      process.stderr.write(`confab-server: shutdown after ${signal} timed out\n`);
      process.exit(1);
    }, 15_000).unref();
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

await main();
