import { describe, expect, it } from 'vitest';
import { DEMOTE, DEMOTE_AUTOMATIC_MIN_STREAMS, demotesInactive, isInactive } from './inactiveStreams';

describe('isInactive', () => {
  it('is the traffic figure: no messages a week is inactive, any is active', () => {
    expect(isInactive({ stream_weekly_traffic: 0, first_message_id: 12 })).toBe(true);
    expect(isInactive({ stream_weekly_traffic: 1, first_message_id: 12 })).toBe(false);
    expect(isInactive({ stream_weekly_traffic: 250, first_message_id: 12 })).toBe(false);
  });

  it('a stream too new for a figure is inactive only when it never had a message', () => {
    expect(isInactive({ stream_weekly_traffic: null, first_message_id: null })).toBe(true);
    expect(isInactive({ stream_weekly_traffic: null, first_message_id: 3 })).toBe(false);
  });

  it('unreads make any stream active', () => {
    expect(isInactive({ stream_weekly_traffic: 0, first_message_id: 12 }, 2)).toBe(false);
    expect(isInactive({ stream_weekly_traffic: null, first_message_id: null }, 1)).toBe(false);
  });
});

describe('demotesInactive', () => {
  it('always, never, and automatic from the family’s number of streams', () => {
    expect(demotesInactive(DEMOTE.always, 1)).toBe(true);
    expect(demotesInactive(DEMOTE.never, 100)).toBe(false);
    expect(demotesInactive(DEMOTE.automatic, DEMOTE_AUTOMATIC_MIN_STREAMS - 1)).toBe(false);
    expect(demotesInactive(DEMOTE.automatic, DEMOTE_AUTOMATIC_MIN_STREAMS)).toBe(true);
    expect(demotesInactive(undefined, 100)).toBe(false);
  });
});
