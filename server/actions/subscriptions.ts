/**
 * Subscriptions: subscribing (creating missing streams), unsubscribing, and the personal
 * per-subscription properties, each with the events the interface family sends.
 */
import { ROLES, SUBSCRIPTION_PROPERTIES } from '../../shared/protocol';
import { generateApiKey } from '../auth';
import type { ServiceContext } from '../context';
import { realmSettings, requireRealm, SYSTEM_GROUPS, systemGroupId } from '../db/realm';
import { getUserGroup } from '../db/realm-data';
import {
  getStream,
  getStreamByName,
  getSubscription,
  insertStream,
  isSubscribed,
  type StreamRow,
  type SubscriptionColumn,
  setSubscriptionColumn,
  streamSubscriberIds,
  subscribe,
  unsubscribe,
} from '../db/streams';
import {
  BOT_TYPES,
  firstActiveOwnerId,
  getUserByEmail,
  getUserById,
  insertUser,
  type UserRow,
} from '../db/users';
import { badRequest } from '../errors';
import type { EventQueue } from '../events/queue';
import {
  formatStream,
  formatSubscription,
  NOTIFICATION_DEFAULTS,
  type NotificationProperty,
  notificationDefaults,
  streamFigures,
} from '../formats/streams';
import { renderMarkdown } from '../markdown';
import { canAccessStream, canSeeStream, isAdmin, streamViewerIds, subscriberViewerIds } from '../permissions';
import {
  accessStreamById,
  accessStreamByName,
  accessUserById,
  insufficientPermission,
  noSuchUser,
  requireOwner,
} from './access';
import { sendMessageIn } from './messages';
import {
  allowedBy,
  checkStreamDescription,
  checkStreamName,
  checkWebPublicAllowed,
  realmPolicy,
} from './streams';
import { type EventBatch, runAction } from './transaction';
import { sendRealmUserAdd } from './users';

/** A principal as sent: a user id or a display email. */
export type Principal = number | string;

/** An active user by display email or real address, as accessUserById checks one by id. */
function principalByEmail(ctx: ServiceContext, email: string): UserRow {
  const user = getUserByEmail(ctx.db, ctx.realmId, email);
  if (user?.is_active !== 1) throw noSuchUser();
  return user;
}

/** Active users of the realm named by principals; "No such user" for anything else. */
export function resolvePrincipals(ctx: ServiceContext, principals: readonly Principal[]): UserRow[] {
  const users = new Map<number, UserRow>();
  for (const principal of principals) {
    const user =
      typeof principal === 'number' ? accessUserById(ctx, principal) : principalByEmail(ctx, principal);
    users.set(user.id, user);
  }
  return [...users.values()];
}

/** The stream object of a subscription, in the queue's notification-settings shape. */
function subscriptionEvent(ctx: ServiceContext, userId: number, streamIds: number[]) {
  const user = getUserById(ctx.db, userId) as UserRow;
  const defaults = notificationDefaults(user);
  const objects = streamIds.map((streamId) => {
    const stream = getStream(ctx.db, streamId) as StreamRow;
    const sub = getSubscription(ctx.db, userId, streamId);
    if (!sub) throw new Error('subscription vanished');
    return {
      stream,
      sub,
      figures: streamFigures(ctx.db, stream),
      members: streamSubscriberIds(ctx.db, streamId),
    };
  });
  return (queue: EventQueue) => ({
    type: 'subscription',
    op: 'add',
    subscriptions: objects.map((o) =>
      formatSubscription(
        o.stream,
        o.sub,
        o.figures,
        o.members,
        queue.settings.capabilities.notification_settings_null ? null : defaults,
      ),
    ),
  });
}

export interface NewStreamOptions {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers?: boolean;
  streamPostPolicy: number;
  /** undefined: not given (the organization's setting applies, stored as null). */
  messageRetentionDays?: number | null;
}

