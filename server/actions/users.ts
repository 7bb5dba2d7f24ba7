/** Creating users (POST /users), and the events that tell the organization about them. */
import { generateApiKey } from '../auth';
import type { ServiceContext } from '../context';
import { SYSTEM_GROUP_MAX_ROLE } from '../db/realm';
import { getStream, subscribe } from '../db/streams';
import { getUserByEmail, getUserById, insertUser, isAdmin, listUsers, type UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import { subscriberViewerIds } from '../objects/streams';
import { formatUser, profileDataOf } from '../objects/users';
import { requireRealm } from './realm';
import { newUserSettings } from './realm-defaults';
import { type EventBatch, runAction } from './transaction';

/** The interface family's error for administrator-only operations (HTTP 400, NOTES.md). */
export function requireAdmin(user: UserRow): void {
  if (!isAdmin(user))
    throw new ApiFailure(400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
}

// Importers of requireRealm from here (routes/users.ts, profile-fields.ts) share the one lookup.

/** POST /users: an administrator who also holds can_create_users. */
export function checkCanCreateUsers(user: UserRow): void {
  requireAdmin(user);
  if (!user.can_create_users) throw badRequest('User not authorized to create users');
}

const MAX_EMAIL_LENGTH = 254;

/**
 * A plain address check (one @, a dotted domain, no spaces or control characters): the
 * address only has to be one we can store and log in with, not proof of deliverability.
 */
export function isValidEmail(email: string): boolean {
  if (email.length > MAX_EMAIL_LENGTH) return false;
  return /^[^\s@\p{C}]+@[^\s@\p{C}]+\.[^\s@\p{C}.]+$/u.test(email) && !email.includes('..');
}

/**
 * Sends `realm_user` add for a user to every active user of the organization. Each queue
 * gets the User object as its client would get it in register: its own client_extavatar,
 * and delivery_email only for viewers with access, built by the same formatUser.
 */
export function sendRealmUserAdd(ctx: ServiceContext, events: EventBatch, userId: number): void {
  const realm = requireRealm(ctx.db);
  const users = listUsers(ctx.db, realm.id);
  const added = users.find((u) => u.id === userId);
  if (!added) throw new Error(`User ${userId} vanished`);
  const viewers = new Map(users.filter((u) => u.is_active).map((u) => [u.id, u]));
  const profileData = profileDataOf(ctx.db, realm.id, [userId]);
  events.sendBuilt(viewers.keys(), (queue) => {
    const viewer = viewers.get(queue.userId);
    if (!viewer) return null;
    const person = formatUser(added, {
      viewer,
      realm,
      clientExtavatar: queue.settings.clientExtavatar,
      profileData,
    });
    return { type: 'realm_user', op: 'add', person };
  });
}

export interface NewUserRequest {
  email: string;
  fullName: string;
  passwordHash: string;
}

/**
 * Creates a member with the organization's defaults for new users, subscribes them to the
 * default streams, and tells everyone: realm_user add, the role groups they joined
 * (user_group add_members), and peer_add for each default stream.
 */
export function doCreateUser(ctx: ServiceContext, req: NewUserRequest): number {
  return runAction(ctx, (events) => {
    const realm = requireRealm(ctx.db);
    if (getUserByEmail(ctx.db, realm.id, req.email)) throw badRequest(`Email '${req.email}' already in use`);
    const userId = insertUser(ctx.db, {
      realmId: realm.id,
      email: req.email,
      fullName: req.fullName,
      passwordHash: req.passwordHash,
      apiKey: generateApiKey(),
      role: 400,
      defaultLanguage: realm.default_language,
      dateJoinedMs: Date.now(),
      settings: { ...newUserSettings(ctx) },
    });
    const user = getUserById(ctx.db, userId);
    if (!user) throw new Error('New user vanished');
    const everyone = listUsers(ctx.db, realm.id)
      .filter((u) => u.is_active)
      .map((u) => u.id);

    sendRealmUserAdd(ctx, events, userId);

    // System groups follow roles (db/realm-data listUserGroups); say which ones grew.
    const groups = ctx.db
      .prepare('SELECT id, name FROM user_groups WHERE realm_id = ? AND is_system_group = 1 ORDER BY id')
      .all(realm.id) as { id: number; name: string }[];
    for (const group of groups) {
      const maxRole = SYSTEM_GROUP_MAX_ROLE[group.name];
      if (maxRole === undefined || maxRole === null || user.role > maxRole) continue;
      events.send(
        { type: 'user_group', op: 'add_members', group_id: group.id, user_ids: [userId] },
        everyone,
      );
    }

    const defaults = ctx.db
      .prepare('SELECT id FROM streams WHERE realm_id = ? AND is_default = 1 AND deactivated = 0 ORDER BY id')
      .all(realm.id) as { id: number }[];
    for (const { id } of defaults) {
      subscribe(ctx.db, userId, id);
      const stream = getStream(ctx.db, id);
      if (!stream) continue;
      const peers = subscriberViewerIds(ctx.db, stream).filter((viewerId) => viewerId !== userId);
      events.send({ type: 'subscription', op: 'peer_add', stream_ids: [id], user_ids: [userId] }, peers);
    }
    return userId;
  });
}
