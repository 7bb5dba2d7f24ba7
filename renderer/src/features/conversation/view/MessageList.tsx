/**
 * The virtualized message list (@tanstack/react-virtual): only the rows near the viewport are
 * in the DOM, each measured as it renders, so a narrow of 100 000 messages keeps a few dozen
 * rows. The virtualizer runs in its chat mode (`anchorTo: 'end'`): when rows are added above
 * or change height, the first visible row keeps its place on screen (the reading position holds
 * while older messages load), and when the reader is at the bottom a new message scrolls into
 * view (`followOnAppend`).
 *
 * Older messages load near the top, newer ones near the bottom (until the newest is there).
 * The list opens at the message asked for, else at the first unread of a conversation, else at
 * the bottom. Seen unread messages become read per the user's mark-as-read policy, while the
 * window has focus and the list is at rest. Keyboard: the list is focusable; j/k or the arrow
 * keys move between messages, Enter or r replies in the message's conversation, End goes to the
 * newest.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { dmPeersOf, type Narrow, narrowKey } from '../../../../../shared/domain/narrow';
import type { OutboxItem } from '../../../../../shared/ipc';
import type { Message } from '../../../../../shared/protocol/messages';
import { useOwnUserId, useSetting } from '../../../stores/hooks';
import { useNavigate } from '../../shell/navigation';
import { useReadsHeld } from '../actions';
import { composeActions } from '../compose';
import { MessageRow } from './MessageRow';
import type { ListEntry, MessageLists } from './messageLists';
import { PendingMessage } from './PendingMessage';
import { marksReadOnScroll, type SeenCandidate, seenUnreadIds } from './readPolicy';
import { isUnread, messageRows, pendingRows, type Row } from './rows';
import { useTimeFormats } from './timeFormats';

/** A row's height before it is measured (a one-line message). */
const ESTIMATED_ROW = 44;
/** Rows rendered beyond the viewport on each side. */
const OVERSCAN = 8;
/** Rows from an edge at which the next page is fetched. */
const EDGE_ROWS = 10;
/** How long seen messages are collected before one request marks them read. */
const MARK_READ_DELAY_MS = 300;

/** Whether the window is in use: focused and visible. */
const windowInUse = (): boolean => document.visibilityState === 'visible' && document.hasFocus();

function useWindowActive(): boolean {
  const [active, setActive] = useState(windowInUse);
  useEffect(() => {
    const update = () => setActive(windowInUse());
    window.addEventListener('focus', update);
    window.addEventListener('blur', update);
    document.addEventListener('visibilitychange', update);
    return () => {
      window.removeEventListener('focus', update);
      window.removeEventListener('blur', update);
      document.removeEventListener('visibilitychange', update);
    };
  }, []);
  return active;
}

/** The conversation a message belongs to, as a narrow (reply goes there). */
export function conversationOf(message: Message, ownUserId: number): Narrow {
  return message.type === 'stream'
    ? { kind: 'topic', streamId: message.stream_id ?? -1, topic: message.subject }
    : { kind: 'dm', userIds: dmPeersOf(message, ownUserId) };
}

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.closest('input, textarea, select, [role="textbox"], [role="menu"], [role="dialog"]') !== null
  );
}

