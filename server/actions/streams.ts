/**
 * Streams: who may create and configure them, the checks on their fields,
 * PATCH /streams/{stream_id} with the public/private transitions of the spec's state table,
 * and archiving (DELETE /streams/{stream_id}).
 */
import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context';
import { markStreamUnreadAsRead } from '../db/flags';
import { type RealmRow, realmSettings, requireRealm } from '../db/realm';
import {
  archiveStream,
  endSubscriptions,
  getStream,
  getStreamByName,
  type StreamRow,
  streamSubscriberIds,
  updateStream,
  usersWithUnreadIn,
} from '../db/streams';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import { formatStream, streamFigures } from '../formats/streams';
import { renderMarkdown } from '../markdown';
import {
  canAccessStream,
  isAdmin,
  isGuest,
  isModeratorOrAbove,
  isOwner,
  streamViewerIds,
  subscriberViewerIds,
} from '../permissions';
import { checkPrintable } from '../printable';
import {
  accessStreamById,
  accessStreamForDeleteOrUpdate,
  insufficientPermission,
  requireOwner,
} from './access';
import { sendDefaultStreams } from './default-streams';
import { type EventBatch, runAction } from './transaction';

/**
 * The interface family's server setting of the same name: web-public streams also need the
 * organization's enable_spectator_access and create_web_public_stream_policy.
 */
export const WEB_PUBLIC_STREAMS_ENABLED = true;

export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;

export const POLICY = { members: 1, admins: 2, fullMembers: 3, moderators: 4, nobody: 6, owners: 7 } as const;

/** Organization policies kept in realm.settings, with the defaults this server uses. */
const REALM_POLICY_DEFAULTS = {
  create_public_stream_policy: POLICY.members,
  create_private_stream_policy: POLICY.members,
  create_web_public_stream_policy: POLICY.admins,
  invite_to_stream_policy: POLICY.members,
  user_group_edit_policy: POLICY.members,
} as const;
export type RealmPolicy = keyof typeof REALM_POLICY_DEFAULTS;

export function realmPolicy(realm: RealmRow, name: RealmPolicy): number {
  const value = realmSettings(realm)[name];
  return typeof value === 'number' ? value : REALM_POLICY_DEFAULTS[name];
}

/** Who each policy value lets in, besides the guests no policy does. */
const POLICY_ALLOWS: Record<number, (user: UserRow) => boolean> = {
  [POLICY.members]: () => true,
  [POLICY.fullMembers]: () => true,
  [POLICY.admins]: isAdmin,
  [POLICY.moderators]: isModeratorOrAbove,
  [POLICY.owners]: isOwner,
};

/** Whether the user's role satisfies a policy value (guests never do; `nobody`: no one). */
export function allowedBy(user: UserRow, policy: number): boolean {
  return !isGuest(user) && (POLICY_ALLOWS[policy]?.(user) ?? false);
}

/** The three prerequisites of a web-public stream, in the interface family's order. */
export function checkWebPublicAllowed(user: UserRow, realm: RealmRow): void {
  if (!WEB_PUBLIC_STREAMS_ENABLED || realm.enable_spectator_access !== 1) {
    throw badRequest('Web-public streams are not enabled.');
  }
  if (!allowedBy(user, realmPolicy(realm, 'create_web_public_stream_policy'))) throw insufficientPermission();
}

