/** Browse, subscribe, create, and administer streams: a filtered list left, one stream's settings right. */
import { Globe, Hash, Lock, Plus } from 'lucide-react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { create as createStore } from 'zustand';
import { useApiMutation, useApiQuery } from '../../queries/api';
import { useStreamUnread } from '../../stores/hooks';
import { Button, CountBadge, cx, EmptyState, InlineError, ScreenHeader, SearchField } from '../../ui';
import { type StreamsTab, useNavigate } from '../shell/navigation';
import { streamColorRef } from '../shell/streamColor';
import { CreateStreamDialog } from './CreateStreamDialog';
import { StreamDescription } from './StreamDescription';
import { StreamSettings } from './StreamSettings';
import {
  filterStreams,
  type StreamListItem,
  subscriberText,
  trafficDescription,
  trafficText,
} from './streamsModel';
import { errorText, useStreamList } from './useStreams';
import './streams.css';

/**
 * The filter outlives the screen's remounts (the shell remounts a screen on every route change,
 * and switching tabs or picking a stream changes the route).
 */
const useFilterStore = createStore<{ filter: string; setFilter: (filter: string) => void }>()((set) => ({
  filter: '',
  setFilter: (filter) => set({ filter }),
}));

export function StreamsScreen({
  tab,
  streamId,
  create,
}: {
  tab: StreamsTab;
  streamId?: number;
  create: boolean;
}) {
  const navigate = useNavigate();
  const filter = useFilterStore((s) => s.filter);
  const setFilter = useFilterStore((s) => s.setFilter);
  const all = useStreamList();
  const subscribedCount = all.filter((s) => s.subscribed).length;
  const closeCreate = () => navigate({ name: 'streams', tab, streamId });
  return (
    <div className="screen streams-screen">
      <ScreenHeader
        title="Streams"
        subtitle={`${subscribedCount} subscribed of ${all.length} you can see`}
        actions={
          <Button
            variant="primary"
            onPress={() => navigate({ name: 'streams', tab, streamId, create: true })}
          >
            <Plus size={16} aria-hidden="true" /> Create stream
          </Button>
        }
      />
      <div className="screen-body streams-panes">
        <div className="streams-browse">
          <Tabs
            selectedKey={tab}
            onSelectionChange={(key) => navigate({ name: 'streams', tab: key as StreamsTab, streamId })}
          >
            <div className="streams-browse-head">
              <TabList aria-label="Which streams" className="streams-tabs">
                <Tab id="subscribed" className="streams-tab">
                  Subscribed
                </Tab>
                <Tab id="all" className="streams-tab">
                  All streams
                </Tab>
              </TabList>
              <SearchField
                label="Filter streams"
                value={filter}
                onChange={setFilter}
                className="streams-filter"
              />
            </div>
            {(['subscribed', 'all'] as const).map((id) => (
              <TabPanel key={id} id={id} className="streams-tabpanel">
                <StreamList
                  streams={filterStreams(id === 'subscribed' ? all.filter((s) => s.subscribed) : all, filter)}
                  total={id === 'subscribed' ? subscribedCount : all.length}
                  tab={id}
                  selected={streamId}
                  onBrowseAll={() => navigate({ name: 'streams', tab: 'all', streamId })}
                />
              </TabPanel>
            ))}
          </Tabs>
        </div>
        <section className="streams-detail" aria-label="Stream settings">
          {streamId === undefined ? (
            <EmptyState title="No stream selected">
              Pick a stream on the left to see its settings, or create a new one.
            </EmptyState>
          ) : (
            <StreamSettings key={streamId} streamId={streamId} tab={tab} />
          )}
        </section>
      </div>
      <CreateStreamDialog
        isOpen={create}
        onClose={closeCreate}
        onCreated={(id) => navigate({ name: 'streams', tab: 'subscribed', streamId: id })}
      />
    </div>
  );
}

