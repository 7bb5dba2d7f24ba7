/**
 * When to tell the server the user is typing (POST /typing), as the family does: "start" when
 * typing begins and again every 10 s while it goes on (the others' indicators expire after
 * 15 s), "stop" after 5 s without a keystroke, on send, or when the conversation changes.
 * Time and timers are passed in, so tests drive the clock.
 */
import type { ComposeTarget } from './target';

/** A "start" is repeated at most this often while typing goes on. */
export const TYPING_START_INTERVAL_MS = 10_000;
/** Typing has stopped after this long without a keystroke. */
export const TYPING_IDLE_MS = 5_000;

export type TypingOp = 'start' | 'stop';

export interface TypingNotifierOptions {
  send: (op: TypingOp, target: ComposeTarget) => void;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface TypingNotifier {
  /** A keystroke that changed the text of a message to `target`. */
  typed(target: ComposeTarget, key: string): void;
  /** Typing ended (sent, emptied, left): "stop" if a "start" is out. */
  stop(): void;
}

export function createTypingNotifier({
  send,
  now = Date.now,
  setTimer = (fn, ms) => setTimeout(fn, ms),
  clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}: TypingNotifierOptions): TypingNotifier {
  let active: { target: ComposeTarget; key: string; startedAt: number } | null = null;
  let idle: unknown = null;

  const stop = () => {
    if (idle !== null) clearTimer(idle);
    idle = null;
    if (active) {
      const { target } = active;
      active = null;
      send('stop', target);
    }
  };

  return {
    typed(target, key) {
      if (active && active.key !== key) stop();
      const t = now();
      if (!active || t - active.startedAt >= TYPING_START_INTERVAL_MS) {
        active = { target, key, startedAt: t };
        send('start', target);
      }
      if (idle !== null) clearTimer(idle);
      idle = setTimer(stop, TYPING_IDLE_MS);
    },
    stop,
  };
}

/** POST /typing's parameters for a target (oneself alone: no notification, null). */
export function typingParams(
  op: TypingOp,
  target: ComposeTarget,
  ownUserId: number | null,
): Record<string, unknown> | null {
  if (target.type === 'stream')
    return { type: 'stream', op, stream_id: target.streamId, topic: target.topic };
  const to = target.userIds.filter((id) => id !== ownUserId);
  return to.length === 0 ? null : { type: 'private', op, to };
}
