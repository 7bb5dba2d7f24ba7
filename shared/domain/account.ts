/**
 * One account's state, built from the register snapshot and advanced by events: one object
 * made of substores (slices), each with its own pure `handleXEvent` (zulip-flutter's
 * PerAccountStore). Pure: the renderer's store and the main process both use it, so a window
 * opened later gets exactly the state the others have.
 *
 * Kept: what the app's UIs read, the organization's settings and limits included. The
 * register fields no slice keeps stay in the raw snapshot the main process holds (see
 * snapshotFromAccountState).
 *
 * Not kept: the queue position (last_event_id). It is the transport's, not the account's: the
 * UpdateMachine and the renderer's store track it beside this state. So an event that changes
 * nothing here (a heartbeat) leaves the state object as it was, and every event leaves the
 * slices it does not change as they were: selectors cache on those objects.
 */
import {
  type EventOf,
  type EventType,
  type MutedUser,
  type RegisterState,
  ROLES,
  type ServerEvent,
  type Subscription,
  type User,
} from '../protocol';
import { type DraftsState, draftsFromSnapshot, handleDraftsEvent } from './drafts';
import {
  handleMutedUsersEvent,
  type MutedUsersState,
  mutedUsersFromSnapshot,
  mutedUsersToSnapshot,
} from './muted-users';
import {
  handlePresenceEvent,
  type PresenceState,
  presenceFromSnapshot,
  presencesToSnapshot,
} from './presence';
import {
  type AlertWordsState,
  type CustomProfileFieldsState,
  type DefaultStreamsState,
  defaultStreamIds,
  dropDefaultStreams,
  handleAlertWordsEvent,
  handleCustomProfileFieldsEvent,
  handleDefaultStreamsEvent,
  handleRealmEmojiEvent,
  handleRealmLinkifiersEvent,
  handleRealmPlaygroundsEvent,
  handleRealmUserSettingsDefaultsEvent,
  type LinkifiersState,
  type PlaygroundsState,
  type RealmEmojiState,
  type RealmUserSettingsDefaultsState,
} from './realm';
import { handleRealmEvent, type RealmState, realmFromSnapshot, realmToSnapshot } from './realm-settings';
import {
  handleMessageEventInRecentConversations,
  type RecentPrivateConversationsState,
  recentConversationsFromSnapshot,
} from './recent-conversations';
import { applySettingsEvent, type UserSettingsState } from './settings';
import {
  handleStarredDeleteEvent,
  handleStarredFlagsEvent,
  type StarredState,
  starredFromSnapshot,
} from './starred';
import { handleStreamEvent, type StreamInfo, type StreamsState, streamsFromSnapshot } from './streams';
import {
  dropSubscribers,
  handleStreamEventInSubscriptions,
  handleSubscriptionEvent,
  type SubscriptionsState,
  subscriptionsFromSnapshot,
} from './subscriptions';
import {
  handleDeleteMessageEvent,
  handleMessageEvent,
  handleMessageEvents,
  handleUpdateMessageEvent,
  handleUpdateMessageFlagsEvent,
  type UnreadState,
  unreadsFromSnapshot,
} from './unreads';
import {
  dropGroupMembers,
  handleUserGroupEvent,
  type UserGroup,
  type UserGroupsState,
  userGroupsFromSnapshot,
} from './user-groups';
import {
  dropUserStatuses,
  handleUserStatusEvent,
  type UserStatusState,
  userStatusFromSnapshot,
} from './user-status';
import {
  handleUserTopicEvent,
  type UserTopic,
  type UserTopicsState,
  userTopicsFromSnapshot,
} from './user-topics';
import { handleRealmUserEvent, type UsersState, usersFromSnapshot } from './users';

