/**
 * The personal settings the settings screen shows, grouped as people look for them
 * (Preferences, Notifications, Privacy). Which values a setting accepts comes from the shared
 * settings table (shared/protocol/settings.ts); this file only adds words and picks controls.
 * The same groups, limited to the shared table, are the organization's defaults for new users.
 */
import {
  EMOJISET_CHOICES,
  PERSONAL_SETTINGS,
  type SettingName,
  type SettingValue,
  SHARED_SETTINGS,
  type SharedSettingName,
} from '../../../../shared/protocol';

export interface Choice {
  value: SettingValue;
  label: string;
}

type Settings = Readonly<Record<string, unknown>>;

export type SettingControl =
  | { kind: 'switch'; name: SettingName; label: string; hint?: string }
  | {
      kind: 'select';
      name: SettingName;
      label: string;
      hint?: string;
      choices: (settings: Settings) => Choice[];
    }
  | { kind: 'timezone'; name: 'timezone'; label: string; hint?: string }
  | { kind: 'language'; name: 'default_language'; label: string; hint?: string }
  | { kind: 'sound'; name: 'notification_sound'; label: string; hint?: string };

export interface SettingGroup {
  title: string;
  description?: string;
  controls: SettingControl[];
}

const sw = (name: SettingName, label: string, hint?: string): SettingControl => ({
  kind: 'switch',
  name,
  label,
  ...(hint ? { hint } : {}),
});

/**
 * A select over the values the shared settings table gives `name`, in its order, with one
 * label each: the values come from the table, only the words from here.
 */
function enumSelect(
  name: SharedSettingName,
  label: string,
  labels: readonly string[],
  hint?: string,
): SettingControl {
  const type = SHARED_SETTINGS[name].type;
  const values: readonly SettingValue[] =
    type.kind === 'int-enum' || type.kind === 'str-enum' ? type.values : [];
  const choices = values.map((value, i) => ({ value, label: labels[i] ?? String(value) }));
  return { kind: 'select', name, label, ...(hint ? { hint } : {}), choices: () => choices };
}

/** The emoji sets this server offers (user_settings.emojiset_choices), else the known ones. */
function emojisetChoices(settings: Settings): Choice[] {
  const offered = settings.emojiset_choices;
  const list = Array.isArray(offered) ? offered : EMOJISET_CHOICES;
  return list
    .filter(
      (c): c is { key: string; text: string } =>
        typeof c === 'object' && c !== null && typeof c.key === 'string' && typeof c.text === 'string',
    )
    .map((c) => ({ value: c.key, label: c.text }));
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How often missed-message emails are batched: the family's choices (2 minutes to 1 week). */
export const EMAIL_BATCHING_CHOICES: Choice[] = [
  { value: 2 * MINUTE, label: '2 minutes' },
  { value: 5 * MINUTE, label: '5 minutes' },
  { value: 10 * MINUTE, label: '10 minutes' },
  { value: 30 * MINUTE, label: '30 minutes' },
  { value: HOUR, label: '1 hour' },
  { value: 6 * HOUR, label: '6 hours' },
  { value: DAY, label: '1 day' },
  { value: 7 * DAY, label: '1 week' },
];

/** A duration in words for a value outside the usual choices ("45 minutes", "3 hours"). */
export function durationLabel(seconds: number): string {
  const known = EMAIL_BATCHING_CHOICES.find((c) => c.value === seconds);
  if (known) return known.label;
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds % DAY === 0) return plural(seconds / DAY, 'day');
  if (seconds % HOUR === 0) return plural(seconds / HOUR, 'hour');
  if (seconds % MINUTE === 0) return plural(seconds / MINUTE, 'minute');
  return plural(seconds, 'second');
}

