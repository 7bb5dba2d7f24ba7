/**
 * The command palette (Ctrl/⌘+K): one field that jumps anywhere (a stream's or a topic's
 * messages, a person, a settings section or one setting, a view) or runs an action (set status,
 * do not disturb, mark all as read, sign out...), and last searches the messages for what was
 * typed. Typing filters fuzzily; arrow keys move, Enter runs,
 * Escape closes; the focus returns where it was (or goes to the setting jumped to), also
 * when a dialog the palette opened closes.
 *
 * Topics: those the app knows of (unread ones, those with a topic setting, the topic lists of
 * streams already fetched), and, when the query names a stream, that stream's topic list,
 * fetched then.
 */

import { type QueryClient, useQueries, useQueryClient } from '@tanstack/react-query';
import {
  AtSign,
  BellOff,
  CheckCheck,
  Clock,
  FilePen,
  Hash,
  Inbox,
  Keyboard,
  Lock,
  LogOut,
  MessageSquare,
  MessagesSquare,
  PenSquare,
  Search,
  Settings,
  Smile,
  Star,
  User,
} from 'lucide-react';
import { type ReactNode, useDeferredValue, useMemo, useState } from 'react';
import { Autocomplete, Header, Input, Menu, MenuItem, MenuSection, SearchField } from 'react-aria-components';
import { flushSync } from 'react-dom';
import { getBridge } from '../../bridge';
import { callApi } from '../../bridge/api';
import { apiQueryKey } from '../../queries/api';
import { useAccountId, useAccountState, useIsAdmin } from '../../stores/hooks';
import { Dialog, InlineError } from '../../ui';
import { useInbox } from '../home/useInbox';
import { markAsRead } from '../home/useMarkAsRead';
import { settingPlaces } from '../settings/catalog';
import { requestSettingFocus } from '../settings/settingFocus';
import { ConfirmSignOut } from './ConfirmSignOut';
import { appDialogs } from './dialogs';
import { DND_FOREVER, forOneHour, setDoNotDisturb, untilTomorrowMorning, useDoNotDisturb } from './dnd';
import { navigation, type Route, type SettingsSection } from './navigation';
import {
  filterPalette,
  type KnownTopic,
  mergeTopics,
  PALETTE_SECTIONS,
  type PaletteEntry,
  type PaletteKind,
  searchEntry,
  streamQuery,
} from './palette';
import { useSignOutFlow } from './useSignOutFlow';

export const SETTINGS_SECTIONS: {
  section: SettingsSection;
  label: string;
  admin?: boolean;
  keywords?: string;
}[] = [
  { section: 'profile', label: 'Profile', keywords: 'name avatar' },
  { section: 'account', label: 'Account & security', keywords: 'email password api key' },
  { section: 'preferences', label: 'Preferences', keywords: 'theme dark light dense time emoji display' },
  { section: 'notifications', label: 'Notifications', keywords: 'sound desktop email' },
  { section: 'privacy', label: 'Privacy', keywords: 'presence typing read receipts' },
  { section: 'org-profile', label: 'Organization profile', admin: true },
  { section: 'org-settings', label: 'Organization settings', admin: true },
  { section: 'org-defaults', label: 'Default user settings', admin: true },
  { section: 'profile-fields', label: 'Custom profile fields', admin: true },
  { section: 'users', label: 'Users', admin: true, keywords: 'members deactivate roles' },
  { section: 'groups', label: 'User groups', admin: true },
  { section: 'playgrounds', label: 'Code playgrounds', admin: true },
  { section: 'emoji', label: 'Custom emoji', admin: true },
];

/** Each personal setting, to jump to and focus. */
const SETTING_PLACES = settingPlaces();

const sectionLabel = (section: SettingsSection): string =>
  SETTINGS_SECTIONS.find((s) => s.section === section)?.label ?? section;

const VIEWS: { id: string; route: Route; label: string; icon: ReactNode; keywords?: string }[] = [
  { id: 'inbox', route: { name: 'inbox' }, label: 'Inbox', icon: <Inbox size={15} aria-hidden="true" /> },
  {
    id: 'recent',
    route: { name: 'recent' },
    label: 'Recent conversations',
    icon: <Clock size={15} aria-hidden="true" />,
    keywords: 'recent topics',
  },
  {
    id: 'all',
    route: { name: 'all' },
    label: 'All messages',
    icon: <MessagesSquare size={15} aria-hidden="true" />,
    keywords: 'combined feed home',
  },
  {
    id: 'mentions',
    route: { name: 'narrow', narrow: { kind: 'mentions' } },
    label: 'Mentions',
    icon: <AtSign size={15} aria-hidden="true" />,
    keywords: 'mentioned @',
  },
  {
    id: 'dms',
    route: { name: 'narrow', narrow: { kind: 'dms' } },
    label: 'Private messages',
    icon: <MessageSquare size={15} aria-hidden="true" />,
    keywords: 'direct messages dm pm',
  },
  {
    id: 'starred',
    route: { name: 'starred' },
    label: 'Starred messages',
    icon: <Star size={15} aria-hidden="true" />,
  },
  {
    id: 'drafts',
    route: { name: 'drafts' },
    label: 'Drafts',
    icon: <FilePen size={15} aria-hidden="true" />,
  },
];

