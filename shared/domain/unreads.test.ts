/**
 * The incremental unread state against the simplest model of it: one record of where each
 * unread message lives, copied on every change (the substore as it was before issue 11), over
 * random event sequences with fixed seeds. Every state on the way must hold exactly the model's
 * messages, per-conversation index and mentions; equal a state built afresh from a register
 * snapshot of it; be what one event at a time gives when the events come as one batch; and stay
 * as it was when later events build on it.
 */
import { describe, expect, it } from 'vitest';
import { BOB, CAROL, ME, snapshotFixture } from '../../test/fixtures/domain';
import { seededRandom as random } from '../../test/fixtures/random';
import type { EventOf, ServerEvent } from '../protocol';
import {
  accountStateFromSnapshot,
  applyEvent,
  applyEvents,
  handleDeleteMessageEvent,
  handleMessageEvent,
  handleMessageEvents,
  handleUpdateMessageEvent,
  handleUpdateMessageFlagsEvent,
  IdMap,
  IdMapDraft,
  privateKey,
  snapshotFromAccountState,
  type UnreadLocation,
  type UnreadState,
  unreadsFromLocations,
  unreadsFromSnapshot,
} from './index';

describe('IdMap', () => {
  it('reads, iterates in id order and counts, whatever order the ids came in', () => {
    const ids = [5, 1_000_000, 31, 32, 0, 2 ** 31 - 1, 1023, 1024, 99_999];
    const map = IdMap.from(ids.map((id) => [id, `v${id}`] as const));
    expect(map.size).toBe(ids.length);
    expect(map.ids()).toEqual([...ids].sort((a, b) => a - b));
    expect([...map][0]).toEqual([0, 'v0']);
    for (const id of ids) expect([map.has(id), map.get(id)]).toEqual([true, `v${id}`]);
    for (const id of [1, 33, 1025, 2 ** 30, 2 ** 31 - 2]) expect(map.has(id)).toBe(false);
  });

  it('keeps ids outside the trie (negative, fractional, from 2^31) in order too', () => {
    const map = IdMap.from<string>([
      [2 ** 31, 'big'],
      [7, 'seven'],
      [-3, 'negative'],
      [1.5, 'half'],
      [2 ** 40, 'huge'],
    ]);
    expect(map.ids()).toEqual([-3, 1.5, 7, 2 ** 31, 2 ** 40]);
    const draft = new IdMapDraft(map);
    expect([draft.delete(-3), draft.delete(2 ** 31), draft.delete(-4)]).toEqual([true, true, false]);
    const next = draft.finish();
    expect(next.ids()).toEqual([1.5, 7, 2 ** 40]);
    expect(map.ids()).toEqual([-3, 1.5, 7, 2 ** 31, 2 ** 40]);
  });

  it('a draft leaves the map it started from as it was, and goes on after finish without changing the result', () => {
    const before = IdMap.from(Array.from({ length: 3000 }, (_, i) => [i * 7, i] as const));
    const draft = new IdMapDraft(before);
    for (let i = 0; i < 3000; i += 2) draft.delete(i * 7);
    draft.set(5, -1);
    draft.set(10_000_000, -2);
    const first = draft.finish();
    draft.set(6, -3);
    draft.delete(7);
    const second = draft.finish();
    expect(before.size).toBe(3000);
    expect(before.get(0)).toBe(0);
    expect(before.has(5)).toBe(false);
    expect(first.size).toBe(1502);
    expect([first.get(5), first.get(7), first.has(6), first.get(10_000_000)]).toEqual([-1, 1, false, -2]);
    expect([second.get(6), second.has(7), second.size]).toEqual([-3, false, 1502]);
  });

  it('emptied by deletions it holds nothing and grows again', () => {
    const draft = new IdMapDraft(IdMap.from<string>([[40_000, 'a'] as const, [3, 'b'] as const]));
    draft.delete(40_000);
    draft.delete(3);
    expect(draft.finish().ids()).toEqual([]);
    draft.set(1, 'c');
    expect(draft.finish().ids()).toEqual([1]);
  });

  it('setMany sets ascending ids in one descent, gives the values before, and grows the trie', () => {
    const before = IdMap.from<string>(Array.from({ length: 200 }, (_, i) => [i * 3, `v${i * 3}`] as const));
    const draft = new IdMapDraft(before);
    // One id past the root's reach (it grows), one unchanged, one replaced, one new.
    const ids = Int32Array.from([3, 4, 6, 599, 70_000]);
    const values = ['v3', 'four', 'six', 'end', 'far'];
    const olds: (string | undefined)[] = new Array(5);
    draft.setMany(ids, values, 4, olds);
    expect(olds.slice(0, 4)).toEqual(['v3', undefined, 'v6', undefined]);
    draft.setMany(ids.subarray(4), values.slice(4), 1, olds);
    expect(olds[0]).toBe(undefined);
    const after = draft.finish();
    expect(after.size).toBe(203);
    expect([after.get(3), after.get(4), after.get(6), after.get(599), after.get(70_000)]).toEqual([
      'v3',
      'four',
      'six',
      'end',
      'far',
    ]);
    expect(after.ids()).toEqual(sorted([...before.ids(), 4, 599, 70_000]));
    expect([before.size, before.get(6), before.has(4), before.has(70_000)]).toEqual([
      200,
      'v6',
      false,
      false,
    ]);
    // Setting every value to what it is changes nothing.
    const same = new IdMapDraft(after);
    const all = after.ids();
    same.setMany(
      all,
      all.map((id) => after.get(id) as string),
      all.length,
      new Array(all.length),
    );
    expect(same.finish()).toEqual(after);
    expect(same.size).toBe(203);
  });

  it('is equal to another map with the same entries, however each was built', () => {
    const direct = IdMap.from<string>([
      [1, 'a'],
      [70_000, 'b'],
    ]);
    const draft = new IdMapDraft(IdMap.from<string>([[5_000_000, 'x'] as const, [1, 'a'] as const]));
    draft.set(70_000, 'b');
    draft.delete(5_000_000);
    expect(draft.finish()).toEqual(direct);
    expect(direct).not.toEqual(IdMap.from<string>([[1, 'a'] as const, [70_000, 'c'] as const]));
    expect(direct).not.toEqual(IdMap.from<string>([[1, 'a'] as const]));
    expect(direct).not.toEqual(IdMap.from<string>([[2, 'a'] as const, [70_000, 'b'] as const]));
  });
});

