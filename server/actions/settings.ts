/** Changing a user's own settings and profile basics (PATCH /settings). */

import { createHash, randomBytes } from 'node:crypto';
import {
  ALL_SETTINGS,
  checkSettingValue,
  NOTIFICATION_SOUNDS,
  type SettingName,
  type SettingValue,
} from '../../shared/protocol';
import type { ServiceContext } from '../context';
import {
  deleteEmailChange,
  deleteEmailChangesOf,
  getEmailChange,
  replaceEmailChange,
} from '../db/email-changes';
import { EMAIL_VISIBILITY, type RealmRow, requireRealm } from '../db/realm';
import { deleteAllDrafts } from '../db/user-data';
import {
  activeUserIds,
  getUserByEmail,
  getUserById,
  listUsers,
  readUserSettings,
  setFullName,
  setPasswordHash,
  setUserEmail,
  type UserRow,
  writeUserSettings,
} from '../db/users';
import { sendEmailAfterCommit } from '../email';
import { confirmNewEmail, emailChanged } from '../email/templates';
import { badRequest } from '../errors';
import { isValidTimeZone, languageName } from '../languages';
import { canAccessDeliveryEmail, isAdmin } from '../permissions';
import { unprintablePosition } from '../printable';
import { presenceEnabledChanged } from './presence';
import { type EventBatch, runAction } from './transaction';

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
  if (/[*`\\>"@]/.test(trimmed) || unprintablePosition(trimmed) !== null) {
    throw badRequest('Invalid characters in name!');
  }
  return trimmed;
}

export interface SettingsUpdate {
  settings: SettingsChanges;
  fullName?: string | undefined;
  passwordHash?: string | undefined;
  /** A checked new address (checkNewEmail): starts the confirmation, changes nothing yet. */
  newEmail?: string | undefined;
}

export const EMAIL_CHANGE_LIFETIME_SECONDS = 24 * 60 * 60;
const MAX_EMAIL_LENGTH = 254;
// One @, no spaces, quotes or brackets, and a dot in the domain: what mail systems accept.
const EMAIL_PATTERN =
  /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:.][^\s@"<>()[\]\\,;:]*$/u;

/**
 * Checks a requested email address change. Returns the trimmed address, or undefined when
 * it is the current one (nothing to do). The family's texts for every refusal.
 */
export function checkNewEmail(ctx: ServiceContext, user: UserRow, raw: string): string | undefined {
  const email = raw.trim();
  if (email.toLowerCase() === user.delivery_email.toLowerCase()) return undefined;
  const realm = requireRealm(ctx.db);
  if (realm.email_changes_disabled && !isAdmin(user)) {
    throw badRequest('Email address changes are disabled in this organization.');
  }
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email) || /\p{C}/u.test(email)) {
    throw badRequest('Invalid address.');
  }
  const other = getUserByEmail(ctx.db, user.realm_id, email);
  if (other && other.id !== user.id) throw badRequest(`Email '${email}' already in use`);
  return email;
}

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** Records the pending change (replacing older ones) and mails the link to the new address. */
function startEmailChange(
  ctx: ServiceContext,
  events: EventBatch,
  realm: RealmRow,
  user: UserRow,
  newEmail: string,
  now: number,
): void {
  const key = randomBytes(24).toString('base64url');
  replaceEmailChange(ctx.db, { keyHash: keyHash(key), userId: user.id, newEmail, createdAt: now });
  // Mailed only once the change is committed: a rolled-back request leaves no link.
  sendEmailAfterCommit(
    events,
    ctx.config,
    confirmNewEmail({
      to: newEmail,
      fullName: user.full_name,
      oldEmail: user.delivery_email,
      link: `${ctx.config.publicUrl}/accounts/confirm_new_email/${key}`,
      realmName: realm.name,
    }),
  );
}

export type EmailConfirmation =
  | { ok: true; email: string }
  | { ok: false; status: 400 | 404; message: string };

/**
 * Follows a confirmation link: changes the address, tells the user's own clients and the
 * administrators who may see real addresses (delivery_email), everyone when addresses are
 * public (new_email), and the old address by email.
 */
export function doConfirmEmailChange(ctx: ServiceContext, key: string, now: number): EmailConfirmation {
  return runAction(ctx, (events): EmailConfirmation => {
    const row = getEmailChange(ctx.db, keyHash(key));
    const invalid = {
      ok: false,
      status: 404,
      message: 'This confirmation link is invalid or was already used.',
    } as const;
    if (!row) return invalid;
    deleteEmailChange(ctx.db, keyHash(key));
    if (now - row.created_at > EMAIL_CHANGE_LIFETIME_SECONDS) {
      return { ok: false, status: 400, message: 'This confirmation link has expired.' };
    }
    const user = getUserById(ctx.db, row.user_id);
    if (!user || user.realm_id !== ctx.realmId || !user.is_active) return invalid;
    const realm = requireRealm(ctx.db);
    if (realm.email_changes_disabled && !isAdmin(user)) {
      return { ok: false, status: 400, message: 'Email address changes are disabled in this organization.' };
    }
    const other = getUserByEmail(ctx.db, user.realm_id, row.new_email);
    if (other && other.id !== user.id) {
      return { ok: false, status: 400, message: `Email '${row.new_email}' already in use` };
    }

    const isPublic = realm.email_address_visibility === EMAIL_VISIBILITY.everyone;
    setUserEmail(ctx.db, user.id, row.new_email, isPublic);
    deleteEmailChangesOf(ctx.db, user.id);

    // The user's own clients hold their real address; user lists show it only to those
    // with access (permissions.ts); with public addresses the display email changes too.
    const active = listUsers(ctx.db, realm.id).filter((u) => u.is_active);
    const withAccess = active
      .filter((u) => u.id !== user.id && canAccessDeliveryEmail(u, realm))
      .map((u) => u.id);
    events.send(
      { type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: row.new_email } },
      [user.id, ...withAccess],
    );
    if (isPublic) {
      events.send(
        { type: 'realm_user', op: 'update', person: { user_id: user.id, new_email: row.new_email } },
        active.map((u) => u.id),
      );
    }
    sendEmailAfterCommit(
      events,
      ctx.config,
      emailChanged({ to: user.delivery_email, newEmail: row.new_email, realmName: realm.name }),
    );
    return { ok: true, email: row.new_email };
  });
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
 * The events of one changed setting, to the user's own clients: user_settings, and the
 * legacy form (the queue filters it to clients without user_settings_object). Every action
 * that changes a personal setting sends these (PATCH /settings, POST /users/me/status).
 */
export function sendSettingChanged(
  events: EventBatch,
  user: UserRow,
  name: SettingName,
  value: SettingValue,
): void {
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

/**
 * Applies the changes that differ from the stored values, in one transaction, then sends
 * one user_settings event per changed setting to the user's clients (plus the legacy form
 * for clients that want it) and realm_user updates for name and time zone to everyone.
 */
export function doUpdateSettings(ctx: ServiceContext, userId: number, update: SettingsUpdate): void {
  runAction(ctx, (events) => {
    const user = getUserById(ctx.db, userId);
    if (!user) throw new Error(`User ${userId} vanished`);
    const realm = requireRealm(ctx.db);
    const current = readUserSettings(user);

    if (update.fullName !== undefined && update.fullName !== user.full_name) {
      if (realm.name_changes_disabled && !isAdmin(user)) {
        throw badRequest('Name changes are disabled in this organization.');
      }
      setFullName(ctx.db, user.id, update.fullName);
      events.send(
        { type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: update.fullName } },
        activeUserIds(ctx.db, user.realm_id),
      );
    }
    if (update.passwordHash !== undefined) {
      setPasswordHash(ctx.db, user.id, update.passwordHash);
    }
    if (update.newEmail !== undefined)
      startEmailChange(ctx, events, realm, user, update.newEmail, Math.floor(Date.now() / 1000));

    // In the table's order, so the events do not depend on how the client ordered its form.
    const changed: SettingsChanges = {};
    for (const name of Object.keys(ALL_SETTINGS) as SettingName[]) {
      const value = update.settings[name];
      if (value !== undefined && current[name] !== value) changed[name] = value;
    }
    writeUserSettings(ctx.db, user, changed);

    for (const [name, value] of Object.entries(changed) as [SettingName, SettingValue][]) {
      sendSettingChanged(events, user, name, value);
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
    if (changed.presence_enabled !== undefined) {
      const enabled = changed.presence_enabled as boolean;
      presenceEnabledChanged(ctx, events, user, enabled);
      // Legacy clients read it as `away` in user_status (its inverse), as POST /users/me/status sets it.
      events.send(
        { type: 'user_status', user_id: user.id, away: !enabled },
        activeUserIds(ctx.db, user.realm_id),
      );
    }
  });
}
