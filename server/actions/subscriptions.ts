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
  activeSubscribersAmong,
  getStream,
  getStreamByName,
  insertStream,
  isSubscribed,
  type StreamRow,
  type SubscriptionColumn,
  type SubscriptionRow,
  setSubscriptionColumn,
  streamSubscriberIds,
  subscribeMany,
  subscriptionRows,
  unsubscribeMany,
  writeMark,
} from '../db/streams';
import {
  activeUserRoles,
  BOT_TYPES,
  firstActiveOwnerId,
  getUserByEmail,
  getUserById,
  insertUser,
  type PrincipalRow,
  principalRows,
  type UserRow,
  usersByIds,
} from '../db/users';
import { badRequest } from '../errors';
import type { EventQueue } from '../events/queue';
import {
  formatStream,
  formatSubscription,
  NOTIFICATION_DEFAULTS,
  type NotificationProperty,
  notificationDefaults,
  type StreamFigures,
  streamFigures,
} from '../formats/streams';
import { renderMarkdown } from '../markdown';
import { canAccessStream, canSeeStream, canSeeSubscribers, isAdmin } from '../permissions';
import {
  accessStreamById,
  accessStreamByName,
  accessUserById,
  insufficientPermission,
  noSuchUser,
  requireOwner,
} from './access';
import { sendMessageIn } from './messages';
import { yieldToInput } from './read';
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

/**
 * Active users of the realm named by principals; "No such user" for anything else, for the
 * first such principal in the order given. The ids are looked up in one statement, and only
 * the columns the actions read: a request may name thousands of people.
 */
export function resolvePrincipals(ctx: ServiceContext, principals: readonly Principal[]): PrincipalRow[] {
  const ids = principals.filter((p): p is number => typeof p === 'number');
  const byId = new Map(principalRows(ctx.db, ids).map((user) => [user.id, user]));
  const users = new Map<number, PrincipalRow>();
  for (const principal of principals) {
    let user: PrincipalRow;
    if (typeof principal === 'number') {
      // accessUserById's rule, over the rows read at once.
      const row = byId.get(principal);
      if (!row || row.realm_id !== ctx.realmId || row.is_active !== 1) throw noSuchUser();
      user = row;
    } else {
      user = principalByEmail(ctx, principal);
    }
    users.set(user.id, user);
  }
  return [...users.values()];
}

/** What every new subscriber's `add` event says of one stream, read once per slice. */
interface StreamForEvents {
  stream: StreamRow;
  figures: StreamFigures;
  /** The active subscribers once the slice's rows are written, ascending. */
  members: number[];
}

