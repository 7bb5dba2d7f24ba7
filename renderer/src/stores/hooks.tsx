/**
 * The stores' public face: hooks with atomic selectors (each returns one value, so a
 * component re-renders only when that value changes). The stores themselves stay private.
 *
 * Hooks that return a list or an object select it with `useShallow`: a new array of the same
 * elements is the same answer, so a component re-renders only when an element changed.
 * Every hook below the app section needs an AccountProvider around it.
 */
import { createContext, type ReactNode, useContext, useEffect, useSyncExternalStore } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import {
  type AccountState,
  isUserMuted,
  type KnownRealmFields,
  ownUser,
  type Playground,
  type PresenceStatus,
  presenceOf,
  type RealmField,
  type RecentPrivateConversation,
  type StreamInfo,
  selectIsAdmin,
  selectMentionUnread,
  selectPrivateUnread,
  selectStreamUnread,
  selectTopicUnread,
  selectUnreadTotal,
  type UserGroup,
  type UserStatus,
} from '../../../shared/domain';
import type { AccountSummary, ConnectionState } from '../../../shared/ipc';
import type {
  CustomProfileField,
  Draft,
  Linkifier,
  RealmEmoji,
  Subscription,
  User,
} from '../../../shared/protocol';
import type { AccountActions, AccountStore, AccountStoreState } from './account';
import {
  effectiveSetting,
  effectiveSubscriptionProperty,
  type SettingError,
  type SubscriptionError,
  subscriptionKey,
} from './accountState';
import type { Sync } from './sync';

const SyncContext = createContext<Sync | null>(null);
const AccountContext = createContext<AccountStore | null>(null);

export function SyncProvider({ sync, children }: { sync: Sync; children: ReactNode }) {
  return <SyncContext.Provider value={sync}>{children}</SyncContext.Provider>;
}

function useSync(): Sync {
  const sync = useContext(SyncContext);
  if (!sync) throw new Error('SyncProvider is missing');
  return sync;
}

// ---- app ------------------------------------------------------------------------------------

export const useAppLoaded = (): boolean => useStore(useSync().app, (s) => s.loaded);
export const useAppLoadError = (): string | null => useStore(useSync().app, (s) => s.loadError);
export const useAccounts = (): AccountSummary[] => useStore(useSync().app, (s) => s.accounts);
export const useActiveAccountId = (): string | null => useStore(useSync().app, (s) => s.activeAccountId);
export const useActiveAccount = (): AccountSummary | null =>
  useStore(useSync().app, (s) => s.accounts.find((a) => a.id === s.activeAccountId) ?? s.accounts[0] ?? null);
/** Applies an AppState an invoke returned, before its push arrives. */
export const useReceiveAppState = (): Sync['receiveAppState'] => useSync().receiveAppState;
/** Subscribes to every event batch of every account (queries/api.ts refreshes queries from it). */
export const useOnEventBatches = (): Sync['onEvents'] => useSync().onEvents;

// ---- one account ----------------------------------------------------------------------------

/** Renders children inside the account's store once its snapshot has arrived. */
export function AccountProvider({
  accountId,
  fallback,
  children,
}: {
  accountId: string;
  fallback: ReactNode;
  children: ReactNode;
}) {
  const store = useStore(useSync().registry, (s) => s.stores[accountId]);
  if (!store) return fallback;
  return <AccountContext.Provider value={store}>{children}</AccountContext.Provider>;
}

function useAccountSelector<T>(selector: (state: AccountStoreState) => T): T {
  const store = useContext(AccountContext);
  if (!store) throw new Error('AccountProvider is missing');
  return useStore(store, selector);
}

/** The setting as the user should see it: a pending local change, else the server's value. */
export const useSetting = (property: string): unknown =>
  useAccountSelector((s) => effectiveSetting(s, property));
export const useSettingPending = (property: string): boolean =>
  useAccountSelector((s) => property in s.pending);
export const useSettingError = (): SettingError | null => useAccountSelector((s) => s.settingError);
export const useConnection = (): ConnectionState => useAccountSelector((s) => s.connection);
/** Whether the account shows the main process's saved copy rather than a fresh register. */
export const useSnapshotCached = (): boolean => useAccountSelector((s) => s.cached);
export const useAccountActions = (): AccountActions => useAccountSelector((s) => s.actions);

/**
 * Reads the account's server state (AccountState, shared/domain) with an atomic selector: the
 * component re-renders when the selected value changes (Object.is). A selector that builds a
 * new array or object each time must use useAccountStateShallow instead.
 */
