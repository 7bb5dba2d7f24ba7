/**
 * Answering many waiting polls (events/manager.ts answerWaiting): a write that reaches
 * thousands of them answers them over several turns of the event loop, in the order their
 * queues got events, each poll once and with all of its queue's events in order; close()
 * still answers every waiting poll at once.
 */
import { describe, expect, it } from 'vitest';
import { QueueManager } from '../events/manager';
import type { EventQueue, QueuedEvent, QueueSettings } from '../events/queue';

const settings = (userId: number): QueueSettings => ({
  userId,
  realmId: 1,
  eventTypes: new Set(['stream']),
  capabilities: {},
  allPublicStreams: false,
  narrow: [],
  applyMarkdown: true,
  clientExtavatar: false,
});

const POLLS = 1_000;
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** POLLS queues (one user each), each with a poll waiting, and the answers as they come. */
function waitingPolls(manager: QueueManager) {
  const queues: EventQueue[] = [];
  const answered: { queueId: string; events: QueuedEvent[] }[] = [];
  const polls: Promise<void>[] = [];
  for (let user = 1; user <= POLLS; user++) {
    const queue = manager.register(settings(user));
    queues.push(queue);
    polls.push(
      manager.wait(queue, { dontBlock: false }, { onClose: () => {} }).then((answer) => {
        answered.push({ queueId: queue.id, events: JSON.parse(answer.json()) as QueuedEvent[] });
      }),
    );
  }
  const users = queues.map((queue) => queue.userId);
  return { queues, answered, polls, users };
}

describe('answering many waiting polls', () => {
  it('takes several turns, in order, each poll once with all of its events', async () => {
    const manager = new QueueManager({ heartbeatMs: 60_000, queueIdleMs: 60_000 });
    const { queues, answered, polls, users } = waitingPolls(manager);
    manager.send({ type: 'stream', op: 'update', n: 1 }, users);
    await turn();
    // One turn answers at most 64 polls (fewer when its 10 ms are up first).
    const firstTurn = answered.length;
    expect(firstTurn).toBeGreaterThan(0);
    expect(firstTurn).toBeLessThanOrEqual(64);
    // A second event while the rest wait for their turn: those get both, in order.
    manager.send({ type: 'stream', op: 'update', n: 2 }, users);
    await Promise.all(polls);
    expect(answered.map((a) => a.queueId)).toEqual(queues.map((queue) => queue.id));
    const one = [{ type: 'stream', op: 'update', n: 1, id: 0 }];
    const both = [...one, { type: 'stream', op: 'update', n: 2, id: 1 }];
    expect(answered.slice(0, firstTurn).every((a) => JSON.stringify(a.events) === JSON.stringify(one))).toBe(
      true,
    );
    expect(answered.slice(firstTurn).every((a) => JSON.stringify(a.events) === JSON.stringify(both))).toBe(
      true,
    );
    // Answered early, the first turn's queues keep the second event for their next poll.
    expect(queues[0]?.pending()).toEqual(both);
    manager.close();
  });

  it('answers every poll still waiting at close() at once, keeping their events queued', async () => {
    const manager = new QueueManager({ heartbeatMs: 60_000, queueIdleMs: 60_000 });
    const { queues, answered, polls, users } = waitingPolls(manager);
    manager.send({ type: 'stream', op: 'update', n: 1 }, users);
    await turn();
    const firstTurn = answered.length;
    expect(firstTurn).toBeLessThan(POLLS);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    manager.close();
    // Answered before any further turn: close() answered them all.
    await Promise.all(polls);
    expect(turned).toBe(false);
    expect(answered.length).toBe(POLLS);
    expect(answered.slice(firstTurn).every((a) => a.events.length === 0)).toBe(true);
    expect(queues.every((queue) => queue.pending().length === 1)).toBe(true);
    // The turn that was to answer them finds nothing left to do.
    await turn();
    expect(answered.length).toBe(POLLS);
  });
});
