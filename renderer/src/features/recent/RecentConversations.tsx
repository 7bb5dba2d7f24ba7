/**
 * Recent conversations: a table of the recent topics and private conversations, newest
 * activity first, each with its unread count, who wrote in it lately and when. A filter box
 * (stream, topic, names) and toggles (unread only, include muted, streams or private only),
 * kept across sessions. The table is an ARIA grid (react-aria's Table): one row takes Tab,
 * arrows move between rows and cells, Enter or a click opens the conversation.
 */
import { Hash, Lock, MessageSquare } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  Cell,
  Column,
  type Key,
  Row,
  Table,
  TableBody,
  TableHeader,
  ToggleButton,
} from 'react-aria-components';
import { useAccountState } from '../../stores/hooks';
import {
  Avatar,
  Banner,
  Button,
  CountBadge,
  cx,
  EmptyState,
  InlineError,
  ScreenHeader,
  SearchField,
} from '../../ui';
import { useNavigate } from '../shell/navigation';
import { streamColorRef } from '../shell/streamColor';
import { useTimeFormatter } from '../shell/time';
import { DEFAULT_FILTER, filterRows, type RecentFilter, type RecentKind, type RecentRow } from './recent';
import { useRecent } from './useRecent';
import './recent.css';

const FILTER_KEY = 'confab.recent.filter';
const MAX_AVATARS = 4;

function loadFilter(): RecentFilter {
  try {
    const raw = JSON.parse(localStorage.getItem(FILTER_KEY) ?? 'null') as Partial<RecentFilter> | null;
    if (!raw || typeof raw !== 'object') return DEFAULT_FILTER;
    const kind: RecentKind = raw.kind === 'streams' || raw.kind === 'private' ? raw.kind : 'all';
    return {
      text: '',
      unreadOnly: raw.unreadOnly === true,
      includeMuted: raw.includeMuted === true,
      kind,
    };
  } catch {
    return DEFAULT_FILTER;
  }
}

/** The toggles are kept across sessions (the family keeps them too); the text is not. */
function useFilter(): [RecentFilter, (change: Partial<RecentFilter>) => void] {
  const [filter, setFilter] = useState(loadFilter);
  useEffect(() => {
    const { unreadOnly, includeMuted, kind } = filter;
    try {
      localStorage.setItem(FILTER_KEY, JSON.stringify({ unreadOnly, includeMuted, kind }));
    } catch {
      // Storage full or off: the filter still works for this session.
    }
  }, [filter]);
  return [filter, (change) => setFilter((f) => ({ ...f, ...change }))];
}

export function RecentConversations() {
  const navigate = useNavigate();
  const data = useRecent();
  const [filter, change] = useFilter();
  const shown = filterRows(data.rows, filter);
  const byKey = new Map(shown.map((r) => [r.key, r]));
  const filtered =
    filter.text.trim() !== '' || filter.unreadOnly || filter.kind !== 'all' || filter.includeMuted;
  const open = (key: Key) => {
    const row = byKey.get(String(key));
    if (row) navigate({ name: 'narrow', narrow: row.narrow });
  };

  const unreadTotal = data.rows.reduce((n, r) => n + (r.muted ? 0 : r.unread), 0);
  return (
    <div className="screen recent">
      <ScreenHeader
        title="Recent conversations"
        subtitle={
          data.rows.length === 0
            ? undefined
            : `${data.rows.length} ${data.rows.length === 1 ? 'conversation' : 'conversations'}` +
              (unreadTotal > 0 ? `, ${unreadTotal} unread ${unreadTotal === 1 ? 'message' : 'messages'}` : '')
        }
      />
      <div className="screen-body">
        {data.fromCache && (
          <Banner tone="warn" role="status">
            Showing saved messages; they may be out of date.
          </Banner>
        )}
        {data.error && (
          <div className="recent-error">
            <InlineError>Could not load recent conversations: {data.error}</InlineError>
            <Button size="sm" onPress={data.retry}>
              Try again
            </Button>
          </div>
        )}
        <div className="recent-filters">
          <SearchField
            label="Filter conversations"
            value={filter.text}
            onChange={(text) => change({ text })}
            className="recent-filter-text"
          />
          <Toggle
            label="Unread only"
            selected={filter.unreadOnly}
            onChange={(unreadOnly) => change({ unreadOnly })}
          />
          <Toggle
            label="Include muted"
            selected={filter.includeMuted}
            onChange={(includeMuted) => change({ includeMuted })}
          />
          <Toggle
            label="Streams only"
            selected={filter.kind === 'streams'}
            onChange={(on) => change({ kind: on ? 'streams' : 'all' })}
          />
          <Toggle
            label="Private only"
            selected={filter.kind === 'private'}
            onChange={(on) => change({ kind: on ? 'private' : 'all' })}
          />
        </div>
        {data.loading ? (
          <p role="status" className="muted recent-loading">
            Loading recent conversations…
          </p>
        ) : data.rows.length === 0 ? (
          <EmptyState
            title="No recent conversations."
            action={<Button onPress={() => navigate({ name: 'streams', tab: 'all' })}>Browse streams</Button>}
          >
            Conversations you take part in or follow show up here once messages are sent.
          </EmptyState>
        ) : shown.length === 0 ? (
          <EmptyState
            title="No conversations match your filters."
            action={
              filtered ? (
                <Button onPress={() => change({ ...DEFAULT_FILTER })}>Clear filters</Button>
              ) : undefined
            }
          >
            {!filter.includeMuted && data.rows.some((r) => r.muted)
              ? 'Muted conversations are hidden; include them to see them.'
              : 'Try other words, or clear the filters.'}
          </EmptyState>
        ) : (
          <Table aria-label="Recent conversations" className="recent-grid" onRowAction={open}>
            <TableHeader className="recent-head">
              <Column isRowHeader className="recent-col">
                Conversation
              </Column>
              <Column className="recent-col">Unread</Column>
              <Column className="recent-col">Participants</Column>
              <Column className="recent-col">Last activity</Column>
            </TableHeader>
            <TableBody items={shown}>{(row) => <RecentRowView row={row} />}</TableBody>
          </Table>
        )}
      </div>
    </div>
  );
}

