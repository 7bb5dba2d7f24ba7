import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AccountState, unreadsFromLocations } from '../../../shared/domain';
import type { ApiBody } from '../bridge/api';
import {
  createLongWrites,
  doneText,
  failureText,
  type LongWrite,
  LongWriteError,
  repeatWhilePartial,
  runningText,
} from './longWrites';
import { markReadWrite, markTargetKey, unreadIn } from './markRead';

/** What the proxy hands the renderer for a partially_completed answer (result and msg stripped). */
const PARTIAL: ApiBody = { code: 'REQUEST_TIMEOUT' };
const DONE: ApiBody = {};

const write = (over: Partial<LongWrite> = {}): LongWrite => ({
  key: 'read:all',
  path: '/mark_all_as_read',
  doing: 'Marking all messages as read',
  done: 'All messages are marked as read.',
  failed: 'Could not mark all messages as read',
  ...over,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('repeatWhilePartial', () => {
  it('repeats while the server answers partially_completed, with no cap on rounds', async () => {
    let sent = 0;
    const rounds: number[] = [];
    const n = await repeatWhilePartial(
      async () => (++sent < 1500 ? PARTIAL : DONE),
      (r) => rounds.push(r),
    );
    expect([n, sent, rounds.length, rounds.at(-1)]).toEqual([1500, 1500, 1500, 1500]);
  });

  it('stops at the round that fails, naming it and the server’s message', async () => {
    let sent = 0;
    const failure = await repeatWhilePartial(async () => {
      if (++sent === 3) throw new Error('Invalid stream ID');
      return PARTIAL;
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LongWriteError);
    expect(failure).toMatchObject({ round: 3, reason: 'Invalid stream ID' });
    expect(sent).toBe(3);
  });
});

describe('the words of a job', () => {
  it('says the step from the second round, how many steps it took, and what was kept', () => {
    const w = write();
    expect(runningText({ write: w, round: 1 })).toBe('Marking all messages as read…');
    expect(runningText({ write: w, round: 2 })).toBe('Marking all messages as read… (step 2)');
    expect(doneText({ write: w, round: 1 })).toBe('All messages are marked as read.');
    expect(doneText({ write: w, round: 3 })).toBe('All messages are marked as read. It took 3 steps.');
    expect(failureText({ write: w, round: 1, error: 'Network error' })).toBe(
      'Could not mark all messages as read: Network error.',
    );
    expect(failureText({ write: w, round: 2, error: 'Network error.' })).toBe(
      'Could not mark all messages as read: Network error. It stopped at step 2; the first step is done.',
    );
    expect(failureText({ write: w, round: 4, error: 'Gone' })).toBe(
      'Could not mark all messages as read: Gone. It stopped at step 4; the first 3 steps are done.',
    );
  });
});

describe('createLongWrites', () => {
  it('lists a job while it runs, round by round, then as done; the same key joins it', async () => {
    const answers = [PARTIAL, PARTIAL, DONE];
    const sent: unknown[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const writes = createLongWrites(async (accountId, method, path, params) => {
      sent.push([accountId, method, path, params]);
      if (sent.length === 2) await gate;
      return answers[sent.length - 1] as ApiBody;
    });
    const first = writes.run('acct-1', write());
    const again = writes.run('acct-1', write());
    expect(again).toBe(first);
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(writes.store.getState().jobs).toMatchObject([
      { accountId: 'acct-1', status: 'running', round: 2, error: null },
    ]);
    release();
    expect(await first).toBe(3);
    expect(sent).toEqual([
      ['acct-1', 'POST', '/mark_all_as_read', undefined],
      ['acct-1', 'POST', '/mark_all_as_read', undefined],
      ['acct-1', 'POST', '/mark_all_as_read', undefined],
    ]);
    expect(writes.store.getState().jobs).toMatchObject([{ status: 'done', round: 3 }]);
  });

  it('keeps a finished job listed for a while, a failed one until dismissed or started again', async () => {
    vi.useFakeTimers();
    let fail = true;
    const writes = createLongWrites(
      async () => {
        if (fail) throw new Error('Network error');
        return DONE;
      },
      { doneVisibleMs: 5000 },
    );
    await expect(writes.run('acct-1', write())).rejects.toMatchObject({ round: 1, reason: 'Network error' });
    const [failed] = writes.store.getState().jobs;
    expect(failed).toMatchObject({ status: 'failed', error: 'Network error' });

    // Starting it again replaces the failed job.
    fail = false;
    await writes.run('acct-1', write());
    expect(writes.store.getState().jobs).toMatchObject([{ status: 'done', round: 1 }]);
    expect(writes.store.getState().jobs[0]?.id).not.toBe(failed?.id);
    vi.advanceTimersByTime(4999);
    expect(writes.store.getState().jobs).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(writes.store.getState().jobs).toEqual([]);

    fail = true;
    await writes.run('acct-1', write()).catch(() => {});
    const id = writes.store.getState().jobs[0]?.id ?? -1;
    vi.advanceTimersByTime(60_000);
    expect(writes.store.getState().jobs).toHaveLength(1);
    writes.dismiss(id);
    expect(writes.store.getState().jobs).toEqual([]);
  });

  it('runs jobs of other keys and other accounts side by side', async () => {
    const writes = createLongWrites(async () => DONE);
    await Promise.all([
      writes.run('acct-1', write()),
      writes.run('acct-2', write()),
      writes.run('acct-1', write({ key: 'read:stream:3', path: '/mark_stream_as_read' })),
    ]);
    expect(writes.store.getState().jobs.map((j) => [j.accountId, j.write.key, j.status])).toEqual([
      ['acct-1', 'read:all', 'done'],
      ['acct-2', 'read:all', 'done'],
      ['acct-1', 'read:stream:3', 'done'],
    ]);
  });
});

describe('marking as read', () => {
  const state = {
    unreads: unreadsFromLocations({
      1: { kind: 'stream', streamId: 3, topic: 'lunch' },
      2: { kind: 'stream', streamId: 3, topic: 'lunch' },
      3: { kind: 'stream', streamId: 3, topic: 'release' },
      4: { kind: 'stream', streamId: 5, topic: 'lunch' },
      5: { kind: 'pm', userId: 9 },
    }),
  } as unknown as AccountState;

  it('counts what is left of each target', () => {
    expect(unreadIn(state, { kind: 'all' })).toBe(5);
    expect(unreadIn(state, { kind: 'stream', streamId: 3 })).toBe(3);
    expect(unreadIn(state, { kind: 'topic', streamId: 3, topic: 'lunch' })).toBe(2);
    expect(unreadIn(state, { kind: 'messages', messageIds: [5, 6] })).toBe(1);
  });

  it('sends each target to its endpoint, in words that name it', () => {
    expect(markReadWrite({ kind: 'all' })).toMatchObject({
      key: 'read:all',
      path: '/mark_all_as_read',
      doing: 'Marking all messages as read',
      done: 'All messages are marked as read.',
    });
    const topic = markReadWrite({ kind: 'topic', streamId: 3, topic: 'lunch' }, 'general');
    expect(topic).toMatchObject({
      key: markTargetKey({ kind: 'topic', streamId: 3, topic: 'lunch' }),
      path: '/mark_topic_as_read',
      params: { stream_id: 3, topic_name: 'lunch' },
      doing: 'Marking #general > lunch as read',
      done: '#general > lunch is marked as read.',
      failed: 'Could not mark #general > lunch as read',
    });
    expect(topic.remaining?.(state)).toBe(2);
    expect(markReadWrite({ kind: 'stream', streamId: 3 }, 'general')).toMatchObject({
      path: '/mark_stream_as_read',
      params: { stream_id: 3 },
      doing: 'Marking #general as read',
    });
    expect(markReadWrite({ kind: 'messages', messageIds: [5] })).toMatchObject({
      path: '/messages/flags',
      params: { messages: [5], op: 'add', flag: 'read' },
    });
  });
});
