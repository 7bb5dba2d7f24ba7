/**
 * The organization itself: what GET /server_settings tells a client before it signs in, and
 * PATCH /realm, the organization settings administrators (and, for some, only owners) change,
 * with a `realm` event per changed setting to every active user.
 */
import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context';
import { type RealmRow, requireRealm } from '../db/realm';
import {
  type RealmColumn,
  type RealmSettingName,
  type RealmSettingValue,
  realmSettingValue,
  updateRealmSettings,
} from '../db/realm-settings';
import { listStreams, RETAIN_FOREVER } from '../db/streams';
import { activeUserIds, listUsers, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { languageName } from '../languages';
import { renderMarkdown } from '../markdown';
import { canAccessDeliveryEmail, isOwner } from '../permissions';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../version';
import { requireAdmin, requireOwner } from './access';
import { type EventBatch, runAction } from './transaction';

export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** The organization's icon: the external avatar service's identicon, as the family's default. */
function realmIconUrl(realmId: number): string {
  const hash = createHash('md5').update(String(realmId)).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

/** Spectators can read something: public access is on and a web-public stream exists. */
function webPublicAccessEnabled(ctx: ServiceContext, enabled: boolean): boolean {
  return enabled && listStreams(ctx.db, ctx.realmId).some((s) => s.is_web_public === 1);
}

/** GET /server_settings: the service's version and how to sign in; `url` is the realm's address. */
export function serverSettings(ctx: ServiceContext, url: string): Record<string, unknown> {
  const realm = requireRealm(ctx.db);
  return {
    authentication_methods: {
      password: true,
      dev: false,
      email: true,
      ldap: false,
      remoteuser: false,
      github: false,
      azuread: false,
      gitlab: false,
      apple: false,
      google: false,
      saml: false,
      'openid connect': false,
    },
    external_authentication_methods: [],
    service_feature_level: SERVICE_FEATURE_LEVEL,
    service_version: SERVICE_VERSION,
    service_merge_base: SERVICE_MERGE_BASE,
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_uri: url,
    realm_url: url,
    realm_name: realm.name,
    realm_icon: realmIconUrl(realm.id),
    // HTML, as the family gives it here.
    realm_description: renderMarkdown(realm.description),
    realm_web_public_access_enabled: webPublicAccessEnabled(ctx, realm.enable_spectator_access === 1),
  };
}

/** What PATCH /realm may change, as decoded by the catalogue (undefined: not sent). */
export type RealmChanges = Partial<Record<RealmColumn | RealmSettingName, unknown>>;

/** Only owners may change these (the family's OrganizationOwnerRequiredError). */
const OWNER_ONLY: readonly string[] = ['message_retention_days', 'waiting_period_threshold'];

/** Sent together as one `update_dict` event, as the family couples them. */
const MESSAGE_EDITING: readonly string[] = [
  'allow_message_editing',
  'message_content_edit_limit_seconds',
  'edit_topic_policy',
];

/**
 * A decoded value as the request wrote it: a text as it is, a numeral the parameters' JSON
 * reader kept apart as written (`1e0`: the one kind of value with a toJSON method), anything
 * else as JSON.
 */
function asWritten(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof (value as { toJSON?: unknown } | null)?.toJSON === 'function') return String(value);
  return JSON.stringify(value);
}

const badValue = (name: string, value: unknown) => badRequest(`Bad value for '${name}': ${asWritten(value)}`);

/** A time limit in seconds: a positive integer, or `unlimited` (null). */
function timeLimit(name: string, value: unknown): number | null {
  if (value === 'unlimited') return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw badValue(name, value);
}

/** The stored value of one sent setting, checked as the family does. */
function checkedValue(name: string, value: unknown): RealmSettingValue {
  switch (name) {
    case 'name':
    case 'description': {
      const limit = name === 'name' ? MAX_REALM_NAME_LENGTH : MAX_REALM_DESCRIPTION_LENGTH;
      if ([...(value as string)].length > limit) {
        throw badRequest(`${name} is too long (limit: ${limit} characters)`);
      }
      return value as string;
    }
    case 'default_language':
      if (languageName(value as string) === undefined) {
        throw badRequest(`Invalid language '${value as string}'`);
      }
      return value as string;
    case 'message_retention_days':
      // Decoded as days, null (realm_default: no such thing for the organization) or -1.
      if (value === null) throw badValue(name, 'realm_default');
      return value === RETAIN_FOREVER ? null : (value as number);
    case 'message_content_edit_limit_seconds':
    case 'message_content_delete_limit_seconds':
      return timeLimit(name, value);
    default:
      return value as RealmSettingValue;
  }
}

/** The value clients see: retention kept forever is -1 on the wire. */
function wireValue(name: string, stored: RealmSettingValue): RealmSettingValue {
  return name === 'message_retention_days' && stored === null ? RETAIN_FOREVER : stored;
}

/** The sent settings whose value differs from the current one, checked, in the sent order. */
function changedSettings(realm: RealmRow, user: UserRow, changes: RealmChanges) {
  const sent = Object.entries(changes).filter(([, v]) => v !== undefined) as [
    RealmColumn | RealmSettingName,
    unknown,
  ][];
  if (!isOwner(user) && sent.some(([name]) => OWNER_ONLY.includes(name))) requireOwner(user);
  const checked = sent.map(([name, value]) => [name, checkedValue(name, value)] as const);
  return new Map(checked.filter(([name, value]) => realmSettingValue(realm, name) !== value));
}

/** The events of the changes: one `update` per setting, the message-editing ones as one dict. */
function sendRealmEvents(
  ctx: ServiceContext,
  events: EventBatch,
  realm: RealmRow,
  changed: ReadonlyMap<string, RealmSettingValue>,
): void {
  const userIds = activeUserIds(ctx.db, ctx.realmId);
  for (const [name, value] of changed) {
    if (MESSAGE_EDITING.includes(name)) continue;
    events.send({ type: 'realm', op: 'update', property: name, value: wireValue(name, value) }, userIds);
  }
  if (MESSAGE_EDITING.some((name) => changed.has(name))) {
    const data = Object.fromEntries(
      MESSAGE_EDITING.map((name) => [name, realmSettingValue(realm, name as RealmSettingName)]),
    );
    events.send({ type: 'realm', op: 'update_dict', property: 'default', data }, userIds);
  }
}

/**
 * After an email_address_visibility change, each user who gained or lost access to real
 * addresses learns every user's: realm_user updates with `delivery_email` (null: hidden).
 */
function sendDeliveryEmailAccess(
  ctx: ServiceContext,
  events: EventBatch,
  before: RealmRow,
  after: RealmRow,
): void {
  const users = listUsers(ctx.db, ctx.realmId);
  for (const viewer of users.filter((u) => u.is_active)) {
    const access = canAccessDeliveryEmail(viewer, after);
    if (access === canAccessDeliveryEmail(viewer, before)) continue;
    for (const target of users) {
      const person = { user_id: target.id, delivery_email: access ? target.delivery_email : null };
      events.send({ type: 'realm_user', op: 'update', person }, [viewer.id]);
    }
  }
}

/** PATCH /realm: the changed settings with their new values (the family's response). */
export function doUpdateRealm(
  ctx: ServiceContext,
  user: UserRow,
  changes: RealmChanges,
): Record<string, unknown> {
  requireAdmin(user);
  return runAction(ctx, (events) => {
    const realm = requireRealm(ctx.db);
    const changed = changedSettings(realm, user, changes);
    if (changed.size === 0) return {};
    updateRealmSettings(ctx.db, realm, changed);
    const updated = requireRealm(ctx.db);
    sendRealmEvents(ctx, events, updated, changed);
    if (changed.has('email_address_visibility')) sendDeliveryEmailAccess(ctx, events, realm, updated);
    return Object.fromEntries([...changed].map(([name, value]) => [name, wireValue(name, value)]));
  });
}
