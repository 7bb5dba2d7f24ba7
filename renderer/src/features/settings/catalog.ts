/**
 * The display settings the settings screen shows, grouped as people look for them. Which
 * values a setting accepts comes from the shared settings table; this file only adds words.
 */
import {
  EMOJISET_CHOICES,
  type SettingValue,
  SHARED_SETTINGS,
  type SharedSettingName,
} from '../../../../shared/protocol';

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

/**
 * A select over the values the shared settings table gives `name`, in its order, with one
 * label each: the values come from the table, only the words from here.
 */
function enumSelect(name: SharedSettingName, label: string, labels: readonly string[]): SettingControl {
  const type = SHARED_SETTINGS[name].type;
  const values: readonly SettingValue[] =
    type.kind === 'int-enum' || type.kind === 'str-enum' ? type.values : [];
  const choices = values.map((value, i) => ({ value, label: labels[i] ?? String(value) }));
  return { kind: 'select', name, label, choices: () => choices };
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

export const DISPLAY_SETTINGS: SettingGroup[] = [
  {
    title: 'Theme',
    controls: [
      enumSelect('color_scheme', 'Color scheme', ['Automatic', 'Dark', 'Light']),
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
      enumSelect('default_view', 'Default view', ['Recent topics', 'All messages']),
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
      enumSelect('demote_inactive_streams', 'Demote inactive streams', ['Automatic', 'Always', 'Never']),
      enumSelect('user_list_style', 'User list style', ['Compact', 'With status', 'With avatar and status']),
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
