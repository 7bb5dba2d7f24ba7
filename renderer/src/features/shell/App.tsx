import { type ReactNode, useEffect, useState } from 'react';
import { onBridgeLink } from './bridge';
import { DraftsScreen } from './features/drafts/DraftsScreen';
import { type AppView, ViewNav } from './features/drafts/ViewNav';
import { LoginScreen } from './features/login/LoginScreen';
import { SettingsScreen } from './features/settings/SettingsScreen';
import { ThemeSync } from './features/shell/ThemeSync';
import { ConnectionIndicator, StatusBadge, TopBar } from './features/shell/TopBar';
import { AccountProvider, useActiveAccount, useAppLoadError, useAppLoaded } from './stores/hooks';

export function App() {
  const loaded = useAppLoaded();
  const loadError = useAppLoadError();
  const account = useActiveAccount();
  const [adding, setAdding] = useState(false);
  const [view, setView] = useState<AppView>('settings');

  let screen: ReactNode;
  if (!loaded) {
    screen = loadError ? (
      <main className="splash">
        <p role="alert" className="alert">
          Could not start: {loadError}
        </p>
      </main>
    ) : (
      <main className="splash">
        <p className="muted">Loading…</p>
      </main>
    );
  } else if (!account || adding) {
    screen = (
      <LoginScreen
        onCancel={account ? () => setAdding(false) : undefined}
        onSignedIn={() => setAdding(false)}
      />
    );
  } else {
    const addAccount = () => setAdding(true);
    screen = (
      <AccountProvider
        key={account.id}
        accountId={account.id}
        fallback={
          <>
            <TopBar
              account={account}
              status={<StatusBadge tone="connecting" text="Connecting…" />}
              onAddAccount={addAccount}
            />
            <main className="splash">
              <p className="muted">Loading your settings…</p>
            </main>
          </>
        }
      >
        <ThemeSync />
        <TopBar account={account} status={<ConnectionIndicator />} onAddAccount={addAccount} />
        <ViewNav view={view} onChange={setView} />
        {view === 'drafts' ? <DraftsScreen accountId={account.id} /> : <SettingsScreen />}
      </AccountProvider>
    );
  }

  return (
    <>
      <BridgeBanner />
      {screen}
    </>
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
