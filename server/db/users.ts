/** Users and bots: rows, lookups and the stored settings. */
import {
  DEFAULT_PERSONAL_SETTINGS,
  DEFAULT_SHARED_SETTINGS,
  type SettingName,
  type SettingValue,
  type UserSettingsValues,
} from '../../shared/protocol';
import type { Db } from './index';

export interface UserRow {
  id: number;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  password_hash: string | null;
  api_key: string;
  role: 100 | 200 | 300 | 400 | 600;
  is_billing_admin: number;
  can_create_users: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_active: number;
  timezone: string;
  default_language: string;
  date_joined_ms: number;
  avatar_source: 'G' | 'U';
  avatar_version: number;
  settings: string;
}

export const BOT_TYPES = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

export function isAdmin(user: Pick<UserRow, 'role'>): boolean {
  return user.role <= 200;
}

export function getUserById(db: Db, id: number): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/** By display email or real address, case-insensitively (both columns are NOCASE). */
export function getUserByEmail(db: Db, realmId: number, email: string): UserRow | undefined {
  return db
    .prepare(
      'SELECT * FROM users WHERE realm_id = ? AND (email = ? OR delivery_email = ?) ORDER BY id LIMIT 1',
    )
    .get(realmId, email, email) as UserRow | undefined;
}

export function listUsers(db: Db, realmId: number): UserRow[] {
  return db.prepare('SELECT * FROM users WHERE realm_id = ? ORDER BY id').all(realmId) as UserRow[];
}

export function activeUserIds(db: Db, realmId: number): number[] {
  return (
    db.prepare('SELECT id FROM users WHERE realm_id = ? AND is_active = 1 ORDER BY id').all(realmId) as {
      id: number;
    }[]
  ).map((r) => r.id);
}

export interface NewUser {
  realmId: number;
  email: string;
  deliveryEmail?: string;
  fullName: string;
  passwordHash: string | null;
  apiKey: string;
  role: UserRow['role'];
  canCreateUsers?: boolean;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  timezone?: string;
  defaultLanguage?: string;
  dateJoinedMs: number;
  settings: Partial<Record<SettingName, SettingValue>>;
}

export function insertUser(db: Db, user: NewUser): number {
  const info = db
    .prepare(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, password_hash, api_key, role,
         can_create_users, is_bot, bot_type, bot_owner_id, timezone, default_language, date_joined_ms, settings)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      user.realmId,
      user.email,
      user.deliveryEmail ?? user.email,
      user.fullName,
      user.passwordHash,
      user.apiKey,
      user.role,
      user.canCreateUsers ? 1 : 0,
      user.isBot ? 1 : 0,
      user.botType ?? null,
      user.botOwnerId ?? null,
      user.timezone ?? '',
      user.defaultLanguage ?? 'en',
      user.dateJoinedMs,
      JSON.stringify(user.settings),
    );
  const userId = Number(info.lastInsertRowid);
  db.prepare('INSERT INTO recipients (type, type_id) VALUES (1, ?)').run(userId);
  return userId;
}

/** Settings that live in their own column (they appear on the User object, too). */
const COLUMN_SETTINGS = new Set<SettingName>(['timezone', 'default_language']);

/** Every setting of a user; settings added after the user was created take the defaults. */
export function readUserSettings(user: UserRow): UserSettingsValues {
  const stored = JSON.parse(user.settings) as Partial<UserSettingsValues>;
  return {
    ...DEFAULT_SHARED_SETTINGS,
    ...DEFAULT_PERSONAL_SETTINGS,
    ...stored,
    timezone: user.timezone,
    default_language: user.default_language,
  };
}

/** Writes changed settings of one user; the caller runs it in a transaction. */
export function writeUserSettings(
  db: Db,
  user: UserRow,
  changes: Partial<Record<SettingName, SettingValue>>,
): void {
  const stored = JSON.parse(user.settings) as Record<string, SettingValue>;
  let jsonChanged = false;
  for (const [name, value] of Object.entries(changes) as [SettingName, SettingValue][]) {
    if (COLUMN_SETTINGS.has(name)) {
      // The column name comes from the fixed set above, never from the request.
      db.prepare(`UPDATE users SET ${name} = ? WHERE id = ?`).run(value, user.id);
    } else {
      stored[name] = value;
      jsonChanged = true;
    }
  }
  if (jsonChanged)
    db.prepare('UPDATE users SET settings = ? WHERE id = ?').run(JSON.stringify(stored), user.id);
}

export function maxMessageIdForUser(db: Db, userId: number): number {
  const row = db.prepare('SELECT MAX(message_id) AS m FROM user_messages WHERE user_id = ?').get(userId) as {
    m: number | null;
  };
  return row.m ?? -1;
}