export function MessageList({
  narrow,
  listKey,
  lists,
  entry,
  outbox,
  empty,
}: {
  narrow: Narrow;
  listKey: string;
  lists: MessageLists;
  entry: ListEntry;
  outbox: readonly OutboxItem[];
  /** Shown when the narrow has no message at all. */
  empty: ReactNode;
}) {
  const ownUserId = useOwnUserId() ?? -1;
  const times = useTimeFormats();
  const navigate = useNavigate();
  const { messages, foundOldest, foundNewest } = entry.list;

  const rows: Row[] = useMemo(() => {
    const shown = messageRows(messages, ownUserId);
    const ids = new Set(messages.map((m) => m.id));
    return [...shown, ...pendingRows(outbox, narrow, ownUserId, ids, messages[messages.length - 1])];
  }, [messages, outbox, narrow, ownUserId]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    overscan: OVERSCAN,
    getItemKey: (index) => rows[index]?.key ?? index,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 8,
  });
  const items = virtualizer.getVirtualItems();

  // ---- opening: scroll to the anchor (or the bottom) once per first page ----------------------
  const [positionedEpoch, setPositionedEpoch] = useState(-1);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (entry.loading || positionedEpoch === entry.epoch || rows.length === 0) return;
    const anchorIndex =
      entry.anchorId === null
        ? -1
        : rows.findIndex((r) => r.kind === 'message' && r.message.id === entry.anchorId);
    const anchorRow = anchorIndex >= 0 ? rows[anchorIndex] : undefined;
    // The first unread: at the top of the screen; a message asked for: in the middle; else the bottom.
    if (anchorRow?.kind === 'message' && entry.anchorId !== null) {
      const askedFor = !isUnread(anchorRow.message) || narrow.kind === 'search';
      virtualizer.scrollToIndex(anchorIndex, { align: askedFor ? 'center' : 'start' });
      if (askedFor) setSelectedId(anchorRow.message.id);
    } else {
      virtualizer.scrollToEnd();
    }
    setPositionedEpoch(entry.epoch);
  }, [entry.loading, entry.epoch, entry.anchorId, rows, positionedEpoch, virtualizer, narrow.kind]);
  const positioned = positionedEpoch === entry.epoch;

  // ---- the edges: fetch older and newer pages -------------------------------------------------
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (!positioned || rows.length === 0) return;
    if (firstIndex < EDGE_ROWS && !foundOldest) lists.loadOlder(listKey);
    if (lastIndex > rows.length - 1 - EDGE_ROWS && !foundNewest) lists.loadNewer(listKey);
  }, [positioned, firstIndex, lastIndex, rows.length, foundOldest, foundNewest, lists, listKey]);

  // ---- mark as read on scroll ---------------------------------------------------------------
  const policy = useSetting('web_mark_read_on_scroll_policy');
  // "Mark as unread from here" holds marking read in this narrow until it is opened again.
  const held = useReadsHeld(narrow);
  const marks = marksReadOnScroll(policy, narrow) && !held;
  const active = useWindowActive();
  const atRest = !virtualizer.isScrolling;
  const asked = useRef(new Set<number>());
  const batch = useRef(new Set<number>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const flush = useCallback(() => {
    timer.current = null;
    const ids = [...batch.current];
    batch.current.clear();
    if (ids.length === 0) return;
    lists.markRead(ids).catch(() => {
      // Not marked: seeing them again tries again.
      for (const id of ids) asked.current.delete(id);
    });
  }, [lists]);
  useEffect(
    () => () => {
      if (timer.current !== null) {
        clearTimeout(timer.current);
        flush();
      }
    },
    [flush],
  );
  useEffect(() => {
    const el = scrollRef.current;
    if (!marks || !active || !atRest || !positioned || !el) return;
    const candidates: SeenCandidate[] = [];
    for (const item of items) {
      const row = rows[item.index];
      if (row?.kind !== 'message') continue;
      candidates.push({
        id: row.message.id,
        unread: isUnread(row.message),
        start: item.start,
        end: item.end,
      });
    }
    const ids = seenUnreadIds(candidates, el.scrollTop, el.clientHeight, asked.current);
    if (ids.length === 0) return;
    for (const id of ids) {
      asked.current.add(id);
      batch.current.add(id);
    }
    timer.current ??= setTimeout(flush, MARK_READ_DELAY_MS);
  }, [marks, active, atRest, positioned, items, rows, flush]);

  // ---- keyboard -------------------------------------------------------------------------------
  const messageIndexes = useMemo(() => rows.flatMap((r, i) => (r.kind === 'message' ? [i] : [])), [rows]);
  const select = (index: number) => {
    const row = rows[index];
    if (row?.kind !== 'message') return;
    setSelectedId(row.message.id);
    virtualizer.scrollToIndex(index, { align: 'auto' });
    requestAnimationFrame(() =>
      document.getElementById(`message-${row.message.id}`)?.focus({ preventScroll: true }),
    );
  };
  const reply = (message: Message) => {
    const target = conversationOf(message, ownUserId);
    if (narrowKey(target) !== narrowKey(narrow)) navigate({ name: 'narrow', narrow: target });
    // The composer of the conversation's screen mounts after the navigation.
    requestAnimationFrame(() => requestAnimationFrame(() => composeActions.focus()));
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
    const onButton = event.target instanceof HTMLElement && event.target.closest('button, a') !== null;
    const current =
      selectedId === null ? -1 : rows.findIndex((r) => r.kind === 'message' && r.message.id === selectedId);
    const firstVisible = () => {
      const el = scrollRef.current;
      const top = el?.scrollTop ?? 0;
      return (
        messageIndexes.find((i) => (virtualizer.measurementsCache[i]?.end ?? 0) > top) ?? messageIndexes[0]
      );
    };
    switch (event.key) {
      case 'j':
      case 'ArrowDown': {
        const next = current < 0 ? firstVisible() : messageIndexes.find((i) => i > current);
        if (next !== undefined) select(next);
        event.preventDefault();
        return;
      }
      case 'k':
      case 'ArrowUp': {
        const prev = current < 0 ? firstVisible() : [...messageIndexes].reverse().find((i) => i < current);
        if (prev !== undefined) select(prev);
        event.preventDefault();
        return;
      }
      case 'End': {
        const last = messageIndexes[messageIndexes.length - 1];
        if (last !== undefined) select(last);
        virtualizer.scrollToEnd();
        if (!foundNewest) lists.loadNewer(listKey);
        event.preventDefault();
        return;
      }
      case 'Enter':
      case 'r': {
        if (onButton && event.key === 'Enter') return;
        const row = current >= 0 ? rows[current] : undefined;
        if (row?.kind === 'message') {
          reply(row.message);
          event.preventDefault();
        }
        return;
      }
    }
  };

  if (rows.length === 0 && foundNewest && foundOldest && !entry.loading) {
    return <div className="conversation-empty">{empty}</div>;
  }

  return (
    <div className="message-list-frame">
      {entry.loadingOlder && (
        <div className="message-list-edge message-list-edge-top" role="status">
          Loading older messages…
        </div>
      )}
      <div
        ref={scrollRef}
        className="message-list"
        role="log"
        aria-label="Messages"
        aria-busy={entry.loading || entry.loadingOlder || entry.loadingNewer}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the log is scrolled and its messages chosen by keyboard
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <div className="message-list-inner" ref={sizeRef(virtualizer.getTotalSize())}>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={(el) => {
                  virtualizer.measureElement(el);
                  placeRow(el, item.start);
                }}
                className="message-list-row"
              >
                {row.kind === 'message' ? (
                  <MessageRow
                    message={row.message}
                    narrow={narrow}
                    recipientBar={row.recipientBar}
                    senderHeader={row.senderHeader}
                    selected={row.message.id === selectedId}
                    times={times}
                  />
                ) : (
                  <PendingMessage item={row.item} message={row.message} recipientBar={row.recipientBar} />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {entry.loadingNewer && (
        <div className="message-list-edge message-list-edge-bottom" role="status">
          Loading newer messages…
        </div>
      )}
    </div>
  );
}

/** The CSP forbids style attributes; the CSSOM is allowed: sizes and offsets are set through it. */
function sizeRef(height: number) {
  return (el: HTMLDivElement | null) => {
    if (el) el.style.height = `${height}px`;
  };
}

function placeRow(el: HTMLElement | null, start: number) {
  if (el) el.style.transform = `translateY(${start}px)`;
}