export interface SubscribeRequest {
  streams: { name: string; description?: string }[];
  /** undefined: the requesting user. */
  principals?: readonly Principal[];
  authorizationErrorsFatal: boolean;
  announce: boolean;
  create: NewStreamOptions;
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
}

export function doSubscribe(ctx: ServiceContext, actor: UserRow, req: SubscribeRequest): SubscribeResult {
  return runAction(ctx, (events) => subscribeIn(ctx, events, actor, req));
}

function subscribeIn(ctx: ServiceContext, events: EventBatch, actor: UserRow, req: SubscribeRequest) {
  const realm = requireRealm(ctx.db);
  const users = req.principals === undefined ? [actor] : resolvePrincipals(ctx, req.principals);
  if (
    users.some((u) => u.id !== actor.id) &&
    !allowedBy(actor, realmPolicy(realm, 'invite_to_stream_policy'))
  ) {
    throw insufficientPermission();
  }

  // Names first: one bad name rejects the request before anything is created.
  const wanted = new Map<string, { name: string; description: string }>();
  for (const s of req.streams) {
    const name = checkStreamName(s.name);
    const description = checkStreamDescription(s.description ?? '');
    if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), { name, description });
  }
  const existing: StreamRow[] = [];
  const missing: { name: string; description: string }[] = [];
  for (const s of wanted.values()) {
    const stream = getStreamByName(ctx.db, ctx.realmId, s.name);
    if (stream) existing.push(stream);
    else missing.push(s);
  }

  const unauthorized: string[] = [];
  const allowed: StreamRow[] = [];
  for (const stream of existing) {
    if (canAccessStream(ctx.db, actor, stream)) allowed.push(stream);
    else if (req.authorizationErrorsFatal) throw badRequest(`Unable to access stream (${stream.name}).`);
    else unauthorized.push(stream.name);
  }

  const created: StreamRow[] = [];
  if (missing.length > 0) {
    const o = req.create;
    if (o.inviteOnly && o.isWebPublic) throw badRequest('Invalid parameters');
    if (o.isWebPublic) checkWebPublicAllowed(actor, realm);
    const policy = o.inviteOnly ? 'create_private_stream_policy' : 'create_public_stream_policy';
    if (!allowedBy(actor, realmPolicy(realm, policy))) throw insufficientPermission();
    if (o.messageRetentionDays !== undefined) requireOwner(actor);
    // Public and web-public streams always have public history (state table).
    const history = o.inviteOnly ? (o.historyPublicToSubscribers ?? false) : true;
    const admins = systemGroupId(ctx.db, ctx.realmId, SYSTEM_GROUPS.administrators);
    const now = Math.floor(Date.now() / 1000);
    for (const s of missing) {
      const id = insertStream(ctx.db, {
        realmId: ctx.realmId,
        name: s.name,
        description: s.description,
        renderedDescription: renderMarkdown(s.description),
        dateCreated: now,
        inviteOnly: o.inviteOnly,
        isWebPublic: o.isWebPublic,
        historyPublicToSubscribers: history,
        streamPostPolicy: o.streamPostPolicy,
        messageRetentionDays: o.messageRetentionDays ?? null,
        canRemoveSubscribersGroupId: admins,
      });
      created.push(getStream(ctx.db, id) as StreamRow);
    }
  }

  const subscribed: Record<string, string[]> = {};
  const already: Record<string, string[]> = {};
  const note = (into: Record<string, string[]>, email: string, name: string) => {
    into[email] = [...(into[email] ?? []), name];
  };
  const newByUser = new Map<number, number[]>();
  const newByStream = new Map<number, number[]>();
  for (const user of users) {
    for (const stream of [...allowed, ...created]) {
      if (isSubscribed(ctx.db, user.id, stream.id)) {
        note(already, user.email, stream.name);
        continue;
      }
      subscribe(ctx.db, user.id, stream.id);
      note(subscribed, user.email, stream.name);
      newByUser.set(user.id, [...(newByUser.get(user.id) ?? []), stream.id]);
      newByStream.set(stream.id, [...(newByStream.get(stream.id) ?? []), user.id]);
    }
  }

  // Everyone who can see a new stream learns of it (public: the organization; private: its
  // subscribers and the administrators), then the subscribers get their subscriptions, then
  // everyone else who may see the members gets peer_add.
  for (const stream of created) {
    const row = getStream(ctx.db, stream.id) as StreamRow;
    events.send(
      { type: 'stream', op: 'create', streams: [formatStream(row, streamFigures(ctx.db, row))] },
      streamViewerIds(ctx.db, row),
    );
  }
  // Existing streams that a new subscriber could not see before (private ones, public ones
  // for guests) are introduced to them first, as if they had just been created.
  for (const stream of allowed) {
    const newcomers = (newByStream.get(stream.id) ?? []).filter((userId) => {
      const user = users.find((u) => u.id === userId) as UserRow;
      return !canSeeStream(user, stream, false);
    });
    if (newcomers.length > 0) {
      const row = getStream(ctx.db, stream.id) as StreamRow;
      events.send(
        { type: 'stream', op: 'create', streams: [formatStream(row, streamFigures(ctx.db, row))] },
        newcomers,
      );
    }
  }
  for (const [userId, streamIds] of newByUser)
    events.sendBuilt([userId], subscriptionEvent(ctx, userId, streamIds));
  for (const [streamId, userIds] of newByStream) {
    const row = getStream(ctx.db, streamId) as StreamRow;
    const added = new Set(userIds);
    const peers = subscriberViewerIds(ctx.db, row).filter((id) => !added.has(id));
    if (peers.length > 0) {
      events.send({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: userIds }, peers);
    }
  }

  if (req.announce) announceNewStreams(ctx, events, actor, created);

  const result: SubscribeResult = { subscribed, already_subscribed: already };
  if (!req.authorizationErrorsFatal) result.unauthorized = unauthorized;
  return result;
}

