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

describe('unreads over random event sequences (fixed seeds)', () => {
  const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

  it.each(SEEDS)(
    'seed %i: every state holds exactly the model, equals a fresh snapshot of it, and stays as it was',
    (seed) => {
      const events = randomEvents(seed, 250, 30);
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
        // An event that changes nothing keeps the state object (selectors cache on it).
        if (JSON.stringify(seen) === JSON.stringify(history.at(-1)?.plain)) expect(state).toBe(before);
        history.push({ state, plain: seen });
      }
      for (const { state: old, plain: then } of history) expect(plain(old)).toEqual(then);
    },
  );

  it.each(SEEDS)(
    'seed %i: a batch through applyEvents equals the events one at a time, and the written snapshot',
    (seed) => {
      const raw = snapshotFixture();
      const old = accountStateFromSnapshot(raw);
      const before = plain(old.unreads);
      const events = randomEvents(seed + 100, 200, 30);
      const oneByOne = events.reduce(applyEvent, old);
      const batched = applyEvents(old, events);
      expect(batched).toEqual(oneByOne);
      expect(plain(batched.unreads)).toEqual(plain(oneByOne.unreads));
      expect(plain(old.unreads)).toEqual(before);
      // Written back into the register snapshot and read again: the same state.
      const written = snapshotFromAccountState(raw, batched);
      expect(accountStateFromSnapshot(written).unreads).toEqual(batched.unreads);
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
