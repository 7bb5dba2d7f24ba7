/**
 * Who else is typing in the conversation on screen ("Alice Smith is typing…"), from the
 * account's `typing` events (shared/domain/typing.ts): a notice lasts until its `stop`, the
 * typist's message, or 15 s without renewal. Muted people are left out.
 */
import { useEffect, useState } from 'react';
import { isUserMuted } from '../../../../../shared/domain';
import type { Narrow } from '../../../../../shared/domain/narrow';
import {
  applyTypingEvent,
  emptyTyping,
  nextTypingExpiry,
  type TypingState,
  typistsIn,
} from '../../../../../shared/domain/typing';
import { useAccountId, useAccountState, useOnEventBatches, useOwnUserId } from '../../../stores/hooks';
import { typingText } from './typingText';

export function TypingIndicator({ narrow }: { narrow: Narrow }) {
  const accountId = useAccountId();
  const ownUserId = useOwnUserId();
  const onEvents = useOnEventBatches();
  const [state, setState] = useState<TypingState>(emptyTyping);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (ownUserId === null) return;
    return onEvents((batch) => {
      if (batch.accountId !== accountId) return;
      const relevant = batch.events.filter((e) => e.type === 'typing' || e.type === 'message');
      if (relevant.length === 0) return;
      const at = Date.now();
      setState((s) => relevant.reduce((acc, event) => applyTypingEvent(acc, event, at, ownUserId), s));
      setNow(at);
    });
  }, [onEvents, accountId, ownUserId]);

  // Re-render when the next notice runs out.
  useEffect(() => {
    const next = nextTypingExpiry(state);
    if (next === null || next <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), next - now + 50);
    return () => clearTimeout(timer);
  }, [state, now]);

  const names = useAccountState((a) =>
    typistsIn(state, narrow, now)
      .filter((id) => !isUserMuted(a, id))
      .map((id) => (a.users.active[id] ?? a.users.nonActive[id])?.full_name ?? 'Someone')
      .join('\u0000'),
  );
  const text = typingText(names === '' ? [] : names.split('\u0000'));
  return (
    <div role="status" className="compose-typing">
      {text}
    </div>
  );
}
