import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PendingDeletes } from './pendingDeletes';

describe('deleting with undo', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const hidden = (p: PendingDeletes, account = 'acc') => [...(p.getSnapshot().hidden.get(account) ?? [])];

  it('hides at once and deletes when the delay is over', async () => {
    const p = new PendingDeletes(8000);
    const commit = vi.fn(async () => {});
    p.schedule('acc', ['a', 'b'], commit);
    expect(hidden(p)).toEqual(['a', 'b']);
    expect(p.getSnapshot().pending).toHaveLength(1);
    vi.advanceTimersByTime(7999);
    expect(commit).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(commit).toHaveBeenCalledWith(['a', 'b']);
    // No longer undoable, still hidden until the deletion answers.
    expect(p.getSnapshot().pending).toHaveLength(0);
    expect(hidden(p)).toEqual(['a', 'b']);
    await vi.runAllTimersAsync();
    expect(hidden(p)).toEqual([]);
  });

  it('undo brings the drafts back and deletes nothing', () => {
    const p = new PendingDeletes(8000);
    const commit = vi.fn(async () => {});
    const id = p.schedule('acc', ['a'], commit);
    expect(p.undo(id)).toBe(true);
    expect(hidden(p)).toEqual([]);
    vi.advanceTimersByTime(10_000);
    expect(commit).not.toHaveBeenCalled();
    expect(p.undo(id)).toBe(false);
  });

  it('a new deletion carries out the previous one first', () => {
    const p = new PendingDeletes(8000);
    const first = vi.fn(async () => {});
    const id = p.schedule('acc', ['a'], first);
    p.schedule(
      'acc',
      ['b'],
      vi.fn(async () => {}),
    );
    expect(first).toHaveBeenCalledWith(['a']);
    expect(p.undo(id)).toBe(false);
    expect(p.getSnapshot().pending.map((x) => x.localIds)).toEqual([['b']]);
  });

  it('a failed deletion brings the drafts back with the reason', async () => {
    const p = new PendingDeletes(10);
    p.schedule('acc', ['a'], async () => {
      throw new Error('disk full');
    });
    await vi.runAllTimersAsync();
    expect(hidden(p)).toEqual([]);
    expect(p.getSnapshot().failure).toEqual({ accountId: 'acc', message: 'Could not delete: disk full' });
    p.dismissFailure();
    expect(p.getSnapshot().failure).toBeNull();
  });

  it('flush carries out every waiting deletion, and keeps accounts apart', () => {
    const p = new PendingDeletes(8000);
    const commit = vi.fn(async () => {});
    p.schedule('acc', ['a'], commit);
    expect(hidden(p, 'other')).toEqual([]);
    p.flush();
    expect(commit).toHaveBeenCalledTimes(1);
  });
});
