/**
 * The reducers against the real server: an event stream recorded live (recorder.ts) applied
 * to the snapshot taken before it must equal a fresh snapshot taken after it.
 *
 * Recorded live on every run rather than committed: a committed recording would go stale as
 * the server changes, and passing against stale events proves nothing. Starting the server
 * and running the script takes a few seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTER_PARAMS } from '../../electron/core/update-machine';
import { accountStateFromSnapshot, applyEvents, snapshotFromAccountState } from '../../shared/domain';
import { type StartedServer, startServerProcess } from '../support/server';
import { type Recording, record } from './recorder';

let server: StartedServer;
let recordings: Recording[];

/**
 * What the app registers with, and the same with subscriber lists (so peer events count).
 * Without user_avatar_url_field_optional: with it, whether a user's avatar_url is in a
 * snapshot depends on how recently they were active when it was taken, and no event says so
 * (the family's rule too; the app derives a missing URL), so two snapshots would differ on a
 * field no event carries.
 */
const APP_PARAMS = {
  ...REGISTER_PARAMS,
  client_capabilities: { ...REGISTER_PARAMS.client_capabilities, user_avatar_url_field_optional: false },
};
const PARAM_SETS = [APP_PARAMS, { ...APP_PARAMS, include_subscribers: true }];

beforeAll(async () => {
  server = await startServerProcess();
  recordings = await record(server, PARAM_SETS);
}, 120_000);
afterAll(() => server?.dispose());

const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

describe.each(
  PARAM_SETS.map((params, index) => ({ index, subscribers: params.include_subscribers === true })),
)('a recorded event stream (include_subscribers: $subscribers)', ({ index }) => {
  const recording = () => recordings[index] as Recording;

  it('covers every event type the script causes', () => {
    const kinds = new Set(recording().events.map((e) => ('op' in e ? `${e.type}:${e.op}` : e.type)));
    for (const kind of [
      'user_settings:update',
      'realm_user:update',
      'realm_user:add',
      'stream:create',
      'stream:update',
      'subscription:add',
      'subscription:remove',
      'subscription:update',
      'subscription:peer_add',
      'subscription:peer_remove',
      'user_status',
      'custom_profile_fields',
      'drafts:add',
      'drafts:update',
      'drafts:remove',
      'user_group:add',
      'realm_playgrounds',
      'message',
      'update_message_flags:add',
      'delete_message',
      'realm_user_settings_defaults:update',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it('applied to the old snapshot, gives the fresh snapshot', () => {
    const { before, events, after } = recording();
    const old = accountStateFromSnapshot(before);
    const replayed = applyEvents(old, events);
    // Nothing is left out: the queue's event counter is not part of AccountState.
    expect(replayed).toEqual(accountStateFromSnapshot(after));
    // ...and really changed something in every slice the script touches.
    const fresh = accountStateFromSnapshot(after);
    for (const slice of [
      'userSettings',
      'users',
      'streams',
      'subscriptions',
      'drafts',
      'userStatus',
      'customProfileFields',
      'userGroups',
      'realmPlaygrounds',
      'unreads',
      'realmUserSettingsDefaults',
      'starredMessages',
    ] as const) {
      expect(old[slice], slice).not.toEqual(fresh[slice]);
    }
  });

  it('written back into the old snapshot, rebuilds the same state', () => {
    const { before, events } = recording();
    const replayed = applyEvents(accountStateFromSnapshot(before), events);
    const written = snapshotFromAccountState(before, replayed);
    expect(accountStateFromSnapshot(written)).toEqual(replayed);
    // The user's own top-level copies follow too (alice renamed herself in the script).
    const own = (s: object) =>
      pick(s as Record<string, unknown>, ['full_name', 'email', 'is_admin', 'is_moderator']);
    expect(own(written)).toEqual(own(recording().after));
    expect((written as { full_name?: string }).full_name).toBe('Alice Recorded');
  });
});