export function useAccountState<T>(selector: (state: AccountState) => T): T {
  return useAccountSelector((s) => selector(s.account));
}

/** useAccountState for selectors that build an array or object: compared element by element. */
export function useAccountStateShallow<T>(selector: (state: AccountState) => T): T {
  return useAccountSelector(useShallow((s) => selector(s.account)));
}

/** The id of the account the surrounding AccountProvider shows (for api.call and queries). */
export const useAccountId = (): string => useAccountSelector((s) => s.accountId);

// ---- subscriptions --------------------------------------------------------------------------

/** Ids of the subscribed streams, sorted by name (a new array only when the list changes). */
export const useSubscribedStreamIds = (): number[] =>
  useAccountSelector(
    useShallow((s) =>
      (Object.values(s.account.subscriptions.subscribed) as Subscription[])
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((sub) => sub.stream_id),
    ),
  );
/** The server's subscription object (undefined: not subscribed). */
export const useSubscription = (streamId: number): Subscription | undefined =>
  useAccountState((a) => a.subscriptions.subscribed[streamId]);
/** One property as the user should see it: a pending write, else the server's value. */
export const useSubscriptionProperty = (streamId: number, property: string): unknown =>
  useAccountSelector((s) => effectiveSubscriptionProperty(s, streamId, property));
export const useSubscriptionPending = (streamId: number, property: string): boolean =>
  useAccountSelector((s) => subscriptionKey(streamId, property) in s.pendingSubscriptions);
export const useSubscriptionError = (): SubscriptionError | null =>
  useAccountSelector((s) => s.subscriptionError);

// ---- unread counts (muted streams and topics do not count toward the total) ------------------

export const useUnreadTotal = (): number => useAccountState(selectUnreadTotal);
export const useStreamUnread = (streamId: number): number =>
  useAccountState((a) => selectStreamUnread(a, streamId));
export const useTopicUnread = (streamId: number, topic: string): number =>
  useAccountState((a) => selectTopicUnread(a, streamId, topic));
export const usePrivateUnread = (): number => useAccountState(selectPrivateUnread);
export const useMentionUnread = (): number => useAccountState(selectMentionUnread);
/** How many messages the user has starred. */
export const useStarredCount = (): number => useAccountState((a) => a.starredMessages.length);

// ---- users, statuses, server drafts -----------------------------------------------------------

export const useUser = (userId: number): User | undefined =>
  useAccountState((a) => a.users.active[userId] ?? a.users.nonActive[userId]);
export const useOwnUserId = (): number | null => useAccountState((a) => a.userId);
export const useUserStatus = (userId: number): UserStatus | undefined =>
  useAccountState((a) => a.userStatus[userId]);
/** The server's copy of the drafts (the drafts screen reads the main process's local store). */
export const useServerDraft = (draftId: number): Draft | undefined =>
  useAccountState((a) => a.drafts[draftId]);

/** The user's own User object (undefined before the users are known). */
export const useOwnUser = (): User | undefined => useAccountState(ownUser);
/** Whether the user is an administrator or owner of the organization. */
export const useIsAdmin = (): boolean => useAccountState(selectIsAdmin);
/** The user's role (100 owner, 200 administrator, 300 moderator, 400 member, 600 guest). */
export const useOwnRole = (): number | undefined => useAccountState((a) => ownUser(a)?.role);

const byName = (a: { full_name: string; user_id: number }, b: { full_name: string; user_id: number }) =>
  a.full_name.localeCompare(b.full_name) || a.user_id - b.user_id;

/** Ids of the organization's active users, sorted by name; bots only when asked for. */
export const useActiveUserIds = ({ includeBots = false }: { includeBots?: boolean } = {}): number[] =>
  useAccountStateShallow((a) =>
    (Object.values(a.users.active) as User[])
      .filter((u) => includeBots || !u.is_bot)
      .sort(byName)
      .map((u) => u.user_id),
  );

/** Ids of the users the user muted, ascending. */
export const useMutedUserIds = (): number[] =>
  useAccountStateShallow((a) => Object.keys(a.mutedUsers).map(Number));
export const useIsUserMuted = (userId: number): boolean => useAccountState((a) => isUserMuted(a, userId));

// ---- presence ---------------------------------------------------------------------------------

/** How often presence shown on screen is judged again (someone going offline needs no event). */
const PRESENCE_TICK_MS = 15_000;

