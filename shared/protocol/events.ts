/**
 * Events delivered by GET /events: a discriminated union on `type` (and `op` inside a type).
 * Shapes follow the spec, and NOTES.md where the spec leaves them out. Every event has `id`.
 *
 * `parseEvent` validates one event against the schema for its type. Unknown types come back
 * as `null` (a client ignores them); a known type with a wrong shape throws, because a client
 * must never go on applying events to state that may be wrong.
 */
import { z } from 'zod';
import { userSchema } from './users';

const id = z.number().int();
const settingValue = z.union([z.boolean(), z.number(), z.string()]);

export const heartbeatEventSchema = z.object({ id, type: z.literal('heartbeat') });

export const restartEventSchema = z.looseObject({
  id,
  type: z.literal('restart'),
  service_version: z.string(),
  service_feature_level: z.number().int(),
  service_merge_base: z.string().optional(),
  server_generation: z.number().optional(),
  immediate: z.boolean().optional(),
});

/** One variant of an event type with `op`s: `{id, type, op}`, then the variant's own fields. */
function variant<const T extends string, const O extends string, S extends z.ZodRawShape>(
  type: T,
  op: O,
  fields: S,
) {
  return z.object({ id, type: z.literal(type), op: z.literal(op), ...fields });
}

/** A setting of a settings table changed: `{op: 'update', property, value}`. */
const settingUpdateEvent = <const T extends string>(type: T) =>
  variant(type, 'update', { property: z.string(), value: settingValue });

export const userSettingsEventSchema = settingUpdateEvent('user_settings').extend({
  language_name: z.string().optional(),
});

/** What the two legacy per-group setting events (before user_settings_object) share. */
const legacySettingEvent = z.looseObject({ id, user: z.string().optional(), setting: settingValue });

export const updateDisplaySettingsEventSchema = legacySettingEvent.extend({
  type: z.literal('update_display_settings'),
  setting_name: z.string(),
  language_name: z.string().optional(),
});

export const updateGlobalNotificationsEventSchema = legacySettingEvent.extend({
  type: z.literal('update_global_notifications'),
  notification_name: z.string(),
});

/** `person` of a realm_user update: user_id plus exactly one group of fields (NOTES.md). */
export const personUpdateSchema = z.looseObject({
  user_id: z.number().int(),
  full_name: z.string().optional(),
  email: z.string().optional(),
  timezone: z.string().optional(),
  bot_owner_id: z.number().int().nullable().optional(),
  role: z.number().int().optional(),
  delivery_email: z.string().nullable().optional(),
  avatar_source: z.string().optional(),
  avatar_url: z.string().nullable().optional(),
  avatar_url_medium: z.string().nullable().optional(),
  avatar_version: z.number().int().optional(),
  is_billing_admin: z.boolean().optional(),
  new_email: z.string().optional(),
  is_active: z.boolean().optional(),
  custom_profile_field: z
    .object({ id: z.number().int(), value: z.string().nullable(), rendered_value: z.string().optional() })
    .optional(),
});
export type PersonUpdate = z.infer<typeof personUpdateSchema>;

export const realmUserEventSchema = z.discriminatedUnion('op', [
  variant('realm_user', 'add', { person: userSchema }),
  variant('realm_user', 'remove', {
    person: z.object({ user_id: z.number().int(), full_name: z.string() }),
  }),
  variant('realm_user', 'update', { person: personUpdateSchema }),
]);

