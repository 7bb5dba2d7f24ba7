/**
 * Scheduled messages: POST / GET /scheduled_messages, PATCH and DELETE
 * /scheduled_messages/{id} with their `scheduled_messages` events and register state
 * (verify-action), the family's errors, delivery at the scheduled time (and its failure),
 * and delivery after a restart of the service.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { makeTempDir, removeDir } from '../../test/support/server';
import { authOf, call, demoIds, serviceWith, sleep, startTestService } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob } = await serviceWith(['alice', 'bob']);
const ids = demoIds(svc);
const engineering = ids.streams.engineering as number;
const bobId = ids.users.bob as number;

const FUTURE = 3165826990;
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

function schedule(client: ApiClient, params: Record<string, unknown>) {
  return client.request('POST', '/scheduled_messages', {
    type: 'stream',
    to: engineering,
    topic: 'later',
    content: 'scheduled hello',
    scheduled_delivery_timestamp: FUTURE,
    ...params,
  });
}

async function raw(client: ApiClient, method: string, path: string, params: Record<string, unknown> = {}) {
  return call(svc.url, method, path, { auth: authOf(client), params: params as never });
}

/** Polls the user's messages until one has this content (or gives up). */
async function waitForMessage(url: string, client: ApiClient, content: string, ms = 8000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const r = await call(url, 'GET', '/messages', {
      auth: authOf(client),
      params: { anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false },
    });
    const found = (r.body.messages as { content: string; id: number }[] | undefined)?.find(
      (m) => m.content === content,
    );
    if (found) return found;
    await sleep(200);
  }
  return undefined;
}

describe('POST and GET /scheduled_messages', () => {
  it('schedules a stream message, with an add event and register state', async () => {
    const { events, result, states } = await verifyAction({
      clients: [alice, bob],
      action: () => schedule(alice, { content: 'see you **soon**' }),
    });
    const id = (result as { scheduled_message_id: number }).scheduled_message_id;
    const object = {
      scheduled_message_id: id,
      type: 'stream',
      to: engineering,
      topic: 'later',
      content: 'see you **soon**',
      rendered_content: '<p>see you <strong>soon</strong></p>',
      scheduled_delivery_timestamp: FUTURE,
      failed: false,
    };
    expect(events[0]).toEqual([
      { type: 'scheduled_messages', op: 'add', scheduled_messages: [object], id: 0 },
    ]);
    expect(events[1]).toEqual([]);
    expect(states[0]?.scheduled_messages).toContainEqual(object);
    const listed = await alice.request('GET', '/scheduled_messages');
    expect(listed.scheduled_messages).toContainEqual(object);
    expect((await bob.request('GET', '/scheduled_messages')).scheduled_messages).toEqual([]);
  });

  it('schedules a direct message to user ids', async () => {
    const { events } = await verifyAction({
      clients: [alice],
      action: () => schedule(alice, { type: 'direct', to: JSON.stringify([bobId]), topic: undefined }),
    });
    expect(events[0]?.[0]?.scheduled_messages).toEqual([
      expect.objectContaining({ type: 'private', to: [bobId], failed: false }),
    ]);
  });

  const refusals: [string, Record<string, unknown>, string, string][] = [
    [
      'a time in the past',
      { scheduled_delivery_timestamp: 1000 },
      'Scheduled delivery time must be in the future.',
      'BAD_REQUEST',
    ],
    [
      'a stream that does not exist',
      { to: 987654321 },
      "Stream with ID '987654321' does not exist",
      'STREAM_DOES_NOT_EXIST',
    ],
    ['a stream named, not numbered', { to: 'engineering' }, 'Invalid data type for stream ID', 'BAD_REQUEST'],
    ['a stream message without topic', { topic: undefined }, 'Missing topic', 'BAD_REQUEST'],
    [
      'recipients that are no list',
      { type: 'direct', to: '5' },
      'Invalid data type for recipients',
      'BAD_REQUEST',
    ],
    [
      'recipients by email',
      { type: 'direct', to: '["a@b.c"]' },
      'Recipient list may only contain user IDs',
      'BAD_REQUEST',
    ],
    ['an unknown recipient', { type: 'direct', to: '[987654]' }, 'Invalid user ID 987654', 'BAD_REQUEST'],
    ['empty content', { content: '  ' }, 'Message must not be empty', 'BAD_REQUEST'],
  ];
  it.each(refusals)('refuses %s', async (_label, params, msg, code) => {
    const body: Record<string, unknown> = {
      type: 'stream',
      to: engineering,
      topic: 'later',
      content: 'x',
      scheduled_delivery_timestamp: FUTURE,
      ...params,
    };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const before = (await alice.request('GET', '/scheduled_messages')).scheduled_messages;
    const r = await raw(alice, 'POST', '/scheduled_messages', body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ result: 'error', msg, code });
    expect((await alice.request('GET', '/scheduled_messages')).scheduled_messages).toEqual(before);
  });

  it('refuses a private stream the sender may not post to, as sending would', async () => {
    const sent = await raw(bob, 'POST', '/messages', {
      type: 'stream',
      to: 'design',
      topic: 't',
      content: 'x',
    });
    const scheduled = await raw(bob, 'POST', '/scheduled_messages', {
      type: 'stream',
      to: ids.streams.design,
      topic: 't',
      content: 'x',
      scheduled_delivery_timestamp: FUTURE,
    });
    expect(sent.status).toBe(400);
    expect(scheduled.status).toBe(400);
    expect(scheduled.body.msg).toBe(
      (
        await raw(bob, 'POST', '/messages', {
          type: 'stream',
          to: ids.streams.design,
          topic: 't',
          content: 'x',
        })
      ).body.msg,
    );
  });
});

