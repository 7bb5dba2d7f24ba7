/**
 * GET /messages narrowed to a stream, read by the stream's recipient (db/narrow.ts): the
 * window holds that stream's messages alone among other streams' and direct messages, for a
 * subscriber and for a reader of its history; first_unread finds the stream's own first
 * unread message past unread ones elsewhere; a message moved between streams follows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { messageHelpers } from './support/message-edit';
import { demoIds, serviceWith } from './support/service';

const { svc, alice, admin, bob } = await serviceWith(['alice', 'admin', 'bob']);
const { as, send } = messageHelpers(svc);
const { users: ids, streams } = demoIds(svc);
const { engineering } = streams as Record<string, number>;

const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

async function fetchWindow(
  client: ApiClient,
  narrow: unknown[],
  anchor: string | number,
  before: number,
  after: number,
) {
  const r = await as(client, 'GET', '/messages', {
    narrow: JSON.stringify(narrow),
    anchor: String(anchor),
    num_before: before,
    num_after: after,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const messages = r.body.messages as { id: number; flags: string[] }[];
  return {
    ids: messages.map((m) => m.id),
    flags: messages.map((m) => m.flags),
    anchor: r.body.anchor,
    found: [r.body.found_anchor, r.body.found_oldest, r.body.found_newest],
  };
}

const ENGINEERING = [{ operator: 'stream', operand: 'engineering' }];
const GENERAL = [{ operator: 'stream', operand: 'general' }];

/** admin's messages, interleaved: engineering, general, a direct message to alice; six rounds. */
const eng: number[] = [];
const gen: number[] = [];
const dms: number[] = [];

beforeAll(async () => {
  expect((await as(alice, 'POST', '/mark_all_as_read')).status).toBe(200);
  for (let i = 0; i < 6; i++) {
    eng.push(await send(admin, 'engineering', `engineering ${i}`, 'window'));
    gen.push(await send(admin, 'general', `general ${i}`, 'window'));
    dms.push(await send(admin, [ids.alice as number], `direct ${i}`));
  }
});

describe('a stream narrow', () => {
  it("holds the stream's messages alone, newest, around an id and around another stream's", async () => {
    expect(await fetchWindow(alice, ENGINEERING, 'newest', 3, 0)).toEqual({
      ids: eng.slice(3),
      flags: [[], [], []],
      anchor: LARGER_THAN_MAX_MESSAGE_ID,
      found: [false, false, true],
    });
    expect((await fetchWindow(alice, ENGINEERING, eng[2] as number, 1, 1)).ids).toEqual(eng.slice(1, 4));
    // general's message lies between engineering's 2 and 3.
    expect(await fetchWindow(alice, ENGINEERING, gen[2] as number, 1, 1)).toEqual({
      ids: [eng[2], eng[3]],
      flags: [[], []],
      anchor: gen[2],
      found: [false, false, false],
    });
    expect((await fetchWindow(alice, GENERAL, dms[5] as number, 2, 2)).ids).toEqual(gen.slice(4));
  });

  it("shows a non-subscriber the stream's history, without copies", async () => {
    expect(await fetchWindow(bob, ENGINEERING, 'newest', 2, 0)).toEqual({
      ids: eng.slice(4),
      flags: [
        ['read', 'historical'],
        ['read', 'historical'],
      ],
      anchor: LARGER_THAN_MAX_MESSAGE_ID,
      found: [false, false, true],
    });
  });

  it("anchors first_unread at the stream's own first unread message", async () => {
    const flags = await as(alice, 'POST', '/messages/flags', {
      messages: JSON.stringify(eng.slice(0, 3)),
      op: 'add',
      flag: 'read',
    });
    expect(flags.status).toBe(200);
    // Unread before it: general's and the direct messages of the first rounds.
    expect(await fetchWindow(alice, ENGINEERING, 'first_unread', 1, 1)).toEqual({
      ids: eng.slice(2, 5),
      flags: [['read'], [], []],
      anchor: eng[3],
      found: [true, false, false],
    });
    expect((await fetchWindow(alice, GENERAL, 'first_unread', 0, 0)).anchor).toBe(gen[0]);
    expect((await fetchWindow(alice, [], 'first_unread', 0, 0)).anchor).toBe(gen[0]);
  });

  it('anchors first_unread at the newest when the stream has nothing unread', async () => {
    const read = await as(alice, 'POST', '/mark_stream_as_read', { stream_id: engineering });
    expect(read.status).toBe(200);
    expect(await fetchWindow(alice, ENGINEERING, 'first_unread', 1, 1)).toEqual({
      ids: [eng[5]],
      flags: [['read']],
      anchor: LARGER_THAN_MAX_MESSAGE_ID,
      found: [false, false, true],
    });
  });

  it('takes in a message moved to it, and its old stream lets it go', async () => {
    const id = await send(admin, 'general', 'moving to engineering', 'to move');
    const moved = await as(admin, 'PATCH', `/messages/${id}`, {
      stream_id: engineering,
      topic: 'moved',
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await fetchWindow(alice, ENGINEERING, 'newest', 2, 0)).ids).toEqual([eng[5], id]);
    expect((await fetchWindow(alice, GENERAL, 'newest', 1, 0)).ids).toEqual([gen[5]]);
    const topic = [...ENGINEERING, { operator: 'topic', operand: 'moved' }];
    expect((await fetchWindow(alice, topic, 'newest', 5, 0)).ids).toEqual([id]);
  });
});
