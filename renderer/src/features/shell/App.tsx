/**
 * The app's frame, and so its navigation: which screen shows (starting up, sign-in, the
 * active account's views), the view navigation, and the banner while the page has lost its
 * link to the app. The screens themselves are features of their own.
 */
import { type ReactNode, useEffect, useState } from 'react';
import type { AccountSummary } from '../../../../shared/ipc';
import { onBridgeLink } from '../../bridge';
import { AccountProvider, useActiveAccount, useAppLoadError, useAppLoaded } from '../../stores/hooks';
import { DraftsScreen } from '../drafts/DraftsScreen';
import { LoginScreen } from '../login/LoginScreen';
import { SettingsScreen } from '../settings/SettingsScreen';
import { ThemeSync } from './ThemeSync';
import { ConnectionIndicator, StatusBadge, TopBar } from './TopBar';
import { type AppView, ViewNav } from './ViewNav';

export function App() {
  const loaded = useAppLoaded();
  const loadError = useAppLoadError();
  const account = useActiveAccount();
  const [adding, setAdding] = useState(false);
  // Kept here, above the account's screens, so switching or adding an account keeps the view.
  const [view, setView] = useState<AppView>('settings');

  let screen: ReactNode;
  if (!loaded) {
    screen = loadError ? <Splash alert text={`Could not start: ${loadError}`} /> : <Splash text="Loading…" />;
  } else if (!account || adding) {
    screen = (
      <LoginScreen
        onCancel={account ? () => setAdding(false) : undefined}
        onSignedIn={() => setAdding(false)}
      />
    );
  } else {
    screen = <SignedIn account={account} view={view} onView={setView} onAddAccount={() => setAdding(true)} />;
  }

  return (
    <>
      <BridgeBanner />
      {screen}
    </>
  );
}

interface SignedInProps {
  account: AccountSummary;
  view: AppView;
  onView: (view: AppView) => void;
  onAddAccount: () => void;
}

/** The active account's screens, inside its store once the snapshot is there. */
function SignedIn({ account, view, onView, onAddAccount }: SignedInProps) {
  return (
    <AccountProvider
      key={account.id}
      accountId={account.id}
      fallback={
        <>
          <TopBar
            account={account}
            status={<StatusBadge tone="connecting" text="Connecting…" />}
            onAddAccount={onAddAccount}
          />
          <Splash text="Loading your settings…" />
        </>
      }
    >
      <ThemeSync />
      <TopBar account={account} status={<ConnectionIndicator />} onAddAccount={onAddAccount} />
      <ViewNav view={view} onChange={onView} />
      {view === 'drafts' ? <DraftsScreen accountId={account.id} /> : <SettingsScreen />}
    </AccountProvider>
  );
}

/** A screen with one line in its middle: what is loading, or (`alert`) why it could not. */
function Splash({ text, alert = false }: { text: string; alert?: boolean }) {
  return (
    <main className="splash">
      <p role={alert ? 'alert' : undefined} className={alert ? 'alert' : 'muted'}>
        {text}
      </p>
    </main>
  );
}

/** Says so while the page has lost its link to the app (browser mode: the host went away). */
function BridgeBanner() {
  const [down, setDown] = useState(false);
  useEffect(() => onBridgeLink((up) => setDown(!up)), []);
  if (!down) return null;
  return (
    <p role="alert" className="banner">
      Lost the connection to the Confab app. Reconnecting…
    </p>
  );
}
