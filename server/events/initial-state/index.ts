/**
 * The snapshot part of POST /register: the current state of everything the client asked
 * for with fetch_event_types. Built synchronously right after the queue is created, so no
 * event can fall between the snapshot and the queue.
 *
 * It lives in events/ because it is the other half of an event queue: a client applies the
 * queue's events to this snapshot. Each area builds its own part (./<area>.ts) with the same
 * object builders (server/formats) and readers (server/db) its events use, so the two cannot
 * drift; this file only decides which parts a request gets, plus what every request shares.
 * Like the rest of events/, nothing here imports actions/.
 */
import type { ClientCapabilities } from '../../../shared/protocol';
import { PASSWORD_MIN_GUESSES, PASSWORD_MIN_LENGTH } from '../../auth';
import type { ServiceContext } from '../../context';
import { type RealmRow, realmSettings } from '../../db/realm';
import { realmSettingsState } from '../../db/realm-settings';
import type { UserRow } from '../../db/users';
import { realmEmojiState } from '../../emoji';
import { MAX_FILE_UPLOAD_SIZE_MIB } from '../../uploads';
import { STOP_WORDS } from '../stop-words';
import { messagesState } from './messages';
import { miscState } from './misc';
import { presenceState } from './presence';
import { settingsState } from './settings';
import { spectatorState } from './spectator';
import { streamsState } from './streams';
import { usersState } from './users';

export interface SnapshotRequest {
  /** null: an unauthenticated spectator of an organization with public access. */
  user: UserRow | null;
  realm: RealmRow;
  /** null: everything. */
  fetchEventTypes: ReadonlySet<string> | null;
  capabilities: ClientCapabilities;
  applyMarkdown: boolean;
  clientExtavatar: boolean;
  includeSubscribers: boolean;
  slimPresence: boolean;
  /** The server's address as the client reached it, for realm_uri. */
  baseUrl: string;
}

/** A part of the snapshot: top-level keys of the register response. */
export type State = Record<string, unknown>;

/** What every area's state builder gets. */
export interface AreaRequest {
  ctx: ServiceContext;
  user: UserRow;
  /** Whether the client asked for this event type (fetch_event_types). */
  want: (type: string) => boolean;
  options: StateOptions;
}

export interface StateOptions {
  clientCapabilities: ClientCapabilities;
  applyMarkdown: boolean;
  includeSubscribers: boolean;
  clientExtavatar: boolean;
  slimPresence: boolean;
  /** The organization register already read. */
  realm: RealmRow;
}

function realmState(req: SnapshotRequest): State {
  const { realm } = req;
  return {
    realm_name: realm.name,
    realm_description: realm.description,
    realm_uri: req.baseUrl,
    realm_date_created: realm.date_created,
    realm_default_language: realm.default_language,
    realm_enable_spectator_access: realm.enable_spectator_access === 1,
    realm_email_address_visibility: realm.email_address_visibility,
    realm_message_retention_days: realm.message_retention_days ?? -1,
    realm_name_changes_disabled: realm.name_changes_disabled === 1,
    realm_email_changes_disabled: realm.email_changes_disabled === 1,
    ...realmSettingsState(realm),
    max_file_upload_size_mib: MAX_FILE_UPLOAD_SIZE_MIB,
    max_stream_name_length: 60,
    max_stream_description_length: 1024,
    max_topic_length: 60,
    max_message_length: 10000,
    password_min_length: PASSWORD_MIN_LENGTH,
    password_min_guesses: PASSWORD_MIN_GUESSES,
  };
}

/** What users and spectators alike get: the organization and the service's fixed lists. */
function commonState(ctx: ServiceContext, req: SnapshotRequest, want: (type: string) => boolean): State {
  const extras = realmSettings(req.realm);
  const common: State = {};
  if (want('realm')) Object.assign(common, realmState(req));
  if (typeof extras.demo_organization_scheduled_deletion_date === 'number') {
    // Only demo organizations have a deletion date (spec).
    common.demo_organization_scheduled_deletion_date = extras.demo_organization_scheduled_deletion_date;
  }
  if (want('stop_words')) common.stop_words = [...STOP_WORDS];
  if (want('video_calls')) common.has_videocall_token = false;
  if (want('gif')) common.gif_api_key = '';
  if (want('presence')) {
    // Spectators see nobody online; a user's part (./presence.ts) replaces this.
    common.presences = {};
    common.server_timestamp = Date.now() / 1000;
  }
  if (want('realm_emoji')) common.realm_emoji = realmEmojiState(ctx.db, ctx.realmId);
  return common;
}

export function fetchInitialState(ctx: ServiceContext, req: SnapshotRequest): State {
  const { user, realm } = req;
  const want = (type: string) => req.fetchEventTypes === null || req.fetchEventTypes.has(type);
  const common = commonState(ctx, req, want);
  if (user === null) return { ...common, ...spectatorState(ctx, realm, want) };

  const area: AreaRequest = {
    ctx,
    user,
    want,
    options: {
      clientCapabilities: req.capabilities,
      applyMarkdown: req.applyMarkdown,
      includeSubscribers: req.includeSubscribers,
      clientExtavatar: req.clientExtavatar,
      slimPresence: req.slimPresence,
      realm,
    },
  };
  return {
    ...common,
    ...settingsState(area),
    ...usersState(area),
    ...messagesState(area),
    ...streamsState(area),
    ...miscState(area),
    ...presenceState(area),
  };
}
