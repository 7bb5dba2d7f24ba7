/** One stream: its header, its topics (newest first) with unread counts, and their actions. */
import { Bell, BellOff, CheckCheck, EllipsisVertical, Eye, Settings, Trash2, Volume2 } from 'lucide-react';
import { useState } from 'react';
import { VISIBILITY_POLICY } from '../../../../shared/domain';
import { useApiMutation, useApiQuery } from '../../queries/api';
import {
  useIsAdmin,
  useStreamUnread,
  useSubscription,
  useTopicUnread,
  useUnreadTotal,
} from '../../stores/hooks';
import {
  Button,
  ConfirmDialog,
  CountBadge,
  cx,
  EmptyState,
  InlineError,
  type MenuAction,
  MenuButton,
  Progress,
  ScreenHeader,
  Tag,
} from '../../ui';
import { useNavigate } from '../shell/navigation';
import { streamColorRef } from '../shell/streamColor';
import { PrivacyIcon } from './StreamsScreen';
import { readProgress, sortTopics, type TopicItem } from './streamsModel';
import { errorText, useRepeatedWrite, useStreamItem, useTopicPolicy } from './useStreams';
import './streams.css';

export function StreamView({ streamId, topic }: { streamId: number; topic?: string }) {
  const stream = useStreamItem(streamId);
  const sub = useSubscription(streamId);
  const navigate = useNavigate();
  if (!stream)
    return (
      <div className="screen">
        <ScreenHeader title="Stream not available" />
        <div className="screen-body">
          <EmptyState
            title="This stream is not available."
            action={<Button onPress={() => navigate({ name: 'streams', tab: 'all' })}>Browse streams</Button>}
          >
            It may have been archived, or you may no longer have access to it.
          </EmptyState>
        </div>
      </div>
    );
  const name = String(stream.name);
  const flags = { invite_only: stream.invite_only === true, is_web_public: stream.is_web_public === true };
  const description = typeof stream.description === 'string' ? stream.description : '';
  return (
    <div className="screen stream-view">
      <header className="stream-view-head">
        <span className="stream-view-swatch" ref={streamColorRef(sub?.color)} aria-hidden="true">
          <PrivacyIcon stream={flags} size={16} />
        </span>
        <div className="stream-view-title">
          <h1 className="screen-title">{name}</h1>
          {description && <p className="screen-subtitle">{description}</p>}
        </div>
        <div className="screen-actions">
          <Button
            size="sm"
            variant="ghost"
            onPress={() => navigate({ name: 'streams', tab: sub ? 'subscribed' : 'all', streamId })}
          >
            <Settings size={15} aria-hidden="true" /> Stream settings
          </Button>
        </div>
      </header>
      <div className="screen-body">
        <ReadActions streamId={streamId} name={name} />
        <TopicList streamId={streamId} streamName={name} current={topic} />
      </div>
    </div>
  );
}

function ReadActions({ streamId, name }: { streamId: number; name: string }) {
  const streamUnread = useStreamUnread(streamId);
  const totalUnread = useUnreadTotal();
  const write = useRepeatedWrite();
  const [job, setJob] = useState<{ kind: 'stream' | 'all'; start: number } | null>(null);
  const now = job?.kind === 'stream' ? streamUnread : totalUnread;
  const start = (kind: 'stream' | 'all') => {
    setJob({ kind, start: kind === 'stream' ? streamUnread : totalUnread });
    const done =
      kind === 'stream'
        ? write.run('/mark_stream_as_read', { stream_id: streamId })
        : write.run('/mark_all_as_read');
    void done.then(() => setJob(null));
  };
  return (
    <div className="read-actions">
      <Button size="sm" onPress={() => start('stream')} isDisabled={write.running || streamUnread === 0}>
        <CheckCheck size={15} aria-hidden="true" /> Mark stream as read
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onPress={() => start('all')}
        isDisabled={write.running || totalUnread === 0}
      >
        Mark all as read
      </Button>
      <span className="read-summary" role="status">
        {streamUnread === 0 ? `Nothing unread in ${name}.` : `${streamUnread} unread in ${name}.`}
      </span>
      {write.running && job && (
        <Progress
          label={`${job.kind === 'stream' ? `Marking ${name} as read` : 'Marking all as read'}…${
            write.rounds > 1 ? ` (part ${write.rounds})` : ''
          }`}
          value={readProgress(job.start, now)}
        />
      )}
      {write.error && <InlineError>{write.error}</InlineError>}
    </div>
  );
}

function TopicList({
  streamId,
  streamName,
  current,
}: {
  streamId: number;
  streamName: string;
  current?: string;
}) {
  const topics = useApiQuery<{ topics: TopicItem[] }>(`/users/me/${streamId}/topics`);
  if (topics.isPending) return <p className="streams-muted">Loading topics…</p>;
  if (topics.error) return <InlineError>{errorText(topics.error)}</InlineError>;
  const sorted = sortTopics(topics.data.topics);
  if (sorted.length === 0)
    return (
      <EmptyState title="No topics yet.">
        Messages sent to {streamName} will show their topics here.
      </EmptyState>
    );
  return (
    <section aria-label="Topics" className="topic-section">
      <h2 className="section-title">Topics</h2>
      <ul className="topic-list" aria-label={`Topics in ${streamName}`}>
        {sorted.map((t) => (
          <TopicRow key={t.name} streamId={streamId} topic={t.name} isCurrent={t.name === current} />
        ))}
      </ul>
    </section>
  );
}

