/**
 * The left sidebar: the accounts (when there are several), the views, and the subscribed
 * streams with their unread counts: pinned first, then the others, then (per
 * `demote_inactive_streams`) the inactive ones under their own heading; muted streams sit at the
 * end of their group, dimmed, their unreads not counted. The account menu is at the bottom.
 */
import {
  AtSign,
  Clock,
  FilePen,
  Hash,
  Inbox,
  Lock,
  type LucideIcon,
  MessagesSquare,
  Plus,
  Star,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { unreadSummary } from '../../../../shared/domain';
import type { Subscription } from '../../../../shared/protocol';
import { useDrafts } from '../../queries/drafts';
import {
  useAccountId,
  useAccountState,
  useMentionUnread,
  useSetting,
  useStarredCount,
  useStreamUnread,
  useSubscribedStreamIds,
  useSubscription,
  useUnreadTotal,
} from '../../stores/hooks';
import { CountBadge, cx, IconButton, SearchField } from '../../ui';
import { usePendingDeletes } from '../drafts/pendingDeletes';
import { AccountMenu } from './AccountMenu';
import { DoNotDisturbControl } from './DoNotDisturb';
import { demotesInactive, isInactive } from './inactiveStreams';
import { type Route, useNavigate, useRoute, type ViewName } from './navigation';
import { streamColorRef } from './streamColor';

const VIEWS: { view: ViewName; label: string; icon: LucideIcon }[] = [
  { view: 'inbox', label: 'Inbox', icon: Inbox },
  { view: 'recent', label: 'Recent conversations', icon: Clock },
  { view: 'all', label: 'All messages', icon: MessagesSquare },
  { view: 'starred', label: 'Starred messages', icon: Star },
  { view: 'drafts', label: 'Drafts', icon: FilePen },
];

export function Sidebar({ onAddAccount, people }: { onAddAccount: () => void; people?: ReactNode }) {
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="sidebar-scroll">
        <ViewList />
        <StreamList />
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
  const drafts = useDraftCount();
  const starred = useStarredCount();
  const showStarred = useSetting('starred_message_counts') === true;
  const counts: Partial<Record<ViewName, ReactNode>> = {
    inbox: <CountBadge count={total} />,
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
      {VIEWS.map(({ view, label, icon: Icon }) => (
        <li key={view}>
          <NavItem
            current={route.name === view}
            onSelect={() => navigate({ name: view } as Route)}
            icon={<Icon size={16} aria-hidden="true" />}
            label={label}
            trailing={counts[view]}
          />
        </li>
      ))}
      {mentions > 0 && (
        <li>
          <NavItem
            current={false}
            onSelect={() => navigate({ name: 'inbox' })}
            icon={<AtSign size={16} aria-hidden="true" />}
            label="Mentions"
            trailing={<CountBadge count={mentions} label={`${mentions} unread mentions`} />}
          />
        </li>
      )}
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
  const current = route.name === 'stream' && route.streamId === row.id;
  return (
    <NavItem
      current={current}
      className={cx(row.muted && 'nav-item-muted')}
      onSelect={() => navigate({ name: 'stream', streamId: row.id })}
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
