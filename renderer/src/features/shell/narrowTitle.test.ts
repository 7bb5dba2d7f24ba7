import { describe, expect, it } from 'vitest';
import { accountStateFromSnapshot } from '../../../../shared/domain';
import { BOB, CAROL, ME, snapshotFixture, user } from '../../../../test/fixtures/domain';
import { narrowTitle } from './narrowTitle';

const ALICE = 14;
const state = accountStateFromSnapshot(
  snapshotFixture({ realm_users: [user(ME, 'Me'), user(BOB, 'Bob'), user(ALICE, 'Alice Smith')] }),
);

describe('narrowTitle', () => {
  it('names the views', () => {
    expect(narrowTitle({ kind: 'all' }, state)).toBe('All messages');
    expect(narrowTitle({ kind: 'starred' }, state)).toBe('Starred messages');
    expect(narrowTitle({ kind: 'mentions' }, state)).toBe('Mentions');
    expect(narrowTitle({ kind: 'dms' }, state)).toBe('Private messages');
    expect(narrowTitle({ kind: 'search', query: 'stream:general lunch' }, state)).toBe('Search results');
  });

  it('names a stream and a topic by the stream’s name', () => {
    expect(narrowTitle({ kind: 'stream', streamId: 2 }, state)).toBe('#design');
    expect(narrowTitle({ kind: 'topic', streamId: 1, topic: 'lunch plans' }, state)).toBe(
      '#general > lunch plans',
    );
    // A stream the user only knows as never subscribed still has its name.
    expect(narrowTitle({ kind: 'stream', streamId: 3 }, state)).toBe('#lobby');
    expect(narrowTitle({ kind: 'stream', streamId: 99 }, state)).toBe('#(unknown stream)');
  });

  it('names a private conversation by the other people, sorted by name, oneself when alone', () => {
    expect(narrowTitle({ kind: 'dm', userIds: [BOB, ALICE] }, state)).toBe('Alice Smith, Bob');
    expect(narrowTitle({ kind: 'dm', userIds: [BOB, ME] }, state)).toBe('Bob');
    expect(narrowTitle({ kind: 'dm', userIds: [CAROL] }, state)).toBe('Carol');
    expect(narrowTitle({ kind: 'dm', userIds: [ME] }, state)).toBe('Me');
    expect(narrowTitle({ kind: 'dm', userIds: [] }, state)).toBe('Me');
    expect(narrowTitle({ kind: 'dm', userIds: [77] }, state)).toBe('Unknown user');
  });
});
