/**
 * The display settings the settings screen shows, grouped as people look for them. Which
 * values a setting accepts comes from the shared settings table; this file only adds words.
 */
import { EMOJISET_CHOICES, type SettingValue, type SharedSettingName } from '../../../../shared/protocol';

export interface Choice {
  value: SettingValue;
  label: string;
}

export type SettingControl =
  | { kind: 'checkbox'; name: SharedSettingName; label: string; hint?: string }
  | {
      kind: 'select';
      name: SharedSettingName;
      label: string;
      hint?: string;
      choices: (settings: Settings) => Choice[];
    };

export interface SettingGroup {
  title: string;
  controls: SettingControl[];
}

type Settings = Readonly<Record<string, unknown>>;

const fixed =
  (choices: Choice[]) =>
  (_settings: Settings): Choice[] =>
    choices;

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

export const DISPLAY_SETTINGS: SettingGroup[] = [
  {
    title: 'Theme',
    controls: [
      {
        kind: 'select',
        name: 'color_scheme',
        label: 'Color scheme',
        choices: fixed([
          { value: 1, label: 'Automatic' },
          { value: 2, label: 'Dark' },
          { value: 3, label: 'Light' },
        ]),
      },
      { kind: 'checkbox', name: 'high_contrast_mode', label: 'High contrast mode' },
      { kind: 'checkbox', name: 'dense_mode', label: 'Dense mode', hint: 'Smaller text and tighter spacing' },
      {
        kind: 'checkbox',
        name: 'fluid_layout_width',
        label: 'Use full width on wide screens',
      },
    ],
  },
  {
    title: 'Time',
    controls: [{ kind: 'checkbox', name: 'twenty_four_hour_time', label: '24-hour time' }],
  },
  {
    title: 'Emoji',
    controls: [
      { kind: 'select', name: 'emojiset', label: 'Emoji theme', choices: emojisetChoices },
      {
        kind: 'checkbox',
        name: 'translate_emoticons',
        label: 'Convert emoticons before sending',
        hint: ':) becomes 😃',
      },
      {
        kind: 'checkbox',
        name: 'display_emoji_reaction_users',
        label: 'Show who reacted when few people have',
      },
    ],
  },
  {
    title: 'Navigation',
    controls: [
      {
        kind: 'select',
        name: 'default_view',
        label: 'Default view',
        choices: fixed([
          { value: 'recent_topics', label: 'Recent topics' },
          { value: 'all_messages', label: 'All messages' },
        ]),
      },
      {
        kind: 'checkbox',
        name: 'escape_navigates_to_default_view',
        label: 'Escape key goes to the default view',
      },
    ],
  },
  {
    title: 'Sidebars',
    controls: [
      {
        kind: 'select',
        name: 'demote_inactive_streams',
        label: 'Demote inactive streams',
        choices: fixed([
          { value: 1, label: 'Automatic' },
          { value: 2, label: 'Always' },
          { value: 3, label: 'Never' },
        ]),
      },
      {
        kind: 'select',
        name: 'user_list_style',
        label: 'User list style',
        choices: fixed([
          { value: 1, label: 'Compact' },
          { value: 2, label: 'With status' },
          { value: 3, label: 'With avatar and status' },
        ]),
      },
      {
        kind: 'checkbox',
        name: 'left_side_userlist',
        label: 'Show the user list in the left sidebar in narrow windows',
      },
      { kind: 'checkbox', name: 'starred_message_counts', label: 'Show counts for starred messages' },
    ],
  },
  {
    title: 'Composing',
    controls: [{ kind: 'checkbox', name: 'enter_sends', label: 'Enter sends the message' }],
  },
];

/** The label of a setting, for messages about it. */
export function settingLabel(name: string): string {
  for (const group of DISPLAY_SETTINGS) {
    for (const control of group.controls) if (control.name === name) return control.label;
  }
  return name;
}

/** 14:05 as the user's time format shows it. */
export function formatExampleTime(twentyFourHour: boolean): string {
  return twentyFourHour ? '14:05' : '2:05 PM';
}
