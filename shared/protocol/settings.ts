/**
 * User settings: the spec's PATCH /settings tables, as data.
 *
 * One table drives the server's parameter parsing, the defaults of new users, the legacy
 * event forms (update_display_settings / update_global_notifications) and the renderer's
 * controls, so a setting is declared exactly once.
 */
import { z } from 'zod';

/** How a setting travels on the wire and what values it accepts. */
export type SettingKind =
  | { readonly kind: 'bool' }
  | { readonly kind: 'int-enum'; readonly values: readonly number[] }
  | { readonly kind: 'str-enum'; readonly values: readonly string[] }
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'string'; readonly maxLength: number };

/** Which deprecated event carried this setting before user_settings existed (feature level 89). */
export type LegacyGroup = 'display' | 'notification' | null;

export interface SettingSpec {
  readonly type: SettingKind;
  readonly legacy: LegacyGroup;
}

const bool = <L extends LegacyGroup>(legacy: L) => ({ type: { kind: 'bool' } as const, legacy });
const intEnum = <const V extends readonly number[], L extends LegacyGroup>(values: V, legacy: L) => ({
  type: { kind: 'int-enum', values } as const,
  legacy,
});
const strEnum = <const V extends readonly string[], L extends LegacyGroup>(values: V, legacy: L) => ({
  type: { kind: 'str-enum', values } as const,
  legacy,
});

export const COLOR_SCHEMES = { automatic: 1, dark: 2, light: 3 } as const;
export const EMOJISETS = ['setA', 'setA-blob', 'setB', 'text'] as const;
export const DEFAULT_VIEWS = ['recent_topics', 'all_messages'] as const;
export const NOTIFICATION_SOUNDS = ['chime', 'ding', 'knock', 'none'] as const;

/**
 * The table shared by PATCH /settings and PATCH /realm/user_settings_defaults,
 * in the spec's order.
 */
export const SHARED_SETTINGS = {
  twenty_four_hour_time: bool('display'),
  dense_mode: bool('display'),
  starred_message_counts: bool('display'),
  fluid_layout_width: bool('display'),
  high_contrast_mode: bool('display'),
  color_scheme: intEnum([1, 2, 3], 'display'),
  enable_drafts_synchronization: bool(null),
  translate_emoticons: bool('display'),
  display_emoji_reaction_users: bool(null),
  default_view: strEnum(DEFAULT_VIEWS, 'display'),
  escape_navigates_to_default_view: bool(null),
  left_side_userlist: bool('display'),
  emojiset: strEnum(EMOJISETS, 'display'),
  demote_inactive_streams: intEnum([1, 2, 3], 'display'),
  user_list_style: intEnum([1, 2, 3], null),
  /** 1 always, 2 only in conversation views (a topic, a private conversation), 3 never. */
  web_mark_read_on_scroll_policy: intEnum([1, 2, 3], null),
  enable_stream_desktop_notifications: bool('notification'),
  enable_stream_email_notifications: bool('notification'),
  enable_stream_push_notifications: bool('notification'),
  enable_stream_audible_notifications: bool('notification'),
  notification_sound: { type: { kind: 'string', maxLength: 60 } as const, legacy: 'notification' },
  enable_desktop_notifications: bool('notification'),
  enable_sounds: bool('notification'),
  email_notifications_batching_period_seconds: {
    // The interface family accepts 2 minutes to 1 week.
    type: { kind: 'int', min: 120, max: 7 * 24 * 60 * 60 } as const,
    legacy: 'notification',
  },
  enable_offline_email_notifications: bool('notification'),
  enable_offline_push_notifications: bool('notification'),
  enable_online_push_notifications: bool('notification'),
  enable_digest_emails: bool('notification'),
  message_content_in_email_notifications: bool('notification'),
  pm_content_in_desktop_notifications: bool('notification'),
  wildcard_mentions_notify: bool('notification'),
  desktop_icon_count_display: intEnum([1, 2, 3], 'notification'),
  realm_name_in_notifications: bool('notification'),
  presence_enabled: bool('notification'),
  enter_sends: bool('display'),
  send_private_typing_notifications: bool(null),
  send_stream_typing_notifications: bool(null),
  send_read_receipts: bool(null),
} as const satisfies Record<string, SettingSpec>;

export type SharedSettingName = keyof typeof SHARED_SETTINGS;
export const SHARED_SETTING_NAMES = Object.keys(SHARED_SETTINGS) as SharedSettingName[];

/** Value types of the shared settings, derived from the table. */
type ValueOf<S extends SettingSpec> = S['type'] extends { kind: 'bool' }
  ? boolean
  : S['type'] extends { kind: 'int-enum' } | { kind: 'int' }
    ? number
    : S['type'] extends { kind: 'str-enum'; values: readonly (infer V)[] }
      ? V
      : string;

export type SharedSettings = {
  -readonly [K in SharedSettingName]: ValueOf<(typeof SHARED_SETTINGS)[K]>;
};

/** The defaults of the interface family; an organization can override them for new users. */
export const DEFAULT_SHARED_SETTINGS: SharedSettings = {
  twenty_four_hour_time: false,
  dense_mode: true,
  starred_message_counts: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  color_scheme: COLOR_SCHEMES.automatic,
  enable_drafts_synchronization: true,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_view: 'recent_topics',
  escape_navigates_to_default_view: true,
  left_side_userlist: false,
  emojiset: 'setA',
  demote_inactive_streams: 1,
  user_list_style: 2,
  web_mark_read_on_scroll_policy: 1,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'chime',
  enable_desktop_notifications: true,
  enable_sounds: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_notifications: false,
  presence_enabled: true,
  enter_sends: false,
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
};