export interface AccountState {
  userId: number | null;
  serviceVersion: string;
  featureLevel: number;
  userSettings: UserSettingsState;
  users: UsersState;
  streams: StreamsState;
  subscriptions: SubscriptionsState;
  drafts: DraftsState;
  userStatus: UserStatusState;
  customProfileFields: CustomProfileFieldsState;
  userGroups: UserGroupsState;
  realmPlaygrounds: PlaygroundsState;
  alertWords: AlertWordsState;
  userTopics: UserTopicsState;
  unreads: UnreadState;
  realmUserSettingsDefaults: RealmUserSettingsDefaultsState;
  /** The organization's settings and limits, keyed without `realm_` (realm-settings.ts). */
  realm: RealmState;
  realmEmoji: RealmEmojiState;
  realmLinkifiers: LinkifiersState;
  /** Ids of the default streams (register gives them to non-guests only). */
  realmDefaultStreams: DefaultStreamsState;
  presence: PresenceState;
  mutedUsers: MutedUsersState;
  /** Newest first. */
  recentPrivateConversations: RecentPrivateConversationsState;
  /** The ids of the user's starred messages, ascending. */
  starredMessages: StarredState;
}

/** Register fields the typed schema leaves loose; read with their shapes here. */
interface LooseSnapshot {
  realm_non_active_users?: User[];
  streams?: StreamInfo[];
  unsubscribed?: StreamInfo[];
  never_subscribed?: StreamInfo[];
  custom_profile_fields?: CustomProfileFieldsState;
  realm_user_groups?: UserGroup[];
  realm_playgrounds?: PlaygroundsState;
  alert_words?: AlertWordsState;
  user_topics?: UserTopic[];
  unread_msgs?: unknown;
  realm_user_settings_defaults?: RealmUserSettingsDefaultsState;
  realm_emoji?: RealmEmojiState;
  realm_linkifiers?: LinkifiersState;
  realm_default_streams?: StreamInfo[];
  presences?: unknown;
  server_presence_offline_threshold_seconds?: unknown;
  server_presence_ping_interval_seconds?: unknown;
  muted_users?: MutedUser[];
  recent_private_conversations?: unknown;
  starred_messages?: unknown;
}

export function accountStateFromSnapshot(snapshot: RegisterState): AccountState {
  const loose = snapshot as RegisterState & LooseSnapshot;
  const users = usersFromSnapshot(snapshot.realm_users, loose.realm_non_active_users);
  return {
    userId: snapshot.user_id ?? null,
    serviceVersion: snapshot.service_version,
    featureLevel: snapshot.service_feature_level,
    userSettings: (snapshot.user_settings ?? {}) as UserSettingsState,
    users,
    streams: streamsFromSnapshot(loose.streams),
    subscriptions: subscriptionsFromSnapshot({
      subscriptions: snapshot.subscriptions,
      unsubscribed: loose.unsubscribed,
      never_subscribed: loose.never_subscribed,
    }),
    drafts: draftsFromSnapshot(snapshot.drafts),
    userStatus: userStatusFromSnapshot(snapshot.user_status),
    customProfileFields: loose.custom_profile_fields ?? [],
    userGroups: userGroupsFromSnapshot(loose.realm_user_groups),
    realmPlaygrounds: loose.realm_playgrounds ?? [],
    alertWords: loose.alert_words ?? [],
    userTopics: userTopicsFromSnapshot(loose.user_topics),
    unreads: unreadsFromSnapshot(loose.unread_msgs),
    realmUserSettingsDefaults: loose.realm_user_settings_defaults ?? {},
    realm: realmFromSnapshot(snapshot),
    realmEmoji: loose.realm_emoji ?? {},
    realmLinkifiers: loose.realm_linkifiers ?? [],
    realmDefaultStreams: defaultStreamIds(loose.realm_default_streams),
    presence: presenceFromSnapshot(loose, users),
    mutedUsers: mutedUsersFromSnapshot(loose.muted_users),
    recentPrivateConversations: recentConversationsFromSnapshot(loose.recent_private_conversations),
    starredMessages: starredFromSnapshot(loose.starred_messages),
  };
}

/** The user this state belongs to, as the users slice knows them. */
export function ownUser(state: AccountState): User | undefined {
  return state.userId === null ? undefined : state.users.active[state.userId];
}

/** Sets one slice, keeping the state object when the slice did not change. */
function withSlice<K extends keyof AccountState>(
  state: AccountState,
  key: K,
  value: AccountState[K],
): AccountState {
  return state[key] === value ? state : { ...state, [key]: value };
}

