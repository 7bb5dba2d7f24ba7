/**
 * The offline cache on its own, with messages shaped as the server sends them: pages stored and
 * read back as the server would answer within the window, windows merged, bounded and evicted,
 * the snapshot kept without its queue, events applied (with a window shrinking rather than
 * claiming a message it lacks), and a damaged file set aside instead of a crash.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Narrow } from '../../../shared/domain';
import type { Message, RegisterState, ServerEvent } from '../../../shared/protocol';
import { makeTempDir, removeDir } from '../../../test/support/server';
import { type FetchedPage, MAX_PER_NARROW, MessageCache, NEWEST, NEWEST_ANCHOR } from './cache';

let root: string;
beforeAll(async () => {
  root = await makeTempDir('confab-cache-');
});
afterAll(async () => {
  if (root) await removeDir(root);
});

const opened: MessageCache[] = [];
afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
});

let counter = 0;
const freshFile = () => join(root, `p${++counter}`, 'cache', 'acct.sqlite');

function open(file = freshFile()): MessageCache {
  const cache = MessageCache.open(file);
  opened.push(cache);
  return cache;
}

const ME = 10;
const BOB = 11;
const TOPIC: Narrow = { kind: 'topic', streamId: 1, topic: 'lunch' };
const STREAM: Narrow = { kind: 'stream', streamId: 1 };
const STARRED: Narrow = { kind: 'starred' };

function message(id: number, extra: Partial<Message> = {}): Message {
  return {
    id,
    type: 'stream',
    stream_id: 1,
    subject: 'lunch',
    content: `<p>message ${id}</p>`,
    content_type: 'text/html',
    display_recipient: 'general',
    sender_id: BOB,
    sender_email: 'bob@example.test',
    sender_full_name: 'Bob',
    timestamp: 1_700_000_000 + id,
    is_me_message: false,
    avatar_url: null,
    reactions: [],
    flags: ['read'],
    ...extra,
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A page as GET /messages answers anchor=newest with numBefore before it. */
function newestPage(ids: number[], numBefore: number, foundOldest: boolean): FetchedPage {
  return {
    messages: ids.map((id) => message(id)),
    anchor: NEWEST_ANCHOR,
    numBefore,
    numAfter: 0,
    foundOldest,
    foundNewest: true,
  };
}

const ids = (page: { messages: Message[] } | null) => page?.messages.map((m) => m.id);

let eventId = 0;
const event = (e: Record<string, unknown>) => ({ id: ++eventId, ...e }) as unknown as ServerEvent;