/** The languages the service offers for default_language, named in their own language. */
export const LANGUAGES: { code: string; name: string; english: string }[] = [
  { code: 'en', name: 'English', english: 'English' },
  { code: 'de', name: 'Deutsch', english: 'German' },
  { code: 'fr', name: 'Français', english: 'French' },
  { code: 'es', name: 'Español', english: 'Spanish' },
  { code: 'it', name: 'Italiano', english: 'Italian' },
  { code: 'pt', name: 'Português', english: 'Portuguese' },
  { code: 'nl', name: 'Nederlands', english: 'Dutch' },
  { code: 'pl', name: 'Polski', english: 'Polish' },
  { code: 'sv', name: 'Svenska', english: 'Swedish' },
  { code: 'ru', name: 'Русский', english: 'Russian' },
  { code: 'uk', name: 'Українська', english: 'Ukrainian' },
  { code: 'ja', name: '日本語', english: 'Japanese' },
  { code: 'ko', name: '한국어', english: 'Korean' },
  { code: 'zh-hans', name: '简体中文', english: 'Simplified Chinese' },
  { code: 'hi', name: 'हिन्दी', english: 'Hindi' },
];

export function languageLabel(code: string): string {
  const language = LANGUAGES.find((l) => l.code === code);
  if (!language) return code;
  return language.name === language.english ? language.name : `${language.name} (${language.english})`;
}

export const PREFERENCES: SettingGroup[] = [
  {
    title: 'Theme',
    controls: [
      enumSelect(
        'color_scheme',
        'Color scheme',
        ['Automatic', 'Dark', 'Light'],
        'Automatic follows your system.',
      ),
      sw('high_contrast_mode', 'High contrast mode'),
      sw('dense_mode', 'Dense mode', 'Smaller text and tighter spacing'),
      sw('fluid_layout_width', 'Use full width on wide screens'),
    ],
  },
  {
    title: 'Time and language',
    controls: [
      sw('twenty_four_hour_time', '24-hour time'),
      {
        kind: 'timezone',
        name: 'timezone',
        label: 'Time zone',
        hint: 'Others see your local time on your profile.',
      },
      { kind: 'language', name: 'default_language', label: 'Language' },
    ],
  },
  {
    title: 'Emoji',
    controls: [
      {
        kind: 'select',
        name: 'emojiset',
        label: 'Emoji theme',
        // The image sets' licences ask for credit where people choose them.
        hint: 'Set A draws Google’s Noto Emoji (Apache 2.0); Set B draws Twemoji by Twitter (CC BY 4.0).',
        choices: emojisetChoices,
      },
      sw('translate_emoticons', 'Convert emoticons before sending', ':) becomes 😃'),
      sw('display_emoji_reaction_users', 'Show who reacted when few people have'),
    ],
  },
  {
    title: 'Navigation',
    controls: [
      enumSelect('default_view', 'Default view', ['Recent conversations', 'All messages']),
      sw('escape_navigates_to_default_view', 'Escape key goes to the default view'),
    ],
  },
  {
    title: 'Sidebars',
    controls: [
      enumSelect('demote_inactive_streams', 'Demote inactive streams', ['Automatic', 'Always', 'Never']),
      enumSelect('user_list_style', 'User list style', ['Compact', 'With status', 'With avatar and status']),
      sw('left_side_userlist', 'Show the user list in the left sidebar'),
      sw('starred_message_counts', 'Show counts for starred messages'),
      enumSelect('web_mark_read_on_scroll_policy', 'Mark messages as read on scroll', [
        'Always',
        'Only in conversation views',
        'Never',
      ]),
    ],
  },
  {
    title: 'Composing',
    controls: [
      sw('enter_sends', 'Enter sends the message', 'Otherwise Ctrl+Enter sends and Enter starts a new line.'),
      sw(
        'enable_drafts_synchronization',
        'Synchronize drafts',
        'Keep a copy of your drafts on the server, so they follow you to other devices.',
      ),
    ],
  },
];

/** The notification triggers table: one row per kind of message, one column per channel. */
export type TriggerColumn = 'desktop' | 'audible' | 'mobile' | 'email';

