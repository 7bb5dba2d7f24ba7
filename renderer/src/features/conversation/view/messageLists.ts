/**
 * The open message lists of each account, keyed by narrowKey: each list is a
 * shared/domain MessageListState plus how it is loading. Pages come from the main process
 * (`messages.fetch`: the server, or its offline cache when the server cannot be reached); live
 * event batches are applied to every list of the account as they arrive, so a list opened
 * again shows what happened meanwhile. A few lists are kept (the most recently used); the rest
 * are dropped and fetched again when opened.
 *
 * After a gap (the connection came back, or the queue was registered again, so events may have
 * been missed) every list catches up: a list read from the cache is fetched again, a live one
 * fetches its newest messages.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  applyMessageEvents,
  emptyMessageList,
  type MessageListState,
  mergePage,
} from '../../../../../shared/domain/message-list';
import { type Narrow, type NarrowTerm, narrowKey } from '../../../../../shared/domain/narrow';
import type { MessagePage, PushPayloads } from '../../../../../shared/ipc';
import type { Message } from '../../../../../shared/protocol/messages';
import { call, getBridge } from '../../../bridge';
import { callApi } from '../../../bridge/api';

/** Messages fetched on each side of an anchor, and per page at an edge. */
export const PAGE_SIZE = 50;
/** Lists kept in memory besides the open ones. */
const KEPT_LISTS = 12;

export type Anchor = number | 'newest' | 'oldest' | 'first_unread';

export interface ListEntry {
  list: MessageListState;
  /** The first page is on its way (nothing to show yet). */
  loading: boolean;
  loadingOlder: boolean;
  loadingNewer: boolean;
  /** Why the last fetch failed, in words. */
  error: string | null;
  /** The messages came from the offline cache and may be out of date. */
  fromCache: boolean;
  /** The message the first page was anchored at (scrolled to when the list opens). */
  anchorId: number | null;
  /** Increases each time the list starts over (the view scrolls to the anchor again). */
  epoch: number;
  /** The narrow's search terms (a search), as fetched. */
  terms: NarrowTerm[] | undefined;
  lastUsed: number;
  openCount: number;
}

interface ListsState {
  lists: Readonly<Record<string, ListEntry>>;
}

export interface MessageLists {
  store: StoreApi<ListsState>;
  /** Shows a narrow: fetches its first page unless the list is there (and holds `messageId`). */
  open(narrow: Narrow, options: { messageId?: number | undefined; terms?: NarrowTerm[] }): () => void;
  loadOlder(key: string): void;
  loadNewer(key: string): void;
  /** Fetches every list again after a gap. */
  catchUp(): void;
  /** Local echo of a flag change on every list of the account. */
  setFlag(ids: readonly number[], flag: string, on: boolean): void;
  /** Marks messages read: local echo at once, then POST /messages/flags. */
  markRead(ids: readonly number[]): Promise<void>;
  receiveBatch(batch: PushPayloads['account.events']): void;
  setOwnUserId(id: number): void;
}

const registry = new Map<string, MessageLists>();

