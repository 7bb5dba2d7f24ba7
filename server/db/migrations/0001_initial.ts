/**
 * The whole data model of the spec, designed up front so that later endpoints only add
 * queries. Conventions: times are integer Unix seconds unless named *_ms; booleans are 0/1;
 * emails compare case-insensitively; JSON columns hold JSON text.
 */
export const sql = /* sql */ `
CREATE TABLE realm (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  date_created INTEGER NOT NULL,
  -- Organization settings of the spec (others go to settings as JSON until they need a query).
  enable_spectator_access INTEGER NOT NULL DEFAULT 0,
  -- 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators (the interface family's values).
  email_address_visibility INTEGER NOT NULL DEFAULT 1,
  -- NULL keeps messages forever.
  message_retention_days INTEGER,
  default_language TEXT NOT NULL DEFAULT 'en',
  name_changes_disabled INTEGER NOT NULL DEFAULT 0,
  email_changes_disabled INTEGER NOT NULL DEFAULT 0,
  settings TEXT NOT NULL DEFAULT '{}',
  -- Every shared user setting (shared/protocol SHARED_SETTINGS), given to new users.
  user_settings_defaults TEXT NOT NULL DEFAULT '{}',
  -- Set once --demo has created the demo organization.
  demo_seeded INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  email TEXT NOT NULL COLLATE NOCASE,            -- the display ("API") email
  delivery_email TEXT NOT NULL COLLATE NOCASE,   -- the real address
  full_name TEXT NOT NULL,
  -- scrypt$N$r$p$salt$hash; NULL for accounts that cannot log in with a password (bots).
  password_hash TEXT,
  -- The server must hand the key back from /fetch_api_key, so it is kept, not hashed.
  api_key TEXT NOT NULL UNIQUE,
  role INTEGER NOT NULL CHECK (role IN (100, 200, 300, 400, 600)),
  is_billing_admin INTEGER NOT NULL DEFAULT 0,
  can_create_users INTEGER NOT NULL DEFAULT 0,
  is_bot INTEGER NOT NULL DEFAULT 0,
  -- 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded.
  bot_type INTEGER CHECK (bot_type IS NULL OR bot_type IN (1, 2, 3, 4)),
  bot_owner_id INTEGER REFERENCES users(id),
  is_active INTEGER NOT NULL DEFAULT 1,
  timezone TEXT NOT NULL DEFAULT '',
  default_language TEXT NOT NULL DEFAULT 'en',
  date_joined_ms INTEGER NOT NULL,
  -- 'G' external avatar service, 'U' uploaded.
  avatar_source TEXT NOT NULL DEFAULT 'G' CHECK (avatar_source IN ('G', 'U')),
  avatar_version INTEGER NOT NULL DEFAULT 1,
  -- The remaining user settings (shared/protocol), JSON object; missing keys take defaults.
  settings TEXT NOT NULL DEFAULT '{}',
  UNIQUE (realm_id, email),
  UNIQUE (realm_id, delivery_email)
);
CREATE INDEX users_bot_owner ON users(bot_owner_id);

-- Who receives a message: a user (1), a stream (2) or a group of users in a direct message (3).
CREATE TABLE recipients (
  id INTEGER PRIMARY KEY,
  type INTEGER NOT NULL CHECK (type IN (1, 2, 3)),
  type_id INTEGER NOT NULL,
  UNIQUE (type, type_id)
);

CREATE TABLE direct_groups (
  id INTEGER PRIMARY KEY,
  -- Sorted member ids joined by commas: finds the group of a set of users.
  group_key TEXT NOT NULL UNIQUE
);
CREATE TABLE direct_group_members (
  group_id INTEGER NOT NULL REFERENCES direct_groups(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (group_id, user_id)
) WITHOUT ROWID;

CREATE TABLE user_groups (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  name TEXT NOT NULL COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  -- System groups ("role:administrators", ...) back permission settings.
  is_system_group INTEGER NOT NULL DEFAULT 0,
  UNIQUE (realm_id, name)
);
CREATE TABLE user_group_members (
  group_id INTEGER NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (group_id, user_id)
) WITHOUT ROWID;
CREATE INDEX user_group_members_user ON user_group_members(user_id);

CREATE TABLE streams (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  name TEXT NOT NULL COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  rendered_description TEXT NOT NULL DEFAULT '',
  date_created INTEGER NOT NULL,
  invite_only INTEGER NOT NULL DEFAULT 0,
  is_web_public INTEGER NOT NULL DEFAULT 0,
  history_public_to_subscribers INTEGER NOT NULL DEFAULT 1,
  -- 1 anyone, 2 administrators, 3 full members, 4 moderators.
  stream_post_policy INTEGER NOT NULL DEFAULT 1 CHECK (stream_post_policy BETWEEN 1 AND 4),
  -- NULL inherits the organization's setting; -1 keeps messages forever.
  message_retention_days INTEGER,
  can_remove_subscribers_group_id INTEGER NOT NULL REFERENCES user_groups(id),
  -- New users are subscribed to default streams.
  is_default INTEGER NOT NULL DEFAULT 0,
  deactivated INTEGER NOT NULL DEFAULT 0,
  UNIQUE (realm_id, name)
);

CREATE TABLE subscriptions (
  user_id INTEGER NOT NULL REFERENCES users(id),
  stream_id INTEGER NOT NULL REFERENCES streams(id),
  -- 0 after unsubscribing: the row keeps the personal properties (spec "unsubscribed").
  active INTEGER NOT NULL DEFAULT 1,
  color TEXT NOT NULL,
  is_muted INTEGER NOT NULL DEFAULT 0,
  pin_to_top INTEGER NOT NULL DEFAULT 0,
  -- NULL inherits the user-level setting.
  desktop_notifications INTEGER,
  email_notifications INTEGER,
  push_notifications INTEGER,
  audible_notifications INTEGER,
  wildcard_mentions_notify INTEGER,
  PRIMARY KEY (user_id, stream_id)
) WITHOUT ROWID;
CREATE INDEX subscriptions_stream ON subscriptions(stream_id, active);

CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  sender_id INTEGER NOT NULL REFERENCES users(id),
  recipient_id INTEGER NOT NULL REFERENCES recipients(id),
  -- Copied from the recipient for stream messages, so topic queries need no join.
  stream_id INTEGER REFERENCES streams(id),
  topic TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  rendered_content TEXT NOT NULL,
  rendered_content_version INTEGER NOT NULL DEFAULT 1,
  date_sent INTEGER NOT NULL,
  last_edit_time INTEGER,
  -- JSON array, newest first (spec Message.edit_history).
  edit_history TEXT,
  client TEXT NOT NULL DEFAULT 'Internal',
  is_me_message INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX messages_stream_topic ON messages(stream_id, topic COLLATE NOCASE, id);
CREATE INDEX messages_recipient ON messages(recipient_id, id);

-- Per-user copy of a message: who may see it, and the user's flags.
CREATE TABLE user_messages (
  user_id INTEGER NOT NULL REFERENCES users(id),
  message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  -- Bit set, see server/db/flags.ts (read = 1, starred = 2, ...).
  flags INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, message_id)
) WITHOUT ROWID;
CREATE INDEX user_messages_message ON user_messages(message_id);
-- Unread counts and mark-as-read touch only unread rows.
CREATE INDEX user_messages_unread ON user_messages(user_id, message_id) WHERE (flags & 1) = 0;

CREATE TABLE reactions (
  message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  emoji_name TEXT NOT NULL,
  emoji_code TEXT NOT NULL,
  reaction_type TEXT NOT NULL CHECK (reaction_type IN ('unicode_emoji', 'realm_emoji', 'service_extra_emoji')),
  PRIMARY KEY (message_id, user_id, reaction_type, emoji_code)
) WITHOUT ROWID;

CREATE TABLE realm_emoji (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  name TEXT NOT NULL,
  author_id INTEGER REFERENCES users(id),
  file_name TEXT NOT NULL,
  deactivated INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE drafts (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  type TEXT NOT NULL CHECK (type IN ('', 'stream', 'private')),
  -- JSON array of stream or user ids (spec Draft.to).
  to_ids TEXT NOT NULL DEFAULT '[]',
  topic TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  -- Seconds, may be fractional (spec Draft.timestamp).
  last_edit_time REAL NOT NULL
);
CREATE INDEX drafts_user ON drafts(user_id, last_edit_time);

CREATE TABLE user_status (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  status_text TEXT NOT NULL DEFAULT '',
  emoji_name TEXT NOT NULL DEFAULT '',
  emoji_code TEXT NOT NULL DEFAULT '',
  reaction_type TEXT NOT NULL DEFAULT 'unicode_emoji',
  timestamp INTEGER NOT NULL
);

CREATE TABLE custom_profile_fields (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  name TEXT NOT NULL,
  hint TEXT NOT NULL DEFAULT '',
  field_type INTEGER NOT NULL CHECK (field_type BETWEEN 1 AND 8),
  -- JSON text as sent on the wire (choices of a list field, ...).
  field_data TEXT NOT NULL DEFAULT '',
  "order" INTEGER NOT NULL,
  display_in_profile_summary INTEGER NOT NULL DEFAULT 0,
  UNIQUE (realm_id, name)
);
CREATE TABLE custom_profile_field_values (
  user_id INTEGER NOT NULL REFERENCES users(id),
  field_id INTEGER NOT NULL REFERENCES custom_profile_fields(id) ON DELETE CASCADE,
  value TEXT NOT NULL,
  rendered_value TEXT,
  PRIMARY KEY (user_id, field_id)
) WITHOUT ROWID;

CREATE TABLE realm_playgrounds (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  name TEXT NOT NULL,
  highlighter_language TEXT NOT NULL,
  url_prefix TEXT NOT NULL,
  UNIQUE (realm_id, highlighter_language, name)
);

CREATE TABLE alert_words (
  user_id INTEGER NOT NULL REFERENCES users(id),
  word TEXT NOT NULL COLLATE NOCASE,
  PRIMARY KEY (user_id, word)
) WITHOUT ROWID;

CREATE TABLE user_topics (
  user_id INTEGER NOT NULL REFERENCES users(id),
  stream_id INTEGER NOT NULL REFERENCES streams(id),
  topic_name TEXT NOT NULL COLLATE NOCASE,
  -- 0 inherit, 1 muted, 2 unmuted, 3 followed.
  visibility_policy INTEGER NOT NULL,
  last_updated INTEGER NOT NULL,
  PRIMARY KEY (user_id, stream_id, topic_name)
) WITHOUT ROWID;
`;