/**
 * Applies one event. One exhaustive switch over the known union: a new event type is a
 * compile error here until it is handled or explicitly ignored. Unknown types never get
 * here (parseEvent returns null for them).
 */
export function applyEvent(state: AccountState, event: ServerEvent): AccountState {
  switch (event.type) {
    case 'heartbeat':
      return state;
    case 'restart':
      return { ...state, serviceVersion: event.service_version, featureLevel: event.service_feature_level };
    case 'user_settings':
    case 'update_display_settings':
    case 'update_global_notifications': {
      const next = withSlice(state, 'userSettings', applySettingsEvent(state.userSettings, event));
      // Turning synchronization off deletes the server's drafts, without a drafts event.
      const syncOff =
        event.type === 'user_settings' &&
        event.property === 'enable_drafts_synchronization' &&
        event.value === false;
      return syncOff ? withSlice(next, 'drafts', {}) : next;
    }
    case 'realm_user': {
      let next = withSlice(state, 'users', handleRealmUserEvent(state.users, event));
      if (event.op === 'remove') {
        // A deactivated user leaves subscriber lists, groups and statuses.
        const gone = [event.person.user_id];
        next = withSlice(next, 'subscriptions', dropSubscribers(next.subscriptions, gone));
        next = withSlice(next, 'userGroups', dropGroupMembers(next.userGroups, gone));
        next = withSlice(next, 'userStatus', dropUserStatuses(next.userStatus, gone));
      }
      return next;
    }
    case 'stream': {
      let next = withSlice(state, 'streams', handleStreamEvent(state.streams, event));
      next = withSlice(next, 'subscriptions', handleStreamEventInSubscriptions(next.subscriptions, event));
      if (event.op !== 'delete') return next;
      const gone = event.streams.map((s) => s.stream_id);
      return withSlice(next, 'realmDefaultStreams', dropDefaultStreams(next.realmDefaultStreams, gone));
    }
    case 'message': {
      const next = withSlice(state, 'unreads', handleMessageEvent(state.unreads, event, state.userId));
      return withSlice(
        next,
        'recentPrivateConversations',
        handleMessageEventInRecentConversations(next.recentPrivateConversations, event, state.userId),
      );
    }
    case 'attachment':
    case 'scheduled_messages':
    case 'realm_bot':
    // Message lists' (shared/domain/message-list.ts) and the typing indicator's, not the account's.
    case 'reaction':
    case 'typing':
      // Request/response data (renderer/src/queries): the renderer refreshes what shows them.
      return state;
    default:
      // Every other type changes one slice (SLICE_REDUCERS); a type neither here nor there
      // does not compile.
      return applySliceEvent(state, event);
  }
}

/** A slice's reducer, lifted to the whole state (kept as it was when the slice is). */
function onSlice<K extends keyof AccountState, E>(
  key: K,
  reduce: (slice: AccountState[K], event: E, state: AccountState) => AccountState[K],
) {
  return (state: AccountState, event: E): AccountState =>
    withSlice(state, key, reduce(state[key], event, state));
}

/** The event types that change only slices of their own, each with its reducer (flags and deletions: unreads and starred). */
const SLICE_REDUCERS = {
  subscription: onSlice('subscriptions', (subscriptions, event, state) =>
    handleSubscriptionEvent(subscriptions, event, {
      userId: state.userId,
      isAdmin: ownUser(state)?.is_admin ?? false,
    }),
  ),
  drafts: onSlice('drafts', handleDraftsEvent),
  user_status: onSlice('userStatus', handleUserStatusEvent),
  custom_profile_fields: onSlice('customProfileFields', handleCustomProfileFieldsEvent),
  user_group: onSlice('userGroups', handleUserGroupEvent),
  realm_playgrounds: onSlice('realmPlaygrounds', handleRealmPlaygroundsEvent),
  alert_words: onSlice('alertWords', handleAlertWordsEvent),
  user_topic: onSlice('userTopics', handleUserTopicEvent),
  update_message_flags: (state: AccountState, event: EventOf<'update_message_flags'>) =>
    onSlice('starredMessages', handleStarredFlagsEvent)(
      onSlice('unreads', (unreads, e: EventOf<'update_message_flags'>, s) =>
        handleUpdateMessageFlagsEvent(unreads, e, s.userId),
      )(state, event),
      event,
    ),
  delete_message: (state: AccountState, event: EventOf<'delete_message'>) =>
    onSlice('starredMessages', handleStarredDeleteEvent)(
      onSlice('unreads', handleDeleteMessageEvent)(state, event),
      event,
    ),
  update_message: onSlice('unreads', handleUpdateMessageEvent),
  realm_user_settings_defaults: onSlice('realmUserSettingsDefaults', handleRealmUserSettingsDefaultsEvent),
  realm: onSlice('realm', handleRealmEvent),
  realm_emoji: onSlice('realmEmoji', handleRealmEmojiEvent),
  realm_linkifiers: onSlice('realmLinkifiers', handleRealmLinkifiersEvent),
  default_streams: onSlice('realmDefaultStreams', handleDefaultStreamsEvent),
  presence: onSlice('presence', handlePresenceEvent),
  muted_users: onSlice('mutedUsers', handleMutedUsersEvent),
} satisfies { [T in EventType]?: (state: AccountState, event: EventOf<T>) => AccountState };

