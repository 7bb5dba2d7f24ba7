/** Topics: GET /users/me/{stream_id}/topics and POST /user_topics with user_topic events and register's user_topics. */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, demoIds, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob, admin } = await serviceWith(['alice', 'bob', 'admin']);
const { streams } = demoIds(svc);
const general = streams.general as number;

function setPolicy(client: ApiClient, params: Record<string, unknown>): Promise<RawResponse> {
  return call(svc.url, 'POST', '/user_topics', { auth: authOf(client), params: params as never });
}

async function send(client: ApiClient, to: string, topic: string): Promise<number> {
  const r = await client.request('POST', '/messages', { type: 'stream', to, topic, content: 'hi' });
  return r.id as number;
}

const invalidStream = { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' };

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists topics newest first, one per spelling, named as the newest message', async () => {
    await send(bob, 'general', 'Lunch plans');
    const newest = await send(alice, 'general', 'lunch PLANS');
    const { topics } = await alice.request('GET', `/users/me/${general}/topics`);
    const list = topics as { name: string; max_id: number }[];
    expect(list[0]).toEqual({ name: 'lunch PLANS', max_id: newest });
    expect(list.filter((t) => t.name.toLowerCase() === 'lunch plans')).toHaveLength(1);
    const ids = list.map((t) => t.max_id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('shows a protected history only through the messages the user received', async () => {
    await admin.request('POST', '/users/me/subscriptions', {
      subscriptions: [{ name: 'secret plans' }],
      invite_only: true,
      history_public_to_subscribers: false,
    });
    await send(admin, 'secret plans', 'before alice');
    await admin.request('POST', '/users/me/subscriptions', {
      subscriptions: [{ name: 'secret plans' }],
      principals: [demoIds(svc).users.alice as number],
    });
    const after = await send(admin, 'secret plans', 'after alice');
    const secret = demoIds(svc).streams['secret plans'] as number;
    expect((await alice.request('GET', `/users/me/${secret}/topics`)).topics).toEqual([
      { name: 'after alice', max_id: after },
    ]);
    expect((await admin.request('GET', `/users/me/${secret}/topics`)).topics).toHaveLength(2);
    const r = await call(svc.url, 'GET', `/users/me/${secret}/topics`, { auth: authOf(bob) });
    expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: invalidStream });
  });

  it('refuses an unknown stream', async () => {
    const r = await call(svc.url, 'GET', '/users/me/987654/topics', { auth: authOf(alice) });
    expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: invalidStream });
  });
});

describe('POST /user_topics', () => {
  const topicEvent = (topic: string, policy: number) => ({
    type: 'user_topic',
    stream_id: general,
    topic_name: topic,
    last_updated: expect.any(Number),
    visibility_policy: policy,
    id: expect.any(Number),
  });

  it('mutes, follows and resets a topic, with a user_topic event each time to the user only', async () => {
    for (const [policy, topic] of [
      [1, 'lunch plans'],
      [3, 'Lunch Plans'],
      [0, 'lunch plans'],
    ] as const) {
      const { events, result, states } = await verifyAction({
        clients: [alice, bob],
        action: () => setPolicy(alice, { stream_id: general, topic, visibility_policy: policy }),
      });
      expect(result.body).toEqual({ result: 'success', msg: '' });
      expect(events).toEqual([[topicEvent(topic, policy)], []]);
      const stored = (
        (states[0]?.user_topics ?? []) as { topic_name: string; visibility_policy: number }[]
      ).filter((t) => t.topic_name.toLowerCase() === 'lunch plans');
      expect(stored).toEqual(
        policy === 0 ? [] : [expect.objectContaining({ topic_name: topic, visibility_policy: policy })],
      );
    }
  });

  it('sends nothing when the policy is already the one asked for', async () => {
    await setPolicy(alice, { stream_id: general, topic: 'quiet', visibility_policy: 1 });
    // Muted already: nothing; reset: one event; reset again (no row left): nothing.
    for (const [policy, count] of [
      [1, 0],
      [0, 1],
      [0, 0],
    ] as const) {
      const { events, result } = await verifyAction({
        clients: [alice],
        action: () => setPolicy(alice, { stream_id: general, topic: 'quiet', visibility_policy: policy }),
      });
      expect(result.status).toBe(200);
      expect(events[0]).toHaveLength(count);
    }
  });

  const errors: [string, Record<string, unknown>, string][] = [
    [
      'a policy outside 0-3',
      { stream_id: general, topic: 'x', visibility_policy: 4 },
      'Invalid visibility_policy',
    ],
    ['an empty topic', { stream_id: general, topic: '  ', visibility_policy: 1 }, "Topic can't be empty!"],
    ['an unknown stream', { stream_id: 987654, topic: 'x', visibility_policy: 1 }, 'Invalid stream ID'],
    [
      'resetting on an unknown stream',
      { stream_id: 987654, topic: 'x', visibility_policy: 0 },
      'Invalid stream ID',
    ],
    [
      'a private stream the user is not in',
      { stream_id: streams.design, topic: 'x', visibility_policy: 1 },
      'Invalid stream ID',
    ],
  ];
  it.each(errors)('refuses %s', async (_label, params, msg) => {
    const r = await setPolicy(bob, params);
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg, code: 'BAD_REQUEST' },
    });
  });
});
