/**
 * register's state for an unauthenticated request (a spectator of an organization with
 * public access): the organization, its defaults as settings, its web-public streams, and
 * no personal data.
 */
import { ROLES, type UserSettingsValues } from '../../../shared/protocol';
import type { ServiceContext } from '../../context';
import { listLinkifiers } from '../../db/linkifiers';
import { type RealmRow, realmUserSettingsDefaults } from '../../db/realm';
import { listProfileFields, PROFILE_FIELD_TYPES } from '../../db/realm-data';
import { listStreams, type SubscriptionRow } from '../../db/streams';
import { listUsers, type UserRow } from '../../db/users';
import { formatSubscription, realmStreamFigures } from '../../formats/streams';
import { formatUser } from '../../formats/users';
import type { State } from './index';
import { settingChoices } from './settings';

/** How a spectator "subscribes" to a web-public stream: never muted, every default. */
function spectatorSubscription(streamId: number): SubscriptionRow {
  return {
    user_id: 0,
    stream_id: streamId,
    active: 1,
    color: '#c2c2c2',
    is_muted: 0,
    pin_to_top: 0,
    desktop_notifications: null,
    email_notifications: null,
    push_notifications: null,
    audible_notifications: null,
    wildcard_mentions_notify: null,
  };
}

function spectatorSubscriptions(ctx: ServiceContext, realm: RealmRow): Record<string, unknown>[] {
  const figuresOf = realmStreamFigures(ctx.db, realm.id);
  return listStreams(ctx.db, realm.id)
    .filter((s) => s.is_web_public === 1)
    .map((s) => formatSubscription(s, spectatorSubscription(s.id), figuresOf(s), undefined));
}

/** The organization's active users as anyone may see them. */
function publicUsers(ctx: ServiceContext, realm: RealmRow): Record<string, unknown>[] {
  // No real addresses, no profile data, avatars as URLs (spectators cannot compute
  // external ones): the view of a guest who sees nothing extra.
  const viewer = { id: 0, role: ROLES.guest } as UserRow;
  const view = { viewer, realm, clientExtavatar: false };
  return listUsers(ctx.db, realm.id)
    .filter((u) => u.is_active)
    .map((u) => formatUser(u, view));
}

export function spectatorState(ctx: ServiceContext, realm: RealmRow, want: (type: string) => boolean): State {
  const state: State = {};
  const defaults = realmUserSettingsDefaults(realm) as unknown as UserSettingsValues;
  if (want('alert_words')) state.alert_words = [];
  if (want('custom_profile_fields')) {
    state.custom_profile_fields = listProfileFields(ctx.db, realm.id);
    state.custom_profile_field_types = PROFILE_FIELD_TYPES;
  }
  if (want('drafts')) state.drafts = [];
  if (want('realm_linkifiers')) state.realm_linkifiers = listLinkifiers(ctx.db, realm.id);
  if (want('message')) state.max_message_id = -1;
  if (want('subscription')) {
    state.subscriptions = spectatorSubscriptions(ctx, realm);
    state.unsubscribed = [];
    state.never_subscribed = [];
  }
  if (want('user_settings')) {
    state.user_settings = { ...defaults, default_language: realm.default_language, ...settingChoices() };
  }
  if (want('user_status')) state.user_status = {};
  if (want('user_topic')) state.user_topics = [];
  if (want('realm_user')) {
    state.realm_users = publicUsers(ctx, realm);
    state.realm_non_active_users = [];
    state.cross_realm_bots = [];
  }
  return state;
}
