import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ROUTE,
  defaultRouteFor,
  navigation,
  orderedViews,
  type Route,
  readingStream,
} from './navigation';

describe('defaultRouteFor', () => {
  it('maps default_view to the start route', () => {
    expect(defaultRouteFor('recent_topics')).toEqual({ name: 'recent' });
    expect(defaultRouteFor('all_messages')).toEqual({ name: 'all' });
    expect(defaultRouteFor('inbox')).toEqual({ name: 'inbox' });
    // Unknown or missing values read as the setting's default (Recent conversations).
    expect(defaultRouteFor(undefined)).toEqual({ name: 'recent' });
    expect(defaultRouteFor('elsewhere')).toEqual({ name: 'recent' });
  });
});

describe('navigation.start', () => {
  it('goes to an account’s start route once; later calls and other settings do not move the window', () => {
    expect(navigation.get()).toEqual(DEFAULT_ROUTE);
    navigation.start('acct-1', { name: 'all' });
    expect(navigation.get()).toEqual({ name: 'all' });
    navigation.navigate({ name: 'drafts' });
    navigation.start('acct-1', { name: 'recent' });
    expect(navigation.get()).toEqual({ name: 'drafts' });
  });

  it('keeps a conversation asked for before the account loaded', () => {
    const route: Route = { name: 'narrow', narrow: { kind: 'dm', userIds: [4] } };
    navigation.navigate(route);
    navigation.start('acct-2', { name: 'recent' });
    expect(navigation.get()).toEqual(route);
    // A later account with its own default moves the window there.
    navigation.navigate({ name: 'inbox' });
    navigation.start('acct-3', { name: 'recent' });
    expect(navigation.get()).toEqual({ name: 'recent' });
  });
});

describe('readingStream', () => {
  it('names the stream and topic a route reads', () => {
    expect(readingStream({ name: 'narrow', narrow: { kind: 'topic', streamId: 3, topic: 'x' } })).toEqual({
      streamId: 3,
      topic: 'x',
    });
    expect(readingStream({ name: 'narrow', narrow: { kind: 'stream', streamId: 3 } })).toEqual({
      streamId: 3,
    });
    expect(readingStream({ name: 'stream', streamId: 5 })).toEqual({ streamId: 5 });
    expect(readingStream({ name: 'stream', streamId: 5, topic: 't' })).toEqual({ streamId: 5, topic: 't' });
    expect(readingStream({ name: 'narrow', narrow: { kind: 'mentions' } })).toBeNull();
    expect(readingStream({ name: 'recent' })).toBeNull();
  });
});

describe('orderedViews', () => {
  const views: { route: Route }[] = [
    { route: { name: 'inbox' } },
    { route: { name: 'recent' } },
    { route: { name: 'all' } },
    { route: { name: 'narrow', narrow: { kind: 'mentions' } } },
  ];
  const names = (v: { route: Route }[]) => v.map((x) => x.route.name);
  it('puts the default view first and keeps the others in order', () => {
    expect(names(orderedViews(views, 'all_messages'))).toEqual(['all', 'inbox', 'recent', 'narrow']);
    expect(names(orderedViews(views, 'recent_topics'))).toEqual(['recent', 'inbox', 'all', 'narrow']);
    expect(names(orderedViews(views, 'inbox'))).toEqual(['inbox', 'recent', 'all', 'narrow']);
  });
});
