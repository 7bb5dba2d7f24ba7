/**
 * The account hooks over a real store, rendered once with react-dom/server (no DOM here): each
 * hook answers what its selector promises, from the register snapshot the store was built from.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AccountSnapshot } from '../../../shared/ipc';
import { snapshotFixture as domainSnapshot, stream, user } from '../../../test/fixtures/domain';
import { createTestBridge, flush } from '../../test/testBridge';
import {
  AccountProvider,
  SyncProvider,
  useAccountId,
  useAccountState,
  useAccountStateShallow,
  useActiveUserIds,
  useCustomProfileFields,
  useDefaultStreamIds,
  useIsAdmin,
  useIsUserMuted,
  useMutedUserIds,
  useOwnRole,
  useOwnUser,
  usePlaygrounds,
  usePresence,
  useRealm,
  useRealmEmoji,
  useRealmLinkifiers,
  useRecentPrivateConversations,
  useStream,
  useStreams,
  useUserGroups,
} from './hooks';
import { createSync } from './sync';

const ME = 10;
const BOB = 11;
const ZED = 13;
const BOT = 14;
const now = Math.floor(Date.now() / 1000);

function snapshot(): AccountSnapshot {
  return {
    accountId: 'acct-1',
    generation: 1,
    state: domainSnapshot({
      realm_users: [
        user(ME, 'Me', { role: 200, is_admin: true }),
        user(ZED, 'Zed'),
        user(BOB, 'Bob'),
        user(BOT, 'Alfred Bot', { is_bot: true }),
      ],
      realm_name: 'Confab',
      realm_create_public_stream_policy: 2,
      max_topic_length: 60,
      realm_emoji: {
        2: { id: '2', name: 'zebra', source_url: '/z.png', deactivated: false, author_id: ME },
        1: { id: '1', name: 'apple', source_url: '/a.png', deactivated: false, author_id: ME },
        3: { id: '3', name: 'old', source_url: '/o.png', deactivated: true, author_id: ME },
      },
      realm_linkifiers: [{ id: 1, pattern: 'x', url_template: 'https://x' }],
      realm_default_streams: [stream(1, 'general')],
      realm_user_groups: [
        { id: 2, name: 'zeta', description: '', members: [] },
        { id: 1, name: 'alpha', description: '', members: [ME] },
      ],
      custom_profile_fields: [
        { id: 1, type: 1, order: 2, name: 'Second', hint: '', field_data: '' },
        { id: 2, type: 1, order: 1, name: 'First', hint: '', field_data: '' },
      ],
      presences: {
        [BOB]: { active_timestamp: now, idle_timestamp: now },
        [ZED]: { idle_timestamp: now - 30 },
      },
      muted_users: [{ id: ZED, timestamp: 1 }],
      recent_private_conversations: [{ max_message_id: 5, user_ids: [BOB] }],
    }),
  };
}

async function render<T>(probe: () => T): Promise<T> {
  const test = createTestBridge();
  test.handle('app.getState', () => ({
    accounts: [
      {
        id: 'acct-1',
        serverUrl: 'http://x',
        email: 'me@example.com',
        userId: ME,
        fullName: 'Me',
        serviceVersion: null,
        featureLevel: null,
      },
    ],
    activeAccountId: 'acct-1',
  }));
  test.handle('account.getSnapshot', snapshot);
  test.handle('account.getConnection', () => ({ status: 'connected', nextRetryAt: null, lastError: null }));
  const sync = createSync(test.bridge);
  await sync.resync();
  await flush();
  // Server rendering reads a store's initial state (zustand's server snapshot): the registry's
  // was empty, so let it read the current one, which holds the account's store.
  sync.registry.getInitialState = sync.registry.getState;
  let seen: T | undefined;
  function Probe() {
    seen = probe();
    return null;
  }
  renderToStaticMarkup(
    <SyncProvider sync={sync}>
      <AccountProvider accountId="acct-1" fallback={null}>
        <Probe />
      </AccountProvider>
    </SyncProvider>,
  );
  if (seen === undefined) throw new Error('the probe did not render');
  return seen;
}

describe('account hooks', () => {
  it('read the organization', async () => {
    const seen = await render(() => ({
      accountId: useAccountId(),
      name: useRealm('name'),
      policy: useRealm('create_public_stream_policy'),
      maxTopic: useRealm('max_topic_length'),
      unknown: useRealm('no_such_setting'),
      emoji: useRealmEmoji().map((e) => e.name),
      allEmoji: useRealmEmoji({ includeDeactivated: true }).map((e) => e.name),
      linkifiers: useRealmLinkifiers().length,
      defaults: useDefaultStreamIds(),
      streams: useStreams().map((s) => s.name),
      stream: useStream(2)?.name,
      groups: useUserGroups().map((g) => g.name),
      fields: useCustomProfileFields().map((f) => f.name),
      playgrounds: usePlaygrounds().map((p) => p.name),
    }));
    expect(seen).toEqual({
      accountId: 'acct-1',
      name: 'Confab',
      policy: 2,
      maxTopic: 60,
      unknown: undefined,
      emoji: ['apple', 'zebra'],
      allEmoji: ['apple', 'old', 'zebra'],
      linkifiers: 1,
      defaults: [1],
      streams: ['design', 'general', 'lobby'],
      stream: 'design',
      groups: ['alpha', 'zeta'],
      fields: ['First', 'Second'],
      playgrounds: ['Rust'],
    });
  });

  it('read the people', async () => {
    const seen = await render(() => ({
      own: useOwnUser()?.full_name,
      admin: useIsAdmin(),
      role: useOwnRole(),
      active: useActiveUserIds(),
      withBots: useActiveUserIds({ includeBots: true }),
      muted: useMutedUserIds(),
      zedMuted: useIsUserMuted(ZED),
      bobMuted: useIsUserMuted(BOB),
      presence: [usePresence(ME), usePresence(BOB), usePresence(ZED), usePresence(BOT)],
      recent: useRecentPrivateConversations(),
      generic: useAccountState((a) => a.userId),
      shallow: useAccountStateShallow((a) => Object.keys(a.users.active).length),
    }));
    expect(seen).toEqual({
      own: 'Me',
      admin: true,
      role: 200,
      active: [BOB, ME, ZED],
      withBots: [BOT, BOB, ME, ZED],
      muted: [ZED],
      zedMuted: true,
      bobMuted: false,
      presence: ['active', 'active', 'idle', 'offline'],
      recent: [{ max_message_id: 5, user_ids: [BOB] }],
      generic: ME,
      shallow: 4,
    });
  });
});