// ---- the model: a record copied on every change -----------------------------------------

interface Model {
  messages: Record<number, UnreadLocation>;
  mentions: number[];
}

const MENTION_FLAGS = [
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
];
const sorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

function privateWhere(recipients: number[]): UnreadLocation {
  const others = recipients.filter((id) => id !== ME);
  if (others.length <= 1) return { kind: 'pm', userId: others[0] ?? ME };
  return { kind: 'huddle', userIds: sorted([...recipients, ME]).join(',') };
}

function modelAdd(model: Model, id: number, where: UnreadLocation, mentioned: boolean): Model {
  return {
    messages: { ...model.messages, [id]: where },
    mentions: mentioned ? sorted([...model.mentions, id]) : model.mentions,
  };
}

function modelDrop(model: Model, ids: number[]): Model {
  const messages = { ...model.messages };
  for (const id of ids) delete messages[id];
  return { messages, mentions: model.mentions.filter((id) => !ids.includes(id)) };
}

function modelApply(model: Model, event: ServerEvent): Model {
  switch (event.type) {
    case 'message': {
      const { message, flags } = event;
      if (flags.includes('read') || message.sender_id === ME) return model;
      const where: UnreadLocation =
        message.type === 'stream'
          ? { kind: 'stream', streamId: message.stream_id ?? 0, topic: message.subject }
          : privateWhere((message.display_recipient as { id: number }[]).map((r) => r.id));
      return modelAdd(
        model,
        message.id,
        where,
        flags.some((f) => MENTION_FLAGS.includes(f)),
      );
    }
    case 'update_message_flags': {
      if (event.flag === 'read' && event.op === 'add')
        return modelDrop(model, event.all ? Object.keys(model.messages).map(Number) : event.messages);
      if (event.flag === 'read') {
        const details = event.message_details as Record<
          string,
          { type: string; stream_id: number; topic: string; user_ids: number[]; mentioned?: boolean }
        >;
        let next = model;
        for (const id of event.messages) {
          const d = details[id];
          if (!d) continue;
          const where: UnreadLocation =
            d.type === 'stream'
              ? { kind: 'stream', streamId: d.stream_id, topic: d.topic }
              : privateWhere(d.user_ids);
          next = modelAdd(next, id, where, d.mentioned === true);
        }
        return next;
      }
      if (!MENTION_FLAGS.includes(event.flag)) return model;
      if (event.op === 'remove')
        return { ...model, mentions: model.mentions.filter((id) => !event.messages.includes(id)) };
      const added = event.messages.filter((id) => Object.hasOwn(model.messages, id));
      return { ...model, mentions: sorted([...model.mentions, ...added]) };
    }
    case 'delete_message':
      return modelDrop(model, event.message_ids ?? [event.message_id as number]);
    case 'update_message': {
      if (event.new_stream_id === undefined && event.subject === undefined) return model;
      const messages = { ...model.messages };
      for (const id of event.message_ids ?? []) {
        const where = messages[id];
        if (where?.kind !== 'stream') continue;
        messages[id] = {
          kind: 'stream',
          streamId: event.new_stream_id ?? where.streamId,
          topic: event.subject ?? where.topic,
        };
      }
      return { ...model, messages };
    }
    default:
      return model;
  }
}

