/** POST /register: parameters and the response (the initial snapshot). */
import { z } from 'zod';
import { draftSchema, subscriptionSchema } from './events';
import { userSchema } from './users';

export const CLIENT_CAPABILITIES = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
] as const;
export type ClientCapability = (typeof CLIENT_CAPABILITIES)[number];
export type ClientCapabilities = Partial<Record<ClientCapability, boolean>>;

export interface RegisterParams {
  apply_markdown?: boolean;
  client_extavatar?: boolean;
  include_subscribers?: boolean;
  slim_presence?: boolean;
  event_types?: string[];
  all_public_streams?: boolean;
  client_capabilities?: ClientCapabilities;
  fetch_event_types?: string[];
  narrow?: [string, string][];
}

/**
 * The register response. Only the always-present fields are required; the rest depend on
 * fetch_event_types, and unknown fields pass through (the service may be newer than us).
 */
export const registerResponseSchema = z.looseObject({
  result: z.literal('success'),
  msg: z.string(),
  queue_id: z.string().nullable(),
  last_event_id: z.number().int(),
  service_feature_level: z.number().int(),
  service_version: z.string(),
  service_merge_base: z.string(),
  event_queue_longpoll_timeout_seconds: z.number().int().positive().optional(),
  user_id: z.number().int().optional(),
  user_settings: z.record(z.string(), z.unknown()).optional(),
  realm_users: z.array(userSchema).optional(),
  subscriptions: z.array(subscriptionSchema).optional(),
  drafts: z.array(draftSchema).optional(),
  user_status: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** The snapshot part of a register response: what an account's state is built from. */
export const registerStateSchema = registerResponseSchema.omit({ queue_id: true, result: true, msg: true });
export type RegisterState = z.infer<typeof registerStateSchema>;

/** The interface family's long-poll hold, used when a server does not say (NOTES.md). */
export const DEFAULT_LONGPOLL_TIMEOUT_SECONDS = 90;
