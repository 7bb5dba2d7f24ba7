/**
 * The left sidebar: the views (the user's `default_view` first), the subscribed streams with
 * their unread counts: pinned first, then the others, then (per `demote_inactive_streams`) the
 * inactive ones under their own heading; muted streams sit at the end of their group, dimmed,
 * their unreads not counted. A stream opens its messages; the stream being read shows its
 * topics (the newest and the unread ones) and a way to all of them. Then the recent private
 * conversations. The account menu is at the bottom.
 */
import {
  AtSign,
  Clock,
  FilePen,
  Hash,
  Inbox,
  List,
  Lock,
  type LucideIcon,
  MessageSquare,
  MessagesSquare,
  Plus,
  Star,
} from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { topicUnreadCounts, unreadSummary } from '../../../../shared/domain';
import { narrowKey } from '../../../../shared/domain/narrow';
import type { Subscription } from '../../../../shared/protocol';
import { useApiQuery } from '../../queries/api';
import { useDrafts } from '../../queries/drafts';
import {
  useAccountId,
  useAccountState,
  useMentionUnread,
  usePrivateUnread,
  useRecentPrivateConversations,
  useSetting,
  useStarredCount,
  useStreamUnread,
  useSubscribedStreamIds,
  useSubscription,
  useUnreadTotal,
} from '../../stores/hooks';
import { CountBadge, cx, IconButton, SearchField } from '../../ui';
import { usePendingDeletes } from '../drafts/pendingDeletes';
import { unreadByConversation } from '../recent/recent';
import { AccountMenu } from './AccountMenu';
import { DoNotDisturbControl } from './DoNotDisturb';
import { demotesInactive, isInactive } from './inactiveStreams';
import { orderedViews, type Route, readingStream, sameRoute, useNavigate, useRoute } from './navigation';
import { sidebarTopics } from './sidebarTopics';
import { streamColorRef } from './streamColor';

type SidebarView = 'inbox' | 'recent' | 'all' | 'mentions' | 'dms' | 'starred' | 'drafts';

const VIEWS: { view: SidebarView; route: Route; label: string; icon: LucideIcon }[] = [
  { view: 'inbox', route: { name: 'inbox' }, label: 'Inbox', icon: Inbox },
  { view: 'recent', route: { name: 'recent' }, label: 'Recent conversations', icon: Clock },
  { view: 'all', route: { name: 'all' }, label: 'All messages', icon: MessagesSquare },
  {
    view: 'mentions',
    route: { name: 'narrow', narrow: { kind: 'mentions' } },
    label: 'Mentions',
    icon: AtSign,
  },
  {
    view: 'dms',
    route: { name: 'narrow', narrow: { kind: 'dms' } },
    label: 'Private messages',
    icon: MessageSquare,
  },
  { view: 'starred', route: { name: 'starred' }, label: 'Starred messages', icon: Star },
  { view: 'drafts', route: { name: 'drafts' }, label: 'Drafts', icon: FilePen },
];

/** Whether `route` shows a view (the narrow routes of All messages and Starred count too). */
function isViewCurrent(view: Route, route: Route): boolean {
  if (sameRoute(view, route)) return true;
  if (route.name !== 'narrow' || route.messageId === undefined) return false;
  return view.name === 'narrow' && sameRoute(view, { name: 'narrow', narrow: route.narrow });
}

export function Sidebar({ onAddAccount, people }: { onAddAccount: () => void; people?: ReactNode }) {
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="sidebar-scroll">
        <ViewList />
        <StreamList />
        <PrivateList />
        {people}
      </div>
      <DoNotDisturbControl />
      <AccountMenu onAddAccount={onAddAccount} />
    </nav>
  );
}

function ViewList() {
  const route = useRoute();
  const navigate = useNavigate();
  const total = useUnreadTotal();
  const mentions = useMentionUnread();
  const privateUnread = usePrivateUnread();
  const drafts = useDraftCount();
  const starred = useStarredCount();
  const showStarred = useSetting('starred_message_counts') === true;
  const defaultView = useSetting('default_view');
  const counts: Partial<Record<SidebarView, ReactNode>> = {
    inbox: <CountBadge count={total} />,
    mentions: (
      <CountBadge count={mentions} label={`${mentions} unread ${mentions === 1 ? 'mention' : 'mentions'}`} />
    ),
    dms: <CountBadge count={privateUnread} />,
    starred: showStarred && (
      <CountBadge
        count={starred}
        muted
        label={`${starred} starred ${starred === 1 ? 'message' : 'messages'}`}
      />
    ),
    drafts: <CountBadge count={drafts} label={`${drafts} ${drafts === 1 ? 'draft' : 'drafts'}`} />,
  };
  return (
    <ul className="nav-list" aria-label="Views">
      {orderedViews(VIEWS, defaultView).map(({ view, route: target, label, icon: Icon }) => (
        <li key={view}>
          <NavItem
            current={isViewCurrent(target, route)}
            onSelect={() => navigate(target)}
            icon={<Icon size={16} aria-hidden="true" />}
            label={label}
            trailing={counts[view]}
          />
        </li>
      ))}
    </ul>
  );
}