const POLICY_TAG: Record<number, { text: string; tone: 'neutral' | 'accent' }> = {
  [VISIBILITY_POLICY.muted]: { text: 'Muted', tone: 'neutral' },
  [VISIBILITY_POLICY.unmuted]: { text: 'Unmuted', tone: 'neutral' },
  [VISIBILITY_POLICY.followed]: { text: 'Following', tone: 'accent' },
};

function TopicRow({ streamId, topic, isCurrent }: { streamId: number; topic: string; isCurrent: boolean }) {
  const navigate = useNavigate();
  const unread = useTopicUnread(streamId, topic);
  const policy = useTopicPolicy(streamId, topic);
  const isAdmin = useIsAdmin();
  const policyWrite = useApiMutation();
  const read = useRepeatedWrite();
  const [deleting, setDeleting] = useState(false);
  const setPolicy = (visibility_policy: number) =>
    policyWrite.mutate({
      method: 'POST',
      path: '/user_topics',
      params: { stream_id: streamId, topic, visibility_policy },
    });
  const muted = policy === VISIBILITY_POLICY.muted;
  const followed = policy === VISIBILITY_POLICY.followed;
  const actions: MenuAction[] = [
    {
      id: 'read',
      label: 'Mark topic as read',
      icon: <CheckCheck size={15} aria-hidden="true" />,
      isDisabled: unread === 0,
      onAction: () => void read.run('/mark_topic_as_read', { stream_id: streamId, topic_name: topic }),
    },
    muted
      ? {
          id: 'unmute',
          label: 'Unmute topic',
          icon: <Volume2 size={15} aria-hidden="true" />,
          onAction: () => setPolicy(VISIBILITY_POLICY.inherit),
        }
      : {
          id: 'mute',
          label: 'Mute topic',
          icon: <BellOff size={15} aria-hidden="true" />,
          onAction: () => setPolicy(VISIBILITY_POLICY.muted),
        },
    followed
      ? {
          id: 'unfollow',
          label: 'Unfollow topic',
          icon: <Eye size={15} aria-hidden="true" />,
          onAction: () => setPolicy(VISIBILITY_POLICY.inherit),
        }
      : {
          id: 'follow',
          label: 'Follow topic',
          icon: <Bell size={15} aria-hidden="true" />,
          onAction: () => setPolicy(VISIBILITY_POLICY.followed),
        },
  ];
  if (isAdmin)
    actions.push({
      id: 'delete',
      label: 'Delete topic…',
      icon: <Trash2 size={15} aria-hidden="true" />,
      danger: true,
      separatorBefore: true,
      onAction: () => setDeleting(true),
    });
  const tag = POLICY_TAG[policy];
  return (
    <li className={cx('topic-row', isCurrent && 'topic-row-current', muted && 'topic-row-muted')}>
      <button
        type="button"
        className="topic-name"
        aria-current={isCurrent ? 'true' : undefined}
        onClick={() => navigate({ name: 'stream', streamId, topic })}
      >
        {topic}
      </button>
      {tag && <Tag tone={tag.tone}>{tag.text}</Tag>}
      <CountBadge count={unread} muted={muted} />
      <MenuButton
        label={`Actions for topic ${topic}`}
        icon={<EllipsisVertical size={16} aria-hidden="true" />}
        actions={actions}
      />
      {(policyWrite.error || read.error) && (
        <InlineError>{policyWrite.error ? errorText(policyWrite.error) : read.error}</InlineError>
      )}
      {deleting && <DeleteTopic streamId={streamId} topic={topic} onDone={() => setDeleting(false)} />}
    </li>
  );
}

interface MessagesAnswer {
  messages: unknown[];
  found_oldest: boolean;
}

function DeleteTopic({ streamId, topic, onDone }: { streamId: number; topic: string; onDone: () => void }) {
  const count = useApiQuery<MessagesAnswer>('/messages', {
    narrow: [
      { operator: 'channel', operand: streamId },
      { operator: 'topic', operand: topic },
    ],
    anchor: 'newest',
    num_before: 1000,
    num_after: 0,
    apply_markdown: false,
  });
  const write = useRepeatedWrite();
  const n = count.data?.messages.length;
  const what =
    n === undefined
      ? 'all of its messages'
      : `${n}${count.data?.found_oldest === false ? ' or more' : ''} message${n === 1 ? '' : 's'}`;
  return (
    <ConfirmDialog
      title={`Delete topic “${topic}”?`}
      isOpen
      message={
        <>
          <p>This deletes {what} in this topic for everyone. It cannot be undone.</p>
          {write.running && (
            <Progress label={`Deleting messages…${write.rounds > 1 ? ` (part ${write.rounds})` : ''}`} />
          )}
        </>
      }
      confirmLabel="Delete topic"
      danger
      pending={write.running}
      error={write.error}
      onCancel={onDone}
      onConfirm={() => {
        void write.run(`/streams/${streamId}/delete_topic`, { topic_name: topic }).then((ok) => {
          if (ok) onDone();
        });
      }}
    />
  );
}