export const TRIGGER_COLUMNS: { id: TriggerColumn; label: string; explanation: string }[] = [
  { id: 'desktop', label: 'Desktop', explanation: 'A system popup' },
  { id: 'audible', label: 'Audible', explanation: 'Play the sound' },
  {
    id: 'mobile',
    label: 'Mobile',
    explanation: 'On your phone, when away',
  },
  { id: 'email', label: 'Email', explanation: 'When away and unread' },
];

export interface TriggerRow {
  id: string;
  label: string;
  description: string;
  /** Per column the setting it toggles; null: not offered for this kind. */
  cells: Record<TriggerColumn, SharedSettingName | null>;
}

export const TRIGGER_ROWS: TriggerRow[] = [
  {
    id: 'stream',
    label: 'Stream messages',
    description: 'New messages in your streams (each stream can differ, below).',
    cells: {
      desktop: 'enable_stream_desktop_notifications',
      audible: 'enable_stream_audible_notifications',
      mobile: 'enable_stream_push_notifications',
      email: 'enable_stream_email_notifications',
    },
  },
  {
    id: 'private',
    label: 'Private messages and mentions',
    description: 'Messages to you, and messages that mention you.',
    cells: {
      desktop: 'enable_desktop_notifications',
      audible: 'enable_sounds',
      mobile: 'enable_offline_push_notifications',
      email: 'enable_offline_email_notifications',
    },
  },
];

/** The @-all row: whether wildcard mentions count as mentions of you (one setting for every column). */
export const WILDCARD_SETTING: SharedSettingName = 'wildcard_mentions_notify';

export const NOTIFICATIONS: SettingGroup[] = [
  {
    title: 'Desktop',
    controls: [
      { kind: 'sound', name: 'notification_sound', label: 'Notification sound' },
      sw('pm_content_in_desktop_notifications', 'Show the content of private messages in notifications'),
      sw('realm_name_in_notifications', 'Include the organization name in notifications'),
      enumSelect('desktop_icon_count_display', 'Unread count on the app icon', [
        'All unread messages',
        'Private messages and mentions',
        'None',
      ]),
    ],
  },
  {
    title: 'Mobile',
    controls: [sw('enable_online_push_notifications', 'Send mobile notifications even when I am online')],
  },
  {
    title: 'Email',
    controls: [
      {
        kind: 'select',
        name: 'email_notifications_batching_period_seconds',
        label: 'Wait before emailing about missed messages',
        hint: 'Messages that arrive meanwhile are sent in one email.',
        choices: () => EMAIL_BATCHING_CHOICES,
      },
      sw('message_content_in_email_notifications', 'Include the message content in emails'),
      sw('enable_digest_emails', 'Send digest emails when I am away'),
      sw('enable_login_emails', 'Email me when someone signs in to my account'),
      sw('enable_marketing_emails', 'Send me news about Confab'),
    ],
  },
];

export const PRIVACY: SettingGroup[] = [
  {
    title: 'Presence',
    controls: [
      sw('presence_enabled', 'Show my availability to others', 'When off, you appear offline to everyone.'),
    ],
  },
  {
    title: 'Typing and reading',
    controls: [
      sw('send_private_typing_notifications', 'Let people see when I am typing a private message'),
      sw('send_stream_typing_notifications', 'Let people see when I am typing in a stream'),
      sw('send_read_receipts', 'Let people see when I have read their messages'),
    ],
  },
];

/** Every setting the personal screens show, with the place each is shown. */
export function personalSettingNames(): SettingName[] {
  const names: SettingName[] = [];
  for (const group of [...PREFERENCES, ...NOTIFICATIONS, ...PRIVACY]) {
    for (const control of group.controls) names.push(control.name);
  }
  for (const row of TRIGGER_ROWS) {
    for (const name of Object.values(row.cells)) if (name) names.push(name);
  }
  names.push(WILDCARD_SETTING);
  return names;
}

