/**
 * The snapshot part of POST /register: the current state of everything the client asked
 * for with fetch_event_types. Built synchronously right after the queue is created, so no
 * event can fall between the snapshot and the queue.
 */
import {
  ALL_SETTINGS,
  type ClientCapabilities,
  EMOJISET_CHOICES,
  NOTIFICATION_SOUNDS,
  type SettingName,
  type UserSettingsValues,
} from '../../shared/protocol';
import type { Db } from '../db';
import { unreadMessages } from '../db/messages';
import { type RealmRow, realmUserSettingsDefaults } from '../db/realm';
import { listPlaygrounds, listProfileFields, listUserGroups, PROFILE_FIELD_TYPES } from '../db/realm-data';
import { alertWords, listDrafts, userStatuses, userTopics } from '../db/user-data';
import { isAdmin, listUsers, maxMessageIdForUser, readUserSettings, type UserRow } from '../db/users';
import { subscriptionState, visibleStreams } from '../objects/streams';
import { avatarUrl, formatUser, profileDataOf } from '../objects/users';

export interface SnapshotRequest {
  user: UserRow;
  realm: RealmRow;
  /** null: everything. */
  fetchEventTypes: ReadonlySet<string> | null;
  capabilities: ClientCapabilities;
  clientExtavatar: boolean;
  includeSubscribers: boolean;
  /** The server's address as the client reached it, for realm_uri. */
  baseUrl: string;
}

const choices = () => ({
  available_notification_sounds: [...NOTIFICATION_SOUNDS],
  emojiset_choices: EMOJISET_CHOICES.map((c) => ({ ...c })),
});

function legacySettings(values: UserSettingsValues, group: 'display' | 'notification') {
  const result: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(ALL_SETTINGS)) {
    if (spec.legacy === group) result[name] = values[name as SettingName];
  }
  return result;
}

export function fetchInitialState(db: Db, req: SnapshotRequest): Record<string, unknown> {
  const { user, realm } = req;
  const want = (type: string) => req.fetchEventTypes === null || req.fetchEventTypes.has(type);
  const state: Record<string, unknown> = {};
  const settings = readUserSettings(user);

  if (want('alert_words')) state.alert_words = alertWords(db, user.id);
  if (want('custom_profile_fields')) {
    state.custom_profile_fields = listProfileFields(db, realm.id);
    state.custom_profile_field_types = PROFILE_FIELD_TYPES;
  }
  if (want('drafts')) state.drafts = settings.enable_drafts_synchronization ? listDrafts(db, user.id) : [];
  if (want('message')) state.max_message_id = maxMessageIdForUser(db, user.id);
  if (want('message') && want('update_message_flags')) state.unread_msgs = unreadMessages(db, user.id);
  if (want('realm')) {
    Object.assign(state, {
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
    });
  }
  if (want('realm_user')) {
    const users = listUsers(db, realm.id);
    const view = {
      viewer: user,
      realm,
      clientExtavatar: req.clientExtavatar,
      profileData: profileDataOf(db, realm.id),
    };
    state.realm_users = users.filter((u) => u.is_active).map((u) => formatUser(u, view));
    state.realm_non_active_users = users.filter((u) => !u.is_active).map((u) => formatUser(u, view));
    state.cross_realm_bots = [];
    Object.assign(state, {
      email: user.email,
      delivery_email: user.delivery_email,
      full_name: user.full_name,
      is_admin: isAdmin(user),
      is_owner: user.role === 100,
      is_moderator: user.role === 300,
      is_guest: user.role === 600,
      is_billing_admin: user.is_billing_admin === 1,
      can_create_users: user.can_create_users === 1,
      avatar_source: user.avatar_source,
      avatar_url: avatarUrl(user, false),
      avatar_url_medium: avatarUrl(user, false),
      avatar_version: user.avatar_version,
    });
  }
  if (want('realm_user_groups')) state.realm_user_groups = listUserGroups(db, realm.id);
  if (want('realm_playgrounds')) state.realm_playgrounds = listPlaygrounds(db, realm.id);
  if (want('realm_emoji')) state.realm_emoji = {};
  if (want('realm_user_settings_defaults')) {
    state.realm_user_settings_defaults = { ...realmUserSettingsDefaults(realm), ...choices() };
  }
  if (want('stream')) state.streams = visibleStreams(db, user);
  if (want('subscription')) Object.assign(state, subscriptionState(db, user, req.includeSubscribers));
  if (want('user_settings')) state.user_settings = { ...settings, ...choices() };
  if (!req.capabilities.user_settings_object) {
    // Clients from before feature level 89 read settings at the top level.
    if (want('update_display_settings')) {
      Object.assign(state, legacySettings(settings, 'display'), {
        emojiset_choices: choices().emojiset_choices,
      });
    }
    if (want('update_global_notifications')) {
      Object.assign(state, legacySettings(settings, 'notification'), {
        available_notification_sounds: choices().available_notification_sounds,
      });
    }
  }
  if (want('user_status')) state.user_status = userStatuses(db, realm.id);
  if (want('user_topic')) state.user_topics = userTopics(db, user.id);
  if (want('video_calls')) state.has_videocall_token = false;
  if (want('gif')) state.gif_api_key = '';
  return state;
}
