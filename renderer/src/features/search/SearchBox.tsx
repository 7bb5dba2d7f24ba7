/**
 * The search box in the top bar: the family's operators (stream:, topic:, sender:, is:, has:,
 * dm:) with suggestions as you type (shared/domain/search.ts), completed from the account's
 * streams, people and known topics. Enter searches (or takes the highlighted suggestion: one
 * ending in an operator is completed in the box to go on typing); Escape clears and leaves.
 * Reading a stream or a topic, the box starts with it as the prefix. `/` focuses it (Shortcuts).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Autocomplete, Input, Menu, MenuItem, SearchField } from 'react-aria-components';
import {
  type SearchSuggestion,
  type SuggestionContext,
  searchSuggestions,
} from '../../../../shared/domain/search';
import { getBridge } from '../../bridge';
import { callApi } from '../../bridge/api';
import { apiQueryKey } from '../../queries/api';
import { useAccountId, useAccountState, useStreams } from '../../stores/hooks';
import { navigation, useRoute } from '../shell/navigation';
import { searchNarrow, searchPrefix, streamNamedIn } from './searchModel';
import './search.css';

interface TopicList {
  topics: { name: string; max_id: number }[];
}

const topicsPath = (streamId: number) => `/users/me/${streamId}/topics`;

export function SearchBox() {
  const route = useRoute();
  const streams = useStreams();
  const [query, setQuery] = useState('');
  const [focused, setFocused] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const narrow = route.name === 'narrow' ? route.narrow : null;
  const streamName = (id: number) => streams.find((s) => s.stream_id === id)?.name;
  const prefix = searchPrefix(narrow, streamName);

  // A search's query stays in the box while its results show; going elsewhere empties it.
  const routeQuery = narrow?.kind === 'search' ? narrow.query : '';
  const routeKey = JSON.stringify(route);
  useEffect(() => {
    void routeKey;
    setQuery(routeQuery);
  }, [routeKey, routeQuery]);

  const context = useSuggestionContext(query);
  const suggestions = useMemo(
    () => (focused ? searchSuggestions(query, context, 8) : []),
    [focused, query, context],
  );
  const byKey = new Map(suggestions.map((s) => [s.query, s]));

  const run = (text: string) => {
    const target = searchNarrow(text);
    if (!target) return;
    navigation.navigate({ name: 'narrow', narrow: target });
    boxRef.current?.querySelector('input')?.blur();
  };
  const pick = (s: SearchSuggestion) => {
    if (s.query.endsWith(':')) setQuery(s.query);
    else {
      setQuery(s.query);
      run(s.query);
    }
  };

  const onKeyDownCapture = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setQuery('');
      boxRef.current?.querySelector('input')?.blur();
    } else if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      e.preventDefault();
      e.stopPropagation();
      const item = boxRef.current?.querySelector<HTMLElement>('.search-suggestion[data-focused]');
      const chosen = item ? byKey.get(item.dataset.key ?? '') : undefined;
      if (chosen) pick(chosen);
      else run(query);
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Enter and Escape of the field and its suggestions, focus tracking
    <div
      className="search-box"
      data-search-box=""
      ref={boxRef}
      onKeyDownCapture={onKeyDownCapture}
      onFocus={() => {
        if (!focused && query === '' && prefix !== '') setQuery(prefix);
        setFocused(true);
      }}
      onBlur={(e) => {
        if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
        setFocused(false);
        if (query === prefix && routeQuery === '') setQuery(routeQuery);
      }}
    >
      <Autocomplete inputValue={query} onInputChange={setQuery} disableAutoFocusFirst>
        <SearchField aria-label="Search messages" className="search-box-field">
          <Search size={15} aria-hidden="true" className="search-box-icon" />
          <Input className="input search-box-input" placeholder="Search messages" />
        </SearchField>
        {suggestions.length > 0 && (
          <Menu
            aria-label="Search suggestions"
            className="search-suggestions"
            onAction={(key) => {
              const s = byKey.get(String(key));
              if (s) pick(s);
            }}
          >
            {suggestions.map((s) => (
              <MenuItem key={s.query} id={s.query} textValue={s.label} className="search-suggestion">
                <span className="search-suggestion-label">{s.label}</span>
                <span className="search-suggestion-detail">{s.description}</span>
              </MenuItem>
            ))}
          </Menu>
        )}
      </Autocomplete>
    </div>
  );
}

/**
 * The streams and people to complete with, and the topics known for the stream the query
 * names: its topic list (fetched then, shared with the other topic lists' cache), else those
 * with unread messages.
 */
function useSuggestionContext(query: string): SuggestionContext {
  const accountId = useAccountId();
  const queryClient = useQueryClient();
  const allStreams = useStreams();
  const users = useAccountState((a) => a.users.active);
  const unreads = useAccountState((a) => a.unreads);
  const streams = useMemo(() => allStreams.map((s) => ({ id: s.stream_id, name: s.name })), [allStreams]);
  const people = useMemo(
    () =>
      Object.values(users)
        .filter((u) => !u.is_bot)
        .map((u) => ({ id: u.user_id, full_name: u.full_name, email: u.email })),
    [users],
  );
  const named = streamNamedIn(query, streams);
  const list = useQuery({
    queryKey: apiQueryKey(accountId, topicsPath(named ?? 0)),
    queryFn: () => callApi<TopicList>(getBridge(), accountId, 'GET', topicsPath(named ?? 0)),
    enabled: named !== null,
    staleTime: 60_000,
  });
  const fetched = list.data;
  return useMemo(
    () => ({
      streams,
      users: people,
      topicsOf: (streamId: number) => {
        const cached =
          streamId === named
            ? fetched
            : queryClient.getQueryData<TopicList>(apiQueryKey(accountId, topicsPath(streamId)));
        const known = new Set((cached?.topics ?? []).map((t) => t.name));
        for (const topic of unreads.streams.get(streamId)?.topics.keys() ?? []) known.add(topic);
        return [...known];
      },
    }),
    [streams, people, named, fetched, queryClient, accountId, unreads],
  );
}