const isShared = (name: string): name is SharedSettingName => Object.hasOwn(SHARED_SETTINGS, name);
const isPersonalOnly = (name: string): boolean => Object.hasOwn(PERSONAL_SETTINGS, name);

/**
 * The organization's defaults for new users: the personal groups limited to the shared table
 * (no time zone, language or account emails), plus the triggers as switches.
 */
export function defaultSettingGroups(): SettingGroup[] {
  const triggers: SettingControl[] = [];
  for (const row of TRIGGER_ROWS) {
    for (const column of TRIGGER_COLUMNS) {
      const name = row.cells[column.id];
      if (name) triggers.push(sw(name, `${row.label}: ${column.label.toLowerCase()}`));
    }
  }
  triggers.push(sw(WILDCARD_SETTING, 'Treat @-all mentions as mentions'));
  const groups = [
    ...PREFERENCES,
    { title: 'Notification triggers', controls: triggers },
    ...NOTIFICATIONS,
    ...PRIVACY,
  ];
  return groups
    .map((g) => ({
      ...g,
      controls: g.controls.filter((c) => isShared(c.name) && !isPersonalOnly(c.name)),
    }))
    .filter((g) => g.controls.length > 0);
}

/** A notifications group's heading on the notifications screen (its "Desktop" group is about sound and content). */
export const notificationGroupTitle = (group: SettingGroup): string =>
  group.title === 'Desktop' ? 'Sound and content' : group.title;

/** Where a personal setting is shown: its section of the settings screen and its group there. */
export interface SettingPlace {
  name: SettingName;
  label: string;
  section: 'preferences' | 'notifications' | 'privacy';
  group: string;
}

/**
 * Every personal setting with its place, in screen order (for the command palette): the
 * groups of Preferences, the notification triggers, the rest of Notifications, and Privacy.
 */
export function settingPlaces(): SettingPlace[] {
  const places: SettingPlace[] = [];
  const add = (
    section: SettingPlace['section'],
    groups: SettingGroup[],
    title = (g: SettingGroup) => g.title,
  ) => {
    for (const group of groups) {
      for (const control of group.controls) {
        places.push({ name: control.name, label: control.label, section, group: title(group) });
      }
    }
  };
  add('preferences', PREFERENCES);
  for (const row of TRIGGER_ROWS) {
    for (const column of TRIGGER_COLUMNS) {
      const name = row.cells[column.id];
      if (name)
        places.push({
          name,
          label: settingLabel(name),
          section: 'notifications',
          group: 'Notification triggers',
        });
    }
  }
  places.push({
    name: WILDCARD_SETTING,
    label: 'Treat @-all mentions as mentions of me',
    section: 'notifications',
    group: 'Notification triggers',
  });
  add('notifications', NOTIFICATIONS, notificationGroupTitle);
  add('privacy', PRIVACY);
  return places;
}

/** The label of a setting, for messages about it. */
export function settingLabel(name: string): string {
  for (const group of [...PREFERENCES, ...NOTIFICATIONS, ...PRIVACY]) {
    for (const control of group.controls) if (control.name === name) return control.label;
  }
  for (const row of TRIGGER_ROWS) {
    for (const column of TRIGGER_COLUMNS) {
      if (row.cells[column.id] === name) return `${row.label}: ${column.label.toLowerCase()} notifications`;
    }
  }
  if (name === WILDCARD_SETTING) return 'Notify me about @-all mentions';
  if (name === 'full_name') return 'Name';
  return name;
}

/** 14:05 as the user's time format shows it. */
export function formatExampleTime(twentyFourHour: boolean): string {
  return twentyFourHour ? '14:05' : '2:05 PM';
}

/** The choices of a select, plus the current value when it is one this app does not know. */
export function choicesWith(choices: readonly Choice[], value: unknown, label = durationLabel): Choice[] {
  const all = [...choices];
  if ((typeof value === 'string' || typeof value === 'number') && !all.some((c) => c.value === value)) {
    all.push({ value, label: typeof value === 'number' ? label(value) : value });
  }
  return all;
}
