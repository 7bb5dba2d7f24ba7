/**
 * The account's link to its server, as the core reports it: a small indicator under the
 * account's name (role=status, named "Connection"), and a slim banner above the screen while
 * reconnecting or offline that says, after a long gap, that what is shown may be out of date.
 */
import { useEffect, useRef, useState } from 'react';
import { getBridge } from '../../bridge';
import { useConnection, useSnapshotCached } from '../../stores/hooks';
import { Banner, cx } from '../../ui';
import { connectionBannerText, connectionText } from './connectionText';
import { watchNetwork } from './networkWake';

export function ConnectionIndicator() {
  const connection = useConnection();
  useEffect(() => watchNetwork(window, getBridge()), []);
  const now = useNow(
    connection.status === 'reconnecting' && connection.nextRetryAt !== null,
    connection.nextRetryAt,
  );
  // Why we are reconnecting is there on hover; the indicator itself stays short.
  const detail = connection.status === 'reconnecting' ? connection.lastError : null;
  return <StatusBadge tone={connection.status} text={connectionText(connection, now)} detail={detail} />;
}

export function StatusBadge({ tone, text, detail }: { tone: string; text: string; detail?: string | null }) {
  return (
    <p
      role="status"
      aria-label="Connection"
      className={cx('connection', `connection-${tone}`)}
      title={detail ?? undefined}
    >
      <span className="connection-dot" aria-hidden="true" />
      <span>{text}</span>
    </p>
  );
}

/** The banner over the main area while the account is not connected. */
export function ConnectionBanner() {
  const connection = useConnection();
  const cached = useSnapshotCached();
  const since = useRef<number | null>(null);
  const live = connection.status === 'connected' || connection.status === 'connecting';
  if (live) since.current = null;
  else since.current ??= Date.now();
  const now = useNow(!live, connection.status);
  const text = connectionBannerText(connection.status, since.current, now, cached);
  if (text === null) return null;
  return (
    <div className="connection-banner">
      <Banner tone="warn" role="status">
        {text}
      </Banner>
    </div>
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
