/** Test data for the domain tests: a small register snapshot in the shape the server sends. */
import type { RegisterState, Subscription, User } from '../protocol';

export const ME = 10;
export const BOB = 11;
export const CAROL = 12;

export function user(id: number, name: string, extra: Partial<User> = {}): User {
  return {
    user_id: id,
    email: `${name.toLowerCase()}@example.com`,
    delivery_email: `${name.toLowerCase()}@example.com`,
    full_name: name,
    is_admin: false,
    is_owner: false,
    is_billing_admin: false,
    is_guest: false,
    is_bot: false,
    is_active: true,
    role: 400,
    timezone: 'UTC',
    date_joined: '2025-01-01T00:00:00.000Z',
    avatar_url: null,
    avatar_version: 1,
    profile_data: {},
    ...extra,
  };
}

export function subscription(id: number, name: string, extra: Partial<Subscription> = {}): Subscription {
  return {
    stream_id: id,
    name,
    description: '',
    rendered_description: '',
    date_created: 1,
    invite_only: false,
    is_web_public: false,
    desktop_notifications: null,
    email_notifications: null,
    push_notifications: null,
    audible_notifications: null,
    wildcard_mentions_notify: null,
    pin_to_top: false,
    email_address: '',
    is_muted: false,
    in_home_view: true,
    is_announcement_only: false,
    color: '#c2c2c2',
    stream_post_policy: 1,
    message_retention_days: null,
    history_public_to_subscribers: true,
    first_message_id: null,
    stream_weekly_traffic: null,
    can_remove_subscribers_group_id: 1,
    ...extra,
  };
}

export const stream = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  stream_id: id,
  name,
  description: '',
  rendered_description: '',
  invite_only: false,
  stream_post_policy: 1,
  is_announcement_only: false,
  history_public_to_subscribers: true,
  ...extra,
});

export function snapshotFixture(overrides: Record<string, unknown> = {}): RegisterState {
  return {
    last_event_id: -1,
    service_feature_level: 151,
    service_version: '0.1.0',
    service_merge_base: '',
    user_id: ME,
    user_settings: { twenty_four_hour_time: false, color_scheme: 1, enable_drafts_synchronization: true },
    realm_users: [user(ME, 'Me'), user(BOB, 'Bob')],
    realm_non_active_users: [user(CAROL, 'Carol', { is_active: false })],
    streams: [stream(1, 'general'), stream(2, 'design'), stream(3, 'lobby')],
    subscriptions: [
      subscription(1, 'general'),
      subscription(2, 'design', { is_muted: true, in_home_view: false }),
    ],
    unsubscribed: [],
    never_subscribed: [stream(3, 'lobby')],
    drafts: [{ id: 1, type: 'stream', to: [1], topic: 't', content: 'hi', timestamp: 100 }],
    user_status: {
      [BOB]: {
        status_text: 'away',
        emoji_name: 'palm_tree',
        emoji_code: '1f334',
        reaction_type: 'unicode_emoji',
      },
    },
    custom_profile_fields: [{ id: 1, type: 1, order: 1, name: 'Title', hint: '', field_data: '' }],
    realm_user_groups: [{ id: 1, name: 'team', description: 'the team', members: [ME, BOB] }],
    realm_playgrounds: [{ id: 1, name: 'Rust', highlighter_language: 'Rust', url_prefix: 'https://rust/' }],
    alert_words: ['ship'],
    user_topics: [],
    unread_msgs: {
      count: 4,
      pms: [{ other_user_id: BOB, sender_id: BOB, unread_message_ids: [20] }],
      streams: [
        { stream_id: 1, topic: 'lunch', unread_message_ids: [21, 22] },
        { stream_id: 2, topic: 'logo', unread_message_ids: [23] },
      ],
      huddles: [],
      mentions: [22],
    },
    realm_user_settings_defaults: { twenty_four_hour_time: false },
    ...overrides,
  } as RegisterState;
}
