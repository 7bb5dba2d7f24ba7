/** The queue's merging of update_message_flags add events keeps the order of adds and removes. */
import { describe, expect, it } from 'vitest';
import { EventQueue } from '../events/queue';

const settings = {
  userId: 1,
  realmId: 1,
  eventTypes: null,
  capabilities: {},
  allPublicStreams: false,
  narrow: [],
  applyMarkdown: false,
  clientExtavatar: true,
};

const flags = (flag: string, messages: number[], op = 'add') => ({
  type: 'update_message_flags',
  op,
  flag,
  messages,
  all: false,
});

/** Which messages carry `flag` after the client applies the queue's events in order. */
function flaggedAfter(queue: EventQueue, flag: string): number[] {
  const flagged = new Set<number>();
  for (const e of queue.pending()) {
    if (e.type !== 'update_message_flags' || e.flag !== flag) continue;
    for (const id of e.messages as number[]) {
      if (e.op === 'add') flagged.add(id);
      else flagged.delete(id);
    }
  }
  return [...flagged].sort((a, b) => a - b);
}

describe('merging flag events in a queue', () => {
  it('never moves an add past a later remove of the same flag', () => {
    const queue = new EventQueue(settings, 0);
    queue.push(flags('starred', [1]));
    queue.push(flags('starred', [1], 'remove'));
    queue.push(flags('starred', [2]));
    expect(flaggedAfter(queue, 'starred')).toEqual([2]);
    expect(queue.pending().map((e) => [e.id, e.op, e.messages])).toEqual([
      [0, 'add', [1]],
      [1, 'remove', [1]],
      [2, 'add', [2]],
    ]);
  });

  it('merges across other flags and unrelated events, not across deletions', () => {
    const queue = new EventQueue(settings, 0);
    queue.push(flags('read', [1]));
    queue.push(flags('starred', [1], 'remove'));
    queue.push(flags('read', [2]));
    expect(queue.pending().map((e) => [e.id, e.flag, e.messages])).toEqual([
      [1, 'starred', [1]],
      [2, 'read', [1, 2]],
    ]);
    queue.push({ type: 'delete_message', message_ids: [2], message_type: 'stream' });
    queue.push(flags('read', [3]));
    expect(queue.pending().map((e) => [e.id, e.type, e.messages])).toEqual([
      [1, 'update_message_flags', [1]],
      [2, 'update_message_flags', [1, 2]],
      [3, 'delete_message', undefined],
      [4, 'update_message_flags', [3]],
    ]);
  });
});