/** A stream as seen through the user's subscription (spec: "Stream"). */
export const subscriptionSchema = z.looseObject({
  stream_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  rendered_description: z.string(),
  date_created: z.number().int(),
  invite_only: z.boolean(),
  is_web_public: z.boolean(),
  subscribers: z.array(z.number().int()).optional(),
  desktop_notifications: z.boolean().nullable(),
  email_notifications: z.boolean().nullable(),
  push_notifications: z.boolean().nullable(),
  audible_notifications: z.boolean().nullable(),
  wildcard_mentions_notify: z.boolean().nullable(),
  pin_to_top: z.boolean(),
  email_address: z.string(),
  is_muted: z.boolean(),
  in_home_view: z.boolean(),
  is_announcement_only: z.boolean(),
  color: z.string(),
  stream_post_policy: z.number().int(),
  message_retention_days: z.number().int().nullable(),
  history_public_to_subscribers: z.boolean(),
  first_message_id: z.number().int().nullable(),
  stream_weekly_traffic: z.number().int().nullable(),
  can_remove_subscribers_group_id: z.number().int(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionEventSchema = z.discriminatedUnion('op', [
  variant('subscription', 'add', { subscriptions: z.array(subscriptionSchema) }),
  variant('subscription', 'remove', {
    subscriptions: z.array(z.looseObject({ stream_id: z.number().int(), name: z.string() })),
  }),
  variant('subscription', 'update', {
    stream_id: z.number().int(),
    property: z.string(),
    value: z.union([z.boolean(), z.string(), z.number(), z.null()]),
  }),
  variant('subscription', 'peer_add', {
    stream_ids: z.array(z.number().int()),
    user_ids: z.array(z.number().int()),
  }),
  variant('subscription', 'peer_remove', {
    stream_ids: z.array(z.number().int()),
    user_ids: z.array(z.number().int()),
  }),
]);

export const streamSchema = z.looseObject({
  stream_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  invite_only: z.boolean(),
});

export const streamEventSchema = z.discriminatedUnion('op', [
  variant('stream', 'create', { streams: z.array(streamSchema) }),
  variant('stream', 'delete', { streams: z.array(streamSchema) }),
  z.looseObject({
    id,
    type: z.literal('stream'),
    op: z.literal('update'),
    stream_id: z.number().int(),
    name: z.string(),
    property: z.string(),
    value: z.union([z.boolean(), z.string(), z.number(), z.null()]),
  }),
]);

export const draftSchema = z.object({
  id: z.number().int(),
  type: z.enum(['', 'stream', 'private']),
  to: z.array(z.number().int()),
  topic: z.string(),
  content: z.string(),
  timestamp: z.number(),
});
export type Draft = z.infer<typeof draftSchema>;

export const draftsEventSchema = z.discriminatedUnion('op', [
  variant('drafts', 'add', { drafts: z.array(draftSchema) }),
  variant('drafts', 'update', { draft: draftSchema }),
  variant('drafts', 'remove', { draft_id: z.number().int() }),
]);

export const userStatusEventSchema = z.object({
  id,
  type: z.literal('user_status'),
  user_id: z.number().int(),
  away: z.boolean().optional(),
  status_text: z.string().optional(),
  emoji_name: z.string().optional(),
  emoji_code: z.string().optional(),
  reaction_type: z.string().optional(),
});

export const customProfileFieldSchema = z.looseObject({
  id: z.number().int(),
  type: z.number().int(),
  order: z.number().int(),
  name: z.string(),
  hint: z.string(),
  field_data: z.string(),
  display_in_profile_summary: z.boolean().optional(),
});
export type CustomProfileField = z.infer<typeof customProfileFieldSchema>;

export const customProfileFieldsEventSchema = z.object({
  id,
  type: z.literal('custom_profile_fields'),
  fields: z.array(customProfileFieldSchema),
});

export const userGroupSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  members: z.array(z.number().int()),
});

export const userGroupEventSchema = z.discriminatedUnion('op', [
  variant('user_group', 'add', { group: userGroupSchema }),
  variant('user_group', 'update', {
    group_id: z.number().int(),
    data: z.looseObject({ name: z.string().optional(), description: z.string().optional() }),
  }),
  variant('user_group', 'remove', { group_id: z.number().int() }),
  variant('user_group', 'add_members', {
    group_id: z.number().int(),
    user_ids: z.array(z.number().int()),
  }),
  variant('user_group', 'remove_members', {
    group_id: z.number().int(),
    user_ids: z.array(z.number().int()),
  }),
]);

export const playgroundSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  pygments_language: z.string().optional(),
  highlighter_language: z.string(),
  url_prefix: z.string(),
});

export const realmPlaygroundsEventSchema = z.object({
  id,
  type: z.literal('realm_playgrounds'),
  realm_playgrounds: z.array(playgroundSchema),
});

export const alertWordsEventSchema = z.object({
  id,
  type: z.literal('alert_words'),
  alert_words: z.array(z.string()),
});

export const userTopicEventSchema = z.object({
  id,
  type: z.literal('user_topic'),
  stream_id: z.number().int(),
  topic_name: z.string(),
  last_updated: z.number().int(),
  visibility_policy: z.number().int(),
});

export const updateMessageFlagsEventSchema = z.looseObject({
  id,
  type: z.literal('update_message_flags'),
  op: z.enum(['add', 'remove']),
  flag: z.string(),
  messages: z.array(z.number().int()),
  all: z.boolean(),
});

/** Loose: `local_message_id` (given to the queue that sent it) tells the sender's echo it arrived. */
export const messageEventSchema = z.looseObject({
  id,
  type: z.literal('message'),
  message: z.looseObject({
    id: z.number().int(),
    type: z.enum(['stream', 'private']),
    stream_id: z.number().int().optional(),
    subject: z.string(),
    sender_id: z.number().int(),
  }),
  flags: z.array(z.string()),
});