describe('the message cache', () => {
  it('reads back a stored page around any anchor, as the server would answer it', () => {
    const file = freshFile();
    const cache = open(file);
    cache.storePage(TOPIC, newestPage([3, 5, 7, 9], 50, true));

    expect(cache.readPage(TOPIC, 'newest', 2, 0)).toEqual({
      messages: [message(7), message(9)],
      anchor: NEWEST_ANCHOR,
      foundOldest: false,
      foundNewest: true,
      foundAnchor: false,
      fromCache: true,
    });
    expect(cache.readPage(TOPIC, 'oldest', 0, 2)).toMatchObject({
      anchor: 0,
      foundOldest: true,
      foundNewest: false,
    });
    expect(ids(cache.readPage(TOPIC, 'oldest', 0, 2))).toEqual([3, 5]);
    expect(cache.readPage(TOPIC, 5, 1, 1)).toMatchObject({ anchor: 5, foundAnchor: true });
    expect(ids(cache.readPage(TOPIC, 5, 1, 1))).toEqual([3, 5, 7]);
    expect(cache.readPage(TOPIC, 5, 1, 1)).toMatchObject({ foundOldest: true, foundNewest: false });
    // No unread message: first_unread is the newest end, as on the server.
    expect(cache.readPage(TOPIC, 'first_unread', 1, 1)).toMatchObject({ anchor: NEWEST_ANCHOR });
    // A narrow never fetched, and a search, have nothing cached.
    expect(cache.readPage(STREAM, 'newest', 10, 0)).toBeNull();
    cache.storePage({ kind: 'search', query: 'lunch' }, newestPage([3], 10, true));
    expect(cache.readPage({ kind: 'search', query: 'lunch' }, 'newest', 10, 0)).toBeNull();

    // It is on disk: a new process reads the same.
    cache.close();
    const again = open(file);
    expect(ids(again.readPage(TOPIC, 'newest', 10, 0))).toEqual([3, 5, 7, 9]);
    expect(again.narrows()).toEqual([{ key: 'topic:1:lunch', lo: 0, hi: NEWEST, count: 4 }]);
  });

  it('merges overlapping pages, replaces the window with a newer page apart from it, keeps it for an older one', () => {
    const cache = open();
    // The newest 3 of a longer history.
    cache.storePage(TOPIC, newestPage([20, 21, 22], 3, false));
    expect(cache.narrows()).toEqual([{ key: 'topic:1:lunch', lo: 20, hi: NEWEST, count: 3 }]);
    // Older ones, anchored at the window's oldest: one window, reaching the oldest now.
    cache.storePage(TOPIC, {
      messages: [message(15), message(18), message(20)],
      anchor: 20,
      numBefore: 50,
      numAfter: 0,
      foundOldest: true,
      foundNewest: false,
    });
    expect(cache.narrows()).toEqual([{ key: 'topic:1:lunch', lo: 0, hi: NEWEST, count: 5 }]);
    expect(cache.readPage(TOPIC, 'newest', 100, 0)).toMatchObject({ foundOldest: true, foundNewest: true });
    // A refetch of the newest without 21 (deleted meanwhile): it leaves the window.
    cache.storePage(TOPIC, newestPage([20, 22], 2, false));
    expect(ids(cache.readPage(TOPIC, 'newest', 100, 0))).toEqual([15, 18, 20, 22]);

    // A stream window apart from an older page: the older page is not kept.
    cache.storePage(STREAM, newestPage([100, 101], 2, false));
    cache.storePage(STREAM, {
      messages: [message(40), message(41)],
      anchor: 41,
      numBefore: 1,
      numAfter: 0,
      foundOldest: false,
      foundNewest: false,
    });
    expect(ids(cache.readPage(STREAM, 'newest', 100, 0))).toEqual([100, 101]);
    // A new queue: what came since the last one was not seen, no window reaches the newest.
    cache.newQueue();
    expect(cache.narrows()).toEqual([
      { key: 'stream:1', lo: 100, hi: 101, count: 2 },
      { key: 'topic:1:lunch', lo: 0, hi: 22, count: 4 },
    ]);
    // So a newer page apart from the window (the present after a long time away) replaces it.
    cache.storePage(STREAM, {
      messages: [message(500), message(501)],
      anchor: 500,
      numBefore: 0,
      numAfter: 1,
      foundOldest: false,
      foundNewest: false,
    });
    expect(cache.narrows().find((n) => n.key === 'stream:1')).toEqual({
      key: 'stream:1',
      lo: 500,
      hi: 501,
      count: 2,
    });
    expect(cache.readPage(STREAM, 'newest', 100, 0)).toMatchObject({
      foundOldest: false,
      foundNewest: false,
    });
    // Messages no window holds are not kept (15, 18, 20, 22 of the topic; 500, 501 of the stream).
    expect(cache.messageCount()).toBe(6);
  });

  it(`keeps the newest ${MAX_PER_NARROW} messages of a narrow, each stored once`, () => {
    const cache = open();
    const all = range(1, MAX_PER_NARROW + 500);
    cache.storePage(STREAM, newestPage(all, all.length, true));
    cache.storePage(TOPIC, newestPage(range(MAX_PER_NARROW + 401, MAX_PER_NARROW + 500), 100, false));
    expect(cache.narrows()).toEqual([
      { key: 'stream:1', lo: 501, hi: NEWEST, count: MAX_PER_NARROW },
      { key: 'topic:1:lunch', lo: MAX_PER_NARROW + 401, hi: NEWEST, count: 100 },
    ]);
    // The topic's 100 are the stream's newest too: stored once.
    expect(cache.messageCount()).toBe(MAX_PER_NARROW);
    const oldestEnd = cache.readPage(STREAM, 'oldest', 0, 10);
    expect(ids(oldestEnd)).toEqual(range(501, 510));
    // The trimmed window no longer reaches the narrow's oldest message.
    expect(cache.readPage(STREAM, 'newest', 5000, 0)).toMatchObject({
      foundOldest: false,
      foundNewest: true,
    });
  });

  it('keeps the last snapshot without its queue id', () => {
    const file = freshFile();
    const cache = open(file);
    expect(cache.snapshot()).toBeNull();
    const state = {
      queue_id: 'q-1',
      last_event_id: 4,
      user_id: ME,
      zulip_version: '1',
    } as unknown as RegisterState;
    cache.saveSnapshot(state);
    cache.close();
    expect(open(file).snapshot()).toEqual({ last_event_id: 4, user_id: ME, zulip_version: '1' });
  });

  it('applies events: new, edited, deleted, reacted, starred, moved; a window never claims a message it lacks', () => {
    const cache = open();
    cache.storePage(TOPIC, newestPage([1, 2, 3], 10, true));
    cache.storePage(STARRED, newestPage([], 10, true));
    cache.storePage({ kind: 'topic', streamId: 1, topic: 'dinner' }, newestPage([], 10, true));
    // A window of the past: live messages are not its business.
    cache.storePage(STREAM, {
      messages: [message(1), message(2)],
      anchor: 1,
      numBefore: 0,
      numAfter: 1,
      foundOldest: true,
      foundNewest: false,
    });

    cache.applyEvents(
      [
        event({ type: 'message', message: message(4, { flags: [] }), flags: [] }),
        event({
          type: 'update_message',
          message_id: 1,
          message_ids: [1],
          edit_timestamp: 1_800_000_000,
          user_id: BOB,
          rendering_only: false,
          content: 'changed',
          rendered_content: '<p>changed</p>',
          orig_content: 'message 1',
          orig_rendered_content: '<p>message 1</p>',
        }),
        event({
          type: 'delete_message',
          message_type: 'stream',
          message_ids: [2],
          stream_id: 1,
          topic: 'lunch',
        }),
        event({
          type: 'reaction',
          op: 'add',
          user_id: ME,
          message_id: 3,
          emoji_name: 'smile',
          emoji_code: '1f604',
          reaction_type: 'unicode_emoji',
        }),
        event({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [3], all: false }),
      ],
      ME,
    );
    const topic = cache.readPage(TOPIC, 'newest', 10, 0);
    expect(ids(topic)).toEqual([1, 3, 4]);
    expect(topic?.messages[0]).toMatchObject({
      content: '<p>changed</p>',
      last_edit_timestamp: 1_800_000_000,
    });
    expect(topic?.messages[1]).toMatchObject({
      reactions: [{ emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji', user_id: ME }],
      flags: ['read', 'starred'],
    });
    expect(ids(cache.readPage(STARRED, 'newest', 10, 0))).toEqual([3]);
    expect(ids(cache.readPage(STREAM, 'oldest', 0, 10))).toEqual([1]);

    // Moved to "dinner": it leaves lunch and joins dinner, whose window covers it.
    cache.applyEvents(
      [
        event({
          type: 'update_message',
          message_id: 4,
          message_ids: [4],
          edit_timestamp: 1_800_000_001,
          rendering_only: false,
          stream_id: 1,
          orig_subject: 'lunch',
          subject: 'dinner',
          propagate_mode: 'change_one',
        }),
      ],
      ME,
    );
    expect(ids(cache.readPage(TOPIC, 'newest', 10, 0))).toEqual([1, 3]);
    expect(ids(cache.readPage({ kind: 'topic', streamId: 1, topic: 'dinner' }, 'newest', 10, 0))).toEqual([
      4,
    ]);

    // Starred elsewhere, a message the cache does not hold: the starred window now starts above it.
    cache.applyEvents(
      [event({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [3, 5], all: false })],
      ME,
    );
    expect(cache.narrows().find((n) => n.key === 'starred')).toEqual({
      key: 'starred',
      lo: 6,
      hi: NEWEST,
      count: 0,
    });
    expect(cache.readPage(STARRED, 'newest', 10, 0)).toMatchObject({ messages: [], foundOldest: false });

    // Marked read everywhere.
    cache.applyEvents(
      [event({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [], all: true })],
      ME,
    );
    expect(cache.readPage(TOPIC, 'newest', 10, 0)?.messages.map((m) => m.flags.includes('read'))).toEqual([
      true,
      true,
    ]);
    expect(
      cache.readPage({ kind: 'topic', streamId: 1, topic: 'dinner' }, 'newest', 10, 0)?.messages[0]?.flags,
    ).toEqual(['read']);
  });

  it('sets a damaged file aside and starts afresh', () => {
    const file = freshFile();
    const cache = open(file);
    cache.storePage(TOPIC, newestPage([1], 10, true));
    cache.close();
    writeFileSync(file, 'this is not a database, just some text long enough to look like a header');
    const fresh = open(file);
    expect(fresh.readPage(TOPIC, 'newest', 10, 0)).toBeNull();
    fresh.storePage(TOPIC, newestPage([2], 10, true));
    expect(ids(fresh.readPage(TOPIC, 'newest', 10, 0))).toEqual([2]);
    const names = readdirSync(join(file, '..'));
    expect(names.some((n) => /^acct\.sqlite\.damaged-\d+$/.test(n))).toBe(true);
    expect(existsSync(file)).toBe(true);
  });
});
