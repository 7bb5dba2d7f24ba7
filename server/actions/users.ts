/** Creating users (POST /users), and the events that tell the organization about them. */
import { ROLES } from '../../shared/protocol';
import { generateApiKey } from '../auth';
import type { ServiceContext } from '../context';
import { requireRealm, SYSTEM_GROUP_MAX_ROLE, systemGroups } from '../db/realm';
import { defaultStreamIds, getStream, subscribe } from '../db/streams';
import { getUserByEmail, getUserById, insertUser, listUsers, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { formatUser, profileDataOf } from '../formats/users';
import { subscriberViewerIds } from '../permissions';
import { requireAdmin } from './access';
import { newUserSettings } from './realm-defaults';
import { type EventBatch, runAction } from './transaction';

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
      role: ROLES.member,
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
    for (const group of systemGroups(ctx.db, realm.id)) {
      const maxRole = SYSTEM_GROUP_MAX_ROLE[group.name];
      if (maxRole === undefined || maxRole === null || user.role > maxRole) continue;
      events.send(
        { type: 'user_group', op: 'add_members', group_id: group.id, user_ids: [userId] },
        everyone,
      );
    }

    for (const id of defaultStreamIds(ctx.db, realm.id)) {
      subscribe(ctx.db, userId, id);
      const stream = getStream(ctx.db, id);
      if (!stream) continue;
      const peers = subscriberViewerIds(ctx.db, stream).filter((viewerId) => viewerId !== userId);
      events.send({ type: 'subscription', op: 'peer_add', stream_ids: [id], user_ids: [userId] }, peers);
    }
    return userId;
  });
}
