/**
 * The app's frame: which screen shows (starting up, sign-in, the active account), and for a
 * signed-in account the three columns: the sidebar (views, streams, the account), the main
 * area with the current route's screen, and the people list (right, or in the sidebar per
 * `left_side_userlist`). The screens themselves are features of their own.
 */
import { Component, type ErrorInfo, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import type { AccountSummary } from '../../../../shared/ipc';
import { onBridgeLink } from '../../bridge';
import {
  AccountProvider,
  useActiveAccount,
  useAppLoadError,
  useAppLoaded,
  usePresenceReporter,
  useSetting,
} from '../../stores/hooks';
import { Banner, Button, EmptyState } from '../../ui';
import { ConversationScreen, NewMessageScreen } from '../conversation';
import { DraftsScreen } from '../drafts/DraftsScreen';
import { InboxView } from '../home/InboxView';
import { nextUnreadTopic } from '../home/inbox';
import { useInbox } from '../home/useInbox';
import { LoginScreen } from '../login/LoginScreen';
import { PeopleList } from '../people/PeopleList';
import { ProfileCard } from '../people/ProfileCard';
import { RecentConversations } from '../recent';
import { SearchBox } from '../search/SearchBox';
import { SettingsScreen } from '../settings/SettingsScreen';
import { StatusDialog } from '../status/StatusDialog';
import { LongWriteStatus } from '../streams/LongWriteStatus';
import { StreamsScreen } from '../streams/StreamsScreen';
import { StreamView } from '../streams/StreamView';
import { AccountSwitcher } from './AccountSwitcher';
import { CommandPalette } from './CommandPalette';
import { ConnectionBanner, StatusBadge } from './Connection';
import { useCloseDialog, useOpenDialog, useProfileUserId } from './dialogs';
import { Notifier } from './Notifier';
import { defaultRouteFor, navigation, type Route, readingStream, useRoute } from './navigation';
import { ShortcutsDialog, useGlobalShortcuts } from './Shortcuts';
import { Sidebar } from './Sidebar';
import { ThemeSync } from './ThemeSync';

export function App() {
  const loaded = useAppLoaded();
  const loadError = useAppLoadError();
  const account = useActiveAccount();
  const [adding, setAdding] = useState(false);

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
    screen = <SignedIn account={account} onAddAccount={() => setAdding(true)} />;
  }

  return (
    <>
      <BridgeBanner />
      {screen}
    </>
  );
}

/** The active account's frame, inside its store once the snapshot is there. */
function SignedIn({ account, onAddAccount }: { account: AccountSummary; onAddAccount: () => void }) {
  return (
    <AccountProvider
      key={account.id}
      accountId={account.id}
      fallback={
        <div className="app-loading">
          <Splash text="Loading your organization…" />
          <StatusBadge tone="connecting" text="Connecting…" />
        </div>
      }
    >
      <ThemeSync />
      <PresenceReporter />
      <Notifier />
      <StartRoute accountId={account.id} />
      <Frame accountId={account.id} onAddAccount={onAddAccount} />
      <Shortcuts />
      <AppDialogs />
    </AccountProvider>
  );
}

/** Goes to the account's `default_view` once its state is there (not on later changes of it). */
function StartRoute({ accountId }: { accountId: string }) {
  const defaultView = useSetting('default_view');
  useEffect(() => navigation.start(accountId, defaultRouteFor(defaultView)), [accountId, defaultView]);
  return null;
}

/** Tells the server this window's user is here (without it others see them offline). */
function PresenceReporter() {
  usePresenceReporter();
  return null;
}

function Frame({ accountId, onAddAccount }: { accountId: string; onAddAccount: () => void }) {
  const route = useRoute();
  const peopleLeft = useSetting('left_side_userlist') === true;
  return (
    <div className="app-frame" data-people={peopleLeft ? 'left' : 'right'}>
      <AccountSwitcher onAddAccount={onAddAccount} />
      <Sidebar
        onAddAccount={onAddAccount}
        people={peopleLeft ? <PeopleList placement="sidebar" /> : undefined}
      />
      <main className="main" aria-label={screenLabel(route)}>
        <div className="top-bar">
          <SearchBox />
        </div>
        <ConnectionBanner />
        <LongWriteStatus />
        <div className="main-scroll">
          <ScreenBoundary key={JSON.stringify(route)}>
            <Screen route={route} accountId={accountId} />
          </ScreenBoundary>
        </div>
      </main>
      {!peopleLeft && (
        <aside className="people-pane" aria-label="People">
          <PeopleList placement="pane" />
        </aside>
      )}
    </div>
  );
}

