/**
 * Checkpoints the database's WAL on a thread of its own.
 *
 * SQLite's own checkpoint runs inside the commit that crosses wal_autocheckpoint pages, on the
 * event loop: it copies a thousand pages into the database file and fsyncs twice, and every
 * request waits meanwhile. Here a worker thread with its own connection runs a PASSIVE
 * checkpoint (which never takes the writer's lock, so the event loop never waits for it) once
 * CHECKPOINT_PAGES pages wait in the WAL, or any have waited IDLE_CHECKPOINT_MS. It learns how
 * many from the wal-index header and checkpoint info at the start of the -shm file, which
 * every commit and checkpoint update (https://www.sqlite.org/walformat.html): mxFrame, the
 * WAL's size in frames, at byte 16 and nBackfill, the frames copied, at byte 96, both u32s in
 * the host's byte order.
 *
 * Durability is SQLite's: a commit is whole in the WAL before anyone is answered, whoever
 * checkpoints it later, and a checkpoint cut short by kill -9 leaves the WAL to replay.
 *
 * The WAL stays bounded even if the worker falls behind or never starts. A WAL only starts
 * over when a checkpoint has copied all of it before the next write begins, which a worker
 * racing a steady stream of commits seldom manages. So the connection keeps SQLite's
 * automatic checkpoint, at FALLBACK_CHECKPOINT_PAGES instead of 1 000: it copies what the
 * worker has not, on the event loop, and the next write starts the WAL over. Two checkpoints
 * cannot run at once (the second gives up at once), so the worker hands over before then: it
 * starts no checkpoint while the WAL holds HAND_OVER_PAGES or more. Should the worker fail, the
 * connection goes back to 1 000 pages.
 *
 * The worker is code run with `eval` and loads better-sqlite3 from the path the main thread
 * resolved: the embedded server is one CommonJS bundle, with no worker file beside it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './index';

/**
 * The worker starts this long after the connection opens: starting a thread costs some 30 ms
 * of CPU, which a short-lived connection (a tool, a seed, a test's look at the file) is spared.
 */
export const START_DELAY_MS = 1000;
/** How often the worker looks at the WAL. */
export const CHECKPOINT_INTERVAL_MS = 25;
/**
 * The worker checkpoints once this many pages wait in the WAL: copying each hot page once for
 * many commits, with two fsyncs a time. Checkpointing at every look measured no faster and
 * wrote a third more.
 */
export const CHECKPOINT_PAGES = 4000;
/** …or once any have waited this long, so that a quiet service's WAL is soon copied. */
export const IDLE_CHECKPOINT_MS = 1000;
/**
 * The WAL size (in pages) at which the connection checkpoints on its own (SQLite: 1 000): 64 MiB
 * of 4 KiB pages. Each time costs the event loop what the worker has not copied and two
 * fsyncs; at 4 000 pages (four times as often) ingest measured slower.
 */
export const FALLBACK_CHECKPOINT_PAGES = 16_000;
/** From this WAL size on the worker leaves the checkpoint to the connection. */
export const HAND_OVER_PAGES = FALLBACK_CHECKPOINT_PAGES - 2000;
const SQLITE_DEFAULT_CHECKPOINT_PAGES = 1000;
/** How long closing waits for a checkpoint under way to end before going on without it. */
const STOP_WAIT_MS = 10_000;

// The worker's states, in one Int32 shared with it.
const STARTING = 0;
const RUNNING = 1;
const STOPPING = 2;
const STOPPED = 3;