/** Settings only PATCH /settings has (besides full_name, email and the password pair). */
export const PERSONAL_SETTINGS = {
  default_language: { type: { kind: 'string', maxLength: 50 } as const, legacy: 'display' },
  timezone: { type: { kind: 'string', maxLength: 40 } as const, legacy: 'display' },
  enable_marketing_emails: bool('notification'),
  enable_login_emails: bool('notification'),
} as const satisfies Record<string, SettingSpec>;

export type PersonalSettingName = keyof typeof PERSONAL_SETTINGS;

export interface PersonalSettings {
  default_language: string;
  timezone: string;
  enable_marketing_emails: boolean;
  enable_login_emails: boolean;
}

export const DEFAULT_PERSONAL_SETTINGS: PersonalSettings = {
  default_language: 'en',
  timezone: '',
  enable_marketing_emails: true,
  enable_login_emails: true,
};

export type SettingName = SharedSettingName | PersonalSettingName;
export const ALL_SETTINGS: Record<SettingName, SettingSpec> = {
  ...SHARED_SETTINGS,
  ...PERSONAL_SETTINGS,
};

/** Every stored setting of a user. */
export type UserSettingsValues = SharedSettings & PersonalSettings;
export type SettingValue = boolean | number | string;

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(ALL_SETTINGS, name);
}

export function isSharedSettingName(name: string): name is SharedSettingName {
  return Object.hasOwn(SHARED_SETTINGS, name);
}

/** `user_settings` in the register response: the values plus two lists of choices. */
export const userSettingsSnapshotSchema = z
  .object({
    available_notification_sounds: z.array(z.string()),
    emojiset_choices: z.array(z.object({ key: z.string(), text: z.string() })),
  })
  .catchall(z.union([z.boolean(), z.number(), z.string(), z.null(), z.array(z.unknown())]));

export type UserSettingsSnapshot = UserSettingsValues & {
  available_notification_sounds: string[];
  emojiset_choices: { key: string; text: string }[];
};

export const EMOJISET_CHOICES: { key: (typeof EMOJISETS)[number]; text: string }[] = [
  { key: 'setA', text: 'Set A' },
  { key: 'setA-blob', text: 'Set A, blob style' },
  { key: 'setB', text: 'Set B' },
  { key: 'text', text: 'Plain text' },
];

/**
 * Validates one setting value that has already been decoded from the wire (booleans and
 * integers from JSON text, strings bare). Returns an error message in the spec's wording,
 * or null when the value is acceptable.
 */
export function checkSettingValue(name: SettingName, value: unknown): string | null {
  const { type } = ALL_SETTINGS[name];
  switch (type.kind) {
    case 'bool':
      return typeof value === 'boolean' ? null : `${name} is not a boolean`;
    case 'int-enum':
      if (typeof value !== 'number' || !Number.isInteger(value)) return `${name} is not an integer`;
      return type.values.includes(value) ? null : `Invalid ${name}`;
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) return `${name} is not an integer`;
      return value >= type.min && value <= type.max ? null : `Invalid ${name}`;
    case 'str-enum':
      if (typeof value !== 'string') return `${name} is not a string`;
      return type.values.includes(value) ? null : `Invalid ${name}`;
    case 'string':
      if (typeof value !== 'string') return `${name} is not a string`;
      if (value.includes('\0')) return `${name} cannot contain NULL (0x00) characters.`;
      return value.length <= type.maxLength
        ? null
        : `${name} is too long (limit: ${type.maxLength} characters)`;
  }
}

/** A PATCH /settings body as the app sends it: any of the user's settings, each with a value of its type. */
export type SettingChanges = Partial<UserSettingsValues>;

// ---- subscription properties -----------------------------------------------------------------

/** The value a subscription property takes; `bool-or-inherit` also takes null ("my own setting"). */
export type SubscriptionPropertyKind = 'color' | 'bool' | 'bool-or-inherit';

/**
 * POST /users/me/subscriptions/properties: the properties a user may change on a subscription,
 * as data. The notification properties take null too, meaning "follow my own setting"
 * (enable_stream_desktop_notifications and the like).
 */
export const SUBSCRIPTION_PROPERTIES = {
  color: 'color',
  is_muted: 'bool',
  in_home_view: 'bool',
  pin_to_top: 'bool',
  desktop_notifications: 'bool-or-inherit',
  email_notifications: 'bool-or-inherit',
  push_notifications: 'bool-or-inherit',
  audible_notifications: 'bool-or-inherit',
  wildcard_mentions_notify: 'bool-or-inherit',
} as const satisfies Record<string, SubscriptionPropertyKind>;

export type SubscriptionPropertyName = keyof typeof SUBSCRIPTION_PROPERTIES;

type PropertyValueOf<K extends SubscriptionPropertyKind> = K extends 'color'
  ? string
  : K extends 'bool'
    ? boolean
    : boolean | null;

export type SubscriptionPropertyValues = {
  -readonly [P in SubscriptionPropertyName]: PropertyValueOf<(typeof SUBSCRIPTION_PROPERTIES)[P]>;
};

/** One entry of `subscription_data`: a property with a value of that property's type. */
export type SubscriptionPropertyChange = {
  [P in SubscriptionPropertyName]: { stream_id: number; property: P; value: SubscriptionPropertyValues[P] };
}[SubscriptionPropertyName];