interface Command extends PaletteEntry {
  icon: ReactNode;
  run: () => void;
}

export function CommandPalette({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const accountId = useAccountId();
  const signOut = useSignOutFlow(accountId);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      {isOpen && (
        <Dialog title="Go to or do" isOpen onClose={onClose} size="md" className="palette-modal">
          <PaletteBody onClose={onClose} onSignOut={signOut.start} onError={setError} />
        </Dialog>
      )}
      {signOut.question && <ConfirmSignOut question={signOut.question} />}
      {(signOut.error || error) && (
        <div className="palette-error">
          <InlineError>{signOut.error?.message ?? error}</InlineError>
        </div>
      )}
    </>
  );
}

function PaletteBody({
  onClose,
  onSignOut,
  onError,
}: {
  onClose: () => void;
  onSignOut: () => void;
  onError: (message: string | null) => void;
}) {
  const [query, setQuery] = useState('');
  // What had the focus before the palette: read while rendering, before the palette takes it.
  const [returnTo] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  const commands = useCommands(onSignOut, onError, useDeferredValue(query));
  const shown = useMemo(() => {
    const matches = filterPalette(commands, query, 40);
    const search = searchEntry(query);
    if (!search) return matches;
    const q = query.trim();
    return [
      ...matches,
      {
        ...search,
        icon: <Search size={15} aria-hidden="true" />,
        run: () => navigation.navigate({ name: 'narrow', narrow: { kind: 'search', query: q } }),
      },
    ];
  }, [commands, query]);
  const sections = PALETTE_SECTIONS.map((s) => ({
    ...s,
    items: shown.filter((c) => c.kind === s.kind),
  })).filter((s) => s.items.length > 0);
  // Best match first: when searching, the sections follow the best item of each.
  if (query.trim() !== '') {
    const rank = (kind: PaletteKind) => shown.findIndex((c) => c.kind === kind);
    sections.sort((a, b) => rank(a.kind) - rank(b.kind));
  }
  const byId = new Map(shown.map((c) => [c.id, c]));
  const run = (command: Command) => {
    // The palette is gone and the focus back where it was before the command runs, so a
    // dialog the command opens gives the focus back there in turn.
    flushSync(onClose);
    if (returnTo?.isConnected) returnTo.focus();
    onError(null);
    command.run();
  };
  return (
    <div
      className="palette"
      onKeyDownCapture={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          e.preventDefault();
          onClose();
        } else if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
          // Enter runs the highlighted item (the best match when none is): done here rather
          // than by the menu's press handling, which can miss a key after a pointer press.
          const focused = (e.currentTarget as HTMLElement).querySelector<HTMLElement>(
            '.palette-item[data-focused]',
          );
          const command = (focused && byId.get(focused.dataset.key ?? '')) || shown[0];
          if (command) {
            e.stopPropagation();
            e.preventDefault();
            run(command);
          }
        }
      }}
    >
      <Autocomplete inputValue={query} onInputChange={setQuery}>
        <SearchField
          aria-label="Search streams, topics, people, settings and actions"
          className="palette-search"
          autoFocus
        >
          <Search size={16} aria-hidden="true" className="palette-search-icon" />
          <Input
            className="palette-input"
            placeholder="Jump to a stream, topic, person, setting or action…"
          />
        </SearchField>
        <Menu
          className="palette-list"
          aria-label="Results"
          onAction={(key) => {
            const command = byId.get(String(key));
            if (command) run(command);
          }}
          renderEmptyState={() => <p className="palette-empty">Nothing matches “{query}”.</p>}
        >
          {sections.map((section) => (
            <MenuSection key={section.kind} id={section.kind} className="palette-section">
              <Header className="palette-heading">{section.title}</Header>
              {section.items.map((c) => (
                <MenuItem key={c.id} id={c.id} textValue={c.label} className="palette-item">
                  {c.icon}
                  <span className="palette-label">{c.label}</span>
                  {c.detail && <span className="palette-detail">{c.detail}</span>}
                </MenuItem>
              ))}
            </MenuSection>
          ))}
        </Menu>
      </Autocomplete>
      <p className="palette-hint" aria-hidden="true">
        <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to go · <kbd>Esc</kbd> to close
      </p>
    </div>
  );
}

