/**
 * The per-user event queue cap: registering past it drops the user's longest-idle queue
 * (one nobody polls before one with a waiting poll); other users' queues are untouched.
 * Against the real server with a cap of 3, and the manager alone for the choice of queue.
 */
import { describe, expect, it } from 'vitest';
import { QueueManager } from '../events/manager';
import type { QueueSettings } from '../events/queue';
import { DEFAULTS } from '../service';
import { call, serviceWithAuth, sleep } from './support/service';

const { svc, alice, bob } = await serviceWithAuth(['alice', 'bob'], { maxQueuesPerUser: 3 });

async function register(auth: [string, string]): Promise<string> {
  const r = await call(svc.url, 'POST', '/register', { auth, params: { event_types: ['message'] } });
  expect(r.status).toBe(200);
  return r.body.queue_id as string;
}

const poll = (auth: [string, string], queueId: string) =>
  call(svc.url, 'GET', '/events', {
    auth,
    params: { queue_id: queueId, last_event_id: -1, dont_block: true },
  });

describe('the queue cap on the real server', () => {
  it('is 20 unless configured', () => {
    expect(DEFAULTS.maxQueuesPerUser).toBe(20);
  });

  it('drops the longest-idle queue of the user who registers past it', async () => {
    const bobs = await register(bob);
    const first = await register(alice);
    await sleep(5);
    const second = await register(alice);
    await sleep(5);
    const third = await register(alice);
    await sleep(5);
    // Polling the first makes the second the longest idle.
    expect((await poll(alice, first)).status).toBe(200);
    await sleep(5);
    const fourth = await register(alice);

    const gone = await poll(alice, second);
    expect(gone.status).toBe(400);
    expect(gone.body).toEqual({
      result: 'error',
      msg: `Bad event queue ID: ${second}`,
      code: 'BAD_EVENT_QUEUE_ID',
      queue_id: second,
    });
    for (const kept of [first, third, fourth]) expect((await poll(alice, kept)).status).toBe(200);
    expect((await poll(bob, bobs)).status).toBe(200);
  });
});

describe('which queue the manager drops', () => {
  const settings = (userId: number): QueueSettings => ({
    userId,
    realmId: 1,
    eventTypes: null,
    capabilities: {},
    allPublicStreams: false,
    narrow: [],
    applyMarkdown: true,
    clientExtavatar: false,
  });
  const connection = { onClose: () => {} };

  it('prefers a queue nobody polls over an older one with a waiting poll', async () => {
    let now = 1000;
    const manager = new QueueManager({
      heartbeatMs: 60_000,
      queueIdleMs: 600_000,
      maxQueuesPerUser: 2,
      now: () => now,
    });
    const waiting = manager.register(settings(7));
    now += 10;
    const idle = manager.register(settings(7));
    now += 10;
    const answered = manager.poll(waiting, { dontBlock: false }, connection);
    now += 10;
    const third = manager.register(settings(7));
    expect(
      manager
        .queuesOf(7)
        .map((q) => q.id)
        .sort(),
    ).toEqual([waiting.id, third.id].sort());
    expect(() => manager.get(idle.id, 7)).toThrow('Bad event queue ID');

    // With every queue waiting, the least recently connected goes, and its poll is answered.
    const thirdPoll = manager.poll(third, { dontBlock: false }, connection);
    now += 10;
    manager.register(settings(7));
    expect(await answered).toEqual([]);
    expect(manager.queuesOf(7)).toHaveLength(2);
    expect(manager.queuesOf(7).map((q) => q.id)).toContain(third.id);
    manager.close();
    expect(await thirdPoll).toEqual([]);
  });
});
