/**
 * Queues over a graceful restart: written to `<dataDir>/queues.json` on shutdown and read
 * back (then removed) on start, so clients keep their queues and event ids. A crash leaves
 * no file and clients re-register on BAD_EVENT_QUEUE_ID; a stale file is never read twice.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { activeUserIds } from '../db/users';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../version';
import type { OutgoingEvent, QueueDump } from './queue';

export const QUEUES_FILE = 'queues.json';

const dumpSchema = z.object({
  version: z.literal(1),
  queues: z.array(
    z.object({
      id: z.string(),
      settings: z.looseObject({
        userId: z.number().int(),
        realmId: z.number().int(),
        eventTypes: z.array(z.string()).nullable(),
        capabilities: z.record(z.string(), z.boolean()),
        allPublicStreams: z.boolean(),
        narrow: z.array(z.tuple([z.string(), z.string()])),
        applyMarkdown: z.boolean(),
        clientExtavatar: z.boolean(),
      }),
      events: z.array(z.looseObject({ id: z.number().int(), type: z.string() })),
      nextEventId: z.number().int().nonnegative(),
      idleMs: z.number().nonnegative(),
    }),
  ),
});

/** Writes the queues atomically: a temporary file, flushed, renamed over the old one. */
export function saveQueues(dataDir: string, queues: QueueDump[]): void {
  const path = join(dataDir, QUEUES_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify({ version: 1, queues }));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** Reads and removes the saved queues; none when there is no file or it cannot be used. */
export function loadQueues(dataDir: string): QueueDump[] {
  const path = join(dataDir, QUEUES_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  rmSync(path, { force: true });
  try {
    return dumpSchema.parse(JSON.parse(text)).queues as QueueDump[];
  } catch (error) {
    // Clients re-register on BAD_EVENT_QUEUE_ID: losing queues is safe, refusing to start is not.
    console.error(`Ignoring unreadable ${QUEUES_FILE}: ${String(error)}`);
    return [];
  }
}

/** The event every restored queue gets: the service's identity after the restart. */
export function restartEvent(serverGeneration: number): OutgoingEvent {
  return {
    type: 'restart',
    service_version: SERVICE_VERSION,
    service_feature_level: SERVICE_FEATURE_LEVEL,
    service_merge_base: SERVICE_MERGE_BASE,
    server_generation: serverGeneration,
  };
}

/**
 * On start: takes back the queues of the last graceful shutdown, for users who are still
 * active in this organization, each with a restart event.
 */
export function restoreQueues(ctx: ServiceContext, serverGeneration: number): number {
  const active = new Set(activeUserIds(ctx.db, ctx.realmId));
  const dumps = loadQueues(ctx.config.dataDir).filter(
    (d) => d.settings.realmId === ctx.realmId && active.has(d.settings.userId),
  );
  ctx.queues.restore(dumps, restartEvent(serverGeneration));
  return dumps.length;
}

/** On shutdown, after the last poll was answered: writes every queue. */
export function persistQueues(ctx: ServiceContext): void {
  saveQueues(ctx.config.dataDir, ctx.queues.dump());
}