/** The model's conversations, in the plain form `plain` gives a state's. */
function modelIndex(model: Model) {
  const streams: Record<number, { count: number; topics: Record<string, number[]> }> = {};
  const privates: Record<string, number[]> = {};
  for (const id of Object.keys(model.messages).map(Number)) {
    const where = model.messages[id] as UnreadLocation;
    if (where.kind === 'stream') {
      const stream = streams[where.streamId] ?? { count: 0, topics: {} };
      stream.count++;
      stream.topics[where.topic] = [...(stream.topics[where.topic] ?? []), id];
      streams[where.streamId] = stream;
    } else {
      privates[privateKey(where)] = [...(privates[privateKey(where)] ?? []), id];
    }
  }
  return { messages: model.messages, streams, privates, mentions: model.mentions };
}

/** A state as plain objects (ids in every list ascending), to compare with the model's. */
function plain(state: UnreadState) {
  const messages: Record<number, UnreadLocation> = {};
  state.messages.forEach((where, id) => {
    messages[id] = where;
  });
  expect(state.messages.size).toBe(Object.keys(messages).length);
  const streams: Record<number, { count: number; topics: Record<string, number[]> }> = {};
  for (const [streamId, stream] of state.streams) {
    const topics: Record<string, number[]> = {};
    for (const [topic, conversation] of stream.topics) {
      expect(conversation.location).toEqual({ kind: 'stream', streamId, topic });
      topics[topic] = [...conversation.ids];
    }
    streams[streamId] = { count: stream.count, topics };
  }
  const privates: Record<string, number[]> = {};
  for (const [key, conversation] of state.privates) {
    expect(privateKey(conversation.location)).toBe(key);
    privates[key] = [...conversation.ids];
  }
  return { messages, streams, privates, mentions: [...state.mentions] };
}

/** The register's unread_msgs for the model, as a server would send it. */
function modelSnapshot(model: Model) {
  const { streams, privates, mentions } = modelIndex(model);
  return {
    streams: Object.entries(streams).flatMap(([streamId, s]) =>
      Object.entries(s.topics).map(([topic, ids]) => ({
        stream_id: Number(streamId),
        topic,
        unread_message_ids: ids,
      })),
    ),
    pms: Object.entries(privates)
      .filter(([key]) => key.startsWith('pm:'))
      .map(([key, ids]) => ({ other_user_id: Number(key.slice(3)), unread_message_ids: ids })),
    huddles: Object.entries(privates)
      .filter(([key]) => key.startsWith('huddle:'))
      .map(([key, ids]) => ({ user_ids_string: key.slice(7), unread_message_ids: ids })),
    mentions,
  };
}

// ---- random events ------------------------------------------------------------------------

const DAN = 13;
const TOPICS = ['lunch', 'Lunch', 'logo', 'plans', ''];

