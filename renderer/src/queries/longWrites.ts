/**
 * Long writes: requests the service may answer `partially_completed` (its time budget ran out
 * after it made progress: mark_all_as_read, delete_topic), sent again until they are done. The
 * one way to run such a write, whatever starts it (the inbox, a stream's topics, the command
 * palette): `runLongWrite` starts a job (or joins the running one of the same key), the jobs
 * store says how far each one is, and the shell's activity strip shows every job with its
 * progress, says when it finished, and gives the server's message when a round failed.
 *
 * No cap on rounds: the service answers partially_completed only after committing a batch, so
 * each partial answer is progress and the job keeps going while there is some. It stops at
 * the first round that fails (a refusal, the network), keeping what was done.
 */
import { useCallback } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AccountState } from '../../../shared/domain';
import { getBridge } from '../bridge';
import { type ApiBody, type ApiMethod, type ApiParams, callApi } from '../bridge/api';
import { useAccountId } from '../stores/hooks';
import { isPartiallyCompleted } from './api';

/** One long write and the words that describe it. */
export interface LongWrite {
  /** One job per key and account at a time: starting the same key again joins the running job. */
  key: string;
  /** POST unless said otherwise. */
  method?: ApiMethod;
  path: string;
  params?: ApiParams;
  /** What is happening, the progress bar's name: "Marking all messages as read". */
  doing: string;
  /** Said when it finished: "All messages are marked as read." */
  done: string;
  /** The opening of the failure: "Could not mark all messages as read". */
  failed: string;
  /** How much is left (unread messages ...), read from the account's state: a determinate bar. */
  remaining?: (state: AccountState) => number;
}

export type LongWriteStatus = 'running' | 'done' | 'failed';

export interface LongWriteJob {
  id: number;
  accountId: string;
  write: LongWrite;
  status: LongWriteStatus;
  /** The round being sent (running), else how many were sent. */
  round: number;
  /** The failed round's message (the server's, or the network's). */
  error: string | null;
}

