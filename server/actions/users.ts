/** Creating users (POST /users), and the events that tell the organization about them. */
import { ROLES, type Role } from '../../shared/protocol';
import { generateApiKey } from '../auth';
import type { ServiceContext } from '../context';
import { requireRealm, SYSTEM_GROUP_MAX_ROLE, systemGroups } from '../db/realm';
import { memberGroupIds } from '../db/realm-data';
import { defaultStreamIds, getStream, subscribe, subscriptionsOf } from '../db/streams';
import { userStatuses } from '../db/user-data';
import {
  activeUserIds,
  botsOwnedBy,
  countActiveOwners,
  getUserByEmail,
  getUserById,
  insertUser,
  listUsers,
  setFullName,
  setUserActive,
  setUserRole,
  type UserRow,
} from '../db/users';
import { type Email, sendEmailAfterCommit } from '../email';
import { accountDeactivated, badRequest } from '../errors';
import { formatBot, formatUser, profileDataOf } from '../formats/users';
import { isAdmin, isOwner, subscriberViewerIds } from '../permissions';
import { accessUserFor, requireAdmin, requireOwner } from './access';
import { applyProfileValues, checkProfileValues, type ProfileValueUpdate } from './profile-fields';
import { newUserSettings } from './realm-defaults';
import { checkFullName } from './settings';
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
    for (const groupId of systemGroupIdsOf(ctx, user)) {
      events.send({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [userId] }, everyone);
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

/** The system groups a user belongs to by role (bots belong to none: listUserGroups). */
function systemGroupIdsOf(ctx: ServiceContext, user: Pick<UserRow, 'role' | 'is_bot'>): number[] {
  if (user.is_bot) return [];
  return systemGroups(ctx.db, ctx.realmId)
    .filter((group) => {
      const maxRole = SYSTEM_GROUP_MAX_ROLE[group.name];
      return maxRole !== undefined && maxRole !== null && user.role <= maxRole;
    })
    .map((group) => group.id);
}

/** A realm_user update about one user, to every active user of the organization. */
function sendPersonUpdate(ctx: ServiceContext, events: EventBatch, person: Record<string, unknown>): void {
  events.send({ type: 'realm_user', op: 'update', person }, activeUserIds(ctx.db, ctx.realmId));
}

/** The last active owner cannot stop being one (role change, deactivation). */
function isLastOwner(ctx: ServiceContext, target: UserRow): boolean {
  return isOwner(target) && target.is_active === 1 && countActiveOwners(ctx.db, ctx.realmId) <= 1;
}

/**
 * A role change: only owners give or take the owner role, and the only owner keeps it.
 * Tells everyone the new role and the system groups the user left and joined.
 */
function changeRole(ctx: ServiceContext, events: EventBatch, acting: UserRow, target: UserRow, role: Role) {
  if (role === target.role) return;
  if (role === ROLES.owner || isOwner(target)) requireOwner(acting);
  if (isLastOwner(ctx, target))
    throw badRequest('The owner permission cannot be removed from the only organization owner.');
  // Deactivated users are in no group (listUserGroups), so their groups do not change.
  const inGroups = target.is_active === 1;
  const before = new Set(inGroups ? systemGroupIdsOf(ctx, target) : []);
  const after = new Set(inGroups ? systemGroupIdsOf(ctx, { role, is_bot: target.is_bot }) : []);
  setUserRole(ctx.db, target.id, role);
  sendPersonUpdate(ctx, events, { user_id: target.id, role });
  const everyone = activeUserIds(ctx.db, ctx.realmId);
  for (const id of before) {
    if (!after.has(id))
      events.send(
        { type: 'user_group', op: 'remove_members', group_id: id, user_ids: [target.id] },
        everyone,
      );
  }
  for (const id of after) {
    if (!before.has(id))
      events.send({ type: 'user_group', op: 'add_members', group_id: id, user_ids: [target.id] }, everyone);
  }
}

export interface UserUpdate {
  fullName?: string | undefined;
  role?: Role | undefined;
  profileData?: ProfileValueUpdate[] | undefined;
}

/**
 * PATCH /users/{user_id} (the family's update_user_backend): an administrator changes
 * another user's (or bot's, deactivated or not) name, role and profile field values.
 * A blank name is ignored, as in the family; every check passes before anything changes.
 */
export function doUpdateUser(ctx: ServiceContext, acting: UserRow, userId: number, update: UserUpdate): void {
  runAction(ctx, (events) => {
    const target = accessUserFor(ctx, acting, userId, {
      allowDeactivated: true,
      allowBots: true,
      forAdmin: true,
    });
    const fullName =
      update.fullName !== undefined && update.fullName.trim() !== ''
        ? checkFullName(update.fullName)
        : undefined;
    const values = update.profileData && checkProfileValues(ctx, update.profileData, { nullClears: true });
    if (update.role !== undefined) changeRole(ctx, events, acting, target, update.role);
    if (fullName !== undefined && fullName !== target.full_name) {
      setFullName(ctx.db, target.id, fullName);
      sendPersonUpdate(ctx, events, { user_id: target.id, full_name: fullName });
      if (target.is_bot) {
        const bot = { user_id: target.id, full_name: fullName };
        events.send({ type: 'realm_bot', op: 'update', bot }, botAdministratorIds(ctx, target));
      }
    }
    if (values) applyProfileValues(ctx, events, target.id, values);
  });
}

/** Who sees a bot in realm_bots: active administrators and its owner. */
function botAdministratorIds(ctx: ServiceContext, bot: UserRow): number[] {
  return listUsers(ctx.db, ctx.realmId)
    .filter((u) => u.is_active === 1 && (isAdmin(u) || u.id === bot.bot_owner_id))
    .map((u) => u.id);
}

/**
 * Drops every event queue of a user (deactivation): their key no longer works either, and a
 * poll waiting on one ends at once with the error any new request of theirs gets.
 */
function dropQueuesOf(ctx: ServiceContext, userId: number): void {
  for (const queue of ctx.queues.queuesOf(userId)) ctx.queues.delete(queue, accountDeactivated());
}

/**
 * DELETE /users/{user_id} (the family's deactivate_user_backend): an administrator
 * deactivates a user (not a bot) and the user's bots; only owners deactivate owners, and
 * never the only one.
 * Everyone gets realm_user remove (our feature level is before the family's is_active
 * update); the user's queues are dropped and their API key stops working at once.
 */
export function doDeactivateUser(
  ctx: ServiceContext,
  acting: UserRow,
  userId: number,
  notificationComment?: string,
): void {
  if (
    notificationComment !== undefined &&
    [...notificationComment].length > MAX_DEACTIVATION_COMMENT_LENGTH
  ) {
    throw badRequest(
      `deactivation_notification_comment is too long (limit: ${MAX_DEACTIVATION_COMMENT_LENGTH} characters)`,
    );
  }
  runAction(ctx, (events) => {
    const target = accessUserFor(ctx, acting, userId, { forAdmin: true });
    if (isOwner(target)) requireOwner(acting);
    if (isLastOwner(ctx, target)) throw badRequest('Cannot deactivate the only organization owner');
    if (notificationComment !== undefined)
      sendEmailAfterCommit(events, ctx.config, deactivationEmail(ctx, acting, target, notificationComment));
    // The user's bots go with them, as in the family.
    const bots = botsOwnedBy(ctx.db, target.id).filter((bot) => bot.is_active === 1);
    for (const account of [target, ...bots]) deactivateAccount(ctx, events, account);
  });
}

const MAX_DEACTIVATION_COMMENT_LENGTH = 2000;

/** The email a deactivated user gets when the administrator asks for one, with their comment. */
function deactivationEmail(ctx: ServiceContext, acting: UserRow, target: UserRow, comment: string): Email {
  const realmName = requireRealm(ctx.db).name;
  const lines = [
    `Hi ${target.full_name},`,
    '',
    `Your account ${target.delivery_email} on ${realmName} has been deactivated by ${acting.full_name}.`,
  ];
  if (comment !== '') lines.push('', 'The administrator provided the following comment:', '', comment);
  return {
    to: target.delivery_email,
    subject: `Notification of account deactivation on ${realmName}`,
    text: lines.join('\n'),
  };
}

/** One account off: realm_user remove to everyone (realm_bot remove too for a bot), queues dropped. */
function deactivateAccount(ctx: ServiceContext, events: EventBatch, account: UserRow): void {
  setUserActive(ctx.db, account.id, false);
  const person = { user_id: account.id, full_name: account.full_name };
  events.send({ type: 'realm_user', op: 'remove', person }, activeUserIds(ctx.db, ctx.realmId));
  if (account.is_bot)
    events.send({ type: 'realm_bot', op: 'remove', bot: person }, botAdministratorIds(ctx, account));
  events.afterCommit(() => dropQueuesOf(ctx, account.id));
}

/**
 * POST /users/{user_id}/reactivate: realm_user add to everyone, and what the deactivation
 * hid comes back: the user's groups, their subscriptions (peer_add) and their status.
 */
export function doReactivateUser(ctx: ServiceContext, acting: UserRow, userId: number): void {
  runAction(ctx, (events) => {
    const target = accessUserFor(ctx, acting, userId, {
      allowDeactivated: true,
      allowBots: true,
      forAdmin: true,
    });
    if (target.is_active === 1) throw badRequest('User is already active.');
    setUserActive(ctx.db, target.id, true);
    sendRealmUserAdd(ctx, events, target.id);
    if (target.is_bot) {
      const bot = formatBot({ ...target, is_active: 1 });
      events.send({ type: 'realm_bot', op: 'add', bot }, botAdministratorIds(ctx, target));
    }
    const everyone = activeUserIds(ctx.db, ctx.realmId);
    for (const groupId of [...systemGroupIdsOf(ctx, target), ...memberGroupIds(ctx.db, target.id)]) {
      events.send(
        { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [target.id] },
        everyone,
      );
    }
    sendPeerAdds(ctx, events, target.id);
    const status = userStatuses(ctx.db, ctx.realmId)[String(target.id)];
    if (status) events.send({ type: 'user_status', user_id: target.id, ...status }, everyone);
  });
}

/** peer_add for each stream the user is subscribed to, to who may see its subscribers. */
function sendPeerAdds(ctx: ServiceContext, events: EventBatch, userId: number): void {
  for (const sub of subscriptionsOf(ctx.db, userId)) {
    const stream = sub.active === 1 ? getStream(ctx.db, sub.stream_id) : undefined;
    if (!stream || stream.deactivated === 1) continue;
    const peers = subscriberViewerIds(ctx.db, stream).filter((id) => id !== userId);
    events.send({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: [userId] }, peers);
  }
}
