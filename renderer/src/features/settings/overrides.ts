/**
 * Per-stream notification overrides, as the family's web app shows them: a stream property of
 * null follows the user's own setting; the notifications page lists only the streams where
 * some property differs from that setting.
 */
import type { SharedSettingName } from '../../../../shared/protocol';

export type StreamNotificationProperty =
  | 'desktop_notifications'
  | 'audible_notifications'
  | 'push_notifications'
  | 'email_notifications'
  | 'wildcard_mentions_notify';

/** Each stream property, its column's name and the user setting it inherits. */
export const STREAM_NOTIFICATION_PROPERTIES: {
  property: StreamNotificationProperty;
  label: string;
  setting: SharedSettingName;
}[] = [
  { property: 'desktop_notifications', label: 'Desktop', setting: 'enable_stream_desktop_notifications' },
  { property: 'audible_notifications', label: 'Audible', setting: 'enable_stream_audible_notifications' },
  { property: 'push_notifications', label: 'Mobile', setting: 'enable_stream_push_notifications' },
  { property: 'email_notifications', label: 'Email', setting: 'enable_stream_email_notifications' },
  { property: 'wildcard_mentions_notify', label: '@-all', setting: 'wildcard_mentions_notify' },
];

export type StreamValues = Partial<Record<StreamNotificationProperty, boolean | null | undefined>>;
export type UserDefaults = Readonly<Record<string, unknown>>;

/** The value the stream really uses: its own, else the user's setting. */
export function effectiveValue(
  stream: StreamValues,
  property: StreamNotificationProperty,
  defaults: UserDefaults,
): boolean {
  const own = stream[property];
  if (typeof own === 'boolean') return own;
  const entry = STREAM_NOTIFICATION_PROPERTIES.find((p) => p.property === property);
  return entry ? defaults[entry.setting] === true : false;
}

/** The properties of a stream set to something else than the user's setting. */
export function differingProperties(
  stream: StreamValues,
  defaults: UserDefaults,
): StreamNotificationProperty[] {
  return STREAM_NOTIFICATION_PROPERTIES.filter(({ property, setting }) => {
    const own = stream[property];
    return typeof own === 'boolean' && own !== (defaults[setting] === true);
  }).map((p) => p.property);
}

/** The properties a reset clears: every one with a value of its own. */
export function ownProperties(stream: StreamValues): StreamNotificationProperty[] {
  return STREAM_NOTIFICATION_PROPERTIES.filter(({ property }) => typeof stream[property] === 'boolean').map(
    (p) => p.property,
  );
}

/** "Default (on)" / "Default (off)": what inherit means right now. */
export function inheritLabel(value: boolean): string {
  return value ? 'Default (on)' : 'Default (off)';
}