interface TopicList {
  topics: { name: string; max_id: number }[];
}

const topicsPath = (streamId: number) => `/users/me/${streamId}/topics`;

/** The answers' data (a stable function: TanStack keeps the combined result while they are unchanged). */
const topicLists = (results: { data?: unknown }[]): (TopicList | undefined)[] =>
  results.map((r) => r.data as TopicList | undefined);

/**
 * The topics the app knows of: unread ones, those the user muted, unmuted or followed, the
 * topic lists of streams already in the query cache, and those of the streams `query` names
 * (fetched now, kept current by events like every topic list).
 */
function useKnownTopics(query: string): KnownTopic[] {
  const accountId = useAccountId();
  const queryClient = useQueryClient();
  const subscribed = useAccountState((a) => a.subscriptions.subscribed);
  const userTopics = useAccountState((a) => a.userTopics);
  const inbox = useInbox();
  const named = useMemo(() => {
    const byName = new Map(Object.values(subscribed).map((sub) => [sub.name, sub.stream_id]));
    const meant = streamQuery(query, [...byName.keys()]);
    return (meant?.streams ?? []).flatMap((name) => {
      const id = byName.get(name);
      return id === undefined ? [] : [id];
    });
  }, [query, subscribed]);
  const fetched = useQueries({
    queries: named.map((streamId) => ({
      queryKey: apiQueryKey(accountId, topicsPath(streamId)),
      queryFn: () => callApi<TopicList>(getBridge(), accountId, 'GET', topicsPath(streamId)),
      staleTime: 60_000,
    })),
    combine: topicLists,
  });
  return useMemo(() => {
    const name = (streamId: number) => subscribed[streamId]?.name;
    const fromList = (streamId: number, list: TopicList | undefined): KnownTopic[] => {
      const streamName = name(streamId);
      if (!list || streamName === undefined) return [];
      return list.topics.map((t) => ({
        streamId,
        streamName,
        topic: t.name,
        unread: 0,
        mentioned: false,
        maxId: t.max_id,
      }));
    };
    const unread: KnownTopic[] = inbox.streams.flatMap((stream) =>
      stream.topics.map((t) => ({
        streamId: stream.streamId,
        streamName: stream.name,
        topic: t.topic,
        unread: t.count,
        mentioned: t.mentioned,
        maxId: t.messageIds[t.messageIds.length - 1] ?? 0,
      })),
    );
    const withSettings: KnownTopic[] = Object.values(userTopics).flatMap((t) => {
      const streamName = name(t.stream_id);
      return streamName === undefined
        ? []
        : [{ streamId: t.stream_id, streamName, topic: t.topic_name, unread: 0, mentioned: false, maxId: 0 }];
    });
    const cached = Object.keys(subscribed).map((id) =>
      fromList(Number(id), cachedTopics(queryClient, accountId, Number(id))),
    );
    const asked = named.map((id, i) => fromList(id, fetched[i]));
    return mergeTopics([unread, ...asked, ...cached, withSettings]);
  }, [inbox, userTopics, subscribed, named, fetched, queryClient, accountId]);
}

function cachedTopics(queryClient: QueryClient, accountId: string, streamId: number): TopicList | undefined {
  return queryClient.getQueryData<TopicList>(apiQueryKey(accountId, topicsPath(streamId)));
}