function randomEvents(seed: number, count: number, startId: number): ServerEvent[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const some = (n: number) =>
    Array.from({ length: 1 + Math.floor(next() * n) }, () => 1 + Math.floor(next() * nextId));
  let nextId = startId;
  const events: ServerEvent[] = [];
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const roll = next();
    if (roll < 0.45) {
      // Mostly a new id; now and then one already known (a repeated or replayed message).
      const messageId = next() < 0.9 ? ++nextId : 1 + Math.floor(next() * nextId);
      const flags = [...(next() < 0.1 ? ['read'] : []), ...(next() < 0.15 ? [pick(MENTION_FLAGS)] : [])];
      const sender = next() < 0.1 ? ME : pick([BOB, CAROL, DAN]);
      const kind = next();
      const message =
        kind < 0.6
          ? {
              id: messageId,
              type: 'stream' as const,
              stream_id: 1 + Math.floor(next() * 4),
              subject: pick(TOPICS),
              sender_id: sender,
            }
          : {
              id: messageId,
              type: 'private' as const,
              subject: '',
              sender_id: sender,
              display_recipient: (kind < 0.85
                ? [ME, pick([BOB, CAROL, DAN])]
                : [ME, BOB, pick([CAROL, DAN])]
              ).map((u) => ({ id: u })),
            };
      events.push({ id, type: 'message', message, flags });
    } else if (roll < 0.6) {
      const all = next() < 0.05;
      events.push({
        id,
        type: 'update_message_flags',
        op: 'add',
        flag: 'read',
        messages: all ? [] : sorted(some(12)),
        all,
      });
    } else if (roll < 0.72) {
      const messages = sorted(some(10));
      const details: Record<string, unknown> = {};
      for (const m of messages) {
        if (next() < 0.1) continue;
        details[m] =
          next() < 0.6
            ? {
                type: 'stream',
                stream_id: 1 + Math.floor(next() * 4),
                topic: pick(TOPICS),
                mentioned: next() < 0.2,
              }
            : {
                type: 'private',
                user_ids: next() < 0.7 ? [pick([BOB, CAROL])] : [BOB, CAROL],
                mentioned: next() < 0.2,
              };
      }
      events.push({
        id,
        type: 'update_message_flags',
        op: 'remove',
        flag: 'read',
        messages,
        all: false,
        message_details: details,
      } as ServerEvent);
    } else if (roll < 0.8) {
      events.push({
        id,
        type: 'update_message_flags',
        op: next() < 0.5 ? 'add' : 'remove',
        flag: next() < 0.8 ? pick(MENTION_FLAGS) : 'starred',
        messages: sorted(some(5)),
        all: false,
      });
    } else if (roll < 0.88) {
      const ids = sorted(some(6));
      events.push(
        next() < 0.8
          ? { id, type: 'delete_message', message_type: 'stream', message_ids: ids }
          : { id, type: 'delete_message', message_type: 'private', message_id: ids[0] as number },
      );
    } else {
      const moveRoll = next();
      const ids = sorted(some(8));
      events.push({
        id,
        type: 'update_message',
        user_id: BOB,
        message_id: ids[0] as number,
        message_ids: ids,
        rendering_only: false,
        ...(moveRoll < 0.4 ? { subject: pick(TOPICS) } : {}),
        ...(moveRoll >= 0.3 && moveRoll < 0.8 ? { new_stream_id: 1 + Math.floor(next() * 4) } : {}),
      } as ServerEvent);
    }
  }
  return events;
}

/** The unread reducer each event type goes to (the account state's choice, without the rest). */
function reduce(state: UnreadState, event: ServerEvent): UnreadState {
  switch (event.type) {
    case 'message':
      return handleMessageEvent(state, event, ME);
    case 'update_message_flags':
      return handleUpdateMessageFlagsEvent(state, event, ME);
    case 'delete_message':
      return handleDeleteMessageEvent(state, event);
    case 'update_message':
      return handleUpdateMessageEvent(state, event);
    default:
      return state;
  }
}

const START: Model = {
  messages: {
    20: { kind: 'pm', userId: BOB },
    21: { kind: 'stream', streamId: 1, topic: 'lunch' },
    22: { kind: 'stream', streamId: 1, topic: 'lunch' },
    23: { kind: 'stream', streamId: 2, topic: 'logo' },
  },
  mentions: [22],
};

/**
 * Applies `events` one at a time from START beside the model: every state must hold exactly
 * the model, equal a state built afresh from a snapshot of it, keep the state object when an
 * event changes nothing (selectors cache on it), and stay as it was when later events build
 * on it.
 */
function expectModelAllAlong(events: readonly ServerEvent[]): void {
  let model = START;
  let state = unreadsFromSnapshot(modelSnapshot(START));
  const history: { state: UnreadState; plain: ReturnType<typeof plain> }[] = [];
  for (const event of events) {
    const before = state;
    state = reduce(state, event);
    model = modelApply(model, event);
    const seen = plain(state);
    expect(seen, `${event.type} ${JSON.stringify(event)}`).toEqual(modelIndex(model));
    expect(state).toEqual(unreadsFromSnapshot(modelSnapshot(model)));
    if (JSON.stringify(seen) === JSON.stringify(history.at(-1)?.plain)) expect(state).toBe(before);
    history.push({ state, plain: seen });
  }
  for (const { state: old, plain: then } of history) expect(plain(old)).toEqual(then);
}

/**
 * `events` as one batch through applyEvents, from the fixture's account: the same as one at a
 * time, the state it started from as it was, and the same again once written into the
 * register snapshot and read back.
 */
function expectBatchAsOneByOne(events: readonly ServerEvent[]): void {
  const raw = snapshotFixture();
  const old = accountStateFromSnapshot(raw);
  const before = plain(old.unreads);
  const oneByOne = events.reduce(applyEvent, old);
  const batched = applyEvents(old, events);
  expect(batched).toEqual(oneByOne);
  expect(plain(batched.unreads)).toEqual(plain(oneByOne.unreads));
  expect(plain(old.unreads)).toEqual(before);
  const written = snapshotFromAccountState(raw, batched);
  expect(accountStateFromSnapshot(written).unreads).toEqual(batched.unreads);
}