type SliceEventType = keyof typeof SLICE_REDUCERS;

function applySliceEvent(state: AccountState, event: EventOf<SliceEventType>): AccountState {
  // The table's type pairs each type with its event's reducer; one lookup cannot show it.
  const reduce = SLICE_REDUCERS[event.type] as (
    state: AccountState,
    event: EventOf<SliceEventType>,
  ) => AccountState;
  return reduce(state, event);
}

/** Applies a batch in order, producing one new state. */
export function applyEvents(state: AccountState, events: readonly ServerEvent[]): AccountState {
  let next = state;
  let i = 0;
  while (i < events.length) {
    const event = events[i] as ServerEvent;
    // A run of new messages (a poll's batch, a burst) goes into the unreads through one draft:
    // each conversation it touches is copied once, not once per message.
    let end = i;
    while (events[end]?.type === 'message') end++;
    if (end - i > 1) {
      next = applyMessageRun(next, events.slice(i, end) as EventOf<'message'>[]);
      i = end;
      continue;
    }
    next = applyEvent(next, event);
    i++;
  }
  return next;
}

/** Consecutive `message` events: what applying each in turn gives, at the cost of the run. */
function applyMessageRun(state: AccountState, run: readonly EventOf<'message'>[]): AccountState {
  const next = withSlice(state, 'unreads', handleMessageEvents(state.unreads, run, state.userId));
  let recent = next.recentPrivateConversations;
  for (const event of run) recent = handleMessageEventInRecentConversations(recent, event, state.userId);
  return withSlice(next, 'recentPrivateConversations', recent);
}

// ---- back to a register snapshot ------------------------------------------------------------

const values = <T>(record: Readonly<Record<number, T>>): T[] => Object.values(record) as T[];

function unreadsToSnapshot(unreads: UnreadState, raw: unknown): Record<string, unknown> {
  const streams: { stream_id: number; topic: string; unread_message_ids: number[] }[] = [];
  const pms: { other_user_id: number; sender_id: number; unread_message_ids: number[] }[] = [];
  const huddles: { user_ids_string: string; unread_message_ids: number[] }[] = [];
  for (const stream of unreads.streams.values()) {
    for (const { location, ids } of stream.topics.values())
      streams.push({ stream_id: location.streamId, topic: location.topic, unread_message_ids: [...ids] });
  }
  for (const { location, ids } of unreads.privates.values()) {
    if (location.kind === 'pm')
      pms.push({ other_user_id: location.userId, sender_id: location.userId, unread_message_ids: [...ids] });
    else huddles.push({ user_ids_string: location.userIds, unread_message_ids: [...ids] });
  }
  // Each list in the order of its conversations' oldest unread message.
  const oldestFirst = (a: { unread_message_ids: number[] }, b: { unread_message_ids: number[] }) =>
    (a.unread_message_ids[0] as number) - (b.unread_message_ids[0] as number);
  return {
    ...(typeof raw === 'object' && raw !== null ? raw : {}),
    count: unreads.messages.size,
    pms: pms.sort(oldestFirst),
    streams: streams.sort(oldestFirst),
    huddles: huddles.sort(oldestFirst),
    mentions: [...unreads.mentions],
  };
}