describe('PATCH and DELETE /scheduled_messages/{id}', () => {
  it('edits content and time, with an update event', async () => {
    const { scheduled_message_id: id } = await schedule(alice, { content: 'first' });
    const { events } = await verifyAction({
      clients: [alice],
      action: () =>
        alice.request('PATCH', `/scheduled_messages/${id}`, {
          content: 'second',
          scheduled_delivery_timestamp: FUTURE + 60,
        }),
    });
    expect(events[0]).toEqual([
      {
        type: 'scheduled_messages',
        op: 'update',
        scheduled_message: expect.objectContaining({
          scheduled_message_id: id,
          content: 'second',
          rendered_content: '<p>second</p>',
          scheduled_delivery_timestamp: FUTURE + 60,
          topic: 'later',
        }),
        id: 0,
      },
    ]);
  });

  it('changes a stream message into a direct message', async () => {
    const { scheduled_message_id: id } = await schedule(alice, {});
    const { events } = await verifyAction({
      clients: [alice],
      action: () =>
        alice.request('PATCH', `/scheduled_messages/${id}`, { type: 'direct', to: JSON.stringify([bobId]) }),
    });
    const updated = events[0]?.[0]?.scheduled_message as Record<string, unknown>;
    expect(updated).toMatchObject({ type: 'private', to: [bobId], content: 'scheduled hello' });
    expect(updated).not.toHaveProperty('topic');
  });

  const refusals: [string, Record<string, unknown>, number, string][] = [
    [
      'a new type without recipient',
      { type: 'direct' },
      400,
      'Recipient required when updating type of scheduled message.',
    ],
    [
      'a new stream type without topic',
      { type: 'stream', to: engineering },
      400,
      'Topic required when updating scheduled message type to stream.',
    ],
    [
      'a time in the past',
      { scheduled_delivery_timestamp: 1000 },
      400,
      'Scheduled delivery time must be in the future.',
    ],
  ];
  it.each(refusals)('refuses %s', async (_label, params, status, msg) => {
    const { scheduled_message_id: id } = await schedule(alice, {});
    const r = await raw(alice, 'PATCH', `/scheduled_messages/${id}`, params);
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it("deletes with a remove event; another user's or a missing one does not exist", async () => {
    const { scheduled_message_id: id } = await schedule(alice, {});
    const notFound = { result: 'error', msg: 'Scheduled message does not exist', code: 'BAD_REQUEST' };
    for (const r of [
      await raw(bob, 'DELETE', `/scheduled_messages/${id}`),
      await raw(bob, 'PATCH', `/scheduled_messages/${id}`, { content: 'mine now' }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body).toEqual(notFound);
    }
    const { events } = await verifyAction({
      clients: [alice],
      action: () => alice.request('DELETE', `/scheduled_messages/${id}`),
    });
    expect(events[0]).toEqual([
      { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id, id: 0 },
    ]);
    const again = await raw(alice, 'DELETE', `/scheduled_messages/${id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(notFound);
  });
});

describe('delivery', () => {
  it('sends the message at its time, as the sender, and removes it from the list', async () => {
    const content = `on time ${Date.now()}`;
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: async () => {
        const r = await schedule(alice, {
          type: 'direct',
          to: JSON.stringify([bobId]),
          content,
          scheduled_delivery_timestamp: inSeconds(2),
        });
        expect(await waitForMessage(svc.url, bob, content)).toBeDefined();
        return r;
      },
    });
    const id = (await alice.request('GET', '/scheduled_messages')).scheduled_messages as unknown[];
    expect(id.some((m) => (m as { content: string }).content === content)).toBe(false);
    expect(events[0]?.map((e) => [e.type, e.op])).toEqual([
      ['scheduled_messages', 'add'],
      ['message', undefined],
      ['scheduled_messages', 'remove'],
    ]);
    expect(events[1]?.map((e) => e.type)).toEqual(['message']);
  });

  it('marks a message it cannot send as failed, and an edit with a new time reschedules it', async () => {
    const content = `doomed ${Date.now()}`;
    const { scheduled_message_id: id } = await schedule(alice, {
      type: 'direct',
      to: JSON.stringify([bobId]),
      content,
      scheduled_delivery_timestamp: inSeconds(2),
    });
    svc.sql('UPDATE users SET is_active = 0 WHERE id = ?', bobId);
    try {
      await sleep(3500);
      const listed = (await alice.request('GET', '/scheduled_messages')).scheduled_messages as Record<
        string,
        unknown
      >[];
      expect(listed.find((m) => m.scheduled_message_id === id)).toMatchObject({ failed: true, content });
      const r = await raw(alice, 'PATCH', `/scheduled_messages/${id}`, { content: 'retry' });
      expect(r.body).toEqual({
        result: 'error',
        msg: 'Scheduled delivery time must be in the future.',
        code: 'BAD_REQUEST',
      });
    } finally {
      svc.sql('UPDATE users SET is_active = 1 WHERE id = ?', bobId);
    }
    await alice.request('PATCH', `/scheduled_messages/${id}`, { scheduled_delivery_timestamp: inSeconds(1) });
    expect(await waitForMessage(svc.url, bob, content)).toBeDefined();
  });

  it('sends a message that fell due while the service was down once it is back', async () => {
    const dataDir = await makeTempDir('confab-scheduled-');
    try {
      let own = await startTestService({ dataDir });
      const sender = await own.login('alice');
      const content = `after restart ${Date.now()}`;
      await sender.request('POST', '/scheduled_messages', {
        type: 'stream',
        to: engineering,
        topic: 'restart',
        content,
        scheduled_delivery_timestamp: inSeconds(2),
      });
      await own.close();
      await sleep(2500);
      own = await startTestService({ dataDir });
      try {
        const reader = await own.login('admin');
        expect(await waitForMessage(own.url, reader, content)).toBeDefined();
        const again = await own.login('alice');
        expect((await again.request('GET', '/scheduled_messages')).scheduled_messages).toEqual([]);
      } finally {
        await own.close();
      }
    } finally {
      await removeDir(dataDir);
    }
  }, 30_000);
});
