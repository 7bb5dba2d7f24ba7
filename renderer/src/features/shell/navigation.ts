/**
 * Where this window is: one route at a time, kept per window (two windows may look at different
 * places). A tiny store rather than URLs: the app is served from app:// and from a browser-mode
 * page whose URL carries a secret, and no route is ever shared as a link.
 */
import { create } from 'zustand';
import type { Narrow } from '../../../../shared/domain/narrow';

export type SettingsSection =
  | 'profile'
  | 'account'
  | 'preferences'
  | 'notifications'
  | 'privacy'
  | 'org-profile'
  | 'org-settings'
  | 'org-defaults'
  | 'profile-fields'
  | 'users'
  | 'groups'
  | 'playgrounds'
  | 'emoji';

export type StreamsTab = 'subscribed' | 'all';

export type Route =
  | { name: 'inbox' }
  | { name: 'recent' }
  | { name: 'all' }
  | { name: 'starred' }
  | { name: 'drafts' }
  /** A new message: the composer with no conversation chosen yet. */
  | { name: 'compose' }
  /** A message view: a stream, a topic, a private conversation, mentions, a search … (`messageId`: scrolled to). */
  | { name: 'narrow'; narrow: Narrow; messageId?: number }
  /** One stream's topic list ("All topics"); its messages are the `narrow` route. */
  | { name: 'stream'; streamId: number; topic?: string }
  /** Browse, subscribe, create, and one stream's settings (`streamId`). */
  | { name: 'streams'; tab: StreamsTab; streamId?: number; create?: boolean }
  | { name: 'settings'; section: SettingsSection };

/** Where a window starts before an account's settings are known. */
export const DEFAULT_ROUTE: Route = { name: 'inbox' };

/**
 * The route of the user's `default_view` (the settings table's `recent_topics` or
 * `all_messages`; `inbox` too, as the family's newer servers offer it): where the app starts
 * after sign-in, where Escape goes, and the sidebar's first view.
 */
export function defaultRouteFor(defaultView: unknown): Route {
  if (defaultView === 'all_messages') return { name: 'all' };
  if (defaultView === 'inbox') return { name: 'inbox' };
  return { name: 'recent' };
}

interface NavigationState {
  route: Route;
  /** Routes visited before, for Back (at most 50). */
  history: Route[];
  navigate: (route: Route) => void;
  back: () => void;
}

const useNavigationStore = create<NavigationState>()((set) => ({
  route: DEFAULT_ROUTE,
  history: [],
  navigate: (route) =>
    set((state) =>
      sameRoute(state.route, route) ? state : { route, history: [...state.history.slice(-49), state.route] },
    ),
  back: () =>
    set((state) => {
      const previous = state.history[state.history.length - 1];
      return previous ? { route: previous, history: state.history.slice(0, -1) } : state;
    }),
}));

export const useRoute = (): Route => useNavigationStore((s) => s.route);
export const useNavigate = (): ((route: Route) => void) => useNavigationStore((s) => s.navigate);
export const useBack = (): (() => void) => useNavigationStore((s) => s.back);

/** For code outside React (keyboard shortcuts, the command palette's actions). */
export const navigation = {
  get: (): Route => useNavigationStore.getState().route,
  navigate: (route: Route): void => useNavigationStore.getState().navigate(route),
  /**
   * Goes to an account's start route once per account and window, the first time its state is
   * there; later changes of the setting move nobody. A conversation asked for meanwhile (a
   * notification clicked) stays.
   */
  start: (accountId: string, route: Route): void => {
    if (started.has(accountId)) return;
    started.add(accountId);
    const state = useNavigationStore.getState();
    if (state.route.name !== 'narrow') state.navigate(route);
  },
};

/** The accounts whose start route was applied in this window. */
const started = new Set<string>();

export function sameRoute(a: Route, b: Route): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The stream (and topic) a route reads, if any: where `n` goes on from, what the sidebar unfolds. */
export function readingStream(route: Route): { streamId: number; topic?: string } | null {
  if (route.name === 'stream')
    return route.topic === undefined
      ? { streamId: route.streamId }
      : { streamId: route.streamId, topic: route.topic };
  if (route.name !== 'narrow') return null;
  const { narrow } = route;
  if (narrow.kind === 'stream') return { streamId: narrow.streamId };
  if (narrow.kind === 'topic') return { streamId: narrow.streamId, topic: narrow.topic };
  return null;
}

/** Views in the sidebar's order: the user's default view first, the others as listed. */
export function orderedViews<T extends { route: Route }>(views: readonly T[], defaultView: unknown): T[] {
  const home = defaultRouteFor(defaultView);
  return [
    ...views.filter((v) => sameRoute(v.route, home)),
    ...views.filter((v) => !sameRoute(v.route, home)),
  ];
}