/**
 * The drafts the Drafts screen lists: the main process's local store (those only on this
 * computer too, not only the server's copies), less those being deleted (Undo pending).
 */
function useDraftCount(): number {
  const accountId = useAccountId();
  const list = useDrafts(accountId);
  const { hidden } = usePendingDeletes(accountId);
  return (list.data ?? []).filter((d) => !hidden.has(d.localId)).length;
}

interface StreamRowData {
  id: number;
  name: string;
  pinned: boolean;
  muted: boolean;
  inactive: boolean;
}

function StreamList() {
  const ids = useSubscribedStreamIds();
  const navigate = useNavigate();
  const [filter, setFilter] = useState('');
  const demote = useSetting('demote_inactive_streams');
  return (
    <section className="sidebar-section" aria-labelledby="sidebar-streams-heading">
      <div className="sidebar-section-head">
        <h2 id="sidebar-streams-heading" className="sidebar-heading">
          Streams
        </h2>
        <IconButton
          label="Browse and create streams"
          icon={<Plus size={16} aria-hidden="true" />}
          onPress={() => navigate({ name: 'streams', tab: 'all' })}
        />
      </div>
      {ids.length > 6 && (
        <SearchField label="Filter streams" value={filter} onChange={setFilter} className="sidebar-filter" />
      )}
      {/* Keyed by the ids: StreamGroups reads one subscription per id, so it remounts when they change. */}
      <StreamGroups key={ids.join(',')} ids={ids} filter={filter} demote={demote} />
    </section>
  );
}

function StreamGroups({ ids, filter, demote }: { ids: number[]; filter: string; demote: unknown }) {
  const unreadStreams = useAccountState((a) => unreadSummary(a).streams);
  const rows = useStreamRows(ids, unreadStreams);
  const navigate = useNavigate();
  const needle = filter.trim().toLowerCase();
  const shown = needle ? rows.filter((r) => r.name.toLowerCase().includes(needle)) : rows;
  const demoting = demotesInactive(demote, rows.length);
  const byMuted = (a: StreamRowData, b: StreamRowData) => Number(a.muted) - Number(b.muted);
  const pinned = shown.filter((r) => r.pinned).sort(byMuted);
  const rest = shown.filter((r) => !r.pinned && !(demoting && r.inactive)).sort(byMuted);
  const inactive = demoting ? shown.filter((r) => !r.pinned && r.inactive).sort(byMuted) : [];

  if (rows.length === 0) {
    return (
      <p className="sidebar-empty">
        You are not subscribed to any streams.{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => navigate({ name: 'streams', tab: 'all' })}
        >
          Browse streams
        </button>
      </p>
    );
  }
  if (shown.length === 0) return <p className="sidebar-empty">No streams match your filter.</p>;
  return (
    <>
      {pinned.length > 0 && <StreamGroup label="Pinned streams" rows={pinned} />}
      <StreamGroup label={pinned.length > 0 ? 'Other streams' : 'Subscribed streams'} rows={rest} />
      {inactive.length > 0 && <StreamGroup label="Inactive streams" rows={inactive} visibleLabel />}
    </>
  );
}

function StreamGroup({
  label,
  rows,
  visibleLabel,
}: {
  label: string;
  rows: StreamRowData[];
  visibleLabel?: boolean;
}) {
  if (rows.length === 0) return null;
  return (
    <>
      {visibleLabel && <h3 className="sidebar-subheading">{label}</h3>}
      <ul className={cx('nav-list', 'stream-list')} aria-label={label}>
        {rows.map((row) => (
          <li key={row.id}>
            <StreamRow row={row} />
          </li>
        ))}
      </ul>
    </>
  );
}

function StreamRow({ row }: { row: StreamRowData }) {
  const route = useRoute();
  const navigate = useNavigate();
  const unread = useStreamUnread(row.id);
  const sub = useSubscription(row.id);
  const reading = readingStream(route);
  const open = reading?.streamId === row.id;
  const current = open && route.name === 'narrow' && reading.topic === undefined;
  return (
    <>
      <NavItem
        current={current}
        className={cx(row.muted && 'nav-item-muted')}
        onSelect={() => navigate({ name: 'narrow', narrow: { kind: 'stream', streamId: row.id } })}
        icon={
          <span className="stream-swatch" ref={streamColorRef(sub?.color)}>
            {sub?.invite_only ? (
              <Lock size={13} strokeWidth={2.5} aria-hidden="true" />
            ) : (
              <Hash size={13} strokeWidth={2.5} aria-hidden="true" />
            )}
          </span>
        }
        label={row.name}
        description={row.muted ? 'muted' : undefined}
        trailing={<CountBadge count={unread} muted={row.muted} />}
      />
      {open && (
        <StreamTopics
          streamId={row.id}
          name={row.name}
          current={reading.topic}
          topicList={route.name === 'stream'}
        />
      )}
    </>
  );
}

