/** The user_settings substore: the user's settings as the register snapshot gave them. */
import type { EventOf, SettingValue } from '../protocol';

export type UserSettingsState = Readonly<Record<string, SettingValue | null | readonly unknown[]>>;

export type SettingsEvent =
  | EventOf<'user_settings'>
  | EventOf<'update_display_settings'>
  | EventOf<'update_global_notifications'>;

function set(state: UserSettingsState, property: string, value: SettingValue): UserSettingsState {
  if (state[property] === value) return state;
  return { ...state, [property]: value };
}

/** Applies user_settings and the two legacy forms that older servers send. */
export function applySettingsEvent(state: UserSettingsState, event: SettingsEvent): UserSettingsState {
  switch (event.type) {
    case 'user_settings':
      return set(state, event.property, event.value);
    case 'update_display_settings':
      return set(state, event.setting_name, event.setting);
    case 'update_global_notifications':
      return set(state, event.notification_name, event.setting);
  }
}