/** A stream name as the interface family accepts it: trimmed, non-empty, short, printable. */
export function checkStreamName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw badRequest("Stream name can't be empty!");
  if ([...name].length > MAX_STREAM_NAME_LENGTH) {
    throw badRequest(`Stream name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  }
  checkPrintable(name, 'stream name');
  return name;
}

export function checkStreamDescription(description: string): string {
  if ([...description].length > MAX_STREAM_DESCRIPTION_LENGTH) {
    throw badRequest(`Stream description too long (limit: ${MAX_STREAM_DESCRIPTION_LENGTH} characters).`);
  }
  if (description.includes('\0')) throw badRequest('Stream description contains NULL (0x00) characters.');
  // Descriptions are one paragraph: line breaks become spaces, as the interface family does.
  return description.replace(/\r?\n/g, ' ');
}

export interface StreamChanges {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  streamPostPolicy?: number;
  messageRetentionDays?: number | null;
  isAnnouncementOnly?: boolean;
}

/**
 * The privacy fields after a change, per the state table: a public or web-public stream
 * always has public history, and a stream cannot be both private and web-public.
 */
export function resolvePrivacy(
  current: Pick<StreamRow, 'invite_only' | 'is_web_public' | 'history_public_to_subscribers'>,
  changes: Pick<StreamChanges, 'isPrivate' | 'isWebPublic' | 'historyPublicToSubscribers'>,
): { inviteOnly: boolean; isWebPublic: boolean; history: boolean } {
  const inviteOnly = changes.isPrivate ?? current.invite_only === 1;
  if (changes.isPrivate === true && changes.isWebPublic === true) throw badRequest('Invalid parameters');
  // Making a stream private ends its web-public access unless the request says otherwise.
  const isWebPublic =
    changes.isWebPublic ?? (changes.isPrivate === true ? false : current.is_web_public === 1);
  let history = changes.historyPublicToSubscribers;
  if (history === undefined) {
    // A privacy change without a history choice takes the kind's default.
    history =
      changes.isPrivate !== undefined && changes.isPrivate !== (current.invite_only === 1)
        ? !inviteOnly
        : current.history_public_to_subscribers === 1 || !inviteOnly || isWebPublic;
  }
  if (inviteOnly && isWebPublic) throw badRequest('Invalid parameters');
  if ((!inviteOnly || isWebPublic) && !history) throw badRequest('Invalid parameters');
  return { inviteOnly, isWebPublic, history };
}

type StreamEvent = { property: string; value: unknown; extra?: Record<string, unknown> };

/** PATCH /streams/{stream_id}: validated by the route; checks, writes, and notifies. */
export function doUpdateStream(
  ctx: ServiceContext,
  user: UserRow,
  streamId: number,
  changes: StreamChanges,
): void {
  runAction(ctx, (events) => {
    const before = accessStreamForDeleteOrUpdate(ctx, user, streamId);
    const realm = requireRealm(ctx.db);
    if (changes.messageRetentionDays !== undefined) requireOwner(user);
    const privacyChange =
      changes.isPrivate !== undefined ||
      changes.isWebPublic !== undefined ||
      changes.historyPublicToSubscribers !== undefined;
    // A combination the state table forbids is refused before any permission question.
    const next = privacyChange ? resolvePrivacy(before, changes) : null;
    if (next?.inviteOnly && before.invite_only === 0 && before.is_default === 1)
      throw badRequest('Default streams cannot be made private.');
    if (next?.isWebPublic && before.is_web_public !== 1) checkWebPublicAllowed(user, realm);

    const updates: Parameters<typeof updateStream>[2] = {};
    const sent: StreamEvent[] = [];
    if (changes.newName !== undefined && changes.newName !== before.name) {
      const existing = getStreamByName(ctx.db, ctx.realmId, changes.newName);
      if (existing && existing.id !== before.id) {
        throw badRequest(`Stream name '${changes.newName}' is already taken.`);
      }
      updates.name = changes.newName;
      sent.push({ property: 'name', value: changes.newName });
    }
    if (changes.description !== undefined && changes.description !== before.description) {
      const rendered = renderMarkdown(changes.description);
      updates.description = changes.description;
      updates.rendered_description = rendered;
      sent.push({
        property: 'description',
        value: changes.description,
        extra: { rendered_description: rendered },
      });
    }
    if (next) {
      const inviteOnlyChanged = next.inviteOnly !== (before.invite_only === 1);
      const webPublicChanged = next.isWebPublic !== (before.is_web_public === 1);
      const historyChanged = next.history !== (before.history_public_to_subscribers === 1);
      updates.invite_only = next.inviteOnly ? 1 : 0;
      updates.is_web_public = next.isWebPublic ? 1 : 0;
      updates.history_public_to_subscribers = next.history ? 1 : 0;
      if (inviteOnlyChanged) {
        // One event carries the whole new privacy, as the interface family sends it.
        sent.push({
          property: 'invite_only',
          value: next.inviteOnly,
          extra: { history_public_to_subscribers: next.history, is_web_public: next.isWebPublic },
        });
      } else {
        if (webPublicChanged) sent.push({ property: 'is_web_public', value: next.isWebPublic });
        if (historyChanged) sent.push({ property: 'history_public_to_subscribers', value: next.history });
      }
    }
    let policy = changes.streamPostPolicy;
    if (policy === undefined && changes.isAnnouncementOnly !== undefined) {
      policy = changes.isAnnouncementOnly ? 2 : 1;
    }
    if (policy !== undefined && policy !== before.stream_post_policy) {
      updates.stream_post_policy = policy;
      // Clients from before feature level 1 read the deprecated flag.
      sent.push({ property: 'is_announcement_only', value: policy === 2 });
      sent.push({ property: 'stream_post_policy', value: policy });
    }
    if (
      changes.messageRetentionDays !== undefined &&
      changes.messageRetentionDays !== before.message_retention_days
    ) {
      updates.message_retention_days = changes.messageRetentionDays;
      sent.push({ property: 'message_retention_days', value: changes.messageRetentionDays });
    }
    if (sent.length === 0) return;

    const viewersBefore = new Set(streamViewerIds(ctx.db, before));
    updateStream(ctx.db, streamId, updates);
    const after = getStream(ctx.db, streamId) as StreamRow;
    const viewersAfter = streamViewerIds(ctx.db, after);
    const kept = viewersAfter.filter((id) => viewersBefore.has(id));
    const gained = viewersAfter.filter((id) => !viewersBefore.has(id));
    const viewingAfter = new Set(viewersAfter);
    const lost = [...viewersBefore].filter((id) => !viewingAfter.has(id));

    if (lost.length > 0) {
      events.send(
        { type: 'stream', op: 'delete', streams: [formatStream(before, streamFigures(ctx.db, before))] },
        lost,
      );
    }
    for (const e of sent) {
      // A rename event names the stream by its old name, as the interface family does.
      const name = e.property === 'name' ? before.name : after.name;
      events.send(
        {
          type: 'stream',
          op: 'update',
          stream_id: streamId,
          name,
          property: e.property,
          value: e.value,
          ...e.extra,
        },
        kept,
      );
    }
    if (gained.length > 0) {
      events.send(
        { type: 'stream', op: 'create', streams: [formatStream(after, streamFigures(ctx.db, after))] },
        gained,
      );
      // Users who can now see the stream learn who is subscribed.
      const subscribers = streamSubscriberIds(ctx.db, streamId);
      const seeing = new Set(subscriberViewerIds(ctx.db, after));
      const peers = gained.filter((id) => seeing.has(id));
      if (subscribers.length > 0 && peers.length > 0) {
        events.send(
          { type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: subscribers },
          peers,
        );
      }
    }
  });
}

/**
 * The name an archived stream keeps (the family's): a short hash of its id, a marker, then
 * the old name, cut to the name limit, so the old name is free for a new stream.
 */
function archivedName(stream: StreamRow): string {
  const hash = createHash('sha512').update(String(stream.id)).digest('hex').slice(0, 7);
  return [...`${hash}!DEACTIVATED:${stream.name}`].slice(0, MAX_STREAM_NAME_LENGTH).join('');
}

/** Marks every unread copy of the stream's messages read, telling each owner of one. */
function markArchivedStreamRead(ctx: ServiceContext, events: EventBatch, streamId: number): void {
  for (const userId of usersWithUnreadIn(ctx.db, streamId)) {
    const messages = markStreamUnreadAsRead(ctx.db, userId, streamId);
    events.send({ type: 'update_message_flags', op: 'add', flag: 'read', messages, all: false }, [userId]);
  }
}

/**
 * DELETE /streams/{stream_id}: archives the stream. Its messages become read, its
 * subscribers lose their subscriptions, everyone who could see it gets a `stream` delete
 * (with its old name and privacy), and a default stream stops being one.
 */
export function doArchiveStream(ctx: ServiceContext, user: UserRow, streamId: number): void {
  runAction(ctx, (events) => {
    const stream = accessStreamForDeleteOrUpdate(ctx, user, streamId);
    const viewers = streamViewerIds(ctx.db, stream);
    const subscribers = streamSubscriberIds(ctx.db, stream.id);
    const deleted = formatStream(stream, streamFigures(ctx.db, stream));

    markArchivedStreamRead(ctx, events, stream.id);
    endSubscriptions(ctx.db, stream.id);
    archiveStream(ctx.db, stream.id, archivedName(stream));

    if (subscribers.length > 0) {
      events.send(
        { type: 'subscription', op: 'remove', subscriptions: [{ name: stream.name, stream_id: stream.id }] },
        subscribers,
      );
    }
    events.send({ type: 'stream', op: 'delete', streams: [deleted] }, viewers);
    if (stream.is_default === 1) sendDefaultStreams(ctx, events);
  });
}

/**
 * GET /streams/{stream_id}/members: the active subscribers of a stream whose members the user
 * may see (administrators: any stream of theirs; others: what they can access).
 */
export function streamMembers(ctx: ServiceContext, user: UserRow, streamId: number): number[] {
  const stream = accessStreamById(ctx, user, streamId, { allowRealmAdmin: true });
  return streamSubscriberIds(ctx.db, stream.id);
}

/** GET /get_stream_id: a stream the user can access, by name; "Invalid stream name 'x'" otherwise. */
export function streamIdByName(ctx: ServiceContext, user: UserRow, name: string): number {
  const stream = getStreamByName(ctx.db, ctx.realmId, name);
  if (!stream || !canAccessStream(ctx.db, user, stream)) throw badRequest(`Invalid stream name '${name}'`);
  return stream.id;
}