function Toggle({
  label,
  selected,
  onChange,
}: {
  label: string;
  selected: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <ToggleButton
      className="btn btn-sm btn-secondary recent-toggle"
      isSelected={selected}
      onChange={onChange}
    >
      {label}
    </ToggleButton>
  );
}

function RecentRowView({ row }: { row: RecentRow }) {
  const users = useAccountState((a) => a.users);
  const time = useTimeFormatter();
  const nameOf = (id: number) => (users.active[id] ?? users.nonActive[id])?.full_name ?? `User ${id}`;
  const people = row.senders.length > 0 ? row.senders : row.userIds;
  const date = row.timestamp === null ? null : new Date(row.timestamp * 1000);
  return (
    <Row
      id={row.key}
      textValue={row.label}
      className={cx('recent-row', row.muted && 'recent-row-muted', row.unread > 0 && 'recent-row-unread')}
    >
      <Cell className="recent-cell recent-conversation">
        <span className="recent-conversation-inner">
          {row.kind === 'stream' ? (
            <>
              <span className="stream-swatch" ref={streamColorRef(row.color)}>
                {row.inviteOnly ? (
                  <Lock size={13} strokeWidth={2.5} aria-hidden="true" />
                ) : (
                  <Hash size={13} strokeWidth={2.5} aria-hidden="true" />
                )}
              </span>
              <span className="recent-name">
                <span className="recent-stream">#{row.stream || `stream ${row.streamId}`}</span>
                <span className="recent-sep"> &gt; </span>
                <span className="recent-topic">{row.topic || '(no topic)'}</span>
              </span>
            </>
          ) : (
            <>
              <MessageSquare size={16} aria-hidden="true" className="recent-dm-icon" />
              <span className="recent-name">{row.label}</span>
            </>
          )}
          {row.muted && <span className="recent-note">muted</span>}
        </span>
      </Cell>
      <Cell className="recent-cell">
        {row.unread > 0 ? <CountBadge count={row.unread} muted={row.muted} /> : null}
      </Cell>
      <Cell className="recent-cell">
        <span className="recent-avatars" title={people.map(nameOf).join(', ')}>
          {people.slice(0, MAX_AVATARS).map((id) => (
            <Avatar key={id} userId={id} name={nameOf(id)} size="sm" />
          ))}
          {people.length > MAX_AVATARS && (
            <span className="recent-more" aria-hidden="true">
              +{people.length - MAX_AVATARS}
            </span>
          )}
        </span>
        <span className="visually-hidden">{people.map(nameOf).join(', ')}</span>
      </Cell>
      <Cell className="recent-cell recent-col-time">
        {date && (
          <time dateTime={date.toISOString()} title={date.toLocaleString()}>
            {time.dateTime(date)}
          </time>
        )}
      </Cell>
    </Row>
  );
}
