/**
 * POST /messages in group commits (actions/messages.ts, sendMessageGrouped): sends that arrive
 * together share one transaction, yet each is answered as if it had been alone, a failing one
 * costs the others nothing, and whatever was acknowledged survives kill -9.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { loginAs, startServerProcess } from '../../test/support/server';
import { sendMessageGrouped } from '../actions/messages';
import type { ServiceContext } from '../context';
import { openDatabase } from '../db';
import { QueueManager } from '../events/manager';
import { RateLimits } from '../ratelimit';
import { authOf, call, demoIds, eventsAfter, query, serviceWith } from './support/service';

const { svc, alice, bob } = await serviceWith(['alice', 'bob'], { rateLimits: { user: 0, ip: 0 } });
const { users: ids, streams } = demoIds(svc);

const narrowOf = (topic: string) =>
  JSON.stringify([
    ['stream', 'general'],
    ['topic', topic],
  ]);

async function topicMessages(client: ApiClient, topic: string) {
  const r = await client.request('GET', '/messages', {
    anchor: 'oldest',
    num_before: 0,
    num_after: 100,
    narrow: narrowOf(topic),
    apply_markdown: false,
  });
  return (r.messages as { id: number; content: string }[]).map((m) => [m.id, m.content]);
}

describe('sends that share a commit', () => {
  it('are answered each on its own: a failing send fails alone, the others commit in order', async () => {
    const queue = await bob.registerQueue({ event_types: ['message'], apply_markdown: false });
    const queueId = queue.queue_id as string;
    // Fired together, so that they arrive while the service is busy and share commits; each
    // answer is what the send would have got alone.
    const sends = [
      { to: 'general', content: 'first' },
      { to: '999999', content: 'to no stream' },
      { to: 'general', content: 'second' },
      { to: 'general', content: '   ' },
      { to: 'general', content: 'third' },
    ];
    const answers = await Promise.all(
      sends.map(({ to, content }) =>
        call(svc.url, 'POST', '/messages', {
          auth: authOf(alice),
          params: { type: 'stream', to, topic: 'grouped', content },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 400, 200, 400, 200]);
    expect(answers[1]?.body).toEqual({
      result: 'error',
      msg: "Stream with ID '999999' does not exist",
      code: 'STREAM_DOES_NOT_EXIST',
      stream_id: 999999,
    });
    expect(answers[3]?.body).toEqual({
      result: 'error',
      msg: 'Message must not be empty',
      code: 'BAD_REQUEST',
    });
    const sentIds = [answers[0], answers[2], answers[4]].map((a) => a?.body.id as number);
    for (const a of [answers[0], answers[2], answers[4]])
      expect(a?.body).toEqual({ result: 'success', msg: '', id: a?.body.id });
    expect(await topicMessages(alice, 'grouped')).toEqual([
      [sentIds[0], 'first'],
      [sentIds[1], 'second'],
      [sentIds[2], 'third'],
    ]);
    // One message event each, in id order, with bob's flags.
    const events = await eventsAfter(bob, queueId, -1);
    expect(
      events.map((e) => [e.type, (e.message as { id: number; content: string }).content, e.flags]),
    ).toEqual([
      ['message', 'first', []],
      ['message', 'second', []],
      ['message', 'third', []],
    ]);
    expect(events.map((e) => (e.message as { id: number }).id)).toEqual([...sentIds].sort((a, b) => a - b));
  });

  it('stores a group in one transaction; a failing send is rolled back with it and the rest run again', async () => {
    // A connection and queues of our own: the sends below are made in one turn of the event
    // loop, so they are one group for certain (over HTTP they only probably are).
    const db = openDatabase(svc.dataDir);
    try {
      const ctx: ServiceContext = {
        db,
        realmId: query<{ id: number }>(svc, 'SELECT id FROM realm')[0]?.id ?? 0,
        queues: new QueueManager({ heartbeatMs: 60_000, queueIdleMs: 600_000 }),
        config: {
          heartbeatMs: 60_000,
          queueIdleMs: 600_000,
          longpollSeconds: 90,
          workBudgetSeconds: 50,
          dataDir: svc.dataDir,
          publicUrl: svc.url,
          smtpUrl: null,
        },
        rateLimits: new RateLimits(),
      };
      const send = (content: string, stream: number | string = streams.general ?? 0) =>
        sendMessageGrouped(ctx, {
          senderId: ids.alice ?? 0,
          to: { type: 'stream', stream, topic: 'one turn' },
          content,
        }).then(
          (sent) => ({ id: sent.id, copies: sent.userIds.length }),
          (error: unknown) => ({ error: (error as Error).message }),
        );
      // Every active subscriber of general gets a copy, and alice (subscribed) is one of them.
      const copies = query<{ n: number }>(
        svc,
        `SELECT COUNT(*) AS n FROM subscriptions s JOIN users u ON u.id = s.user_id
         WHERE s.stream_id = ? AND s.active = 1 AND u.is_active = 1`,
        streams.general,
      )[0]?.n;
      const before = query<{ n: number }>(svc, 'SELECT MAX(id) AS n FROM messages')[0]?.n ?? 0;
      const results = await Promise.all([
        send('one'),
        send('two'),
        send('nowhere', 999999),
        send('three'),
        send(''),
        send('four'),
      ]);
      expect(results).toEqual([
        { id: before + 1, copies },
        { id: before + 2, copies },
        { error: "Stream with ID '999999' does not exist" },
        { id: before + 3, copies },
        { error: 'Message must not be empty' },
        { id: before + 4, copies },
      ]);
      expect(
        query<{ id: number; content: string }>(
          svc,
          "SELECT id, content FROM messages WHERE topic = 'one turn' ORDER BY id",
        ),
      ).toEqual([
        { id: before + 1, content: 'one' },
        { id: before + 2, content: 'two' },
        { id: before + 3, content: 'three' },
        { id: before + 4, content: 'four' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('durability', () => {
  it('keeps every acknowledged message through kill -9', async () => {
    const server = await startServerProcess();
    try {
      const sender = await loginAs(server, 'alice');
      const contents = Array.from({ length: 40 }, (_, i) => `kept ${i}`);
      // Together, so that they are acknowledged in group commits.
      const answers = await Promise.all(
        contents.map((content) =>
          sender.request('POST', '/messages', { type: 'stream', to: 'general', topic: 'kill -9', content }),
        ),
      );
      await server.kill9();
      await server.restart();
      expect(await topicMessages(sender, 'kill -9')).toEqual(
        answers.map((a, i) => [a.id, contents[i]]).sort((x, y) => Number(x[0]) - Number(y[0])),
      );
    } finally {
      await server.dispose();
    }
  }, 90_000);
});