/** The topics under the stream being read, and the way to its whole topic list. */
function StreamTopics({
  streamId,
  name,
  current,
  topicList,
}: {
  streamId: number;
  name: string;
  current: string | undefined;
  /** The stream's topic list is open. */
  topicList: boolean;
}) {
  const navigate = useNavigate();
  const list = useApiQuery<{ topics: { name: string; max_id: number }[] }>(`/users/me/${streamId}/topics`);
  const counts = useAccountState((a) => topicUnreadCounts(a, streamId));
  const topics = sidebarTopics(
    list.data?.topics ?? [],
    (topic) => counts.get(topic.toLowerCase()) ?? 0,
    current,
  );
  return (
    <ul className={cx('nav-list', 'topic-nav')} aria-label={`${name}: topics`}>
      {topics.map((t) => (
        <li key={t.name}>
          <NavItem
            current={current !== undefined && t.name.toLowerCase() === current.toLowerCase()}
            className="nav-topic"
            onSelect={() => navigate({ name: 'narrow', narrow: { kind: 'topic', streamId, topic: t.name } })}
            icon={null}
            label={t.name || '(no topic)'}
            trailing={<CountBadge count={t.unread} />}
          />
        </li>
      ))}
      <li>
        <NavItem
          current={topicList}
          className="nav-topic"
          onSelect={() => navigate({ name: 'stream', streamId })}
          icon={<List size={14} aria-hidden="true" />}
          label="All topics"
          description={`of ${name}`}
        />
      </li>
    </ul>
  );
}

/** The recent private conversations (the newest few, and every one with unread messages). */
function PrivateList() {
  const route = useRoute();
  const navigate = useNavigate();
  const conversations = useRecentPrivateConversations();
  const ownId = useAccountState((a) => a.userId) ?? 0;
  const users = useAccountState((a) => a.users);
  const unreads = useAccountState((a) => a.unreads);
  const counts = useMemo(() => unreadByConversation({ userId: ownId, unreads }), [ownId, unreads]);
  const rows = conversations
    .map((c) => {
      const narrow = { kind: 'dm', userIds: c.user_ids.length === 0 ? [ownId] : [...c.user_ids] } as const;
      const names = narrow.userIds
        .map((id) => (users.active[id] ?? users.nonActive[id])?.full_name ?? `User ${id}`)
        .sort((a, b) => a.localeCompare(b));
      return {
        narrow,
        key: narrowKey(narrow),
        label: names.join(', '),
        unread: counts.get(narrowKey(narrow)) ?? 0,
      };
    })
    .filter((r, i) => i < 5 || r.unread > 0);
  if (rows.length === 0) return null;
  const currentKey = route.name === 'narrow' && route.narrow.kind === 'dm' ? narrowKey(route.narrow) : null;
  return (
    <section className="sidebar-section" aria-labelledby="sidebar-dms-heading">
      <div className="sidebar-section-head">
        <h2 id="sidebar-dms-heading" className="sidebar-heading">
          Private messages
        </h2>
      </div>
      <ul className="nav-list" aria-label="Private conversations">
        {rows.map((r) => (
          <li key={r.key}>
            <NavItem
              current={r.key === currentKey}
              onSelect={() => navigate({ name: 'narrow', narrow: r.narrow })}
              icon={<MessageSquare size={16} aria-hidden="true" />}
              label={r.label}
              trailing={<CountBadge count={r.unread} />}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The rows' data. One hook per id: the caller is keyed by the ids, so their number is fixed
 * for the component's life.
 */
function useStreamRows(ids: number[], unreadStreams: Readonly<Record<number, number>>): StreamRowData[] {
  // biome-ignore lint/correctness/useHookAtTopLevel: the count of ids is fixed per mount (keyed)
  const subs = ids.map((id) => useSubscription(id));
  return subs
    .filter((s): s is Subscription => s !== undefined)
    .map((s) => ({
      id: s.stream_id,
      name: s.name,
      pinned: s.pin_to_top === true,
      muted: s.is_muted === true,
      inactive: isInactive(s, unreadStreams[s.stream_id] ?? 0),
    }));
}

export function NavItem({
  current,
  onSelect,
  icon,
  label,
  description,
  trailing,
  className,
}: {
  current: boolean;
  onSelect: () => void;
  icon: ReactNode;
  label: string;
  /** Said after the name (e.g. "muted"), hidden from sight. */
  description?: string;
  trailing?: ReactNode;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={cx('nav-item', className)}
      aria-current={current ? 'page' : undefined}
      onClick={onSelect}
    >
      {icon}
      <span className="nav-item-label">{label}</span>
      {description && <span className="visually-hidden">, {description}</span>}
      {trailing}
    </button>
  );
}
