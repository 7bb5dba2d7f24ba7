/**
 * register's state for settings: `user_settings`, `realm_user_settings_defaults`, and the
 * legacy top-level settings for clients without user_settings_object. The same readers
 * back the events (actions/settings.ts, actions/realm-defaults.ts), so they cannot drift.
 */
import {
  ALL_SETTINGS,
  EMOJISET_CHOICES,
  NOTIFICATION_SOUNDS,
  type SettingName,
  type UserSettingsValues,
} from '../../../shared/protocol';
import { realmUserSettingsDefaults } from '../../db/realm';
import { readUserSettings } from '../../db/users';
import type { AreaRequest, State } from './index';

/** The two lists of choices that travel with user_settings and the realm defaults. */
export const settingChoices = () => ({
  available_notification_sounds: [...NOTIFICATION_SOUNDS],
  emojiset_choices: EMOJISET_CHOICES.map((c) => ({ ...c })),
});

function legacySettings(values: UserSettingsValues, group: 'display' | 'notification') {
  const result: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(ALL_SETTINGS)) {
    if (spec.legacy === group) result[name] = values[name as SettingName];
  }
  return result;
}

export function settingsState({ user, want, options }: AreaRequest): State {
  const state: State = {};
  const settings = readUserSettings(user);
  if (want('realm_user_settings_defaults')) {
    state.realm_user_settings_defaults = { ...realmUserSettingsDefaults(options.realm), ...settingChoices() };
  }
  if (want('user_settings')) state.user_settings = { ...settings, ...settingChoices() };
  if (!options.clientCapabilities.user_settings_object) {
    // Clients from before feature level 89 read settings at the top level.
    if (want('update_display_settings')) {
      Object.assign(state, legacySettings(settings, 'display'), {
        emojiset_choices: settingChoices().emojiset_choices,
      });
    }
    if (want('update_global_notifications')) {
      Object.assign(state, legacySettings(settings, 'notification'), {
        available_notification_sounds: settingChoices().available_notification_sounds,
      });
    }
  }
  return state;
}
