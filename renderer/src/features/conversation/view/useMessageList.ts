/**
 * A narrow's message list for the screen that shows it: opens it (first page fetched), keeps
 * it live (every event batch of the account, once per window), catches up when the connection
 * comes back, and resolves a search's terms against the account's streams and users.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import type { AccountState } from '../../../../../shared/domain';
import type { Narrow, NarrowTerm } from '../../../../../shared/domain/narrow';
import { narrowKey } from '../../../../../shared/domain/narrow';
import { parseSearchQuery, type SearchLookup } from '../../../../../shared/domain/search';
import {
  useAccountId,
  useAccountState,
  useConnection,
  useOnEventBatches,
  useOwnUserId,
} from '../../../stores/hooks';
import { type ListEntry, type MessageLists, messageListsOf } from './messageLists';

const attached = new WeakSet<MessageLists>();

/** Resolves search operands (`stream:design`, `sender:alice@example.com`) with the account's data. */
export function searchLookup(state: Pick<AccountState, 'streams' | 'subscriptions' | 'users'>): SearchLookup {
  return {
    streamIdByName(name) {
      const wanted = name.trim().toLowerCase();
      for (const s of Object.values(state.streams)) if (s.name.toLowerCase() === wanted) return s.stream_id;
      for (const s of Object.values(state.subscriptions.subscribed))
        if (s.name.toLowerCase() === wanted) return s.stream_id;
      return null;
    },
    userIdBy(text) {
      const wanted = text.trim().toLowerCase();
      if (/^\d+$/u.test(wanted)) {
        const id = Number(wanted);
        return state.users.active[id] || state.users.nonActive[id] ? id : null;
      }
      for (const u of [...Object.values(state.users.active), ...Object.values(state.users.nonActive)]) {
        if (u.email.toLowerCase() === wanted || u.full_name.toLowerCase() === wanted) return u.user_id;
      }
      return null;
    },
  };
}

export interface OpenList {
  key: string;
  lists: MessageLists;
  entry: ListEntry | undefined;
  /** A search's problems with its query ("No stream named …"), shown above the results. */
  searchErrors: string[];
}

export function useMessageList(narrow: Narrow, messageId: number | undefined): OpenList {
  const accountId = useAccountId();
  const lists = messageListsOf(accountId);
  const ownUserId = useOwnUserId();
  if (ownUserId !== null) lists.setOwnUserId(ownUserId);
  const onEvents = useOnEventBatches();
  if (!attached.has(lists)) {
    attached.add(lists);
    // For the window's life: lists kept for later stay current too.
    onEvents((batch) => lists.receiveBatch(batch));
  }

  // Catch up once the connection is back (a list read from the cache, or events missed).
  const status = useConnection().status;
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (status === 'connected' && was !== 'connected') lists.catchUp();
  }, [status, lists]);

  const streams = useAccountState((a) => a.streams);
  const subscriptions = useAccountState((a) => a.subscriptions);
  const users = useAccountState((a) => a.users);
  const query = narrow.kind === 'search' ? narrow.query : null;
  const search = useMemo(() => {
    if (query === null) return null;
    return parseSearchQuery(query, searchLookup({ streams, subscriptions, users }));
  }, [query, streams, subscriptions, users]);
  const terms: NarrowTerm[] | undefined = search?.terms;
  const termsKey = JSON.stringify(terms ?? null);

  const key = narrowKey(narrow);
  const narrowRef = useRef(narrow);
  narrowRef.current = narrow;
  const termsRef = useRef(terms);
  termsRef.current = terms;
  // A search the query cannot be resolved for shows its errors, not every message.
  const blocked = (search?.errors.length ?? 0) > 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key and the terms' text say when the narrow changed
  useEffect(() => {
    if (blocked) return;
    return lists.open(narrowRef.current, {
      messageId,
      ...(termsRef.current ? { terms: termsRef.current } : {}),
    });
  }, [lists, key, messageId, termsKey, blocked]);

  const entry = useStore(lists.store, (s) => (blocked ? undefined : s.lists[key]));
  return { key, lists, entry, searchErrors: search?.errors ?? [] };
}
