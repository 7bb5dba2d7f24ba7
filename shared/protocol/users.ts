/** Users and roles (spec: "User"). */
import { z } from 'zod';

export const ROLES = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;
export type Role = (typeof ROLES)[keyof typeof ROLES];
export const roleSchema = z.union([
  z.literal(ROLES.owner),
  z.literal(ROLES.administrator),
  z.literal(ROLES.moderator),
  z.literal(ROLES.member),
  z.literal(ROLES.guest),
]);

export const profileDataValueSchema = z.object({
  value: z.string(),
  rendered_value: z.string().optional(),
});

export const userSchema = z.looseObject({
  user_id: z.number().int(),
  email: z.string(),
  delivery_email: z.string().nullable().optional(),
  full_name: z.string(),
  is_admin: z.boolean(),
  is_owner: z.boolean(),
  is_billing_admin: z.boolean(),
  is_guest: z.boolean(),
  is_bot: z.boolean(),
  is_active: z.boolean(),
  role: roleSchema,
  timezone: z.string(),
  date_joined: z.string(),
  avatar_url: z.string().nullable().optional(),
  avatar_version: z.number().int().optional(),
  max_message_id: z.number().int().optional(),
  bot_type: z.number().int().nullable().optional(),
  bot_owner_id: z.number().int().optional(),
  profile_data: z.record(z.string(), profileDataValueSchema).optional(),
});
export type User = z.infer<typeof userSchema>;

export const fetchApiKeyResponseSchema = z.looseObject({
  result: z.literal('success'),
  msg: z.string(),
  api_key: z.string(),
  email: z.string(),
});
export type FetchApiKeyResponse = z.infer<typeof fetchApiKeyResponseSchema>;

export const ownUserResponseSchema = userSchema.extend({
  result: z.literal('success'),
  msg: z.string(),
});