/** The account's lists (made on first use, kept for the window's life). */
export function messageListsOf(accountId: string): MessageLists {
  let lists = registry.get(accountId);
  if (!lists) {
    lists = createMessageLists(accountId);
    registry.set(accountId, lists);
  }
  return lists;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The anchor a narrow opens at: the message asked for, the first unread of a conversation, else the newest. */
export function initialAnchor(narrow: Narrow, messageId: number | undefined): Anchor {
  if (messageId !== undefined) return messageId;
  return narrow.kind === 'topic' || narrow.kind === 'dm' ? 'first_unread' : 'newest';
}

function withFlag(message: Message, flag: string, on: boolean): Message {
  const has = message.flags.includes(flag);
  if (has === on) return message;
  return { ...message, flags: on ? [...message.flags, flag] : message.flags.filter((f) => f !== flag) };
}

/** The list with `flag` set (or cleared) on the messages of `ids`; the same object when nothing changed. */
export function listWithFlag(
  list: MessageListState,
  ids: ReadonlySet<number>,
  flag: string,
  on: boolean,
): MessageListState {
  let changed = false;
  const messages = list.messages.map((m) => {
    if (!ids.has(m.id)) return m;
    const next = withFlag(m, flag, on);
    if (next !== m) changed = true;
    return next;
  });
  return changed ? { ...list, messages } : list;
}

function createMessageLists(accountId: string): MessageLists {
  const store = createStore<ListsState>()(() => ({ lists: {} }));
  let ownUserId = -1;
  let generation: number | null = null;
  let lastEventId = -1;
  /** Per list key: the newest request's number, so a slow older answer does not overwrite it. */
  const requests = new Map<string, number>();
  let requestSeq = 0;

  const entryOf = (key: string): ListEntry | undefined => store.getState().lists[key];
  const update = (key: string, change: (entry: ListEntry) => ListEntry) =>
    store.setState((s) => {
      const entry = s.lists[key];
      if (!entry) return s;
      const next = change(entry);
      return next === entry ? s : { lists: { ...s.lists, [key]: next } };
    });

  const fetchPage = (entry: ListEntry, anchor: Anchor, numBefore: number, numAfter: number) =>
    call('messages.fetch', {
      accountId,
      narrow: entry.list.narrow,
      ...(entry.terms ? { terms: entry.terms } : {}),
      anchor,
      numBefore,
      numAfter,
    });

  /** Drops lists beyond KEPT_LISTS that are not open, least recently used first. */
  const prune = () => {
    const entries = Object.entries(store.getState().lists);
    const closed = entries
      .filter(([, e]) => e.openCount === 0)
      .sort(([, a], [, b]) => b.lastUsed - a.lastUsed);
    if (closed.length <= KEPT_LISTS) return;
    const drop = new Set(closed.slice(KEPT_LISTS).map(([key]) => key));
    store.setState((s) => ({
      lists: Object.fromEntries(Object.entries(s.lists).filter(([key]) => !drop.has(key))),
    }));
  };

  /** Starts the list over from a first page at `anchor`. */
  const loadFirst = async (key: string, anchor: Anchor) => {
    const seq = ++requestSeq;
    requests.set(key, seq);
    update(key, (e) => ({ ...e, loading: e.list.messages.length === 0, error: null }));
    const entry = entryOf(key);
    if (!entry) return;
    try {
      const page = await fetchPage(entry, anchor, PAGE_SIZE, PAGE_SIZE);
      if (requests.get(key) !== seq) return;
      update(key, (e) => ({
        ...e,
        list: mergePage(e.list, {
          messages: page.messages,
          foundOldest: page.foundOldest,
          foundNewest: page.foundNewest,
          replace: true,
        }),
        loading: false,
        loadingOlder: false,
        loadingNewer: false,
        fromCache: page.fromCache,
        anchorId: anchorIdOf(page, anchor),
        epoch: e.epoch + 1,
      }));
    } catch (error) {
      if (requests.get(key) !== seq) return;
      update(key, (e) => ({ ...e, loading: false, error: errorText(error) }));
    }
  };

  const loadEdge = async (key: string, side: 'older' | 'newer') => {
    const entry = entryOf(key);
    if (!entry || entry.loading || entry.fromCache) return;
    const { list } = entry;
    if (side === 'older' ? entry.loadingOlder || list.foundOldest : entry.loadingNewer || list.foundNewest)
      return;
    const edge = side === 'older' ? list.messages[0] : list.messages[list.messages.length - 1];
    if (!edge) return;
    const seq = requests.get(key);
    update(key, (e) => (side === 'older' ? { ...e, loadingOlder: true } : { ...e, loadingNewer: true }));
    try {
      const page = await fetchPage(
        entry,
        edge.id,
        side === 'older' ? PAGE_SIZE : 0,
        side === 'newer' ? PAGE_SIZE : 0,
      );
      // The list started over meanwhile: this page belongs to the old one.
      if (requests.get(key) !== seq) return;
      update(key, (e) => ({
        ...e,
        list: mergePage(
          e.list,
          side === 'older'
            ? { messages: page.messages, foundOldest: page.foundOldest }
            : { messages: page.messages, foundNewest: page.foundNewest },
        ),
        ...(side === 'older' ? { loadingOlder: false } : { loadingNewer: false }),
        // A page from the cache cannot be trusted to say where the narrow ends.
        fromCache: e.fromCache || page.fromCache,
      }));
    } catch (error) {
      if (requests.get(key) !== seq) return;
      update(key, (e) => ({
        ...e,
        error: errorText(error),
        ...(side === 'older' ? { loadingOlder: false } : { loadingNewer: false }),
      }));
    }
  };

  /** A live list fetches its newest messages; if they do not meet what it holds, it starts over there. */
  const catchUpOne = async (key: string) => {
    const entry = entryOf(key);
    if (!entry || entry.loading) return;
    if (entry.fromCache || !entry.list.foundNewest || entry.list.messages.length === 0) {
      await loadFirst(key, entry.anchorId ?? initialAnchor(entry.list.narrow, undefined));
      return;
    }
    const seq = requests.get(key);
    try {
      const page = await fetchPage(entry, 'newest', PAGE_SIZE * 2, 0);
      if (requests.get(key) !== seq || page.fromCache) return;
      const newestHeld = entry.list.messages[entry.list.messages.length - 1]?.id ?? 0;
      const oldestFetched = page.messages[0]?.id ?? Number.POSITIVE_INFINITY;
      const meets = page.foundOldest || oldestFetched <= newestHeld;
      update(key, (e) => ({
        ...e,
        list: meets
          ? mergePage(e.list, { messages: page.messages, foundNewest: true })
          : mergePage(e.list, { messages: page.messages, foundNewest: true, replace: true }),
        error: null,
      }));
    } catch {
      // Still unreachable: the next gap's end tries again.
    }
  };

  const catchUp = () => {
    for (const key of Object.keys(store.getState().lists)) void catchUpOne(key);
  };

  const setFlag = (ids: readonly number[], flag: string, on: boolean) => {
    if (ids.length === 0) return;
    const set = new Set(ids);
    store.setState((s) => {
      let changed = false;
      const lists: Record<string, ListEntry> = {};
      for (const [key, entry] of Object.entries(s.lists)) {
        const list = listWithFlag(entry.list, set, flag, on);
        if (list !== entry.list) changed = true;
        lists[key] = list === entry.list ? entry : { ...entry, list };
      }
      return changed ? { lists } : s;
    });
  };

  return {
    store,
    setOwnUserId(id) {
      ownUserId = id;
    },
    open(narrow, { messageId, terms }) {
      const key = narrowKey(narrow);
      const existing = entryOf(key);
      const termsChanged = JSON.stringify(existing?.terms) !== JSON.stringify(terms);
      if (!existing) {
        store.setState((s) => ({
          lists: {
            ...s.lists,
            [key]: {
              list: emptyMessageList(narrow),
              loading: true,
              loadingOlder: false,
              loadingNewer: false,
              error: null,
              fromCache: false,
              anchorId: null,
              epoch: 0,
              terms,
              lastUsed: Date.now(),
              openCount: 1,
            },
          },
        }));
      } else {
        update(key, (e) => ({ ...e, openCount: e.openCount + 1, lastUsed: Date.now(), terms }));
      }
      const entry = entryOf(key);
      const holds = messageId === undefined || entry?.list.messages.some((m) => m.id === messageId);
      if (!existing || termsChanged || existing.error !== null || !holds || existing.fromCache) {
        void loadFirst(key, initialAnchor(narrow, messageId));
      } else {
        // Kept from before: start at its end again (or at the message asked for).
        update(key, (e) => ({ ...e, anchorId: messageId ?? null, epoch: e.epoch + 1 }));
      }
      prune();
      return () => {
        update(key, (e) => ({ ...e, openCount: Math.max(0, e.openCount - 1), lastUsed: Date.now() }));
        prune();
      };
    },
    loadOlder: (key) => void loadEdge(key, 'older'),
    loadNewer: (key) => void loadEdge(key, 'newer'),
    catchUp,
    setFlag,
    async markRead(ids) {
      if (ids.length === 0) return;
      setFlag(ids, 'read', true);
      try {
        await callApi(getBridge(), accountId, 'POST', '/messages/flags', {
          messages: [...ids],
          op: 'add',
          flag: 'read',
        });
      } catch (error) {
        setFlag(ids, 'read', false);
        throw error;
      }
    },
    receiveBatch(batch) {
      if (batch.accountId !== accountId) return;
      if (generation !== null && batch.generation < generation) return;
      const gap = generation !== null && batch.generation > generation;
      if (generation === null || gap) {
        generation = batch.generation;
        lastEventId = -1;
      }
      const events = batch.events.filter((e) => e.id > lastEventId);
      if (events.length === 0) return;
      lastEventId = Math.max(lastEventId, ...events.map((e) => e.id));
      store.setState((s) => {
        let changed = false;
        const lists: Record<string, ListEntry> = {};
        for (const [key, entry] of Object.entries(s.lists)) {
          const list = applyMessageEvents(entry.list, events, ownUserId);
          if (list !== entry.list) changed = true;
          lists[key] = list === entry.list ? entry : { ...entry, list };
        }
        return changed ? { lists } : s;
      });
      if (gap) catchUp();
    },
  };
}

/** The message a first page is anchored at: the id asked for, or the one the server resolved. */
function anchorIdOf(page: MessagePage, anchor: Anchor): number | null {
  if (typeof anchor === 'number') return anchor;
  if (anchor === 'first_unread' && page.foundAnchor && page.anchor !== null) return page.anchor;
  return null;
}