/** The sender of the service's own notices, as the interface family's Notification Bot. */
export const NOTIFICATION_BOT = { email: 'notification-bot@confab.invalid', fullName: 'Notification Bot' };
export const NEW_STREAMS_TOPIC = 'new streams';

/** The bot, created the first time it is needed (and announced to everyone like any new user). */
export function notificationBot(ctx: ServiceContext, events: EventBatch, actor: UserRow): UserRow {
  const existing = getUserByEmail(ctx.db, ctx.realmId, NOTIFICATION_BOT.email);
  if (existing) return existing;
  const id = insertUser(ctx.db, {
    realmId: ctx.realmId,
    email: NOTIFICATION_BOT.email,
    fullName: NOTIFICATION_BOT.fullName,
    passwordHash: null,
    apiKey: generateApiKey(),
    role: ROLES.member,
    isBot: true,
    botType: BOT_TYPES.generic,
    // Every bot of the User object has an owner (shared/protocol): the first organization owner.
    botOwnerId: firstActiveOwnerId(ctx.db, ctx.realmId) ?? actor.id,
    dateJoinedMs: Date.now(),
    settings: {},
  });
  sendRealmUserAdd(ctx, events, id);
  return getUserById(ctx.db, id) as UserRow;
}

/**
 * The organization's announcement stream: realm setting notifications_stream_id (-1: none),
 * else `general`, the stream the interface family makes the default announcement stream.
 */
export function announcementStream(ctx: ServiceContext): StreamRow | undefined {
  const configured = realmSettings(requireRealm(ctx.db)).notifications_stream_id;
  const stream =
    typeof configured === 'number'
      ? getStream(ctx.db, configured)
      : getStreamByName(ctx.db, ctx.realmId, 'general');
  return stream && stream.realm_id === ctx.realmId && stream.deactivated === 0 ? stream : undefined;
}