const WORKER_SOURCE = `
const { readSync, openSync, closeSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const { modulePath, file, state, intervalMs, checkpointPages, idleMs, handOverPages } = workerData;
const [STARTING, RUNNING, STOPPED] = [${STARTING}, ${RUNNING}, ${STOPPED}];
// Closed before it started: it opens nothing.
if (Atomics.compareExchange(state, 0, STARTING, RUNNING) === STARTING) {
  let db;
  let shm = -1;
  try {
    const Database = require(modulePath);
    db = new Database(file, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    // The same syncs as the service's checkpoints: the WAL before copying, the file after.
    db.pragma('synchronous = NORMAL');
    const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    // Open while this connection is; mxFrame is the 5th u32, nBackfill the 25th.
    shm = openSync(file + '-shm', 'r');
    const head = new Uint32Array(25);
    const bytes = new Uint8Array(head.buffer);
    let lastCheckpoint = Date.now();
    while (Atomics.load(state, 0) === RUNNING) {
      Atomics.wait(state, 0, RUNNING, intervalMs);
      if (Atomics.load(state, 0) !== RUNNING) break;
      if (readSync(shm, bytes, 0, bytes.length, 0) !== bytes.length) continue;
      const walPages = head[4];
      const waiting = walPages - Math.min(head[24], walPages);
      // The connection's own checkpoint is near: one here could make it give up.
      if (waiting === 0 || walPages >= handOverPages) continue;
      if (waiting < checkpointPages && Date.now() - lastCheckpoint < idleMs) continue;
      checkpoint.run();
      lastCheckpoint = Date.now();
    }
  } finally {
    try {
      if (shm >= 0) closeSync(shm);
      db?.close();
    } finally {
      Atomics.store(state, 0, STOPPED);
      Atomics.notify(state, 0);
    }
  }
}
`;

/** Stops the worker, its connection closed, before the caller closes its own. */
export type StopCheckpointer = () => void;

/**
 * Checkpoints the connection's database on a worker thread from START_DELAY_MS on; returns the
 * function that stops it (waiting for a checkpoint under way). A connection closed sooner (a
 * tool's, a seed's) never starts a thread. Without a worker (none could start) SQLite's
 * automatic checkpoint stays as it is.
 */
export function startCheckpointer(
  db: Db,
  options: {
    delayMs?: number;
    /** Where the worker loads better-sqlite3 from (default: where this module finds it). */
    driverPath?: string;
  } = {},
): StopCheckpointer {
  let stop: StopCheckpointer | null = null;
  const timer = setTimeout(() => {
    if (db.open) stop = startWorker(db, options.driverPath);
  }, options.delayMs ?? START_DELAY_MS);
  // Waiting to start keeps no process alive.
  timer.unref();
  return () => {
    clearTimeout(timer);
    stop?.();
  };
}

function startWorker(db: Db, driverPath: string | undefined): StopCheckpointer {
  const state = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker;
  try {
    // The bundle defines import.meta.url as its own file's URL, so this resolves there too.
    const modulePath = driverPath ?? createRequire(import.meta.url).resolve('better-sqlite3');
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // Not the parent's loaders (tsx): the worker's code is plain CommonJS.
      execArgv: [],
      workerData: {
        modulePath,
        file: db.name,
        state,
        intervalMs: CHECKPOINT_INTERVAL_MS,
        checkpointPages: CHECKPOINT_PAGES,
        idleMs: IDLE_CHECKPOINT_MS,
        handOverPages: HAND_OVER_PAGES,
      },
    });
  } catch {
    return () => {};
  }
  db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  // The worker keeps no process alive; one that fails hands checkpoints back to the connection.
  worker.unref();
  const fail = () => {
    Atomics.store(state, 0, STOPPED);
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_CHECKPOINT_PAGES}`);
  };
  worker.on('error', fail);
  worker.on('exit', () => {
    if (Atomics.load(state, 0) !== STOPPED) fail();
  });
  return () => {
    const before = Atomics.exchange(state, 0, STOPPING);
    if (before !== RUNNING) {
      // Not started yet (it will open nothing), or gone already.
      if (before === STOPPED) Atomics.store(state, 0, STOPPED);
      return;
    }
    Atomics.notify(state, 0);
    const deadline = Date.now() + STOP_WAIT_MS;
    while (Atomics.load(state, 0) === STOPPING && Date.now() < deadline) {
      Atomics.wait(state, 0, STOPPING, deadline - Date.now());
    }
  };
}
