/**
 * The stores' public face: hooks with atomic selectors (each returns one value, so a
 * component re-renders only when that value changes). The stores themselves stay private.
 */
import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import {
  type AccountState,
  selectMentionUnread,
  selectPrivateUnread,
  selectStreamUnread,
  selectTopicUnread,
  selectUnreadTotal,
  type UserStatus,
} from '../../../shared/domain';
import type { AccountSummary, ConnectionState } from '../../../shared/ipc';
import type { Draft, Subscription, User } from '../../../shared/protocol';
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
export const useAccountActions = (): AccountActions => useAccountSelector((s) => s.actions);

/** Reads the account's server state (AccountState) with an atomic selector. */
function useAccountState<T>(selector: (state: AccountState) => T): T {
  return useAccountSelector((s) => selector(s.account));
}

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

// ---- users, statuses, server drafts -----------------------------------------------------------

export const useUser = (userId: number): User | undefined =>
  useAccountState((a) => a.users.active[userId] ?? a.users.nonActive[userId]);
export const useOwnUserId = (): number | null => useAccountState((a) => a.userId);
export const useUserStatus = (userId: number): UserStatus | undefined =>
  useAccountState((a) => a.userStatus[userId]);
/** The server's copy of the drafts (the drafts screen reads the main process's local store). */
export const useServerDraft = (draftId: number): Draft | undefined =>
  useAccountState((a) => a.drafts[draftId]);
export const useServerDraftIds = (): number[] =>
  useAccountSelector(useShallow((s) => Object.keys(s.account.drafts).map(Number)));
