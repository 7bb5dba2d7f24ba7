/**
 * Inbox: everything unread at a glance. Private conversations first, then each stream (its
 * color, name and count) with its topics (newest first, each with its count); muted topics
 * are left out and muted streams dimmed, as the counts do. A stream folds and unfolds; a
 * topic, a stream or a conversation is marked as read in one click, and opens its messages
 * on a click. Arrow keys move between rows (Left folds, Right unfolds), Enter opens.
 */
import { AtSign, CheckCheck, ChevronDown, ChevronRight, Hash, Lock, MessageSquare, Star } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { create } from 'zustand';
import { Button, CountBadge, cx, EmptyState, IconButton, InlineError, ScreenHeader } from '../../ui';
import { useNavigate } from '../shell/navigation';
import { streamColorRef } from '../shell/streamColor';
import './home.css';
import { conversationNarrow, type InboxConversation, type InboxStream } from './inbox';
import { useInbox } from './useInbox';
import { type MarkAsRead, useMarkAsRead } from './useMarkAsRead';

/** Which streams are folded, per window (kept while moving between screens). */
const useFolded = create<{
  folded: Record<string, boolean>;
  toggle: (key: string, value?: boolean) => void;
}>()((set) => ({
  folded: {},
  toggle: (key, value) => set((s) => ({ folded: { ...s.folded, [key]: value ?? !s.folded[key] } })),
}));

const ROW = '[data-inbox-row]';

