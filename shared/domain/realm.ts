/**
 * Small realm-wide substores that an event replaces whole or by one property:
 * custom profile fields, code playgrounds, alert words, the realm's defaults for new
 * users' settings, custom emoji, linkifiers and the default streams.
 */
import type { z } from 'zod';
import type {
  CustomProfileField,
  EventOf,
  Linkifier,
  playgroundSchema,
  RealmEmoji,
  SettingValue,
} from '../protocol';

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

/** Custom emoji by id (a string, as register keys them), deactivated ones included. */
export type RealmEmojiState = Readonly<Record<string, RealmEmoji>>;
export type LinkifiersState = readonly Linkifier[];
/** The ids of the organization's default streams (their objects are in the streams substore). */
export type DefaultStreamsState = readonly number[];

export const handleRealmEmojiEvent = (
  _state: RealmEmojiState,
  event: EventOf<'realm_emoji'>,
): RealmEmojiState => event.realm_emoji;

export const handleRealmLinkifiersEvent = (
  _state: LinkifiersState,
  event: EventOf<'realm_linkifiers'>,
): LinkifiersState => event.realm_linkifiers;

/** Stream objects to ids: their names and descriptions follow stream events, in the streams slice. */
export function defaultStreamIds(streams: readonly { stream_id: number }[] | undefined): DefaultStreamsState {
  return (streams ?? []).map((s) => s.stream_id);
}

export function handleDefaultStreamsEvent(
  state: DefaultStreamsState,
  event: EventOf<'default_streams'>,
): DefaultStreamsState {
  const next = defaultStreamIds(event.default_streams);
  return next.length === state.length && next.every((id, i) => state[i] === id) ? state : next;
}

/** A deleted stream is no default stream any more (the server also sends default_streams). */
export function dropDefaultStreams(
  state: DefaultStreamsState,
  streamIds: readonly number[],
): DefaultStreamsState {
  const gone = new Set(streamIds);
  return state.some((id) => gone.has(id)) ? state.filter((id) => !gone.has(id)) : state;
}