/** message_details' entry for a message at `where`, as the server writes it. */
function detailOf(where: UnreadLocation, mentioned: boolean): Record<string, unknown> {
  if (where.kind === 'stream')
    return { type: 'stream', stream_id: where.streamId, topic: where.topic, mentioned };
  const userIds = where.kind === 'pm' ? [where.userId] : where.userIds.split(',').map(Number);
  return { type: 'private', user_ids: userIds, mentioned };
}

/**
 * `events` with large batches put in between (about one event in six): marking as read,
 * marking as unread (with message_details) and deleting 64 ids or more at once, which the
 * reducers take in bulk rather than id by id. The batches mix ids that are unread, read, or
 * not there at all; marked unread, some stay where they are, some move to another
 * conversation (a new topic, a new stream, one-to-one and group conversations, ours in the
 * recipients or not), some lack details, some mention the user. Now and then a batch holds a
 * far id, so its ids span a wide range. The model follows, so that the batches know where
 * each unread message is.
 */
function withLargeBatches(seed: number, events: readonly ServerEvent[]): ServerEvent[] {
  const next = random(seed * 31 + 7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const out: ServerEvent[] = [];
  let model = START;
  let maxId = 30;
  const add = (event: ServerEvent) => {
    out.push({ ...event, id: out.length + 1 } as ServerEvent);
    model = modelApply(model, event);
  };
  for (const event of events) {
    add(event);
    if (event.type === 'message') maxId = Math.max(maxId, event.message.id);
    if (next() >= 0.17) continue;
    const range = maxId + 40;
    const share = 0.4 + next() * 0.5;
    const ids: number[] = [];
    for (let id = 1; id <= range; id++) if (next() < share) ids.push(id);
    for (let id = range + 1; ids.length < 64; id++) ids.push(id);
    if (next() < 0.2) ids.push(5_000_000 + Math.floor(next() * 1000));
    const kind = next();
    if (kind < 0.4) {
      add({ id: 0, type: 'update_message_flags', op: 'add', flag: 'read', messages: ids, all: false });
    } else if (kind < 0.85) {
      const details: Record<string, unknown> = {};
      for (const id of ids) {
        const roll = next();
        if (roll < 0.08) continue;
        const mentioned = next() < 0.15;
        const now = model.messages[id];
        if (now && roll < 0.4) details[id] = detailOf(now, mentioned);
        else if (next() < 0.55)
          details[id] = {
            type: 'stream',
            stream_id: 1 + Math.floor(next() * 5),
            topic: next() < 0.1 ? `new ${Math.floor(next() * 3)}` : pick(TOPICS),
            mentioned,
          };
        else
          details[id] = {
            type: 'private',
            user_ids: pick([[BOB], [CAROL], [DAN], [ME, BOB], [ME], [BOB, CAROL], [ME, CAROL, DAN]]),
            mentioned,
          };
      }
      add({
        id: 0,
        type: 'update_message_flags',
        op: 'remove',
        flag: 'read',
        messages: ids,
        all: false,
        message_details: details,
      } as ServerEvent);
    } else {
      add({ id: 0, type: 'delete_message', message_type: 'stream', message_ids: ids });
    }
  }
  return out;
}

describe('unreads over random event sequences (fixed seeds)', () => {
  const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

  it.each(SEEDS)(
    'seed %i: every state holds exactly the model, equals a fresh snapshot of it, and stays as it was',
    (seed) => {
      expectModelAllAlong(randomEvents(seed, 250, 30));
    },
  );

  it.each(SEEDS)(
    'seed %i: a batch through applyEvents equals the events one at a time, and the written snapshot',
    (seed) => {
      expectBatchAsOneByOne(randomEvents(seed + 100, 200, 30));
    },
  );

  it.each(SEEDS)(
    'seed %i, with large batches of read, unread and deleted ids: every state holds exactly the model, equals a fresh snapshot of it, and stays as it was',
    (seed) => {
      expectModelAllAlong(withLargeBatches(seed, randomEvents(seed + 200, 150, 30)));
    },
  );

  it.each(SEEDS)(
    'seed %i, with large batches of read, unread and deleted ids: a batch through applyEvents equals the events one at a time',
    (seed) => {
      // The batches follow the model from START: the fixture's account starts there too.
      expect(plain(accountStateFromSnapshot(snapshotFixture()).unreads)).toEqual(modelIndex(START));
      expectBatchAsOneByOne(withLargeBatches(seed + 300, randomEvents(seed + 400, 120, 30)));
    },
  );

  it('a run of new messages in one draft equals them one at a time', () => {
    const events = randomEvents(77, 400, 30).filter((e): e is EventOf<'message'> => e.type === 'message');
    const start = unreadsFromSnapshot(modelSnapshot(START));
    const oneByOne = events.reduce((s, e) => handleMessageEvent(s, e, ME), start);
    expect(handleMessageEvents(start, events, ME)).toEqual(oneByOne);
    expect(plain(handleMessageEvents(start, events, ME))).toEqual(plain(oneByOne));
  });
});

describe('unreads: one draft for many changes', () => {
  const message = (id: number, topic: string, flags: string[] = []): EventOf<'message'> => ({
    id,
    type: 'message',
    message: { id, type: 'stream', stream_id: 1, subject: topic, sender_id: BOB },
    flags,
  });

  it('a message that moves away and back within one run stays where it ends', () => {
    const start = unreadsFromSnapshot(modelSnapshot(START));
    const run = [message(21, 'dinner'), message(22, 'dinner', ['mentioned']), message(21, 'lunch')];
    const next = handleMessageEvents(start, run, ME);
    expect(plain(next).streams).toEqual({
      1: { count: 2, topics: { lunch: [21], dinner: [22] } },
      2: { count: 1, topics: { logo: [23] } },
    });
    expect(next).toEqual(run.reduce((s, e) => handleMessageEvent(s, e, ME), start));
  });

  it.each([1, 2, 3, 4, 5, 6])(
    'seed %i: runs over a few ids, moving back and forth, equal the model',
    (seed) => {
      const next = random(seed);
      const run = Array.from({ length: 60 }, () =>
        message(
          20 + Math.floor(next() * 6),
          TOPICS[Math.floor(next() * TOPICS.length)] as string,
          next() < 0.2 ? ['mentioned'] : [],
        ),
      ).map((e, i) => ({ ...e, id: i }));
      const start = unreadsFromSnapshot(modelSnapshot(START));
      const model = run.reduce(modelApply, START);
      const state = handleMessageEvents(start, run, ME);
      expect(plain(state)).toEqual(modelIndex(model));
      expect(state).toEqual(unreadsFromSnapshot(modelSnapshot(model)));
    },
  );
});

describe('unreads: the per-conversation index', () => {
  it('groups by stream and topic (the case kept), one-to-one and group conversations', () => {
    const state = unreadsFromLocations(
      {
        5: { kind: 'stream', streamId: 1, topic: 'Lunch' },
        3: { kind: 'stream', streamId: 1, topic: 'lunch' },
        4: { kind: 'stream', streamId: 1, topic: 'lunch' },
        7: { kind: 'pm', userId: BOB },
        8: { kind: 'huddle', userIds: `${ME},${BOB},${CAROL}` },
      },
      [4, 8],
    );
    expect(plain(state)).toEqual({
      messages: {
        3: { kind: 'stream', streamId: 1, topic: 'lunch' },
        4: { kind: 'stream', streamId: 1, topic: 'lunch' },
        5: { kind: 'stream', streamId: 1, topic: 'Lunch' },
        7: { kind: 'pm', userId: BOB },
        8: { kind: 'huddle', userIds: `${ME},${BOB},${CAROL}` },
      },
      streams: { 1: { count: 3, topics: { lunch: [3, 4], Lunch: [5] } } },
      privates: { [`pm:${BOB}`]: [7], [`huddle:${ME},${BOB},${CAROL}`]: [8] },
      mentions: [4, 8],
    });
  });

  it('a batch copies only the conversations it touches: the others are the same objects', () => {
    const state = unreadsFromLocations({
      1: { kind: 'stream', streamId: 1, topic: 'a' },
      2: { kind: 'stream', streamId: 2, topic: 'b' },
      3: { kind: 'stream', streamId: 2, topic: 'c' },
      4: { kind: 'pm', userId: BOB },
    });
    const next = handleMessageEvent(
      state,
      {
        id: 1,
        type: 'message',
        message: { id: 9, type: 'stream', stream_id: 2, subject: 'b', sender_id: BOB },
        flags: [],
      },
      ME,
    );
    expect(next.streams.get(1)).toBe(state.streams.get(1));
    expect(next.streams.get(2)?.topics.get('c')).toBe(state.streams.get(2)?.topics.get('c'));
    expect(next.streams.get(2)?.topics.get('b')?.ids).toEqual([2, 9]);
    expect(next.streams.get(2)?.count).toBe(3);
    expect(next.privates).toBe(state.privates);
    expect(state.streams.get(2)?.topics.get('b')?.ids).toEqual([2]);
  });

  it.each([1, 2])(
    'seed %i: a large batch gives the same state whether it goes in bulk (ids ascending) or id by id (not)',
    (seed) => {
      const next = random(seed);
      const locations: Record<number, UnreadLocation> = {};
      for (let id = 1000; id < 6000; id++) {
        if (next() < 0.5) continue;
        const roll = next();
        locations[id] =
          roll < 0.85
            ? { kind: 'stream', streamId: 1 + Math.floor(next() * 30), topic: `t${Math.floor(next() * 8)}` }
            : roll < 0.95
              ? { kind: 'pm', userId: 100 + Math.floor(next() * 10) }
              : { kind: 'huddle', userIds: `${ME},${100 + Math.floor(next() * 3)},120` };
      }
      const unread = Object.keys(locations).map(Number);
      const state = unreadsFromLocations(
        locations,
        unread.filter(() => next() < 0.05),
      );
      let current = state;
      let model: Model = { messages: locations, mentions: [...state.mentions] };
      // About 2 500 unread: 70 ids are below the share at which marking as read walks everything
      // (id by id either way), 300 and 1 200 are not.
      for (const size of [70, 300, 1200]) {
        // About `size` ids over the whole range (some not unread, some not there at all).
        const ids = sorted(Array.from({ length: size * 3 }, () => 900 + Math.floor(next() * 5300))).filter(
          (_, i) => i % 3 === 0,
        );
        const details: Record<string, unknown> = {};
        for (const id of ids) {
          if (next() < 0.05) continue;
          const where: UnreadLocation =
            next() < 0.3 && locations[id]
              ? (locations[id] as UnreadLocation)
              : next() < 0.8
                ? {
                    kind: 'stream',
                    streamId: 1 + Math.floor(next() * 32),
                    topic: `t${Math.floor(next() * 9)}`,
                  }
                : { kind: 'pm', userId: 100 + Math.floor(next() * 12) };
          details[id] = detailOf(where, next() < 0.1);
        }
        const events: EventOf<'update_message_flags' | 'delete_message'>[] = [
          { id: 1, type: 'update_message_flags', op: 'add', flag: 'read', messages: ids, all: false },
          {
            id: 2,
            type: 'update_message_flags',
            op: 'remove',
            flag: 'read',
            messages: ids,
            all: false,
            message_details: details,
          } as EventOf<'update_message_flags'>,
          { id: 3, type: 'delete_message', message_type: 'stream', message_ids: ids },
        ];
        for (const event of events) {
          const shuffled = [...ids].reverse();
          const oneByOne =
            event.type === 'delete_message'
              ? { ...event, message_ids: shuffled }
              : { ...event, messages: shuffled };
          const bulk = reduce(current, event);
          expect(bulk).toEqual(reduce(current, oneByOne));
          expect(plain(bulk)).toEqual(plain(reduce(current, oneByOne)));
          expect(plain(bulk)).toEqual(modelIndex(modelApply(model, event)));
        }
        // The next size starts from the batch marked unread.
        current = reduce(current, events[1] as ServerEvent);
        model = modelApply(model, events[1] as ServerEvent);
      }
    },
  );

  it('a large batch that changes only mentions keeps everything else, as the same objects', () => {
    const locations: Record<number, UnreadLocation> = {};
    for (let i = 0; i < 300; i++)
      locations[1000 + i] = { kind: 'stream', streamId: 1 + (i % 3), topic: `t${i % 4}` };
    // 5 and 6 mention the user but are not unread (a mention of a read message stays one).
    const state = unreadsFromLocations(locations, [5, 6, 1000]);
    const ids = Array.from({ length: 100 }, (_, i) => i + 1);
    const read = handleUpdateMessageFlagsEvent(
      state,
      { id: 1, type: 'update_message_flags', op: 'add', flag: 'read', messages: ids, all: false },
      ME,
    );
    expect(read.mentions).toEqual([1000]);
    expect([read.messages, read.streams, read.privates]).toEqual([
      state.messages,
      state.streams,
      state.privates,
    ]);
    expect(read.streams).toBe(state.streams);
    // Marked unread where they already are, two of them now mentioning the user.
    const again = Array.from({ length: 100 }, (_, i) => 1100 + i);
    const details = Object.fromEntries(
      again.map((id) => [id, detailOf(locations[id] as UnreadLocation, id === 1101 || id === 1150)]),
    );
    const unread = handleUpdateMessageFlagsEvent(
      state,
      {
        id: 2,
        type: 'update_message_flags',
        op: 'remove',
        flag: 'read',
        messages: again,
        all: false,
        message_details: details,
      } as EventOf<'update_message_flags'>,
      ME,
    );
    expect(unread.mentions).toEqual([5, 6, 1000, 1101, 1150]);
    expect(unread.messages).toBe(state.messages);
    expect(unread.streams).toBe(state.streams);
    expect(unread.privates).toBe(state.privates);
    // Nothing to change at all: the same state.
    const none = handleUpdateMessageFlagsEvent(
      state,
      {
        id: 3,
        type: 'update_message_flags',
        op: 'remove',
        flag: 'read',
        messages: again,
        all: false,
        message_details: Object.fromEntries(
          again.map((id) => [id, detailOf(locations[id] as UnreadLocation, false)]),
        ),
      } as EventOf<'update_message_flags'>,
      ME,
    );
    expect(none).toBe(state);
  });

  it('a large batch copies only the streams it touches: the others are the same objects', () => {
    const locations: Record<number, UnreadLocation> = {};
    for (let i = 0; i < 1000; i++)
      locations[1000 + i] = { kind: 'stream', streamId: 1 + (i % 4), topic: `t${i % 3}` };
    locations[5000] = { kind: 'pm', userId: BOB };
    const state = unreadsFromLocations(locations);
    // Stream 1's messages (and ids that are not unread) read; then stream 2's moved to a new topic of stream 1.
    const ofStream = (s: number) => Array.from({ length: 250 }, (_, i) => 1000 + i * 4 + (s - 1));
    const read = handleUpdateMessageFlagsEvent(
      state,
      {
        id: 1,
        type: 'update_message_flags',
        op: 'add',
        flag: 'read',
        messages: [...ofStream(1), 4000],
        all: false,
      },
      ME,
    );
    expect(read.streams.has(1)).toBe(false);
    expect(read.streams.get(2)).toBe(state.streams.get(2));
    expect(read.privates).toBe(state.privates);
    const details = Object.fromEntries(
      ofStream(2).map((id) => [id, { type: 'stream', stream_id: 1, topic: 'new' }]),
    );
    const moved = handleUpdateMessageFlagsEvent(
      read,
      {
        id: 2,
        type: 'update_message_flags',
        op: 'remove',
        flag: 'read',
        messages: ofStream(2),
        all: false,
        message_details: details,
      } as EventOf<'update_message_flags'>,
      ME,
    );
    expect(plain(moved).streams).toEqual({
      1: { count: 250, topics: { new: ofStream(2) } },
      3: plain(state).streams[3],
      4: plain(state).streams[4],
    });
    expect(moved.streams.get(3)).toBe(state.streams.get(3));
    expect(moved.privates).toBe(state.privates);
    expect(moved.messages.size).toBe(751);
  });

  it('marking 5 000 of 20 000 as read, then as unread again, gives back the same state', () => {
    const locations: Record<number, UnreadLocation> = {};
    for (let i = 0; i < 20_000; i++)
      locations[100_000 + i * 3] =
        i % 10 === 0
          ? { kind: 'pm', userId: 100 + (i % 50) }
          : { kind: 'stream', streamId: 1 + (i % 200), topic: `t${i % 7}` };
    // A stream message and a private one that mention the user, both marked.
    const mentioned = [100_000 + 4 * 3, 100_000 + 20 * 3];
    const state = unreadsFromLocations(locations, mentioned);
    const ids = Object.keys(locations)
      .map(Number)
      .filter((_, i) => i % 4 === 0);
    const read = handleUpdateMessageFlagsEvent(
      state,
      { id: 1, type: 'update_message_flags', op: 'add', flag: 'read', messages: ids, all: false },
      ME,
    );
    expect(read.messages.size).toBe(15_000);
    expect(read.mentions).toEqual([]);
    const details = Object.fromEntries(
      ids.map((id) => {
        const where = locations[id] as UnreadLocation;
        const common = { mentioned: mentioned.includes(id) };
        return [
          id,
          where.kind === 'stream'
            ? { type: 'stream', stream_id: where.streamId, topic: where.topic, ...common }
            : { type: 'private', user_ids: [where.kind === 'pm' ? where.userId : 0], ...common },
        ];
      }),
    );
    const back = handleUpdateMessageFlagsEvent(
      read,
      {
        id: 2,
        type: 'update_message_flags',
        op: 'remove',
        flag: 'read',
        messages: ids,
        all: false,
        message_details: details,
      } as EventOf<'update_message_flags'>,
      ME,
    );
    expect(back).toEqual(state);
    expect(plain(back)).toEqual(plain(state));
    expect(state.messages.size).toBe(20_000);
  });
});
