/**
 * The stores' public face: hooks with atomic selectors (each returns one value, so a
 * component re-renders only when that value changes). The stores themselves stay private.
 */
import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import type { AccountSummary, ConnectionState } from '../../../shared/ipc';
import type { AccountActions, AccountStore, AccountStoreState } from './account';
import { effectiveSetting, type SettingError } from './accountState';
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
