/**
 * stream_weekly_traffic: the family's estimate of a stream's messages per week over the 28
 * whole UTC days before today (today left out, so no event is ever owed), null for a stream
 * younger than a week; the same figure in GET /streams, GET /users/me/subscriptions, register
 * and the events that carry stream objects.
 */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import type { DemoUser } from '../../test/support/server';
import { trafficWindow, weeklyTraffic } from '../formats/streams';
import { everyone, query, serviceWith } from './support/service';
import { DEFAULT_REGISTER_PARAMS, verifyAction } from './support/verify-action';

const DAY = 86_400;
const { svc } = await serviceWith([]);
const { clients } = await everyone(svc);

/** The start of the current UTC day, in epoch seconds: where the counted span ends. */
const today = Math.floor(Date.now() / 1000 / DAY) * DAY;

async function createStream(name: string, daysOld: number): Promise<number> {
  await clients.alice.request('POST', '/users/me/subscriptions', { subscriptions: [{ name }] });
  const [row] = query<{ id: number }>(svc, 'SELECT id FROM streams WHERE name = ?', name);
  if (!row) throw new Error(`no stream ${name}`);
  svc.sql('UPDATE streams SET date_created = ? WHERE id = ?', today - daysOld * DAY - 3600, row.id);
  return row.id;
}

async function send(stream: string, content = 'hello'): Promise<number> {
  const r = await clients.alice.request('POST', '/messages', {
    type: 'stream',
    to: stream,
    topic: 't',
    content,
  });
  return r.id as number;
}

/** Sends `count` messages to the stream and moves them `daysAgo` days before today. */
async function sendOld(stream: string, count: number, daysAgo: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const id = await send(stream, `old ${i}`);
    svc.sql('UPDATE messages SET date_sent = ? WHERE id = ?', today - daysAgo * DAY + 60 * i, id);
  }
}

// busy: a month and more old, 22 messages in the last four weeks, 9 before them: 22 / 4 → 5.
await createStream('busy', 60);
await sendOld('busy', 22, 3);
await sendOld('busy', 9, 40);
// young: two weeks old, 6 messages: 6 per 14 days → 3 a week.
await createStream('young', 14);
await sendOld('young', 6, 2);
// sparse: one message in four weeks still reads as 1 a week, never 0.
await createStream('sparse', 90);
await sendOld('sparse', 1, 27);
// quiet: old, messages only before the span.
await createStream('quiet', 90);
await sendOld('quiet', 4, 29);
// fresh: six days old, with messages: too new to tell.
await createStream('fresh', 6);
await sendOld('fresh', 5, 1);

const EXPECTED: Record<string, number | null> = {
  busy: 5,
  young: 3,
  sparse: 1,
  quiet: 0,
  fresh: null,
  // The demo's streams are long past their messages.
  general: 0,
};

const trafficOf = (streams: unknown) =>
  Object.fromEntries(
    (streams as { name: string; stream_weekly_traffic: number | null }[])
      .filter((s) => s.name in EXPECTED)
      .map((s) => [s.name, s.stream_weekly_traffic]),
  );

const register = (who: DemoUser | ApiClient) =>
  (typeof who === 'string' ? clients[who] : who).request('POST', '/register', {
    ...DEFAULT_REGISTER_PARAMS,
    fetch_event_types: ['subscription', 'stream'],
  });

describe('stream_weekly_traffic', () => {
  it('GET /streams says each stream’s messages a week, null for a stream under a week old', async () => {
    const r = await clients.admin.request('GET', '/streams', { include_all_active: true });
    expect(trafficOf(r.streams)).toEqual(EXPECTED);
  });

  it('GET /users/me/subscriptions says the same figures', async () => {
    const r = await clients.alice.request('GET', '/users/me/subscriptions');
    expect(trafficOf(r.subscriptions)).toEqual(EXPECTED);
  });

  it('register says them in subscriptions, never_subscribed and streams', async () => {
    const alice = await register('alice');
    expect(trafficOf(alice.subscriptions)).toEqual(EXPECTED);
    expect(trafficOf(alice.streams)).toEqual(EXPECTED);
    // Bob is in general only: the others are never_subscribed for him.
    const bob = await register('bob');
    const { general, ...others } = EXPECTED;
    expect(trafficOf(bob.subscriptions)).toEqual({ general });
    expect(trafficOf(bob.never_subscribed)).toEqual(others);
  });

  it('a message sent today changes no figure, and its events still rebuild a fresh register', async () => {
    const { states } = await verifyAction({
      clients: [clients.alice, clients.bob],
      action: async () => {
        await send('busy', 'today');
        await send('fresh', 'today');
        await send('quiet', 'today');
      },
    });
    expect(trafficOf(states[0]?.subscriptions)).toEqual(EXPECTED);
    const r = await clients.admin.request('GET', '/streams', { include_all_active: true });
    expect(trafficOf(r.streams)).toEqual(EXPECTED);
  });

  it('subscribing to an old stream brings its figure in the subscription event', async () => {
    const { events, states } = await verifyAction({
      clients: [clients.bob],
      action: () =>
        clients.bob.request('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'busy' }] }),
    });
    const add = events[0]?.find((e) => e.type === 'subscription' && e.op === 'add') as
      | { subscriptions: { name: string; stream_weekly_traffic: number | null }[] }
      | undefined;
    expect(add?.subscriptions.map((s) => [s.name, s.stream_weekly_traffic])).toEqual([['busy', 5]]);
    expect(trafficOf(states[0]?.subscriptions)).toEqual({ general: 0, busy: 5 });
  });
});

describe('the estimate (the family’s rule)', () => {
  const end = 100 * DAY;
  it('is null under a week old, per 4 weeks from then on, over the age in between', () => {
    expect(weeklyTraffic(end - 6 * DAY - 1, 50, end)).toBeNull();
    expect(weeklyTraffic(end - 7 * DAY, 50, end)).toBe(50);
    expect(weeklyTraffic(end - 14 * DAY, 50, end)).toBe(25);
    expect(weeklyTraffic(end - 365 * DAY, 50, end)).toBe(12);
    expect(weeklyTraffic(end - 365 * DAY, 0, end)).toBe(0);
    expect(weeklyTraffic(end - 365 * DAY, 3, end)).toBe(1);
  });

  it('keeps two significant digits', () => {
    expect(weeklyTraffic(0, 4 * 99, end)).toBe(99);
    expect(weeklyTraffic(0, 4 * 1234, end)).toBe(1200);
    expect(weeklyTraffic(0, 4 * 1250, end)).toBe(1300);
    expect(weeklyTraffic(0, 4 * 98_765, end)).toBe(99_000);
  });

  it('counts the 28 whole UTC days before today', () => {
    const noon = Date.UTC(2026, 0, 30, 12) / 1000;
    expect(trafficWindow(noon * 1000)).toEqual({
      from: Date.UTC(2026, 0, 2) / 1000,
      to: Date.UTC(2026, 0, 30) / 1000,
    });
  });
});