function StreamList({
  streams,
  total,
  tab,
  selected,
  onBrowseAll,
}: {
  streams: StreamListItem[];
  total: number;
  tab: StreamsTab;
  selected?: number;
  onBrowseAll: () => void;
}) {
  if (total === 0 && tab === 'subscribed')
    return (
      <EmptyState
        title="You are not subscribed to any streams."
        action={<Button onPress={onBrowseAll}>Browse all streams</Button>}
      >
        Subscribe to streams to see their messages in your feeds.
      </EmptyState>
    );
  if (total === 0) return <EmptyState title="There are no streams yet.">Create the first one.</EmptyState>;
  if (streams.length === 0) return <EmptyState title="No streams match your filter." />;
  return (
    <ul className="streams-list" aria-label={tab === 'subscribed' ? 'Subscribed streams' : 'All streams'}>
      {streams.map((s) => (
        <StreamListRow key={s.stream_id} stream={s} tab={tab} isSelected={s.stream_id === selected} />
      ))}
    </ul>
  );
}

export function PrivacyIcon({
  stream,
  size = 14,
}: {
  stream: { invite_only: boolean; is_web_public: boolean };
  size?: number;
}) {
  if (stream.is_web_public) return <Globe size={size} aria-label="Web-public" role="img" />;
  if (stream.invite_only) return <Lock size={size} aria-label="Private" role="img" />;
  return <Hash size={size} aria-label="Public" role="img" />;
}

function StreamListRow({
  stream,
  tab,
  isSelected,
}: {
  stream: StreamListItem;
  tab: StreamsTab;
  isSelected: boolean;
}) {
  const navigate = useNavigate();
  const toggle = useApiMutation();
  // Without subscriber lists in the snapshot, the count comes from the members endpoint (kept
  // current by subscription events).
  const members = useApiQuery<{ subscribers: number[] }>(`/streams/${stream.stream_id}/members`, undefined, {
    enabled: stream.subscriberCount === null,
    retry: false,
  });
  const subscribers = subscriberText(stream.subscriberCount ?? members.data?.subscribers.length ?? null);
  // Unread messages only count in streams the user is subscribed to.
  const unread = useStreamUnread(stream.stream_id);
  const onToggle = () =>
    stream.subscribed
      ? toggle.mutate({
          method: 'DELETE',
          path: '/users/me/subscriptions',
          params: { subscriptions: [stream.name] },
        })
      : toggle.mutate({
          method: 'POST',
          path: '/users/me/subscriptions',
          params: { subscriptions: [{ name: stream.name }] },
        });
  return (
    <li className={cx('streams-row', isSelected && 'streams-row-selected')}>
      <span className="streams-row-swatch" ref={streamColorRef(stream.color)} aria-hidden="true" />
      <div className="streams-row-main">
        <span className="streams-row-title">
          <PrivacyIcon stream={stream} />
          <button
            type="button"
            className="streams-row-name"
            aria-current={isSelected ? 'true' : undefined}
            onClick={() => navigate({ name: 'streams', tab, streamId: stream.stream_id })}
          >
            {stream.name}
          </button>
          {stream.subscribed && <CountBadge count={unread} />}
        </span>
        <StreamDescription stream={stream} className="streams-row-description" />
        <p className="streams-row-meta">
          <span title={trafficDescription(stream.weeklyTraffic)}>{trafficText(stream.weeklyTraffic)}</span>
          {subscribers && <span>{subscribers}</span>}
        </p>
        {toggle.error && <InlineError>{errorText(toggle.error)}</InlineError>}
      </div>
      <Button
        size="sm"
        variant={stream.subscribed ? 'secondary' : 'primary'}
        onPress={onToggle}
        isDisabled={toggle.isPending}
        aria-label={`${stream.subscribed ? 'Unsubscribe from' : 'Subscribe to'} ${stream.name}`}
      >
        {stream.subscribed ? 'Unsubscribe' : 'Subscribe'}
      </Button>
    </li>
  );
}