export const deleteMessageEventSchema = z.object({
  id,
  type: z.literal('delete_message'),
  message_type: z.enum(['stream', 'private']),
  message_ids: z.array(z.number().int()).optional(),
  message_id: z.number().int().optional(),
  stream_id: z.number().int().optional(),
  topic: z.string().optional(),
});

export const realmUserSettingsDefaultsEventSchema = settingUpdateEvent('realm_user_settings_defaults');

// ---- the organization (realm) ----------------------------------------------------------------

/** A value of an organization setting: a scalar, or (a few settings) a JSON object or list. */
const realmValue = z.union([
  z.boolean(),
  z.number(),
  z.string(),
  z.null(),
  z.array(z.unknown()),
  z.record(z.string(), z.unknown()),
]);

/**
 * realm: `update` changes one setting (`property` is the register field without `realm_`),
 * `update_dict` several at once (`data`; `property` is "default", or "icon" / "logo" for the
 * images' fields), `deactivated` announces the organization's end (the next request fails).
 */
export const realmEventSchema = z.discriminatedUnion('op', [
  z.looseObject({
    id,
    type: z.literal('realm'),
    op: z.literal('update'),
    property: z.string(),
    value: realmValue,
  }),
  z.looseObject({
    id,
    type: z.literal('realm'),
    op: z.literal('update_dict'),
    property: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
  z.looseObject({ id, type: z.literal('realm'), op: z.literal('deactivated') }),
]);

/** One custom emoji as register's realm_emoji and the realm_emoji event carry it (keyed by id). */
export const realmEmojiSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  source_url: z.string(),
  still_url: z.string().nullable().optional(),
  deactivated: z.boolean(),
  author_id: z.number().int().nullable().optional(),
});
export type RealmEmoji = z.infer<typeof realmEmojiSchema>;

/** The whole map after any change. */
export const realmEmojiEventSchema = z.looseObject({
  id,
  type: z.literal('realm_emoji'),
  op: z.literal('update'),
  realm_emoji: z.record(z.string(), realmEmojiSchema),
});

export const linkifierSchema = z.looseObject({
  id: z.number().int(),
  pattern: z.string(),
  url_template: z.string(),
});
export type Linkifier = z.infer<typeof linkifierSchema>;

/** The whole list after any change. */
export const realmLinkifiersEventSchema = z.looseObject({
  id,
  type: z.literal('realm_linkifiers'),
  realm_linkifiers: z.array(linkifierSchema),
});

/** The organization's default streams after any change (stream objects). */
export const defaultStreamsEventSchema = z.looseObject({
  id,
  type: z.literal('default_streams'),
  default_streams: z.array(streamSchema),
});

// ---- people --------------------------------------------------------------------------------

/** The modern presence form (slim_presence): when the user was last active, last connected. */
export const modernPresenceSchema = z.looseObject({
  active_timestamp: z.number().optional(),
  idle_timestamp: z.number().optional(),
});
export type ModernPresence = z.infer<typeof modernPresenceSchema>;

/** One client's entry of the legacy presence form (`website`, `aggregated`). */
export const legacyClientPresenceSchema = z.looseObject({
  status: z.enum(['active', 'idle']),
  timestamp: z.number(),
});

/**
 * A user came online (or reported for the first time): the legacy form, one entry per client
 * (always `website` since the family's feature level 178). The interface family sends it only
 * for such news; the rest of presence is learnt by POST /users/me/presence.
 */
export const presenceEventSchema = z.looseObject({
  id,
  type: z.literal('presence'),
  user_id: z.number().int().optional(),
  email: z.string().optional(),
  server_timestamp: z.number().optional(),
  presence: z.record(z.string(), legacyClientPresenceSchema).optional(),
  /** The family's newer form (simplified_presence_events): modern entries keyed by user id. */
  presences: z.record(z.string(), modernPresenceSchema).optional(),
});

export const mutedUserSchema = z.looseObject({ id: z.number().int(), timestamp: z.number() });
export type MutedUser = z.infer<typeof mutedUserSchema>;

/** The user's whole muted-users list after any change. */
export const mutedUsersEventSchema = z.looseObject({
  id,
  type: z.literal('muted_users'),
  muted_users: z.array(mutedUserSchema),
});

// ---- kept by request/response queries, not by slices ----------------------------------------
// Known so that they reach the renderer, which refreshes the queries that show them
// (renderer/src/queries/api.ts); loose, so that a field this client does not read never fails.

