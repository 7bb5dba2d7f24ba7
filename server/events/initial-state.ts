/**
 * The snapshot part of POST /register: the current state of everything the client asked
 * for with fetch_event_types. Built synchronously right after the queue is created, so no
 * event can fall between the snapshot and the queue.
 *
 * Each area builds its own part (server/state/<area>.ts) with the same object builders its
 * events use; this file only decides which parts a request gets, plus the realm basics and
 * the state of unauthenticated (spectator) requests.
 */
import type { ClientCapabilities, UserSettingsValues } from '../../shared/protocol';
import { realmSettings } from '../actions/realm';
import type { ServiceContext } from '../context';
import { type RealmRow, realmUserSettingsDefaults } from '../db/realm';
import { listProfileFields, PROFILE_FIELD_TYPES } from '../db/realm-data';
import { firstMessageIds, listStreams } from '../db/streams';
import { alertWords, userTopics } from '../db/user-data';
import { listUsers, type UserRow } from '../db/users';
import { realmEmojiState } from '../emoji';
import { formatStream } from '../objects/streams';
import { formatUser } from '../objects/users';
import { messagesState } from '../state/messages';
import { miscState } from '../state/misc';
import { settingChoices, settingsState } from '../state/settings';
import { streamsState } from '../state/streams';
import { usersState } from '../state/users';
import { STOP_WORDS } from './stop-words';

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

/** What every area's state builder gets besides the user and the wanted types. */
export interface StateOptions {
  clientCapabilities: ClientCapabilities;
  applyMarkdown: boolean;
  includeSubscribers: boolean;
  clientExtavatar: boolean;
  slimPresence: boolean;
  realm: RealmRow;
}

function realmState(req: SnapshotRequest): Record<string, unknown> {
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
    max_stream_name_length: 60,
    max_stream_description_length: 1024,
    max_topic_length: 60,
    max_message_length: 10000,
  };
}

/** A subscription-shaped web-public stream, as spectators see them (never muted, defaults). */
function spectatorSubscriptions(ctx: ServiceContext, realm: RealmRow): Record<string, unknown>[] {
  const firsts = firstMessageIds(ctx.db, realm.id);
  return listStreams(ctx.db, realm.id)
    .filter((s) => s.is_web_public === 1)
    .map((s) => ({
      ...formatStream(s, firsts.get(s.id) ?? null),
      color: '#c2c2c2',
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      email_notifications: null,
      push_notifications: null,
      audible_notifications: null,
      wildcard_mentions_notify: null,
      email_address: '',
    }));
}

/**
 * The state of an unauthenticated request: the organization, its defaults as settings, its
 * web-public streams, and no personal data.
 */
function spectatorState(
  ctx: ServiceContext,
  req: SnapshotRequest,
  want: (type: string) => boolean,
): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  const defaults = realmUserSettingsDefaults(req.realm) as unknown as UserSettingsValues;
  if (want('alert_words')) state.alert_words = [];
  if (want('custom_profile_fields')) {
    state.custom_profile_fields = listProfileFields(ctx.db, req.realm.id);
    state.custom_profile_field_types = PROFILE_FIELD_TYPES;
  }
  if (want('drafts')) state.drafts = [];
  if (want('message')) state.max_message_id = -1;
  if (want('subscription')) {
    state.subscriptions = spectatorSubscriptions(ctx, req.realm);
    state.unsubscribed = [];
    state.never_subscribed = [];
  }
  if (want('user_settings')) {
    state.user_settings = { ...defaults, default_language: req.realm.default_language, ...settingChoices() };
  }
  if (want('user_status')) state.user_status = {};
  if (want('user_topic')) state.user_topics = [];
  if (want('realm_user')) {
    // The organization's active users as anyone may see them: no real addresses, no
    // profile data, avatars as URLs (spectators cannot compute external ones).
    const viewer = { id: 0, role: 600 } as UserRow;
    const view = { viewer, realm: req.realm, clientExtavatar: false };
    state.realm_users = listUsers(ctx.db, req.realm.id)
      .filter((u) => u.is_active)
      .map((u) => formatUser(u, view));
    state.realm_non_active_users = [];
    state.cross_realm_bots = [];
  }
  return state;
}

export function fetchInitialState(ctx: ServiceContext, req: SnapshotRequest): Record<string, unknown> {
  const { user, realm } = req;
  const want = (type: string) => req.fetchEventTypes === null || req.fetchEventTypes.has(type);
  const extras = realmSettings(realm);
  const common: Record<string, unknown> = {};
  if (want('realm')) Object.assign(common, realmState(req));
  if (typeof extras.demo_organization_scheduled_deletion_date === 'number') {
    // Only demo organizations have a deletion date (spec).
    common.demo_organization_scheduled_deletion_date = extras.demo_organization_scheduled_deletion_date;
  }
  if (want('stop_words')) common.stop_words = [...STOP_WORDS];
  if (want('video_calls')) common.has_videocall_token = false;
  if (want('gif')) common.gif_api_key = '';
  if (want('presence')) {
    // Presence is not tracked: nobody is shown online (slim or not, the map is empty).
    common.presences = {};
    common.server_timestamp = Date.now() / 1000;
  }
  if (want('realm_emoji')) common.realm_emoji = realmEmojiState(ctx.db, ctx.realmId);
  if (user === null) return { ...common, ...spectatorState(ctx, req, want) };

  const options: StateOptions = {
    clientCapabilities: req.capabilities,
    applyMarkdown: req.applyMarkdown,
    includeSubscribers: req.includeSubscribers,
    clientExtavatar: req.clientExtavatar,
    slimPresence: req.slimPresence,
    realm,
  };
  const state: Record<string, unknown> = { ...common };
  if (want('alert_words')) state.alert_words = alertWords(ctx.db, user.id);
  if (want('user_topic')) state.user_topics = userTopics(ctx.db, user.id);
  Object.assign(
    state,
    settingsState(ctx, user, want, options),
    usersState(ctx, user, want, options),
    messagesState(ctx, user, want, { ...options }),
    streamsState(ctx, user, want, options),
    miscState(ctx, user, want, { ...options }),
  );
  return state;
}
