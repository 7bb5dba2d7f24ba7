/**
 * The bar above every signed-in screen: who, where, whether connected, and the account
 * actions (switch, add, sign out).
 */
import { type ReactNode, useEffect, useId, useState } from 'react';
import type { AccountSummary } from '../../../../shared/ipc';
import { getBridge } from '../../bridge';
import { useSetActiveAccount } from '../../queries/accounts';
import { useAccounts, useConnection } from '../../stores/hooks';
import { ConfirmSignOut } from './ConfirmSignOut';
import { connectionText } from './connectionText';
import { watchNetwork } from './networkWake';
import { useSignOutFlow } from './useSignOutFlow';

interface TopBarProps {
  account: AccountSummary;
  /** The connection badge (a fixed one while the account's store is loading). */
  status: ReactNode;
  onAddAccount: () => void;
}

export function TopBar({ account, status, onAddAccount }: TopBarProps) {
  const accounts = useAccounts();
  const signOut = useSignOutFlow(account.id);
  const setActive = useSetActiveAccount();
  const switcherId = useId();
  const error = signOut.error ?? setActive.error;
  return (
    <header className="topbar">
      <span className="brand">Confab</span>
      <div className="account">
        <span className="account-name">{account.fullName ?? account.email}</span>
        <span className="muted">
          {account.fullName ? `${account.email} · ` : ''}
          {hostOf(account.serverUrl)}
        </span>
      </div>
      {status}
      <div className="topbar-actions">
        {accounts.length > 1 && (
          <span className="switcher">
            <label htmlFor={switcherId}>Account</label>
            <select
              id={switcherId}
              value={account.id}
              disabled={setActive.isPending}
              onChange={(e) => setActive.mutate({ accountId: e.target.value })}
            >
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.email} ({hostOf(a.serverUrl)})
                </option>
              ))}
            </select>
          </span>
        )}
        <button type="button" onClick={onAddAccount}>
          Add account
        </button>
        <button type="button" disabled={signOut.pending} onClick={signOut.start}>
          {signOut.pending ? 'Signing out…' : 'Sign out'}
        </button>
      </div>
      {signOut.question && <ConfirmSignOut question={signOut.question} />}
      {error && (
        <p role="alert" className="alert topbar-alert">
          {error.message}
        </p>
      )}
    </header>
  );
}

function hostOf(serverUrl: string): string {
  try {
    return new URL(serverUrl).host;
  } catch {
    return serverUrl;
  }
}

/** "Connected", or when the next attempt is, ticking while reconnecting. */
export function ConnectionIndicator() {
  const connection = useConnection();
  useEffect(() => watchNetwork(window, getBridge()), []);
  const now = useNow(
    connection.status === 'reconnecting' && connection.nextRetryAt !== null,
    connection.nextRetryAt,
  );
  // Why we are reconnecting is there on hover; the badge itself stays short.
  const detail = connection.status === 'reconnecting' ? connection.lastError : null;
  return <StatusBadge tone={connection.status} text={connectionText(connection, now)} detail={detail} />;
}

export function StatusBadge({ tone, text, detail }: { tone: string; text: string; detail?: string | null }) {
  return (
    <p role="status" className={`status status-${tone}`} title={detail ?? undefined}>
      <span className="status-dot" aria-hidden="true" />
      <span>{text}</span>
    </p>
  );
}

/** The current time, re-read every second while `ticking` and whenever `since` changes. */
function useNow(ticking: boolean, since: unknown): number {
  const [now, setNow] = useState(() => Date.now());
  // biome-ignore lint/correctness/useExhaustiveDependencies: `since` restarts the clock on purpose
  useEffect(() => {
    setNow(Date.now());
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking, since]);
  return now;
}