/** announce: the notification bot names the new public streams (private names stay private). */
function announceNewStreams(
  ctx: ServiceContext,
  events: EventBatch,
  actor: UserRow,
  created: StreamRow[],
): void {
  const announced = created.filter((s) => s.invite_only === 0);
  const target = announcementStream(ctx);
  if (announced.length === 0 || !target) return;
  const who = `@_**${actor.full_name}|${actor.id}**`;
  const links = announced.map((s) => `#**${s.name}**`).join(', ');
  const content =
    announced.length === 1
      ? `${who} created a new stream ${links}.`
      : `${who} created the following streams: ${links}.`;
  sendMessageIn(ctx, events, {
    senderId: notificationBot(ctx, events, actor).id,
    to: { type: 'stream', stream: target.id, topic: NEW_STREAMS_TOPIC },
    content,
    internal: true,
  });
}

export interface UnsubscribeResult {
  removed: string[];
  not_removed: string[];
}

/** Whether the user is a member of the group (system groups follow the users' roles). */
function isGroupMember(ctx: ServiceContext, groupId: number, userId: number): boolean {
  const members = getUserGroup(ctx.db, ctx.realmId, groupId)?.members;
  return Array.isArray(members) && members.includes(userId);
}

/**
 * Whether the actor may unsubscribe the target from a stream they can access (the family's
 * rule): themselves and the bots they own always; anyone else only as an administrator or as
 * a member of the stream's can_remove_subscribers_group.
 */
function mayUnsubscribe(ctx: ServiceContext, actor: UserRow, target: UserRow, stream: StreamRow): boolean {
  if (target.id === actor.id || (target.is_bot === 1 && target.bot_owner_id === actor.id)) return true;
  return isAdmin(actor) || isGroupMember(ctx, stream.can_remove_subscribers_group_id, actor.id);
}

/**
 * DELETE /users/me/subscriptions: every named stream must exist for the actor, and every
 * principal be theirs to unsubscribe (mayUnsubscribe), before anything changes. Answers the
 * streams someone left (removed) and those someone was not in (not_removed).
 */
export function doUnsubscribe(
  ctx: ServiceContext,
  actor: UserRow,
  streamNames: readonly string[],
  principals: readonly Principal[] | undefined,
): UnsubscribeResult {
  return runAction(ctx, (events) => {
    const users = principals === undefined ? [actor] : resolvePrincipals(ctx, principals);
    const streams: StreamRow[] = [];
    for (const raw of streamNames) {
      // A private stream the user cannot see is reported exactly like a missing one.
      const stream = accessStreamByName(ctx, actor, raw.trim(), { allowRealmAdmin: true });
      if (!streams.some((s) => s.id === stream.id)) streams.push(stream);
    }
    for (const user of users) {
      for (const stream of streams) {
        if (!mayUnsubscribe(ctx, actor, user, stream)) throw insufficientPermission();
      }
    }

    const removed: string[] = [];
    const notRemoved: string[] = [];
    const removedByUser = new Map<number, StreamRow[]>();
    const removedByStream = new Map<number, number[]>();
    for (const user of users) {
      for (const stream of streams) {
        if (!isSubscribed(ctx.db, user.id, stream.id)) {
          if (!notRemoved.includes(stream.name)) notRemoved.push(stream.name);
          continue;
        }
        unsubscribe(ctx.db, user.id, stream.id);
        if (!removed.includes(stream.name)) removed.push(stream.name);
        removedByUser.set(user.id, [...(removedByUser.get(user.id) ?? []), stream]);
        removedByStream.set(stream.id, [...(removedByStream.get(stream.id) ?? []), user.id]);
      }
    }

    for (const [userId, list] of removedByUser) {
      events.send(
        {
          type: 'subscription',
          op: 'remove',
          subscriptions: list.map((s) => ({ name: s.name, stream_id: s.id })),
        },
        [userId],
      );
      // Someone who left a private stream no longer sees it.
      const user = getUserById(ctx.db, userId) as UserRow;
      const gone = list.filter((s) => !canSeeStream(user, s, false));
      if (gone.length > 0) {
        events.send(
          {
            type: 'stream',
            op: 'delete',
            streams: gone.map((s) => formatStream(s, streamFigures(ctx.db, s))),
          },
          [userId],
        );
      }
    }
    for (const [streamId, userIds] of removedByStream) {
      const row = getStream(ctx.db, streamId) as StreamRow;
      const gone = new Set(userIds);
      const peers = subscriberViewerIds(ctx.db, row).filter((id) => !gone.has(id));
      if (peers.length > 0) {
        events.send(
          { type: 'subscription', op: 'peer_remove', stream_ids: [streamId], user_ids: userIds },
          peers,
        );
      }
    }
    return { removed, not_removed: notRemoved };
  });
}