/** A message was edited or moved (content, topic, stream). */
export const updateMessageEventSchema = z.looseObject({
  id,
  type: z.literal('update_message'),
  message_id: z.number().int().optional(),
  message_ids: z.array(z.number().int()).optional(),
  stream_id: z.number().int().optional(),
  new_stream_id: z.number().int().optional(),
  orig_subject: z.string().optional(),
  subject: z.string().optional(),
  propagate_mode: z.string().optional(),
  rendering_only: z.boolean().optional(),
});

/** Someone added or removed an emoji reaction on a message. */
export const reactionEventSchema = z.looseObject({
  id,
  type: z.literal('reaction'),
  op: z.enum(['add', 'remove']),
  user_id: z.number().int(),
  message_id: z.number().int(),
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.string(),
});

const typingPerson = z.looseObject({ user_id: z.number().int(), email: z.string() });

/** Someone started or stopped typing in a topic or a private conversation. */
export const typingEventSchema = z.looseObject({
  id,
  type: z.literal('typing'),
  op: z.enum(['start', 'stop']),
  message_type: z.enum(['stream', 'private', 'direct']),
  sender: typingPerson,
  recipients: z.array(typingPerson).optional(),
  stream_id: z.number().int().optional(),
  topic: z.string().optional(),
});

/** An uploaded file of the user's was added, changed or removed. */
export const attachmentEventSchema = z.looseObject({
  id,
  type: z.literal('attachment'),
  op: z.string(),
});

export const scheduledMessagesEventSchema = z.looseObject({
  id,
  type: z.literal('scheduled_messages'),
  op: z.string(),
});

/** A bot the user administers was added, changed or deactivated. */
export const realmBotEventSchema = z.looseObject({
  id,
  type: z.literal('realm_bot'),
  op: z.string(),
});

/** Schemas by event type; a type that is not here is unknown to this client. */
export const EVENT_SCHEMAS = {
  heartbeat: heartbeatEventSchema,
  restart: restartEventSchema,
  user_settings: userSettingsEventSchema,
  update_display_settings: updateDisplaySettingsEventSchema,
  update_global_notifications: updateGlobalNotificationsEventSchema,
  realm_user: realmUserEventSchema,
  subscription: subscriptionEventSchema,
  stream: streamEventSchema,
  drafts: draftsEventSchema,
  user_status: userStatusEventSchema,
  custom_profile_fields: customProfileFieldsEventSchema,
  user_group: userGroupEventSchema,
  realm_playgrounds: realmPlaygroundsEventSchema,
  alert_words: alertWordsEventSchema,
  user_topic: userTopicEventSchema,
  update_message_flags: updateMessageFlagsEventSchema,
  message: messageEventSchema,
  delete_message: deleteMessageEventSchema,
  realm_user_settings_defaults: realmUserSettingsDefaultsEventSchema,
  realm: realmEventSchema,
  realm_emoji: realmEmojiEventSchema,
  realm_linkifiers: realmLinkifiersEventSchema,
  default_streams: defaultStreamsEventSchema,
  presence: presenceEventSchema,
  muted_users: mutedUsersEventSchema,
  update_message: updateMessageEventSchema,
  attachment: attachmentEventSchema,
  reaction: reactionEventSchema,
  typing: typingEventSchema,
  scheduled_messages: scheduledMessagesEventSchema,
  realm_bot: realmBotEventSchema,
} as const;

export type EventType = keyof typeof EVENT_SCHEMAS;
export type ServerEvent = { [K in EventType]: z.infer<(typeof EVENT_SCHEMAS)[K]> }[EventType];
export type EventOf<T extends EventType> = Extract<ServerEvent, { type: T }>;

/** The shape every event has, known or not. */
export const rawEventSchema = z.looseObject({ id: z.number().int(), type: z.string() });
export type RawEvent = z.infer<typeof rawEventSchema>;

export function isKnownEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_SCHEMAS, type);
}

/** Validates a known event; returns null for an unknown type; throws on a malformed one. */
export function parseEvent(raw: unknown): ServerEvent | null {
  const base = rawEventSchema.parse(raw);
  if (!isKnownEventType(base.type)) return null;
  return EVENT_SCHEMAS[base.type].parse(raw) as ServerEvent;
}

export const getEventsResponseSchema = z.looseObject({
  result: z.literal('success'),
  msg: z.string(),
  events: z.array(rawEventSchema),
  queue_id: z.string().optional(),
});
export type GetEventsResponse = z.infer<typeof getEventsResponseSchema>;