/** A round that failed: which one, and why. */
export class LongWriteError extends Error {
  constructor(
    readonly round: number,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'LongWriteError';
  }
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Sends the write until its answer is not partially_completed; `onRound` hears each round's
 * number before it is sent. Resolves with the number of rounds; a failed round rejects with a
 * LongWriteError naming it.
 */
export async function repeatWhilePartial(
  send: () => Promise<ApiBody>,
  onRound: (round: number) => void = () => {},
): Promise<number> {
  for (let round = 1; ; round++) {
    onRound(round);
    let answer: ApiBody;
    try {
      answer = await send();
    } catch (e) {
      throw new LongWriteError(round, messageOf(e));
    }
    if (!isPartiallyCompleted(answer)) return round;
  }
}

/** The progress bar's name while a job runs: from the second round on it says which step. */
export function runningText(job: Pick<LongWriteJob, 'write' | 'round'>): string {
  return `${job.write.doing}…${job.round > 1 ? ` (step ${job.round})` : ''}`;
}

/** What a finished job says; work that took several rounds says how many. */
export function doneText(job: Pick<LongWriteJob, 'write' | 'round'>): string {
  return job.round > 1 ? `${job.write.done} It took ${job.round} steps.` : job.write.done;
}

/** What a failed job says: the server's message, and that earlier steps are kept. */
export function failureText(job: Pick<LongWriteJob, 'write' | 'round' | 'error'>): string {
  const reason = (job.error ?? 'unknown error').replace(/\.?$/, '.');
  const kept =
    job.round > 1
      ? ` It stopped at step ${job.round}; the ${job.round - 1 === 1 ? 'first step is' : `first ${job.round - 1} steps are`} done.`
      : '';
  return `${job.write.failed}: ${reason}${kept}`;
}

type Send = (accountId: string, method: ApiMethod, path: string, params?: ApiParams) => Promise<ApiBody>;

export interface LongWrites {
  store: StoreApi<{ jobs: LongWriteJob[] }>;
  /** Starts the write (or joins the running job of its key); resolves with the rounds sent. */
  run: (accountId: string, write: LongWrite) => Promise<number>;
  /** Takes a finished or failed job off the list. */
  dismiss: (id: number) => void;
}

/**
 * The jobs of one window. A finished job stays listed for `doneVisibleMs` (so the person sees
 * that it finished), a failed one until dismissed or started again.
 */
export function createLongWrites(send: Send, { doneVisibleMs = 8000 } = {}): LongWrites {
  const store = createStore<{ jobs: LongWriteJob[] }>()(() => ({ jobs: [] }));
  const running = new Map<string, Promise<number>>();
  let nextId = 1;
  const update = (id: number, change: Partial<LongWriteJob>) =>
    store.setState((s) => ({ jobs: s.jobs.map((j) => (j.id === id ? { ...j, ...change } : j)) }));
  const dismiss = (id: number) =>
    store.setState((s) => ({ jobs: s.jobs.filter((j) => j.id !== id || j.status === 'running') }));

  function run(accountId: string, write: LongWrite): Promise<number> {
    const slot = `${accountId}\u0000${write.key}`;
    const known = running.get(slot);
    if (known) return known;
    const id = nextId++;
    const job: LongWriteJob = { id, accountId, write, status: 'running', round: 0, error: null };
    // A new job of a key takes the place of its finished or failed one.
    store.setState((s) => ({
      jobs: [...s.jobs.filter((j) => j.accountId !== accountId || j.write.key !== write.key), job],
    }));
    const work = repeatWhilePartial(
      () => send(accountId, write.method ?? 'POST', write.path, write.params),
      (round) => update(id, { round }),
    )
      .then(
        (rounds) => {
          update(id, { status: 'done', round: rounds });
          setTimeout(() => dismiss(id), doneVisibleMs);
          return rounds;
        },
        (e: unknown) => {
          const failure = e instanceof LongWriteError ? e : new LongWriteError(1, messageOf(e));
          update(id, { status: 'failed', round: failure.round, error: failure.reason });
          throw failure;
        },
      )
      .finally(() => running.delete(slot));
    running.set(slot, work);
    return work;
  }

  return { store, run, dismiss };
}

/** The window's long writes, through the main process. */
const longWrites = createLongWrites((accountId, method, path, params) =>
  callApi<ApiBody>(getBridge(), accountId, method, path, params),
);

/**
 * Runs a long write for the account (see LongWrites.run); rejects with a LongWriteError when a
 * round failed. Callers outside React (the command palette) use this; components useLongWrites.
 */
export const runLongWrite = (accountId: string, write: LongWrite): Promise<number> =>
  longWrites.run(accountId, write);

export const dismissLongWrite = (id: number): void => longWrites.dismiss(id);

export interface AccountLongWrites {
  /** The account's jobs, oldest first. */
  jobs: LongWriteJob[];
  /** Runs a write: true when it finished, false when a round failed (its job says why). */
  run: (write: LongWrite) => Promise<boolean>;
  /** The job of a key (running, or finished a moment ago, or failed). */
  jobOf: (key: string) => LongWriteJob | undefined;
  isRunning: (key: string) => boolean;
}

/** The surrounding account's long writes. */
export function useLongWrites(): AccountLongWrites {
  const accountId = useAccountId();
  const jobs = useStore(
    longWrites.store,
    useShallow((s) => s.jobs.filter((j) => j.accountId === accountId)),
  );
  const run = useCallback(
    (write: LongWrite) =>
      longWrites.run(accountId, write).then(
        () => true,
        () => false,
      ),
    [accountId],
  );
  const jobOf = useCallback((key: string) => jobs.find((j) => j.write.key === key), [jobs]);
  const isRunning = useCallback((key: string) => jobOf(key)?.status === 'running', [jobOf]);
  return { jobs, run, jobOf, isRunning };
}
