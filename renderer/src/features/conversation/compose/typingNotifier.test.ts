import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ComposeTarget } from './target';
import { createTypingNotifier, TYPING_IDLE_MS, typingParams } from './typingNotifier';

const topic: ComposeTarget = { type: 'stream', streamId: 4, topic: 'lunch' };
const other: ComposeTarget = { type: 'private', userIds: [8] };

describe('createTypingNotifier', () => {
  let sent: string[];
  let notifier: ReturnType<typeof createTypingNotifier>;
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    sent = [];
    notifier = createTypingNotifier({
      send: (op, target) => sent.push(`${op}@${Date.now()}:${target.type}`),
      now: () => Date.now(),
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts once, repeats the start every 10 s while typing goes on, stops 5 s after the last key', () => {
    notifier.typed(topic, 'a');
    for (let t = 1000; t <= 21_000; t += 1000) {
      vi.setSystemTime(t);
      notifier.typed(topic, 'a');
    }
    expect(sent).toEqual(['start@0:stream', 'start@10000:stream', 'start@20000:stream']);
    vi.advanceTimersByTime(TYPING_IDLE_MS - 1);
    expect(sent).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['start@0:stream', 'start@10000:stream', 'start@20000:stream', 'stop@26000:stream']);
  });

  it('stops at once when told (a send), and only when a start is out', () => {
    notifier.stop();
    expect(sent).toEqual([]);
    notifier.typed(topic, 'a');
    notifier.stop();
    notifier.stop();
    vi.advanceTimersByTime(TYPING_IDLE_MS * 2);
    expect(sent).toEqual(['start@0:stream', 'stop@0:stream']);
  });

  it('stops in the old conversation before starting in a new one', () => {
    notifier.typed(topic, 'a');
    vi.setSystemTime(500);
    notifier.typed(other, 'b');
    expect(sent).toEqual(['start@0:stream', 'stop@500:stream', 'start@500:private']);
  });

  it('starts afresh after an idle stop', () => {
    notifier.typed(topic, 'a');
    vi.advanceTimersByTime(TYPING_IDLE_MS);
    vi.setSystemTime(7000);
    notifier.typed(topic, 'a');
    expect(sent).toEqual(['start@0:stream', 'stop@5000:stream', 'start@7000:stream']);
  });
});

describe('typingParams', () => {
  it("names a stream's topic, or the other people; nothing for oneself alone", () => {
    expect(typingParams('start', topic, 10)).toEqual({
      type: 'stream',
      op: 'start',
      stream_id: 4,
      topic: 'lunch',
    });
    expect(typingParams('stop', { type: 'private', userIds: [8, 10, 9] }, 10)).toEqual({
      type: 'private',
      op: 'stop',
      to: [8, 9],
    });
    expect(typingParams('start', { type: 'private', userIds: [10] }, 10)).toBeNull();
  });
});
