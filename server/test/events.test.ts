/** GET /events and DELETE /events: long-poll, acknowledgement, heartbeat, idle GC. */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { EventQueue } from '../events/queue';
import { authOf, call, sleep, startTestService, startWith, type TestService } from './support/service';

const modern = { client_capabilities: { user_settings_object: true }, event_types: ['user_settings'] };

async function newQueue(client: ApiClient, params: Record<string, unknown> = modern): Promise<string> {
  const r = await client.registerQueue(params);
  return r.queue_id as string;
}

function badQueue(queueId: string) {
  return {
    result: 'error',
    msg: `Bad event queue ID: ${queueId}`,
    code: 'BAD_EVENT_QUEUE_ID',
    queue_id: queueId,
  };
}

describe('long-polling', () => {
  let svc: TestService;
  let alice: ApiClient;
  let bob: ApiClient;
  beforeAll(async () => {
    ({ svc, alice, bob } = await startWith(['alice', 'bob']));
  });
  afterAll(() => svc.close());

  it('answers dont_block at once with no events and the queue id', async () => {
    const queueId = await newQueue(alice);
    const r = await call(svc.url, 'GET', '/events', {
      auth: authOf(alice),
      params: { queue_id: queueId, last_event_id: -1, dont_block: true },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', events: [], queue_id: queueId });
  });

  it('returns an event to a waiting poll as soon as it happens', async () => {
    const queueId = await newQueue(alice);
    const poll = alice.getEvents({ queue_id: queueId, last_event_id: -1 });
    await svc.service.events.whenWaiting(queueId);
    await alice.updateSettings({ twenty_four_hour_time: true });
    const r = await poll;
    expect(r.events).toEqual([
      { type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true, id: 0 },
    ]);
    await alice.updateSettings({ twenty_four_hour_time: false });
  });

  it('whenWaiting refuses an unknown queue and one deleted before a poll waited on it', async () => {
    await expect(svc.service.events.whenWaiting('no-such-queue')).rejects.toThrow(
      'No event queue no-such-queue',
    );
    const queueId = await newQueue(alice);
    // The expectation is attached before the queue goes, so the rejection is never unhandled.
    const refused = expect(svc.service.events.whenWaiting(queueId)).rejects.toThrow(
      `Event queue ${queueId} was deleted`,
    );
    const deleted = await call(svc.url, 'DELETE', '/events', {
      auth: authOf(alice),
      params: { queue_id: queueId },
    });
    expect(deleted.status).toBe(200);
    await refused;
  });

  it('delivers the events of one request together', async () => {
    const queueId = await newQueue(alice);
    const poll = alice.getEvents({ queue_id: queueId, last_event_id: -1 });
    await svc.service.events.whenWaiting(queueId);
    await alice.updateSettings({ dense_mode: false, enter_sends: true });
    const r = await poll;
    expect(r.events.map((e) => [e.id, e.property])).toEqual([
      [0, 'dense_mode'],
      [1, 'enter_sends'],
    ]);
    await alice.updateSettings({ dense_mode: true, enter_sends: false });
  });

  it('keeps events until acknowledged with last_event_id', async () => {
    const queueId = await newQueue(alice);
    await alice.updateSettings({ left_side_userlist: true });
    await alice.updateSettings({ left_side_userlist: false });
    const first = await alice.getEvents({ queue_id: queueId, dont_block: true });
    expect(first.events.map((e) => e.id)).toEqual([0, 1]);
    const again = await alice.getEvents({ queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(again.events.map((e) => e.id)).toEqual([0, 1]);
    const rest = await alice.getEvents({ queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(rest.events.map((e) => e.id)).toEqual([1]);
    const none = await alice.getEvents({ queue_id: queueId, last_event_id: 1, dont_block: true });
    expect(none.events).toEqual([]);
    // Acknowledged events are gone for good, even when asked for again.
    const after = await alice.getEvents({ queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(after.events).toEqual([]);
  });

  it('ends a waiting poll with no events when a new poll arrives on the queue', async () => {
    const queueId = await newQueue(alice);
    const first = alice.getEvents({ queue_id: queueId, last_event_id: -1 });
    await svc.service.events.whenWaiting(queueId);
    const second = alice.getEvents({ queue_id: queueId, last_event_id: -1 });
    expect((await first).events).toEqual([]);
    await alice.updateSettings({ starred_message_counts: false });
    expect((await second).events).toMatchObject([
      { property: 'starred_message_counts', value: false, id: 0 },
    ]);
    await alice.updateSettings({ starred_message_counts: true });
  });

  it('answers an unknown queue, and another user’s queue, with BAD_EVENT_QUEUE_ID', async () => {
    const unknown = await call(svc.url, 'GET', '/events', {
      auth: authOf(alice),
      params: { queue_id: 'no-such-queue', dont_block: true },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(badQueue('no-such-queue'));
    const bobs = await newQueue(bob);
    const stolen = await call(svc.url, 'GET', '/events', {
      auth: authOf(alice),
      params: { queue_id: bobs, dont_block: true },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual(badQueue(bobs));
    const deleteStolen = await call(svc.url, 'DELETE', '/events', {
      auth: authOf(alice),
      params: { queue_id: bobs },
    });
    expect(deleteStolen.body).toEqual(badQueue(bobs));
    expect((await bob.getEvents({ queue_id: bobs, dont_block: true })).events).toEqual([]);
  });

  it('deletes a queue with DELETE /events', async () => {
    const queueId = await newQueue(alice);
    const r = await call(svc.url, 'DELETE', '/events', {
      auth: authOf(alice),
      params: { queue_id: queueId },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const after = await call(svc.url, 'GET', '/events', {
      auth: authOf(alice),
      params: { queue_id: queueId },
    });
    expect(after.status).toBe(400);
    expect(after.body).toEqual(badQueue(queueId));
  });

  it('ends a waiting poll when its queue is deleted', async () => {
    const queueId = await newQueue(alice);
    const poll = alice.getEvents({ queue_id: queueId, last_event_id: -1 });
    await svc.service.events.whenWaiting(queueId);
    await alice.deleteQueue(queueId);
    expect((await poll).events).toEqual([]);
  });

  it('registers a queue when GET /events has no queue_id but dont_block', async () => {
    const r = await call(svc.url, 'GET', '/events', {
      auth: authOf(alice),
      params: { dont_block: true, event_types: ['user_settings'] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', events: [], queue_id: expect.any(String) });
    const queueId = r.body.queue_id as string;
    await alice.updateSettings({ translate_emoticons: true });
    const events = await alice.getEvents({ queue_id: queueId, dont_block: true });
    expect(events.events).toMatchObject([{ type: 'user_settings', property: 'translate_emoticons' }]);
    await alice.updateSettings({ translate_emoticons: false });
  });

  it.each([
    [{}, "Missing 'queue_id' argument", 'REQUEST_VARIABLE_MISSING'],
    [{ queue_id: 'q', last_event_id: 'abc' }, 'last_event_id is not valid JSON', 'BAD_REQUEST'],
    [{ queue_id: 'q', last_event_id: '1.5' }, 'last_event_id is not an integer', 'BAD_REQUEST'],
    [{ queue_id: 'q', dont_block: 'yes' }, 'dont_block is not valid JSON', 'BAD_REQUEST'],
  ])('rejects bad parameters %j', async (params, msg, code) => {
    const r = await call(svc.url, 'GET', '/events', { auth: authOf(alice), params });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ result: 'error', msg, code });
  });
});

describe('heartbeat', () => {
  let svc: TestService;
  let alice: ApiClient;
  beforeAll(async () => {
    ({ svc, alice } = await startWith(['alice'], { heartbeatSeconds: 1 }));
  });
  afterAll(() => svc.close());

  it('answers a waiting poll with a queued heartbeat event', async () => {
    const queueId = await newQueue(alice);
    const first = await alice.getEvents({ queue_id: queueId, last_event_id: -1 });
    expect(first.events).toEqual([{ type: 'heartbeat', id: 0 }]);
    // It is a real event: unacknowledged, it is still there.
    const again = await alice.getEvents({ queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(again.events).toEqual([{ type: 'heartbeat', id: 0 }]);
    const next = await alice.getEvents({ queue_id: queueId, last_event_id: 0 });
    expect(next.events).toEqual([{ type: 'heartbeat', id: 1 }]);
  });
});

describe('idle queues', () => {
  it('are dropped after --queue-idle-seconds without a client, but not while a client waits', async () => {
    // Heartbeats every 4 s, idle lifetime 2 s: a waiting poll outlasts the lifetime.
    const svc = await startTestService({ heartbeatSeconds: 4, queueIdleSeconds: 2 });
    try {
      const alice = await svc.login('alice');
      const idle = await newQueue(alice);
      const waited = await newQueue(alice);
      const heartbeat = await alice.getEvents({ queue_id: waited, last_event_id: -1 });
      expect(heartbeat.events).toEqual([{ type: 'heartbeat', id: 0 }]);
      // The waiting client kept its queue alive for longer than the idle lifetime...
      const alive = await call(svc.url, 'GET', '/events', {
        auth: authOf(alice),
        params: { queue_id: waited, last_event_id: 0, dont_block: true },
      });
      expect(alive.status).toBe(200);
      // ...while the other one, with no client for 4 s, is gone.
      const gone = await call(svc.url, 'GET', '/events', {
        auth: authOf(alice),
        params: { queue_id: idle, dont_block: true },
      });
      expect(gone.status).toBe(400);
      expect(gone.body).toEqual(badQueue(idle));
    } finally {
      await svc.close();
    }
  });

  it('count from the moment a waiting client hangs up', async () => {
    // A hang-up must end the wait: otherwise the queue would stay "connected" until the
    // 20 s heartbeat, far beyond the point where we look.
    const svc = await startTestService({ heartbeatSeconds: 20, queueIdleSeconds: 2 });
    try {
      const alice = await svc.login('alice');
      const queueId = await newQueue(alice);
      const abort = new AbortController();
      const poll = call(svc.url, 'GET', '/events', {
        auth: authOf(alice),
        params: { queue_id: queueId, last_event_id: -1 },
        signal: abort.signal,
      }).catch((error: unknown) => error);
      await svc.service.events.whenWaiting(queueId);
      abort.abort();
      await poll;
      await sleep(5_000);
      const gone = await call(svc.url, 'GET', '/events', {
        auth: authOf(alice),
        params: { queue_id: queueId, dont_block: true },
      });
      expect(gone.body).toEqual(badQueue(queueId));
    } finally {
      await svc.close();
    }
  });
});

describe('merging update_message_flags while queued', () => {
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
  const flags = (flag: string, messages: number[], op = 'add', all = false) => ({
    type: 'update_message_flags',
    op,
    flag,
    messages,
    all,
  });

  it('merges add events of the same flag under the newest id', () => {
    const queue = new EventQueue(settings, 0);
    queue.push(flags('read', [3, 1]));
    queue.push({ type: 'user_settings', op: 'update', property: 'enter_sends', value: true });
    queue.push(flags('read', [2, 3]));
    expect(queue.pending()).toEqual([
      { type: 'user_settings', op: 'update', property: 'enter_sends', value: true, id: 1 },
      { ...flags('read', [1, 2, 3]), id: 2 },
    ]);
  });

  it('keeps other flags, removals, "all" and acknowledged events apart', () => {
    const queue = new EventQueue(settings, 0);
    queue.push(flags('read', [1]));
    queue.acknowledge(0);
    queue.push(flags('read', [2]));
    queue.push(flags('starred', [2]));
    queue.push(flags('read', [3], 'remove'));
    queue.push(flags('read', [], 'add', true));
    expect(queue.pending().map((e) => [e.id, e.flag, e.op, e.messages])).toEqual([
      [1, 'read', 'add', [2]],
      [2, 'starred', 'add', [2]],
      [3, 'read', 'remove', [3]],
      [4, 'read', 'add', []],
    ]);
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
