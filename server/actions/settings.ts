/** Changing a user's own settings and profile basics (PATCH /settings). */
import {
  ALL_SETTINGS,
  checkSettingValue,
  NOTIFICATION_SOUNDS,
  type SettingName,
  type SettingValue,
} from '../../shared/protocol';
import type { ServiceContext } from '../context';
import { getRealm } from '../db/realm';
import { deleteAllDrafts } from '../db/user-data';
import {
  activeUserIds,
  getUserById,
  isAdmin,
  readUserSettings,
  type UserRow,
  writeUserSettings,
} from '../db/users';
import { badRequest } from '../errors';
import { isValidTimeZone, languageName } from '../languages';
import { runAction } from './transaction';

export type SettingsChanges = Partial<Record<SettingName, SettingValue>>;

/**
 * Checks a decoded setting value: the shared table's rules, then what only the service
 * knows (time zones, languages, sounds). Returns the error message or null.
 */
export function checkSetting(name: SettingName, value: unknown): string | null {
  const basic = checkSettingValue(name, value);
  if (basic !== null) return basic;
  switch (name) {
    case 'timezone':
      return isValidTimeZone(value as string) ? null : `Invalid ${name}`;
    case 'default_language':
      return languageName(value as string) === undefined ? `Invalid ${name}` : null;
    case 'notification_sound':
      return (NOTIFICATION_SOUNDS as readonly string[]).includes(value as string)
        ? null
        : `Invalid notification sound '${value as string}'`;
    default:
      return null;
  }
}

export const MAX_NAME_LENGTH = 100;
export const MIN_NAME_LENGTH = 2;

/** The interface family's full-name rules; returns the cleaned name. */
export function checkFullName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length > MAX_NAME_LENGTH) throw badRequest('Name too long!');
  if (trimmed.length < MIN_NAME_LENGTH) throw badRequest('Name too short!');
  // Characters that break mention syntax or display, and control characters.
  if (/[*`\\>"@]/.test(trimmed) || /\p{C}/u.test(trimmed)) throw badRequest('Invalid characters in name!');
  return trimmed;
}

export interface SettingsUpdate {
  settings: SettingsChanges;
  fullName?: string | undefined;
  passwordHash?: string | undefined;
}

/** Legacy event for clients without user_settings_object (feature level < 89 shape). */
function legacyEvent(user: UserRow, name: SettingName, value: SettingValue, language: string | undefined) {
  switch (ALL_SETTINGS[name].legacy) {
    case 'display':
      return {
        type: 'update_display_settings',
        user: user.email,
        setting_name: name,
        setting: value,
        ...(language === undefined ? {} : { language_name: language }),
      };
    case 'notification':
      return {
        type: 'update_global_notifications',
        user: user.email,
        notification_name: name,
        setting: value,
      };
    default:
      return null;
  }
}

/**
 * Applies the changes that differ from the stored values, in one transaction, then sends
 * one user_settings event per changed setting to the user's clients (plus the legacy form
 * for clients that want it) and realm_user updates for name and time zone to everyone.
 */
export function doUpdateSettings(ctx: ServiceContext, userId: number, update: SettingsUpdate): void {
  runAction(ctx, (events) => {
    const user = getUserById(ctx.db, userId);
    if (!user) throw new Error(`User ${userId} vanished`);
    const realm = getRealm(ctx.db);
    const current = readUserSettings(user);

    if (update.fullName !== undefined && update.fullName !== user.full_name) {
      if (realm?.name_changes_disabled && !isAdmin(user)) {
        throw badRequest('Name changes are disabled in this organization.');
      }
      ctx.db.prepare('UPDATE users SET full_name = ? WHERE id = ?').run(update.fullName, user.id);
      events.send(
        { type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: update.fullName } },
        activeUserIds(ctx.db, user.realm_id),
      );
    }
    if (update.passwordHash !== undefined) {
      ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(update.passwordHash, user.id);
    }

    // In the table's order, so the events do not depend on how the client ordered its form.
    const changed: SettingsChanges = {};
    for (const name of Object.keys(ALL_SETTINGS) as SettingName[]) {
      const value = update.settings[name];
      if (value !== undefined && current[name] !== value) changed[name] = value;
    }
    writeUserSettings(ctx.db, user, changed);

    for (const [name, value] of Object.entries(changed) as [SettingName, SettingValue][]) {
      const language = name === 'default_language' ? languageName(value as string) : undefined;
      events.send(
        {
          type: 'user_settings',
          op: 'update',
          property: name,
          value,
          ...(language === undefined ? {} : { language_name: language }),
        },
        [user.id],
      );
      const legacy = legacyEvent(user, name, value, language);
      if (legacy) events.send(legacy, [user.id]);
    }
    if (changed.timezone !== undefined) {
      events.send(
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: user.id, email: user.email, timezone: changed.timezone },
        },
        activeUserIds(ctx.db, user.realm_id),
      );
    }
    // Turning synchronization off deletes the server's drafts; no event (spec).
    if (changed.enable_drafts_synchronization === false) deleteAllDrafts(ctx.db, user.id);
  });
}