/** One clock for every presence on screen, ticking while any component reads it. */
const clock = {
  now: Date.now(),
  listeners: new Set<() => void>(),
  timer: null as ReturnType<typeof setInterval> | null,
};

function subscribeClock(listener: () => void): () => void {
  clock.listeners.add(listener);
  clock.now = Date.now();
  clock.timer ??= setInterval(() => {
    clock.now = Date.now();
    for (const l of clock.listeners) l();
  }, PRESENCE_TICK_MS);
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0 && clock.timer !== null) {
      clearInterval(clock.timer);
      clock.timer = null;
    }
  };
}

/** Epoch milliseconds, at most PRESENCE_TICK_MS old. */
const useClock = (): number => useSyncExternalStore(subscribeClock, readClock, readClock);
const readClock = () => clock.now;

/** Active, idle or offline, kept current as time passes (shared/domain presenceOf). */
export function usePresence(userId: number): PresenceStatus {
  const now = useClock();
  return useAccountState((a) => presenceOf(a, userId, now));
}

/** Whether the user is using this window: focused and visible. */
function windowActive(): 'active' | 'idle' {
  return document.visibilityState === 'visible' && document.hasFocus() ? 'active' : 'idle';
}

/**
 * Reports the user's presence every ping interval of the server (60 s) while mounted, and
 * at once when the window gains focus, and takes in everyone's changes from the answers:
 * without it the account appears offline to others, and others' presence is only as fresh
 * as the events that say someone came back. Mount it once per window, inside AccountProvider
 * (the shell); several windows may each report, the server counts one report per minute.
 */
export function usePresenceReporter(): void {
  const { reportPresence } = useAccountActions();
  const intervalSeconds = useAccountState((a) => a.presence.pingIntervalSeconds);
  useEffect(() => {
    const report = () => void reportPresence(windowActive());
    report();
    const timer = setInterval(report, Math.max(intervalSeconds, 10) * 1000);
    window.addEventListener('focus', report);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', report);
    };
  }, [reportPresence, intervalSeconds]);
}

// ---- the organization -------------------------------------------------------------------------

/**
 * One organization setting or limit, by the name realm events use (the register field without
 * `realm_`: `name`, `description`, `create_public_stream_policy`, `max_topic_length` ...);
 * undefined when the server did not send it.
 */
export function useRealm<K extends RealmField>(prop: K): KnownRealmFields[K] | undefined;
export function useRealm(prop: string): unknown;
export function useRealm(prop: string): unknown {
  return useAccountState((a) => a.realm[prop]);
}

/** The organization's custom emoji, sorted by name; deactivated ones only when asked for. */
export const useRealmEmoji = ({
  includeDeactivated = false,
}: {
  includeDeactivated?: boolean;
} = {}): RealmEmoji[] =>
  useAccountStateShallow((a) =>
    Object.values(a.realmEmoji)
      .filter((e) => includeDeactivated || !e.deactivated)
      .sort((x, y) => x.name.localeCompare(y.name)),
  );

/** Every stream the user can see (register's `streams`), sorted by name. */
export const useStreams = (): StreamInfo[] =>
  useAccountStateShallow((a) => Object.values(a.streams).sort((x, y) => x.name.localeCompare(y.name)));
export const useStream = (streamId: number): StreamInfo | undefined =>
  useAccountState((a) => a.streams[streamId]);
/** Ids of the organization's default streams (empty for guests). */
export const useDefaultStreamIds = (): readonly number[] => useAccountState((a) => a.realmDefaultStreams);

/** The organization's user groups, sorted by name. */
export const useUserGroups = (): UserGroup[] =>
  useAccountStateShallow((a) => Object.values(a.userGroups).sort((x, y) => x.name.localeCompare(y.name)));

/** The custom profile fields in their order. */
export const useCustomProfileFields = (): CustomProfileField[] =>
  useAccountStateShallow((a) => [...a.customProfileFields].sort((x, y) => x.order - y.order));

/** The organization's code playgrounds, as the server lists them. */
export const usePlaygrounds = (): readonly Playground[] => useAccountState((a) => a.realmPlaygrounds);

/** The organization's linkifiers, as the server lists them. */
export const useRealmLinkifiers = (): readonly Linkifier[] => useAccountState((a) => a.realmLinkifiers);

/** The user's direct-message conversations, newest first. */
export const useRecentPrivateConversations = (): readonly RecentPrivateConversation[] =>
  useAccountState((a) => a.recentPrivateConversations);
