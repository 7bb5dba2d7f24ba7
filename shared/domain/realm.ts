/**
 * Small realm-wide substores that an event replaces whole or by one property:
 * custom profile fields, code playgrounds, alert words, and the realm's defaults for new
 * users' settings.
 */
import type { z } from 'zod';
import type { CustomProfileField, EventOf, playgroundSchema, SettingValue } from '../protocol';

export type Playground = z.infer<typeof playgroundSchema>;
export type CustomProfileFieldsState = readonly CustomProfileField[];
export type PlaygroundsState = readonly Playground[];
export type AlertWordsState = readonly string[];
export type RealmUserSettingsDefaultsState = Readonly<Record<string, unknown>>;

export const handleCustomProfileFieldsEvent = (
  _state: CustomProfileFieldsState,
  event: EventOf<'custom_profile_fields'>,
): CustomProfileFieldsState => event.fields;

export const handleRealmPlaygroundsEvent = (
  _state: PlaygroundsState,
  event: EventOf<'realm_playgrounds'>,
): PlaygroundsState => event.realm_playgrounds;

export const handleAlertWordsEvent = (
  _state: AlertWordsState,
  event: EventOf<'alert_words'>,
): AlertWordsState => event.alert_words;

export function handleRealmUserSettingsDefaultsEvent(
  state: RealmUserSettingsDefaultsState,
  event: EventOf<'realm_user_settings_defaults'>,
): RealmUserSettingsDefaultsState {
  const value: SettingValue = event.value;
  return state[event.property] === value ? state : { ...state, [event.property]: value };
}
