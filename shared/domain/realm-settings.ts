/**
 * The organization's settings (the `realm` substore): every `realm_*` field of the register
 * snapshot that describes the organization (name, description, policies, limits, icon ...),
 * kept as one record keyed by the name `realm` events use, which is the register field without
 * its `realm_` prefix (`realm_name` is `name`). The few organization limits register gives
 * without the prefix (`max_message_length` ...) keep their own names.
 *
 * `realm_*` fields that are lists of the organization's objects (users, groups, emoji, ...)
 * are other substores and stay out of here.
 */
import type { EventOf } from '../protocol';

/**
 * The fields this service's register sends, with their types: what the settings screens read.
 * Servers may send more (the record keeps whatever `realm_*` field it got) or fewer.
 */
export interface KnownRealmFields {
  name: string;
  description: string;
  /** The organization's address. */
  uri: string;
  /** Unix seconds. */
  date_created: number;
  default_language: string;
  enable_spectator_access: boolean;
  /** 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators. */
  email_address_visibility: number;
  /** Days; -1 keeps messages forever. */
  message_retention_days: number;
  name_changes_disabled: boolean;
  email_changes_disabled: boolean;
  allow_message_editing: boolean;
  /** Seconds; null: no limit. */
  message_content_edit_limit_seconds: number | null;
  edit_topic_policy: number;
  /** Seconds; null: no limit. */
  message_content_delete_limit_seconds: number | null;
  delete_own_message_policy: number;
  allow_edit_history: boolean;
  mandatory_topics: boolean;
  enable_read_receipts: boolean;
  /** Days before a new member is a full member. */
  waiting_period_threshold: number;
  create_public_stream_policy: number;
  create_private_stream_policy: number;
  create_web_public_stream_policy: number;
  invite_to_stream_policy: number;
  move_messages_between_streams_policy: number;
  user_group_edit_policy: number;
  private_message_policy: number;
  add_custom_emoji_policy: number;
  bot_creation_policy: number;
  icon_url: string;
  icon_source: string;
  max_file_upload_size_mib: number;
  max_stream_name_length: number;
  max_stream_description_length: number;
  max_topic_length: number;
  max_message_length: number;
  /** Only demo organizations have one (Unix seconds). */
  demo_organization_scheduled_deletion_date: number;
}

export type RealmField = keyof KnownRealmFields;

export type RealmState = Readonly<Partial<KnownRealmFields> & Record<string, unknown>>;

/** `realm_*` register fields that hold the organization's objects: other substores' data. */
const DATA_FIELDS: ReadonlySet<string> = new Set([
  'realm_users',
  'realm_non_active_users',
  'realm_user_groups',
  'realm_playgrounds',
  'realm_linkifiers',
  'realm_filters',
  'realm_emoji',
  'realm_default_streams',
  'realm_default_stream_groups',
  'realm_user_settings_defaults',
  'realm_bots',
  'realm_incoming_webhook_bots',
  'realm_embedded_bots',
]);

/** Organization limits and server facts register gives without the `realm_` prefix. */
const UNPREFIXED: ReadonlySet<string> = new Set([
  'max_file_upload_size_mib',
  'max_avatar_file_size_mib',
  'max_icon_file_size_mib',
  'max_logo_file_size_mib',
  'max_stream_name_length',
  'max_stream_description_length',
  'max_topic_length',
  'max_message_length',
  'max_bulk_new_subscription_messages',
  'password_min_length',
  'password_min_guesses',
  'server_name_changes_disabled',
  'server_avatar_changes_disabled',
  'server_inline_image_preview',
  'server_inline_url_embed_preview',
  'server_web_public_streams_enabled',
  'demo_organization_scheduled_deletion_date',
]);

const PREFIX = 'realm_';

/** The record key of a register field, or null when the field is not the organization's setting. */
function realmKey(field: string): string | null {
  if (UNPREFIXED.has(field)) return field;
  if (!field.startsWith(PREFIX) || DATA_FIELDS.has(field) || field.length === PREFIX.length) return null;
  return field.slice(PREFIX.length);
}

/** The register field a record key comes from (and is written back to). */
export function realmRegisterField(key: string): string {
  return UNPREFIXED.has(key) ? key : `${PREFIX}${key}`;
}

export function realmFromSnapshot(snapshot: Readonly<Record<string, unknown>>): RealmState {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(snapshot)) {
    const key = realmKey(field);
    if (key !== null) out[key] = value;
  }
  return out;
}

/** The record as register fields, for a snapshot written back from the state. */
export function realmToSnapshot(state: RealmState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(state)) out[realmRegisterField(key)] = value;
  return out;
}

function withValues(state: RealmState, values: Readonly<Record<string, unknown>>): RealmState {
  let out: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(values)) {
    if (Object.is(state[key], value)) continue;
    out ??= { ...state };
    out[key] = value;
  }
  return out ?? state;
}

/**
 * `update` sets one property, `update_dict` several (`property` only names the group:
 * "default", or "icon" / "logo" whose data are icon_url, icon_source ...). A deactivated
 * organization changes no setting: the next request says so.
 */
export function handleRealmEvent(state: RealmState, event: EventOf<'realm'>): RealmState {
  switch (event.op) {
    case 'update':
      return withValues(state, { [event.property]: event.value });
    case 'update_dict':
      return withValues(state, event.data);
    case 'deactivated':
      return state;
  }
}