/** The properties of shared/protocol's table, the same one the app's IPC payloads are typed from. */
const isSubscriptionProperty = (name: string): boolean => Object.hasOwn(SUBSCRIPTION_PROPERTIES, name);
const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export interface PropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

/** The stored column and value of one change, or the interface family's error. */
function checkPropertyChange(
  ctx: ServiceContext,
  user: UserRow,
  change: PropertyChange,
): { column: SubscriptionColumn; stored: string | number | null } {
  const { property, value } = change;
  if (!isSubscriptionProperty(property)) throw badRequest(`Unknown subscription property: ${property}`);
  const stream = accessStreamById(ctx, user, change.stream_id, { allowRealmAdmin: true });
  if (!isSubscribed(ctx.db, user.id, stream.id)) throw badRequest(`Not subscribed to stream id ${stream.id}`);
  if (property === 'color') {
    if (typeof value !== 'string' || !COLOR.test(value))
      throw badRequest('color is not a valid hex color code');
    return { column: 'color', stored: value };
  }
  // Notification properties take null: "inherit the user's setting".
  if (value === null && property in NOTIFICATION_DEFAULTS) {
    return { column: property as SubscriptionColumn, stored: null };
  }
  if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  if (property === 'in_home_view') return { column: 'is_muted', stored: value ? 0 : 1 };
  return { column: property as SubscriptionColumn, stored: value ? 1 : 0 };
}

/** POST /users/me/subscriptions/properties: all changes are checked before any is written. */
export function doUpdateSubscriptionProperties(
  ctx: ServiceContext,
  user: UserRow,
  changes: readonly PropertyChange[],
): void {
  runAction(ctx, (events) => {
    const checked = changes.map((change) => ({ change, ...checkPropertyChange(ctx, user, change) }));
    const defaults = notificationDefaults(user);
    for (const { change, column, stored } of checked) {
      setSubscriptionColumn(ctx.db, user.id, change.stream_id, column, stored);
      const send = (property: string, value: unknown) =>
        events.sendBuilt([user.id], (queue) => ({
          type: 'subscription',
          op: 'update',
          stream_id: change.stream_id,
          property,
          // Clients that cannot take null get the value it stands for.
          value:
            value === null && !queue.settings.capabilities.notification_settings_null
              ? defaults[property as NotificationProperty]
              : value,
        }));
      if (column === 'is_muted') {
        // Both names of the one property change (feature level 139): in_home_view is the inverse.
        send('in_home_view', stored === 0);
        send('is_muted', stored === 1);
      } else {
        send(change.property, column === 'color' ? stored : stored === null ? null : stored === 1);
      }
    }
  });
}

/**
 * GET /users/{user_id}/subscriptions/{stream_id}: whether an active human user of the
 * organization is subscribed to a stream the requester can access (the family's
 * access_user_by_id refuses bots: "No such user").
 */
export function isUserSubscribed(
  ctx: ServiceContext,
  actor: UserRow,
  userId: number,
  streamId: number,
): boolean {
  const target = accessUserById(ctx, userId);
  if (target.is_bot === 1) throw noSuchUser();
  const stream = accessStreamById(ctx, actor, streamId, { allowRealmAdmin: true });
  return isSubscribed(ctx.db, target.id, stream.id);
}