function useCommands(
  onSignOut: () => void,
  onError: (message: string | null) => void,
  query: string,
): Command[] {
  const accountId = useAccountId();
  const isAdmin = useIsAdmin();
  const subscribed = useAccountState((a) => a.subscriptions.subscribed);
  const users = useAccountState((a) => a.users.active);
  const ownId = useAccountState((a) => a.userId);
  const topics = useKnownTopics(query);
  const dnd = useDoNotDisturb();

  return useMemo(() => {
    const go = (route: Route) => () => navigation.navigate(route);
    const commands: Command[] = [];
    const action = (id: string, label: string, icon: ReactNode, run: () => void, keywords?: string) =>
      commands.push({ id: `action:${id}`, kind: 'action', label, icon, run, keywords });

    action(
      'status',
      'Set status…',
      <Smile size={15} aria-hidden="true" />,
      () => appDialogs.show('status'),
      'away emoji',
    );
    if (dnd === null) {
      action(
        'dnd-on',
        'Turn on do not disturb',
        <BellOff size={15} aria-hidden="true" />,
        () => void setDoNotDisturb(DND_FOREVER),
        'dnd toggle mute notifications',
      );
      action(
        'dnd-hour',
        'Do not disturb for 1 hour',
        <BellOff size={15} aria-hidden="true" />,
        () => void setDoNotDisturb(forOneHour(new Date())),
        'dnd toggle notifications',
      );
      action(
        'dnd-tomorrow',
        'Do not disturb until tomorrow',
        <BellOff size={15} aria-hidden="true" />,
        () => void setDoNotDisturb(untilTomorrowMorning(new Date())),
        'dnd toggle notifications morning night',
      );
    } else {
      action(
        'dnd-off',
        'Turn off do not disturb',
        <BellOff size={15} aria-hidden="true" />,
        () => void setDoNotDisturb(null),
        'dnd toggle notifications',
      );
    }
    action(
      'compose',
      'New message',
      <PenSquare size={15} aria-hidden="true" />,
      go({ name: 'compose' }),
      'compose write',
    );
    action(
      'mark-all',
      'Mark all messages as read',
      <CheckCheck size={15} aria-hidden="true" />,
      () => {
        markAsRead(accountId, { kind: 'all' }).catch((e: unknown) =>
          onError(`Could not mark all as read: ${e instanceof Error ? e.message : String(e)}`),
        );
      },
      'unread clear',
    );
    action(
      'browse',
      'Browse streams',
      <Hash size={15} aria-hidden="true" />,
      go({ name: 'streams', tab: 'all' }),
      'subscribe join',
    );
    action(
      'create',
      'Create a stream',
      <Hash size={15} aria-hidden="true" />,
      go({ name: 'streams', tab: 'all', create: true }),
      'new channel',
    );
    action(
      'shortcuts',
      'Keyboard shortcuts',
      <Keyboard size={15} aria-hidden="true" />,
      () => appDialogs.show('shortcuts'),
      'help keys hotkeys',
    );
    action('sign-out', 'Sign out', <LogOut size={15} aria-hidden="true" />, onSignOut, 'log out logout');

    for (const view of VIEWS) {
      commands.push({
        id: `view:${view.id}`,
        kind: 'view',
        label: view.label,
        keywords: view.keywords,
        icon: view.icon,
        run: go(view.route),
      });
    }

    const subs = Object.values(subscribed).sort((a, b) => a.name.localeCompare(b.name));
    for (const sub of subs) {
      commands.push({
        id: `stream:${sub.stream_id}`,
        kind: 'stream',
        label: `#${sub.name}`,
        detail: sub.is_muted ? 'muted' : undefined,
        keywords: sub.description,
        icon: sub.invite_only ? <Lock size={15} aria-hidden="true" /> : <Hash size={15} aria-hidden="true" />,
        run: go({ name: 'narrow', narrow: { kind: 'stream', streamId: sub.stream_id } }),
      });
    }

    for (const t of topics) {
      commands.push({
        id: `topic:${t.streamId}:${t.topic}`,
        kind: 'topic',
        label: t.topic || '(no topic)',
        detail: t.unread > 0 ? `#${t.streamName} · ${t.unread} unread` : `#${t.streamName}`,
        scope: t.streamName,
        // Unread topics are offered before typing; the others once the query finds them.
        searchOnly: t.unread === 0,
        icon: t.mentioned ? (
          <AtSign size={15} aria-hidden="true" />
        ) : (
          <MessagesSquare size={15} aria-hidden="true" />
        ),
        run: go({ name: 'narrow', narrow: { kind: 'topic', streamId: t.streamId, topic: t.topic } }),
      });
    }

    const people = Object.values(users)
      .filter((u) => !u.is_bot && u.user_id !== ownId)
      .sort((a, b) => a.full_name.localeCompare(b.full_name));
    for (const user of people) {
      commands.push({
        id: `person:${user.user_id}`,
        kind: 'person',
        label: user.full_name,
        detail: user.email,
        searchOnly: true,
        icon: <User size={15} aria-hidden="true" />,
        run: () => appDialogs.showProfile(user.user_id),
      });
    }

    for (const s of SETTINGS_SECTIONS) {
      if (s.admin && !isAdmin) continue;
      commands.push({
        id: `setting:${s.section}`,
        kind: 'setting',
        label: s.label,
        detail: s.admin ? 'Organization' : 'Settings',
        keywords: s.keywords,
        searchOnly: s.admin,
        icon: <Settings size={15} aria-hidden="true" />,
        run: go({ name: 'settings', section: s.section }),
      });
    }
    for (const place of SETTING_PLACES) {
      commands.push({
        id: `setting:${place.section}:${place.name}`,
        kind: 'setting',
        label: place.label,
        detail: `${sectionLabel(place.section)} › ${place.group}`,
        keywords: place.name.replaceAll('_', ' '),
        searchOnly: true,
        icon: <Settings size={15} aria-hidden="true" />,
        run: () => {
          requestSettingFocus(place.name);
          navigation.navigate({ name: 'settings', section: place.section });
        },
      });
    }
    return commands;
  }, [accountId, isAdmin, subscribed, users, ownId, topics, dnd, onSignOut, onError]);
}