export function InboxView() {
  const navigate = useNavigate();
  const model = useInbox();
  const marks = useMarkAsRead();
  const listRef = useRef<HTMLDivElement>(null);
  const streamCount = model.streams.length;
  const subtitle =
    model.total === 0
      ? undefined
      : `${model.total} unread ${model.total === 1 ? 'message' : 'messages'}` +
        (streamCount > 0 ? ` in ${streamCount} ${streamCount === 1 ? 'stream' : 'streams'}` : '');

  return (
    <div className="screen inbox">
      <ScreenHeader title="Inbox" subtitle={subtitle} />
      <div className="screen-body">
        {marks.error && <InlineError>Could not mark as read: {marks.error}</InlineError>}
        {model.total === 0 ? (
          <EmptyState
            title="You have no unread messages."
            action={<Button onPress={() => navigate({ name: 'streams', tab: 'all' })}>Browse streams</Button>}
          >
            New messages in your streams and private conversations show up here. Browse streams to find more
            conversations.
          </EmptyState>
        ) : (
          // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between the rows' own buttons
          <div className="inbox-list" ref={listRef} onKeyDown={(e) => onListKey(e, listRef.current)}>
            {model.conversations.length > 0 && (
              <ConversationGroup conversations={model.conversations} marks={marks} />
            )}
            {model.streams.map((stream) => (
              <StreamGroup key={stream.streamId} stream={stream} marks={marks} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

/** Up/Down: the previous/next row; Home/End: the first/last; Left/Right: fold/unfold the stream. */
function onListKey(event: KeyboardEvent, list: HTMLElement | null) {
  if (!list) return;
  const target = event.target as HTMLElement;
  const rows = [...list.querySelectorAll<HTMLElement>(ROW)];
  const row = target.closest<HTMLElement>('[data-inbox-line]')?.querySelector<HTMLElement>(ROW) ?? null;
  const index = row ? rows.indexOf(row) : -1;
  const focus = (el: HTMLElement | undefined) => {
    if (!el) return;
    event.preventDefault();
    el.focus();
  };
  switch (event.key) {
    case 'ArrowDown':
      return focus(rows[Math.min(index + 1, rows.length - 1)]);
    case 'ArrowUp':
      return focus(rows[Math.max(index - 1, 0)]);
    case 'Home':
      return focus(rows[0]);
    case 'End':
      return focus(rows[rows.length - 1]);
    case 'ArrowLeft':
    case 'ArrowRight': {
      const group = target.closest<HTMLElement>('[data-inbox-group]');
      const toggle = group?.querySelector<HTMLElement>('[data-inbox-toggle]');
      if (!group || !toggle) return;
      const open = toggle.getAttribute('aria-expanded') === 'true';
      event.preventDefault();
      if ((event.key === 'ArrowLeft') === open) toggle.click();
      group.querySelector<HTMLElement>(ROW)?.focus();
      return;
    }
  }
}

function GroupHeader({
  groupKey,
  open,
  icon,
  label,
  count,
  muted,
  onOpen,
  openLabel,
  onMarkRead,
  markPending,
  markLabel,
}: {
  groupKey: string;
  open: boolean;
  icon: ReactNode;
  label: string;
  count: number;
  muted?: boolean;
  onOpen?: () => void;
  openLabel?: string;
  onMarkRead: () => void;
  markPending: boolean;
  markLabel: string;
}) {
  const toggle = useFolded((s) => s.toggle);
  return (
    <div className={cx('inbox-head', muted && 'inbox-muted')} data-inbox-line="">
      <button
        type="button"
        className="inbox-toggle"
        aria-expanded={open}
        aria-label={`${open ? 'Collapse' : 'Expand'} ${label}`}
        data-inbox-toggle=""
        tabIndex={-1}
        onClick={() => toggle(groupKey)}
      >
        {open ? <ChevronDown size={16} aria-hidden="true" /> : <ChevronRight size={16} aria-hidden="true" />}
      </button>
      <button
        type="button"
        className="inbox-row-main inbox-head-main"
        data-inbox-row=""
        aria-label={openLabel}
        onClick={onOpen ?? (() => toggle(groupKey))}
      >
        {icon}
        <span className="inbox-name">{label}</span>
        {muted && <span className="inbox-note">muted</span>}
        <CountBadge count={count} muted={muted} />
      </button>
      <IconButton
        label={markLabel}
        icon={<CheckCheck size={16} aria-hidden="true" />}
        className="inbox-mark"
        isDisabled={markPending}
        onPress={onMarkRead}
      />
    </div>
  );
}

function ConversationGroup({
  conversations,
  marks,
}: {
  conversations: InboxConversation[];
  marks: MarkAsRead;
}) {
  const navigate = useNavigate();
  const open = !useFolded((s) => s.folded.private);
  const count = conversations.reduce((n, c) => n + c.count, 0);
  const allIds = conversations.flatMap((c) => c.messageIds);
  const all = { kind: 'messages', messageIds: allIds } as const;
  return (
    <section className="inbox-group" aria-label="Private messages" data-inbox-group="">
      <GroupHeader
        groupKey="private"
        open={open}
        icon={<MessageSquare size={16} aria-hidden="true" className="inbox-icon" />}
        label="Private messages"
        count={count}
        onOpen={() => navigate({ name: 'narrow', narrow: { kind: 'dms' } })}
        onMarkRead={() => marks.mark(all)}
        markPending={marks.isPending(all)}
        markLabel="Mark all private messages as read"
      />
      {open && (
        <ul className="inbox-topics">
          {conversations.map((c) => {
            const target = { kind: 'messages', messageIds: c.messageIds } as const;
            const names = c.names.join(', ');
            return (
              <li key={c.key} className="inbox-line" data-inbox-line="">
                <button
                  type="button"
                  className="inbox-row-main"
                  data-inbox-row=""
                  onClick={() => navigate({ name: 'narrow', narrow: conversationNarrow(c) })}
                >
                  <span className="inbox-name">{names}</span>
                  {c.mentioned && <AtSign size={14} aria-label="mentions you" className="inbox-mention" />}
                  <CountBadge count={c.count} />
                </button>
                <IconButton
                  label={`Mark conversation with ${names} as read`}
                  icon={<CheckCheck size={16} aria-hidden="true" />}
                  className="inbox-mark"
                  isDisabled={marks.isPending(target)}
                  onPress={() => marks.mark(target)}
                />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function StreamGroup({ stream, marks }: { stream: InboxStream; marks: MarkAsRead }) {
  const navigate = useNavigate();
  const key = `stream:${stream.streamId}`;
  const open = !useFolded((s) => s.folded[key]);
  const target = { kind: 'stream', streamId: stream.streamId } as const;
  const StreamIcon = stream.inviteOnly ? Lock : Hash;
  return (
    <section
      className={cx('inbox-group', stream.muted && 'inbox-group-muted')}
      aria-label={stream.name}
      data-inbox-group=""
    >
      <GroupHeader
        groupKey={key}
        open={open}
        icon={
          <span className="stream-swatch" ref={streamColorRef(stream.color)}>
            <StreamIcon size={13} strokeWidth={2.5} aria-hidden="true" />
          </span>
        }
        label={stream.name}
        count={stream.count}
        muted={stream.muted}
        onOpen={() => navigate({ name: 'narrow', narrow: { kind: 'stream', streamId: stream.streamId } })}
        onMarkRead={() => marks.mark(target)}
        markPending={marks.isPending(target)}
        markLabel={`Mark ${stream.name} as read`}
      />
      {open && (
        <ul className="inbox-topics">
          {stream.topics.map((t) => {
            const topicTarget = { kind: 'topic', streamId: stream.streamId, topic: t.topic } as const;
            return (
              <li key={t.topic} className="inbox-line" data-inbox-line="">
                <button
                  type="button"
                  className="inbox-row-main"
                  data-inbox-row=""
                  onClick={() =>
                    navigate({
                      name: 'narrow',
                      narrow: { kind: 'topic', streamId: stream.streamId, topic: t.topic },
                    })
                  }
                >
                  <span className="inbox-name">{t.topic || '(no topic)'}</span>
                  {t.followed && <Star size={13} aria-label="followed" className="inbox-followed" />}
                  {t.mentioned && <AtSign size={14} aria-label="mentions you" className="inbox-mention" />}
                  <CountBadge count={t.count} muted={stream.muted} />
                </button>
                <IconButton
                  label={`Mark ${t.topic || '(no topic)'} as read`}
                  icon={<CheckCheck size={16} aria-hidden="true" />}
                  className="inbox-mark"
                  isDisabled={marks.isPending(topicTarget)}
                  onPress={() => marks.mark(topicTarget)}
                />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
