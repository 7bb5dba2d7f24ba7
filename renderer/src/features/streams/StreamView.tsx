/**
 * One stream: its header, its topics (newest first) with unread counts, and their actions. A
 * topic opens its messages; the header opens the whole stream's.
 */
import {
  Bell,
  BellOff,
  CheckCheck,
  EllipsisVertical,
  Eye,
  MessagesSquare,
  Settings,
  Trash2,
  Volume2,
} from 'lucide-react';
import { useState } from 'react';
import { VISIBILITY_POLICY } from '../../../../shared/domain';
import { useApiMutation, useApiQuery } from '../../queries/api';
import { failureText, type LongWrite, runningText, useLongWrites } from '../../queries/longWrites';
import { markReadWrite, markTargetKey } from '../../queries/markRead';
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
import { StreamDescription } from './StreamDescription';
import { PrivacyIcon } from './StreamsScreen';
import { sortTopics, type TopicItem } from './streamsModel';
import { errorText, useStreamItem, useTopicPolicy } from './useStreams';
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
  return (
    <div className="screen stream-view">
      <header className="stream-view-head">
        <span className="stream-view-swatch" ref={streamColorRef(sub?.color)} aria-hidden="true">
          <PrivacyIcon stream={flags} size={16} />
        </span>
        <div className="stream-view-title">
          <h1 className="screen-title">{name}</h1>
          <StreamDescription stream={stream} className="screen-subtitle" />
        </div>
        <div className="screen-actions">
          <Button
            size="sm"
            onPress={() => navigate({ name: 'narrow', narrow: { kind: 'stream', streamId } })}
          >
            <MessagesSquare size={15} aria-hidden="true" /> Stream messages
          </Button>
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
  const writes = useLongWrites();
  const stream = { kind: 'stream', streamId } as const;
  const all = { kind: 'all' } as const;
  const busy = writes.isRunning(markTargetKey(stream)) || writes.isRunning(markTargetKey(all));
  return (
    <div className="read-actions">
      <Button
        size="sm"
        onPress={() => void writes.run(markReadWrite(stream, name))}
        isDisabled={busy || streamUnread === 0}
      >
        <CheckCheck size={15} aria-hidden="true" /> Mark stream as read
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onPress={() => void writes.run(markReadWrite(all))}
        isDisabled={busy || totalUnread === 0}
      >
        Mark all as read
      </Button>
      <span className="read-summary" role="status">
        {streamUnread === 0 ? `Nothing unread in ${name}.` : `${streamUnread} unread in ${name}.`}
      </span>
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
          <TopicRow
            key={t.name}
            streamId={streamId}
            streamName={streamName}
            topic={t.name}
            isCurrent={t.name === current}
          />
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

function TopicRow({
  streamId,
  streamName,
  topic,
  isCurrent,
}: {
  streamId: number;
  streamName: string;
  topic: string;
  isCurrent: boolean;
}) {
  const navigate = useNavigate();
  const unread = useTopicUnread(streamId, topic);
  const policy = useTopicPolicy(streamId, topic);
  const isAdmin = useIsAdmin();
  const policyWrite = useApiMutation();
  const writes = useLongWrites();
  const target = { kind: 'topic', streamId, topic } as const;
  const reading = writes.isRunning(markTargetKey(target));
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
      isDisabled: unread === 0 || reading,
      onAction: () => void writes.run(markReadWrite(target, streamName)),
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
        onClick={() => navigate({ name: 'narrow', narrow: { kind: 'topic', streamId, topic } })}
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
      {policyWrite.error && <InlineError>{errorText(policyWrite.error)}</InlineError>}
      {deleting && (
        <DeleteTopic
          streamId={streamId}
          streamName={streamName}
          topic={topic}
          onDone={() => setDeleting(false)}
        />
      )}
    </li>
  );
}

interface MessagesAnswer {
  messages: unknown[];
  found_oldest: boolean;
}

/** The long write that deletes a topic (the server deletes it in batches, newest first). */
function deleteTopicWrite(streamId: number, streamName: string, topic: string): LongWrite {
  const place = `#${streamName} > ${topic || '(no topic)'}`;
  return {
    key: `delete-topic:${streamId}:${topic}`,
    path: `/streams/${streamId}/delete_topic`,
    params: { topic_name: topic },
    doing: `Deleting ${place}`,
    done: `${place} is deleted.`,
    failed: `Could not delete ${place}`,
  };
}

function DeleteTopic({
  streamId,
  streamName,
  topic,
  onDone,
}: {
  streamId: number;
  streamName: string;
  topic: string;
  onDone: () => void;
}) {
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
  const writes = useLongWrites();
  const write = deleteTopicWrite(streamId, streamName, topic);
  const job = writes.jobOf(write.key);
  const running = job?.status === 'running';
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
          {job?.status === 'running' && <Progress label={runningText(job)} />}
        </>
      }
      confirmLabel="Delete topic"
      danger
      pending={running}
      error={job?.status === 'failed' ? failureText(job) : null}
      onCancel={onDone}
      onConfirm={() => {
        void writes.run(write).then((ok) => {
          if (ok) onDone();
        });
      }}
    />
  );
}
