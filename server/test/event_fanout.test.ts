/**
 * How one event reaches many queues (events/manager.ts): a user's queues of equal settings
 * share one built event, each with its own ids; queues that do not take an event get nothing;
 * the users with all_public_streams queues are kept as queues come and go; one timer serves
 * every waiting poll's heartbeat; a poll's answer is written around each event's shared text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { QueueManager } from '../events/manager';
import { EventQueue, type QueueSettings } from '../events/queue';
import { authOf, eventsAfter, startTestService, startWith, type TestService } from './support/service';

async function newQueue(client: ApiClient, params: Record<string, unknown>): Promise<string> {
  return (await client.registerQueue(params)).queue_id as string;
}

async function sendTo(client: ApiClient, stream: string, content: string): Promise<number> {
  const r = await client.request('POST', '/messages', {
    type: 'stream',
    to: stream,
    topic: 'fan-out',
    content,
  });
  return r.id as number;
}

/** The message ids of a queue's message events after lastEventId. */
async function messageIds(client: ApiClient, queueId: string, lastEventId = -1): Promise<number[]> {
  const events = await eventsAfter(client, queueId, lastEventId);
  return events.filter((e) => e.type === 'message').map((e) => (e.message as { id: number }).id);
}

describe('events for queues of one user', () => {
  let svc: TestService;
  let alice: ApiClient;
  let admin: ApiClient;
  beforeAll(async () => {
    ({ svc, alice, admin } = await startWith(['alice', 'admin']));
  });
  afterAll(() => svc.close());

  it('reach only the queues that take their type', async () => {
    const messages = await newQueue(alice, { event_types: ['message'] });
    const streams = await newQueue(alice, { event_types: ['stream'] });
    const everything = await newQueue(alice, {});
    const id = await sendTo(alice, 'general', 'to the message queues');
    const general = (await alice.request('GET', '/get_stream_id', { stream: 'general' })).stream_id as number;
    await admin.request('PATCH', `/streams/${general}`, { description: 'Fan-out test' });

    expect(await eventsAfter(alice, messages, -1)).toMatchObject([{ type: 'message', message: { id } }]);
    expect(await eventsAfter(alice, streams, -1)).toMatchObject([
      { type: 'stream', op: 'update', property: 'description', value: 'Fan-out test', id: 0 },
    ]);
    const all = await eventsAfter(alice, everything, -1);
    expect(all.map((e) => e.type)).toEqual(['message', 'stream']);
  });

  it('give queues of equal settings the same event, each under its own id', async () => {
    const first = await newQueue(alice, { event_types: ['message'], apply_markdown: true });
    const one = await sendTo(alice, 'general', 'before the second queue');
    // Registered later with the same settings in another order: the same kind of client.
    const second = await newQueue(alice, { apply_markdown: true, event_types: ['message'] });
    const two = await sendTo(alice, 'general', 'to both queues');

    const firstEvents = await eventsAfter(alice, first, -1);
    const secondEvents = await eventsAfter(alice, second, -1);
    expect(firstEvents.map((e) => [e.id, (e.message as { id: number }).id])).toEqual([
      [0, one],
      [1, two],
    ]);
    expect(secondEvents.map((e) => [e.id, (e.message as { id: number }).id])).toEqual([[0, two]]);
    expect(secondEvents[0]).toEqual({ ...firstEvents[1], id: 0 });
  });

  it('answer a waiting poll with the envelope JSON.stringify would write', async () => {
    const queueId = await newQueue(alice, { event_types: ['message'] });
    const [email, key] = authOf(alice);
    const poll = fetch(`${svc.url}/api/v1/events?queue_id=${queueId}&last_event_id=-1`, {
      headers: { Authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
    });
    await svc.service.events.whenWaiting(queueId);
    const id = await sendTo(alice, 'general', 'text "with" quotes, \\ and ünïcödé');
    const response = await poll;
    const text = await response.text();
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = JSON.parse(text) as { events: { message: { id: number } }[] };
    expect(Object.keys(body)).toEqual(['result', 'msg', 'events', 'queue_id']);
    expect(body).toMatchObject({ result: 'success', msg: '', queue_id: queueId });
    expect(body.events.map((e) => e.message.id)).toEqual([id]);
    expect(text).toBe(JSON.stringify(body));
  });
});

describe('all_public_streams queues', () => {
  let svc: TestService;
  let alice: ApiClient;
  let moderator: ApiClient;
  beforeAll(async () => {
    ({ svc, alice, moderator } = await startWith(['alice', 'moderator']));
  });
  afterAll(() => svc.close());

  // The moderator is not subscribed to engineering: only all_public_streams queues hear it.
  it('keep hearing public streams while one of a user’s such queues remains', async () => {
    const a = await newQueue(moderator, { all_public_streams: true, event_types: ['message'] });
    const b = await newQueue(moderator, { all_public_streams: true, event_types: ['message'] });
    const plain = await newQueue(moderator, { event_types: ['message'] });
    const one = await sendTo(alice, 'engineering', 'one');
    expect(await messageIds(moderator, a)).toEqual([one]);
    expect(await messageIds(moderator, b)).toEqual([one]);

    await moderator.deleteQueue(a);
    const two = await sendTo(alice, 'engineering', 'two');
    expect(await messageIds(moderator, b)).toEqual([one, two]);

    await moderator.deleteQueue(b);
    await sendTo(alice, 'engineering', 'three');
    expect(await messageIds(moderator, plain)).toEqual([]);

    // One registered through GET /events (no queue_id, dont_block) counts alike.
    const c = await moderator.request('GET', '/events', {
      dont_block: true,
      all_public_streams: true,
      event_types: ['message'],
    });
    const four = await sendTo(alice, 'engineering', 'four');
    expect(await messageIds(moderator, c.queue_id as string)).toEqual([four]);
  });

  it('keep hearing them after a queue of the user is dropped for the per-user cap', async () => {
    const capped = await startTestService({ maxQueuesPerUser: 2 });
    try {
      const [mod, sender] = [await capped.login('moderator'), await capped.login('alice')];
      await newQueue(mod, { all_public_streams: true, event_types: ['message'] });
      const kept = await newQueue(mod, { all_public_streams: true, event_types: ['message'] });
      // The third drops the first (the longest idle): one all_public_streams queue is left.
      await newQueue(mod, { event_types: ['message'] });
      const id = await sendTo(sender, 'engineering', 'after the cap');
      expect(await messageIds(mod, kept)).toEqual([id]);
    } finally {
      await capped.close();
    }
  });

  it('keep hearing them after a restart restores the queue', async () => {
    const restarted = await startTestService();
    const dataDir = restarted.dataDir;
    let again: TestService | null = null;
    try {
      const mod = await restarted.login('moderator');
      const queueId = await newQueue(mod, { all_public_streams: true, event_types: ['message'] });
      await restarted.service.close();
      again = await startTestService({ dataDir });
      const sender = await again.login('alice');
      const id = await sendTo(sender, 'engineering', 'after the restart');
      const events = await eventsAfter(await again.login('moderator'), queueId, -1);
      expect(events.map((e) => e.type)).toEqual(['restart', 'message']);
      expect(events[1]).toMatchObject({ type: 'message', message: { id } });
    } finally {
      await again?.close();
      await restarted.close();
    }
  });
});

describe('QueueManager bookkeeping', () => {
  const settings = (userId: number, allPublicStreams: boolean): QueueSettings => ({
    userId,
    realmId: 1,
    eventTypes: new Set(['message']),
    capabilities: {},
    allPublicStreams,
    narrow: [],
    applyMarkdown: true,
    clientExtavatar: false,
  });

  it('lists exactly the users holding an all_public_streams queue as queues come and go', () => {
    let now = 0;
    const manager = new QueueManager({ heartbeatMs: 60_000, queueIdleMs: 1_000, now: () => now });
    const a = manager.register(settings(1, true));
    const b = manager.register(settings(1, true));
    manager.register(settings(2, false));
    const c = manager.register(settings(3, true));
    expect([...manager.allPublicStreamsUserIds()].sort()).toEqual([1, 3]);
    manager.delete(a);
    expect([...manager.allPublicStreamsUserIds()].sort()).toEqual([1, 3]);
    manager.delete(b);
    manager.delete(b);
    expect([...manager.allPublicStreamsUserIds()]).toEqual([3]);
    expect(manager.queuesOf(1)).toEqual([]);
    // Idle collection goes the same way.
    now = 5_000;
    expect(manager.sweep()).toBe(2);
    expect([...manager.allPublicStreamsUserIds()]).toEqual([]);
    expect(manager.size).toBe(0);
    expect(() => manager.get(c.id, 3)).toThrow('Bad event queue ID');
  });

  it('builds an event once per kind of client, and not for queues that take nothing of it', () => {
    const manager = new QueueManager({ heartbeatMs: 60_000, queueIdleMs: 60_000 });
    for (let i = 0; i < 3; i++) manager.register(settings(1, false));
    manager.register({ ...settings(1, false), applyMarkdown: false });
    let built = 0;
    manager.sendBuilt([1, 1], (queue) => {
      built++;
      return { type: 'message', markdown: queue.settings.applyMarkdown };
    });
    expect(built).toBe(2);
    expect(manager.queuesOf(1).map((q) => q.pending())).toEqual([
      [{ type: 'message', markdown: true, id: 0 }],
      [{ type: 'message', markdown: true, id: 0 }],
      [{ type: 'message', markdown: true, id: 0 }],
      [{ type: 'message', markdown: false, id: 0 }],
    ]);
    manager.sendBuilt([1], () => ({ type: 'stream', op: 'update' }));
    expect(manager.queuesOf(1).every((q) => q.lastEventId === 0)).toBe(true);
  });

  it('writes a poll answer as JSON.stringify writes the queued events', () => {
    const queue = new EventQueue(settings(1, false), 0);
    queue.push({ type: 'odd', id: 'its own', gone: undefined, nested: { id: 1 } });
    queue.push({ type: 'message', text: 'quote " and \\ and \u2028' });
    const answer = queue.answer();
    expect(queue.pending()).toEqual([
      { type: 'odd', id: 0, gone: undefined, nested: { id: 1 } },
      { type: 'message', text: 'quote " and \\ and \u2028', id: 1 },
    ]);
    expect(answer.json()).toBe(JSON.stringify(queue.pending()));
    expect(new EventQueue(settings(1, false), 0).answer().json()).toBe('[]');
  });
});

describe('heartbeats of several waiting polls', () => {
  let svc: TestService;
  let alice: ApiClient;
  beforeAll(async () => {
    ({ svc, alice } = await startWith(['alice'], { heartbeatSeconds: 1 }));
  });
  afterAll(() => svc.close());

  it('reach a poll that starts after the only other one was answered', async () => {
    const first = await newQueue(alice, { event_types: ['message'] });
    // It takes no message: nothing is pending when it starts waiting.
    const second = await newQueue(alice, { event_types: ['user_settings'] });
    const answered = alice.getEvents({ queue_id: first, last_event_id: -1 });
    await svc.service.events.whenWaiting(first);
    const id = await sendTo(alice, 'general', 'ends the first poll');
    expect((await answered).events).toMatchObject([{ type: 'message', message: { id } }]);
    const beat = await alice.getEvents({ queue_id: second, last_event_id: -1 });
    expect(beat.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('reach every waiting poll, also when another waiting client hangs up', async () => {
    const queues = [
      await newQueue(alice, { event_types: ['user_settings'] }),
      await newQueue(alice, { event_types: ['user_settings'] }),
      await newQueue(alice, { event_types: ['user_settings'] }),
    ];
    const abort = new AbortController();
    const hungUp = alice
      .getEvents({ queue_id: queues[0] as string, last_event_id: -1 }, { signal: abort.signal })
      .catch((error: unknown) => error);
    await svc.service.events.whenWaiting(queues[0] as string);
    const polls = queues.slice(1).map((queueId) => alice.getEvents({ queue_id: queueId, last_event_id: -1 }));
    await Promise.all(queues.slice(1).map((queueId) => svc.service.events.whenWaiting(queueId)));
    abort.abort();
    await hungUp;
    for (const poll of polls) expect((await poll).events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });
});
