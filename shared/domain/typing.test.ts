/** Typing notices: start, renew, stop, expiry, messages ending a notice, never oneself. */
import { describe, expect, it } from 'vitest';
import { BOB, CAROL, ME } from '../../test/fixtures/domain';
import type { ServerEvent } from '../protocol';
import {
  applyTypingEvent,
  emptyTyping,
  type Narrow,
  nextTypingExpiry,
  TYPING_EXPIRY_MS,
  type TypingState,
  typistsIn,
} from './index';

const person = (id: number) => ({ user_id: id, email: `${id}@example.com` });

const streamTyping = (op: 'start' | 'stop', sender: number, topic = 'lunch'): ServerEvent => ({
  id: 0,
  type: 'typing',
  op,
  message_type: 'stream',
  sender: person(sender),
  stream_id: 1,
  topic,
});

const dmTyping = (op: 'start' | 'stop', sender: number, people: number[]): ServerEvent => ({
  id: 0,
  type: 'typing',
  op,
  message_type: 'private',
  sender: person(sender),
  recipients: people.map(person),
});

const topic: Narrow = { kind: 'topic', streamId: 1, topic: 'Lunch' };
const T0 = 1_000_000;

function apply(state: TypingState, events: ServerEvent[], now = T0): TypingState {
  return events.reduce((s, e) => applyTypingEvent(s, e, now, ME), state);
}

describe('typing', () => {
  it('start adds typists to a topic (topic names match without case), stop removes them', () => {
    const state = apply(emptyTyping, [streamTyping('start', BOB), streamTyping('start', CAROL, 'LUNCH')]);
    expect(typistsIn(state, topic, T0)).toEqual([BOB, CAROL]);
    expect(typistsIn(state, { kind: 'topic', streamId: 1, topic: 'dinner' }, T0)).toEqual([]);
    expect(typistsIn(state, { kind: 'stream', streamId: 1 }, T0)).toEqual([]);
    const stopped = apply(state, [streamTyping('stop', BOB)]);
    expect(typistsIn(stopped, topic, T0)).toEqual([CAROL]);
    expect(apply(stopped, [streamTyping('stop', CAROL)])).toEqual(new Map());
  });

  it('a notice runs out after TYPING_EXPIRY_MS unless renewed; a renewal keeps the order', () => {
    const state = apply(emptyTyping, [streamTyping('start', BOB)]);
    expect(nextTypingExpiry(state)).toBe(T0 + TYPING_EXPIRY_MS);
    expect(typistsIn(state, topic, T0 + TYPING_EXPIRY_MS - 1)).toEqual([BOB]);
    expect(typistsIn(state, topic, T0 + TYPING_EXPIRY_MS)).toEqual([]);
    const later = T0 + 10_000;
    const renewed = apply(
      apply(state, [streamTyping('start', CAROL)], later - 1),
      [streamTyping('start', BOB)],
      later,
    );
    expect(typistsIn(renewed, topic, T0 + TYPING_EXPIRY_MS + 1)).toEqual([BOB, CAROL]);
    expect(nextTypingExpiry(renewed)).toBe(later - 1 + TYPING_EXPIRY_MS);
    // Expired notices are dropped by the next event.
    const pruned = applyTypingEvent(renewed, { id: 0, type: 'heartbeat' }, later + 2 * TYPING_EXPIRY_MS, ME);
    expect(pruned).toEqual(new Map());
    expect(nextTypingExpiry(pruned)).toBeNull();
  });

  it('private conversations are keyed by the other people, sender included', () => {
    const state = apply(emptyTyping, [
      dmTyping('start', BOB, [BOB, ME]),
      dmTyping('start', CAROL, [ME, BOB, CAROL]),
    ]);
    expect(typistsIn(state, { kind: 'dm', userIds: [BOB] }, T0)).toEqual([BOB]);
    expect(typistsIn(state, { kind: 'dm', userIds: [CAROL, BOB] }, T0)).toEqual([CAROL]);
    expect(typistsIn(state, { kind: 'dm', userIds: [CAROL] }, T0)).toEqual([]);
  });

  it('never shows oneself, and a stop of someone not typing changes nothing', () => {
    const state = apply(emptyTyping, [streamTyping('start', ME), dmTyping('start', ME, [ME, BOB])]);
    expect(state).toBe(emptyTyping);
    expect(apply(state, [streamTyping('stop', BOB)])).toBe(emptyTyping);
  });

  it("a typist's message ends their notice in that conversation only", () => {
    const state = apply(emptyTyping, [streamTyping('start', BOB), dmTyping('start', BOB, [BOB, ME])]);
    const message: ServerEvent = {
      id: 0,
      type: 'message',
      message: { id: 5, type: 'stream', stream_id: 1, subject: 'lunch', sender_id: BOB },
      flags: [],
    };
    const next = apply(state, [message]);
    expect(typistsIn(next, topic, T0)).toEqual([]);
    expect(typistsIn(next, { kind: 'dm', userIds: [BOB] }, T0)).toEqual([BOB]);
    const dm: ServerEvent = {
      id: 0,
      type: 'message',
      message: {
        id: 6,
        type: 'private',
        subject: '',
        sender_id: BOB,
        display_recipient: [{ id: BOB }, { id: ME }],
      },
      flags: [],
    };
    expect(apply(next, [dm])).toEqual(new Map());
  });
});