function Screen({ route, accountId }: { route: Route; accountId: string }) {
  switch (route.name) {
    case 'inbox':
      return <InboxView />;
    case 'recent':
      return <RecentConversations />;
    case 'all':
      return <ConversationScreen narrow={{ kind: 'all' }} />;
    case 'starred':
      return <ConversationScreen narrow={{ kind: 'starred' }} />;
    case 'narrow':
      return <ConversationScreen narrow={route.narrow} messageId={route.messageId} />;
    case 'drafts':
      return <DraftsScreen accountId={accountId} />;
    case 'compose':
      return <NewMessageScreen />;
    case 'stream':
      return <StreamView streamId={route.streamId} topic={route.topic} />;
    case 'streams':
      return <StreamsScreen tab={route.tab} streamId={route.streamId} create={route.create === true} />;
    case 'settings':
      return <SettingsScreen section={route.section} />;
  }
}

/**
 * A screen that fails to render takes only itself down: the sidebar, the other screens and
 * the dialogs keep working, and the failure is said with its message. Keyed by the route, so
 * going elsewhere and back tries again.
 */
class ScreenBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('A screen failed to render', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="screen">
        <EmptyState
          title="This screen could not be shown."
          action={<Button onPress={() => this.setState({ error: null })}>Try again</Button>}
        >
          <span role="alert">{error.message}</span>
        </EmptyState>
      </div>
    );
  }
}

/** The main landmark's name: where the person is. */
function screenLabel(route: Route): string {
  switch (route.name) {
    case 'inbox':
      return 'Inbox';
    case 'recent':
      return 'Recent conversations';
    case 'all':
      return 'All messages';
    case 'starred':
      return 'Starred messages';
    case 'drafts':
      return 'Drafts';
    case 'compose':
      return 'New message';
    case 'narrow':
      return 'Messages';
    case 'stream':
      return 'Stream';
    case 'streams':
      return 'Streams';
    case 'settings':
      return 'Settings';
  }
}

/** The dialogs any place may open (dialogs.ts), rendered once. */
function AppDialogs() {
  const open = useOpenDialog();
  const close = useCloseDialog();
  const profileUserId = useProfileUserId();
  return (
    <>
      <StatusDialog isOpen={open === 'status'} onClose={close} />
      <ShortcutsDialog isOpen={open === 'shortcuts'} onClose={close} />
      <CommandPalette isOpen={open === 'palette'} onClose={close} />
      {open === 'profile' && profileUserId !== null && (
        <ProfileCard userId={profileUserId} isOpen onClose={close} />
      )}
    </>
  );
}

/** The keyboard shortcuts (Shortcuts.tsx); `n` opens the next unread topic of the inbox. */
function Shortcuts() {
  const inbox = useInbox();
  const latest = useRef(inbox);
  latest.current = inbox;
  const nextUnread = useCallback((): Route | null => {
    const next = nextUnreadTopic(latest.current, readingStream(navigation.get()) ?? undefined);
    return next
      ? { name: 'narrow', narrow: { kind: 'topic', streamId: next.streamId, topic: next.topic } }
      : null;
  }, []);
  useGlobalShortcuts(nextUnread);
  return null;
}

/** A screen with one line in its middle: what is loading, or (`alert`) why it could not. */
function Splash({ text, alert = false }: { text: string; alert?: boolean }) {
  return (
    <main className="splash">
      <p role={alert ? 'alert' : undefined} className={alert ? 'inline-error' : 'muted'}>
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
    <div className="bridge-banner">
      <Banner tone="danger" role="alert">
        Lost the connection to the Confab app. Reconnecting…
      </Banner>
    </div>
  );
}