const OWN_TOP_LEVEL = [
  'full_name',
  'email',
  'delivery_email',
  'avatar_url',
  'avatar_version',
  'is_admin',
  'is_owner',
  'is_guest',
  'is_billing_admin',
] as const;

/**
 * The state written back into the register snapshot it came from, so a window opened later
 * starts where the others are. Only fields the snapshot had are written; fields no slice
 * keeps (realm name, limits, ...) stay as they were. The state does not keep the queue
 * position: `lastEventId` is the caller's (the raw snapshot's when not given).
 */
export function snapshotFromAccountState(
  raw: RegisterState,
  state: AccountState,
  lastEventId: number = raw.last_event_id,
): RegisterState {
  const out: Record<string, unknown> = {
    ...raw,
    last_event_id: lastEventId,
    service_version: state.serviceVersion,
    service_feature_level: state.featureLevel,
  };
  const put = (key: string, value: () => unknown) => {
    if (key in raw) out[key] = value();
  };
  put('user_settings', () => ({ ...state.userSettings }));
  put('realm_users', () => values(state.users.active));
  put('realm_non_active_users', () => values(state.users.nonActive));
  put('streams', () => values(state.streams));
  put('subscriptions', () => values<Subscription>(state.subscriptions.subscribed));
  put('unsubscribed', () => values(state.subscriptions.unsubscribed));
  put('never_subscribed', () => values(state.subscriptions.neverSubscribed));
  put('drafts', () => values(state.drafts));
  put('user_status', () => ({ ...state.userStatus }));
  put('custom_profile_fields', () => state.customProfileFields);
  put('realm_user_groups', () => values(state.userGroups));
  put('realm_playgrounds', () => state.realmPlaygrounds);
  put('alert_words', () => state.alertWords);
  put('user_topics', () => Object.values(state.userTopics));
  put('unread_msgs', () => unreadsToSnapshot(state.unreads, (raw as LooseSnapshot).unread_msgs));
  put('realm_user_settings_defaults', () => ({ ...state.realmUserSettingsDefaults }));
  // The organization's settings, under their register names (realm_name ...).
  Object.assign(out, realmToSnapshot(state.realm));
  // The newer slices are also written when events filled them although the snapshot lacked
  // them, so that the state rebuilt from the written snapshot is the same.
  const putFilled = (key: string, filled: boolean, value: () => unknown) => {
    if (filled || key in raw) out[key] = value();
  };
  putFilled('realm_emoji', Object.keys(state.realmEmoji).length > 0, () => ({ ...state.realmEmoji }));
  putFilled('realm_linkifiers', state.realmLinkifiers.length > 0, () => state.realmLinkifiers);
  putFilled('realm_default_streams', state.realmDefaultStreams.length > 0, () => {
    const before = new Map(((raw as LooseSnapshot).realm_default_streams ?? []).map((s) => [s.stream_id, s]));
    return state.realmDefaultStreams.map((id) => state.streams[id] ?? before.get(id) ?? { stream_id: id });
  });
  // Always the modern form: accountStateFromSnapshot reads either.
  putFilled('presences', Object.keys(state.presence.users).length > 0, () =>
    presencesToSnapshot(state.presence),
  );
  putFilled('muted_users', Object.keys(state.mutedUsers).length > 0, () =>
    mutedUsersToSnapshot(state.mutedUsers),
  );
  putFilled('starred_messages', state.starredMessages.length > 0, () => [...state.starredMessages]);
  putFilled('recent_private_conversations', state.recentPrivateConversations.length > 0, () =>
    state.recentPrivateConversations.map((c) => ({
      max_message_id: c.max_message_id,
      user_ids: [...c.user_ids],
    })),
  );
  // The register's copies of the user's own fields at the top level, from the users slice.
  const self = ownUser(state) as Record<string, unknown> | undefined;
  if (self) {
    for (const key of OWN_TOP_LEVEL) if (key in self) put(key, () => self[key]);
    put('is_moderator', () => self.role === ROLES.moderator);
  }
  return out as RegisterState;
}