/** The `add` event of a user's new subscriptions, in the queue's notification-settings shape. */
function subscriptionEvent(user: UserRow, streams: (StreamForEvents & { sub: SubscriptionRow })[]) {
  // Only for clients that cannot take null, read when the first such queue is built.
  let defaults: ReturnType<typeof notificationDefaults> | undefined;
  const defaultsFor = (queue: EventQueue) => {
    if (queue.settings.capabilities.notification_settings_null) return null;
    defaults ??= notificationDefaults(user);
    return defaults;
  };
  return (queue: EventQueue) => ({
    type: 'subscription',
    op: 'add',
    subscriptions: streams.map((o) =>
      formatSubscription(o.stream, o.sub, o.figures, o.members, defaultsFor(queue)),
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

/**
 * Subscription rows one transaction of a subscription request writes at most. A request
 * naming 2 000 people and 10 streams is 20 000 rows: written at once, with the events they
 * cause, they would hold the event loop for far more than the 50 ms any other request, poll
 * or heartbeat may wait. So the people are taken in slices of about this many rows (each
 * person's streams in one slice), one transaction each, with a turn of the event loop between.
 */
export const SUBSCRIBE_SLICE_ROWS = 2000;

/**
 * What the events of a request's slices say of its streams and who sees them, read once and
 * kept from slice to slice while nothing else writes to the database (`mark`, db/streams.ts's
 * writeMark, taken after each slice's own writes): reading every stream's subscribers and
 * every user's role again for each slice would cost more than the slice.
 */
interface SubscribeView {
  mark: string;
  /** The realm's active users and their roles, read when first needed. */
  audience: Pick<UserRow, 'id' | 'role'>[] | null;
  /** By stream id: its figures and active subscribers, the request's own additions included. */
  streams: Map<number, { figures: StreamFigures; subscribers: Set<number> }>;
}

/** A subscription request checked, with what its slices have done so far. */
interface SubscribePlan {
  users: PrincipalRow[];
  /** The streams to subscribe to, existing ones first, then those this request created. */
  streams: StreamRow[];
  /** How many streams at the start of `streams` existed before the request. */
  existingCount: number;
  created: StreamRow[];
  unauthorized: string[];
  /** The index in `users` of the next person to subscribe. */
  next: number;
  subscribed: Record<string, string[]>;
  already: Record<string, string[]>;
  view: SubscribeView | null;
}

/**
 * POST /users/me/subscriptions. Everything is checked, and any new stream created, in the
 * first slice's transaction: a request that fails changes nothing. The people are then
 * subscribed slice by slice (SUBSCRIBE_SLICE_ROWS), each slice committed with its own events
 * (sent only after that commit), yielding to the event loop between slices; the answer goes
 * once every slice is done. A request small enough for one slice is one transaction, as before.
 *
 * If the server stops between slices (crash, kill -9), the slices committed so far stay: the
 * streams created (with their announcement), and everyone of those slices subscribed to every
 * stream, their clients told; nobody of a later slice is subscribed to any of them. Each slice
 * is a state some sequence of smaller requests would have left, and repeating the request
 * finishes the job (the people already done answer as already_subscribed).
 *
 * Who may do what is decided once, in the first slice: a slice does not check again whether
 * the actor is still an administrator or a person still active. A stream archived while the
 * request runs gets no further subscribers.
 */
export async function doSubscribe(
  ctx: ServiceContext,
  actor: UserRow,
  req: SubscribeRequest,
): Promise<SubscribeResult> {
  const plan = runAction(ctx, (events) => {
    const checked = planSubscribe(ctx, actor, req);
    subscribeSlice(ctx, events, checked, true);
    if (req.announce) announceNewStreams(ctx, events, actor, checked.created);
    return checked;
  });
  while (plan.next < plan.users.length) {
    await yieldToInput();
    runAction(ctx, (events) => {
      // Anything written since the last slice (by anyone: the announcement too) may have
      // changed what the view holds.
      if (plan.view && plan.view.mark !== writeMark(ctx.db)) plan.view = null;
      refreshStreams(ctx, plan);
      subscribeSlice(ctx, events, plan, false);
    });
  }
  const result: SubscribeResult = { subscribed: plan.subscribed, already_subscribed: plan.already };
  if (!req.authorizationErrorsFatal) result.unauthorized = plan.unauthorized;
  return result;
}

/** The request checked (principals, permission, names, access) and its missing streams created. */
function planSubscribe(ctx: ServiceContext, actor: UserRow, req: SubscribeRequest): SubscribePlan {
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
  return {
    users,
    streams: [...allowed, ...created],
    existingCount: allowed.length,
    created,
    unauthorized,
    next: 0,
    subscribed: {},
    already: {},
    view: null,
  };
}

/** The streams' rows as they are now, leaving out any archived since the last slice. */
function refreshStreams(ctx: ServiceContext, plan: SubscribePlan): void {
  const fresh = (list: StreamRow[]) =>
    list.flatMap((s) => {
      const row = getStream(ctx.db, s.id);
      return row && row.deactivated === 0 ? [row] : [];
    });
  const existing = fresh(plan.streams.slice(0, plan.existingCount));
  plan.streams = [...existing, ...fresh(plan.streams.slice(plan.existingCount))];
  plan.existingCount = existing.length;
}

/**
 * Of the realm's active users (id and role), those for whom `may` holds, told whether each
 * is a subscriber: permissions.ts's streamViewerIds and subscriberViewerIds, over rows read
 * once for every stream, not once per stream.
 */
function audienceWho(
  audience: readonly Pick<UserRow, 'id' | 'role'>[],
  subscribers: ReadonlySet<number>,
  may: (user: Pick<UserRow, 'role'>, subscribed: boolean) => boolean,
): number[] {
  return audience.filter((u) => may(u, subscribers.has(u.id))).map((u) => u.id);
}

/**
 * What a person with an event queue weighs in a slice, in rows (as measured: about 0.5 ms
 * against 5 µs a row): their `add` event is built in it, and their waiting poll answered
 * right after it.
 */
const QUEUED_PERSON_ROWS = 100;

/**
 * Subscribes the plan's next people, about SUBSCRIBE_SLICE_ROWS rows, and queues the events
 * the interface family sends, in its order: everyone who can see a new stream learns of it
 * (first slice), then the new subscribers get their subscriptions, then everyone else who
 * may see the members gets peer_add.
 */
function subscribeSlice(ctx: ServiceContext, events: EventBatch, plan: SubscribePlan, first: boolean): void {
  const streams = plan.streams;
  const streamIds = streams.map((s) => s.id);
  const hasQueue = (userId: number) => ctx.queues.queuesOf(userId).length > 0;
  const users: PrincipalRow[] = [];
  // The first slice has checked every principal already, which weighs about a row each.
  const start = first ? plan.users.length : 0;
  for (
    let weight = start;
    plan.next < plan.users.length && (weight < SUBSCRIBE_SLICE_ROWS || users.length === 0);
    plan.next++
  ) {
    const user = plan.users[plan.next] as PrincipalRow;
    users.push(user);
    weight += Math.max(1, streams.length) + (hasQueue(user.id) ? QUEUED_PERSON_ROWS : 0);
  }

  const note = (into: Record<string, string[]>, email: string, name: string) => {
    const names = into[email];
    if (names) names.push(name);
    else into[email] = [name];
  };
  const push = (into: Map<number, number[]>, key: number, value: number) => {
    const list = into.get(key);
    if (list) list.push(value);
    else into.set(key, [value]);
  };
  const newByUser = new Map<number, number[]>();
  const newByStream = new Map<number, number[]>();
  const addedByUser = subscribeMany(
    ctx.db,
    users.map((u) => u.id),
    streamIds,
  );
  for (const user of users) {
    const added = addedByUser.get(user.id);
    for (const stream of streams) {
      if (!added?.has(stream.id)) {
        note(plan.already, user.email, stream.name);
        continue;
      }
      note(plan.subscribed, user.email, stream.name);
      push(newByUser, user.id, stream.id);
      push(newByStream, stream.id, user.id);
    }
  }

  // What the events say of each stream, as of this slice's rows: read once per request while
  // nothing else writes (SubscribeView), never once per new subscriber (a stream's members
  // are thousands of ids).
  const view = plan.view ?? { mark: '', audience: null, streams: new Map() };
  plan.view = view;
  // Taken after this slice's own writes: commits do not move it, other writes do.
  view.mark = writeMark(ctx.db);
  for (const [streamId, userIds] of newByStream) {
    const known = view.streams.get(streamId);
    if (known) for (const id of userIds) known.subscribers.add(id);
  }
  // Events reach only people with an event queue: the audience of this slice's events is
  // those of the realm's active users who hold one now (queues come and go between slices).
  let listening: Pick<UserRow, 'id' | 'role'>[] | undefined;
  const audience = () => {
    view.audience ??= activeUserRoles(ctx.db, ctx.realmId);
    listening ??= view.audience.filter((u) => hasQueue(u.id));
    return listening;
  };
  const byId = new Map(streams.map((s) => [s.id, s]));
  const read = new Map<number, { stream: StreamRow; figures: StreamFigures; subscribers: Set<number> }>();
  const about = (streamId: number) => {
    let o = read.get(streamId);
    if (!o) {
      const stream = byId.get(streamId) as StreamRow;
      let known = view.streams.get(streamId);
      if (!known) {
        const figures = streamFigures(ctx.db, stream);
        known = { figures, subscribers: new Set(streamSubscriberIds(ctx.db, streamId)) };
        view.streams.set(streamId, known);
      }
      o = { stream, figures: known.figures, subscribers: known.subscribers };
      read.set(streamId, o);
    }
    return o;
  };
  const members = new Map<number, number[]>();
  const membersOf = (streamId: number) => {
    let list = members.get(streamId);
    if (!list) {
      list = [...about(streamId).subscribers].sort((a, b) => a - b);
      members.set(streamId, list);
    }
    return list;
  };

  const createEvent = (streamId: number) => {
    const o = about(streamId);
    return { type: 'stream', op: 'create', streams: [formatStream(o.stream, o.figures)] };
  };
  if (first) {
    for (const stream of plan.created) {
      const o = about(stream.id);
      const viewers = audienceWho(audience(), o.subscribers, (u, sub) => canSeeStream(u, o.stream, sub));
      events.send(createEvent(stream.id), viewers);
    }
  }
  // Streams that a new subscriber could not see before (private ones, public ones for
  // guests) are introduced to them first, as if they had just been created. A stream this
  // request created counts as existing after the first slice.
  const usersById = new Map(users.map((u) => [u.id, u]));
  for (const stream of first ? streams.slice(0, plan.existingCount) : streams) {
    const newcomers = (newByStream.get(stream.id) ?? []).filter(
      (userId) => !canSeeStream(usersById.get(userId) as PrincipalRow, stream, false),
    );
    if (newcomers.length > 0) events.send(createEvent(stream.id), newcomers);
  }
  // Only people with an event queue get an `add` event: building one for anyone else (most
  // of thousands of people) would be work thrown away. Their rows are read in one statement each.
  const queued = [...newByUser.keys()].filter(hasQueue);
  if (queued.length > 0) {
    const rows = new Map(usersByIds(ctx.db, queued).map((u) => [u.id, u]));
    const subs = new Map(
      subscriptionRows(ctx.db, queued, streamIds).map((sub) => [`${sub.user_id}:${sub.stream_id}`, sub]),
    );
    for (const userId of queued) {
      const objects = (newByUser.get(userId) ?? []).map((streamId) => {
        const sub = subs.get(`${userId}:${streamId}`);
        if (!sub) throw new Error('subscription vanished');
        return { ...about(streamId), members: membersOf(streamId), sub };
      });
      events.sendBuilt([userId], subscriptionEvent(rows.get(userId) as UserRow, objects));
    }
  }
  for (const [streamId, userIds] of newByStream) {
    const o = about(streamId);
    const added = new Set(userIds);
    const peers = audienceWho(audience(), o.subscribers, (u, sub) =>
      canSeeSubscribers(u, o.stream, sub),
    ).filter((id) => !added.has(id));
    if (peers.length > 0) {
      events.send({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: userIds }, peers);
    }
  }
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
 * Whether the actor may unsubscribe people other than themselves and their bots from a stream
 * they can access (the family's rule): as an administrator or as a member of the stream's
 * can_remove_subscribers_group. Themselves and the bots they own they always may.
 */
function mayUnsubscribeOthers(ctx: ServiceContext, actor: UserRow, stream: StreamRow): boolean {
  return isAdmin(actor) || isGroupMember(ctx, stream.can_remove_subscribers_group_id, actor.id);
}

const isSelfOrOwnBot = (actor: UserRow, target: PrincipalRow) =>
  target.id === actor.id || (target.is_bot === 1 && target.bot_owner_id === actor.id);

/**
 * Subscription rows one transaction of an unsubscription request ends at most, as
 * SUBSCRIBE_SLICE_ROWS for subscribing: an administrator removing 2 000 people from 10 streams
 * ends 20 000 rows, with their events far more than 50 ms of work.
 */
export const UNSUBSCRIBE_SLICE_ROWS = 2000;

/**
 * What a person with an event queue weighs in a slice, in rows: their `remove` event (a few
 * names, beside subscribe's member lists) is built in it, and their waiting poll answered
 * right after it.
 */
const QUEUED_LEAVER_ROWS = 20;

/** An unsubscription request checked, with what its slices have done so far. */
interface UnsubscribePlan {
  users: PrincipalRow[];
  /** The streams as the request named them (their names answer), without repeats. */
  streams: StreamRow[];
  /** The index in `users` of the next person to unsubscribe. */
  next: number;
  removed: string[];
  notRemoved: string[];
}

/**
 * DELETE /users/me/subscriptions: every named stream must exist for the actor, and every
 * principal be theirs to unsubscribe, before anything changes: the checks run in the first
 * slice's transaction, so a refused request changes nothing. The people are then unsubscribed
 * slice by slice (about UNSUBSCRIBE_SLICE_ROWS rows each, each person's streams in one slice),
 * each slice committed with its own events, yielding to the event loop between slices; the
 * answer goes once every slice is done. Answers the streams someone left (removed) and those
 * someone was not in (not_removed), as one transaction would have.
 *
 * If the server stops between slices, everyone of the slices committed has left every stream,
 * their clients and the streams' other members told; nobody of a later slice has left any.
 * Repeating the request finishes the job. As for subscribing, who may do what is decided once,
 * in the first slice.
 */
export async function doUnsubscribe(
  ctx: ServiceContext,
  actor: UserRow,
  streamNames: readonly string[],
  principals: readonly Principal[] | undefined,
): Promise<UnsubscribeResult> {
  const plan = runAction(ctx, (events) => {
    const checked = planUnsubscribe(ctx, actor, streamNames, principals);
    unsubscribeSlice(ctx, events, checked, true);
    return checked;
  });
  while (plan.next < plan.users.length) {
    await yieldToInput();
    runAction(ctx, (events) => unsubscribeSlice(ctx, events, plan, false));
  }
  return { removed: plan.removed, not_removed: plan.notRemoved };
}

/** The request checked: principals, the streams (as the actor may see them), the permission. */
function planUnsubscribe(
  ctx: ServiceContext,
  actor: UserRow,
  streamNames: readonly string[],
  principals: readonly Principal[] | undefined,
): UnsubscribePlan {
  const users = principals === undefined ? [actor] : resolvePrincipals(ctx, principals);
  const streams: StreamRow[] = [];
  for (const raw of streamNames) {
    // A private stream the user cannot see is reported exactly like a missing one.
    const stream = accessStreamByName(ctx, actor, raw.trim(), { allowRealmAdmin: true });
    if (!streams.some((s) => s.id === stream.id)) streams.push(stream);
  }
  // The rule depends on the person only as far as they are the actor or the actor's bot.
  if (users.some((user) => !isSelfOrOwnBot(actor, user))) {
    for (const stream of streams) {
      if (!mayUnsubscribeOthers(ctx, actor, stream)) throw insufficientPermission();
    }
  }
  return { users, streams, next: 0, removed: [], notRemoved: [] };
}

/**
 * Unsubscribes the plan's next people, about UNSUBSCRIBE_SLICE_ROWS rows, and queues the
 * family's events: each leaver's `remove` (and a stream `delete` for a private stream they no
 * longer see), then `peer_remove` to everyone else who may see the stream's members.
 */
function unsubscribeSlice(
  ctx: ServiceContext,
  events: EventBatch,
  plan: UnsubscribePlan,
  first: boolean,
): void {
  const hasQueue = (userId: number) => ctx.queues.queuesOf(userId).length > 0;
  const users: PrincipalRow[] = [];
  // The first slice has checked every principal already, which weighs about a row each.
  for (
    let weight = first ? plan.users.length : 0;
    plan.next < plan.users.length && (weight < UNSUBSCRIBE_SLICE_ROWS || users.length === 0);
    plan.next++
  ) {
    const user = plan.users[plan.next] as PrincipalRow;
    users.push(user);
    weight += Math.max(1, plan.streams.length) + (hasQueue(user.id) ? QUEUED_LEAVER_ROWS : 0);
  }
  // The streams as they are now, for the events (the answer keeps the names as requested).
  const streams = first ? plan.streams : plan.streams.map((s) => getStream(ctx.db, s.id) ?? s);
  const left = unsubscribeMany(
    ctx.db,
    users.map((u) => u.id),
    streams.map((s) => s.id),
  );

  const removedByUser = new Map<number, StreamRow[]>();
  const removedByStream = new Map<number, number[]>();
  const push = <K, V>(into: Map<K, V[]>, key: K, value: V) => {
    const list = into.get(key);
    if (list) list.push(value);
    else into.set(key, [value]);
  };
  // In the order one transaction went: person by person, each person's streams as named.
  for (const user of users) {
    plan.streams.forEach((requested, i) => {
      const stream = streams[i] as StreamRow;
      const into = left.get(user.id)?.has(stream.id) ? plan.removed : plan.notRemoved;
      if (!into.includes(requested.name)) into.push(requested.name);
      if (into === plan.notRemoved) return;
      push(removedByUser, user.id, stream);
      push(removedByStream, stream.id, user.id);
    });
  }

  const figures = new Map<number, StreamFigures>();
  const figuresOf = (stream: StreamRow) => {
    let known = figures.get(stream.id);
    if (!known) {
      known = streamFigures(ctx.db, stream);
      figures.set(stream.id, known);
    }
    return known;
  };
  const usersById = new Map(users.map((u) => [u.id, u]));
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
    const user = usersById.get(userId) as PrincipalRow;
    const gone = list.filter((s) => !canSeeStream(user, s, false));
    if (gone.length > 0) {
      events.send({ type: 'stream', op: 'delete', streams: gone.map((s) => formatStream(s, figuresOf(s))) }, [
        userId,
      ]);
    }
  }
  if (removedByStream.size === 0) return;
  // Events reach only people with an event queue: the peers are looked for among the realm's
  // active users who hold one now, and only their subscriptions are read (a stream's members
  // number thousands: reading them for every slice would cost more than the slice).
  const listening = activeUserRoles(ctx.db, ctx.realmId).filter((u) => hasQueue(u.id));
  const members = activeSubscribersAmong(
    ctx.db,
    listening.map((u) => u.id),
    [...removedByStream.keys()],
  );
  for (const [streamId, userIds] of removedByStream) {
    const stream = streams.find((s) => s.id === streamId) as StreamRow;
    const gone = new Set(userIds);
    const subscribers = members.get(streamId) ?? new Set<number>();
    const peers = audienceWho(listening, subscribers, (u, sub) => canSeeSubscribers(u, stream, sub)).filter(
      (id) => !gone.has(id),
    );
    if (peers.length > 0) {
      events.send(
        { type: 'subscription', op: 'peer_remove', stream_ids: [streamId], user_ids: userIds },
        peers,
      );
    }
  }
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
