/**
 * The pure rules behind a message's actions: who may edit, move and delete it (the
 * organization's policies and time limits, as the service checks them in
 * server/actions/message-{edit,delete,policy}.ts), reactions grouped by emoji with who
 * reacted, the family's `#narrow/...` link to a message and its quote-and-reply block. No
 * React here: the components ask these and say why an action is unavailable.
 */
import { privateRecipientIds } from '../../../../../shared/domain/narrow';
import type { Message, MessageReaction } from '../../../../../shared/protocol/messages';

// ---- permissions -------------------------------------------------------------------------------

/** The family's policy values (server/db/message-settings.ts POLICY). */
export const POLICY = { members: 1, admins: 2, fullMembers: 3, moderators: 4, everyone: 5 } as const;

/** Roles: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest. */
export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

const isAdminRole = (role: number): boolean => role <= ROLE.admin;
const isModeratorOrAbove = (role: number): boolean => role <= ROLE.moderator;

/** Whether a policy value lets a user of this role act (the service's policyAllows). */
export function policyAllows(role: number, policy: number): boolean {
  switch (policy) {
    case POLICY.everyone:
      return true;
    case POLICY.members:
    case POLICY.fullMembers:
      return role !== ROLE.guest;
    case POLICY.moderators:
      return isModeratorOrAbove(role);
    default:
      return isAdminRole(role);
  }
}

/** The organization's settings the actions read (the realm substore, keys without `realm_`). */
export interface MessagePolicies {
  allow_message_editing?: boolean | undefined;
  /** Seconds; null: no limit. */
  message_content_edit_limit_seconds?: number | null | undefined;
  /** Seconds; null: no limit. */
  message_content_delete_limit_seconds?: number | null | undefined;
  delete_own_message_policy?: number | undefined;
  edit_topic_policy?: number | undefined;
  move_messages_between_streams_policy?: number | undefined;
  /** Seconds; null: no limit; absent: the service's default of 3 days. */
  move_messages_within_stream_limit_seconds?: number | null | undefined;
  /** Seconds; null: no limit. */
  move_messages_between_streams_limit_seconds?: number | null | undefined;
  allow_edit_history?: boolean | undefined;
}

/** Who is acting, and when (Unix seconds). */
export interface Actor {
  userId: number;
  role: number;
  now: number;
}

/** Whether an action is available; when not, the sentence that says why. */
export type Decision = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: Decision = { allowed: true };
const no = (reason: string): Decision => ({ allowed: false, reason });

/** The service's defaults where register says nothing (server/db/realm-settings.ts). */
const DEFAULTS = {
  message_content_edit_limit_seconds: 600,
  message_content_delete_limit_seconds: 600,
  delete_own_message_policy: POLICY.admins,
  edit_topic_policy: POLICY.everyone,
  move_messages_between_streams_policy: POLICY.admins,
  move_messages_within_stream_limit_seconds: 259_200,
  move_messages_between_streams_limit_seconds: null,
} as const;

const limitOf = (value: number | null | undefined, fallback: number | null): number | null =>
  value === undefined ? fallback : value;

type Sent = Pick<Message, 'sender_id' | 'timestamp'>;

/** Editing a message's content: its sender, while the organization allows it and within the limit. */
export function editDecision(message: Sent, policies: MessagePolicies, actor: Actor): Decision {
  if (policies.allow_message_editing === false)
    return no('Your organization has turned off message editing.');
  if (message.sender_id !== actor.userId) return no('You can only edit your own messages.');
  const limit = limitOf(
    policies.message_content_edit_limit_seconds,
    DEFAULTS.message_content_edit_limit_seconds,
  );
  if (limit !== null && actor.now - message.timestamp > limit)
    return no('The time limit for editing this message has passed.');
  return ALLOWED;
}

/** What kinds of move a user may make of a message. */
export interface MoveRights {
  /** To another topic of its stream. */
  topic: boolean;
  /** To another stream. */
  stream: boolean;
}

/** Moving a stream message to another topic or stream, per the two policies and their limits. */
export function moveDecision(
  message: Sent & Pick<Message, 'type'>,
  policies: MessagePolicies,
  actor: Actor,
): Decision & { rights: MoveRights } {
  const none = { topic: false, stream: false };
  if (message.type !== 'stream') return { ...no('Private messages cannot be moved.'), rights: none };
  const age = actor.now - message.timestamp;
  const late = (limit: number | null) => !isModeratorOrAbove(actor.role) && limit !== null && age > limit;
  const topicLimit = limitOf(
    policies.move_messages_within_stream_limit_seconds,
    DEFAULTS.move_messages_within_stream_limit_seconds,
  );
  const streamLimit = limitOf(
    policies.move_messages_between_streams_limit_seconds,
    DEFAULTS.move_messages_between_streams_limit_seconds,
  );
  const topicPolicy = policyAllows(actor.role, policies.edit_topic_policy ?? DEFAULTS.edit_topic_policy);
  const streamPolicy = policyAllows(
    actor.role,
    policies.move_messages_between_streams_policy ?? DEFAULTS.move_messages_between_streams_policy,
  );
  const rights = { topic: topicPolicy && !late(topicLimit), stream: streamPolicy && !late(streamLimit) };
  if (rights.topic || rights.stream) return { allowed: true, rights };
  if (!topicPolicy && !streamPolicy)
    return { ...no('Your organization does not let you move messages.'), rights };
  return { ...no('The time limit for moving this message has passed.'), rights };
}

/** Deleting: administrators always; a sender their own, per the policy and within the limit. */
export function deleteDecision(message: Sent, policies: MessagePolicies, actor: Actor): Decision {
  if (isAdminRole(actor.role)) return ALLOWED;
  if (message.sender_id !== actor.userId) return no('You can only delete your own messages.');
  if (!policyAllows(actor.role, policies.delete_own_message_policy ?? DEFAULTS.delete_own_message_policy))
    return no('Your organization does not let you delete your messages.');
  const limit = limitOf(
    policies.message_content_delete_limit_seconds,
    DEFAULTS.message_content_delete_limit_seconds,
  );
  if (limit !== null && actor.now - message.timestamp > limit)
    return no('The time limit for deleting this message has passed.');
  return ALLOWED;
}

/** Viewing the edit history: wherever the organization allows it. */
export function historyDecision(policies: MessagePolicies): Decision {
  return policies.allow_edit_history === false
    ? no('Your organization has turned off viewing edit history.')
    : ALLOWED;
}

// ---- reactions ---------------------------------------------------------------------------------

/** One chip: everyone who reacted with the same emoji. */
export interface ReactionGroup {
  /** `reaction_type:emoji_code`, what makes two reactions the same emoji. */
  key: string;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  /** In the order they reacted. */
  userIds: number[];
  /** Whether the user is among them. */
  reacted: boolean;
}

/** The reactions grouped by emoji, in the order each emoji was first used. */
export function groupReactions(reactions: readonly MessageReaction[], ownUserId: number): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        emojiName: r.emoji_name,
        emojiCode: r.emoji_code,
        reactionType: r.reaction_type,
        userIds: [],
        reacted: false,
      };
      groups.set(key, group);
    }
    if (!group.userIds.includes(r.user_id)) group.userIds.push(r.user_id);
    if (r.user_id === ownUserId) group.reacted = true;
  }
  return [...groups.values()];
}

/** The family shows who reacted instead of counts while there are at most this many reactions. */
export const MAX_REACTIONS_WITH_NAMES = 3;

/** Whether the chips show names instead of counts (`display_emoji_reaction_users`, few reactions). */
export function showReactionNames(groups: readonly ReactionGroup[], displayUsers: boolean): boolean {
  if (!displayUsers) return false;
  return groups.reduce((sum, g) => sum + g.userIds.length, 0) <= MAX_REACTIONS_WITH_NAMES;
}

/** "You", "Alice", "Alice and Bob", "You, Alice and Bob". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The people of a group by name, the user first as "You". */
export function reactorNames(
  group: ReactionGroup,
  ownUserId: number,
  nameOf: (userId: number) => string,
): string[] {
  const others = group.userIds.filter((id) => id !== ownUserId).map(nameOf);
  return group.reacted ? ['You', ...others] : others;
}

/** The chip's tooltip: "You and Alice reacted with :tada:". */
export function reactionTitle(names: readonly string[], emojiName: string): string {
  return `${joinNames(names)} reacted with :${emojiName}:`;
}

/** The request that toggles the user's reaction (POST adds, DELETE removes). */
export function reactionToggle(
  messageId: number,
  emoji: { emojiName: string; emojiCode: string; reactionType: string },
  reacted: boolean,
): { method: 'POST' | 'DELETE'; path: string; params: Record<string, string> } {
  return {
    method: reacted ? 'DELETE' : 'POST',
    path: `/messages/${messageId}/reactions`,
    params: { emoji_name: emoji.emojiName, emoji_code: emoji.emojiCode, reaction_type: emoji.reactionType },
  };
}

// ---- links and quotes --------------------------------------------------------------------------

const HASH_REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

/** The family's encoding of one part of a `#narrow/...` link (encodeHashComponent). */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text).replace(/[%().]/g, (c) => HASH_REPLACEMENTS[c] ?? c);
}

/** What a link to a message needs besides the message: the server and the stream's name. */
export interface LinkContext {
  serverUrl: string;
  /** The stream's current name (the message's display_recipient when unknown). */
  streamName?: string | undefined;
}

/**
 * The family's permanent link to a message in its conversation:
 * `{server}/#narrow/stream/{id}-{name}/topic/{topic}/near/{id}`, or for a private message
 * `{server}/#narrow/dm/{ids}-dm/near/{id}` by everyone in it (`-group` for three or more).
 */
export function messageLink(
  message: Pick<Message, 'id' | 'type' | 'stream_id' | 'subject' | 'display_recipient' | 'sender_id'>,
  context: LinkContext,
): string {
  const base = `${context.serverUrl.replace(/\/+$/, '')}/#narrow`;
  const near = `/near/${message.id}`;
  if (message.type === 'stream') {
    const name =
      context.streamName ?? (typeof message.display_recipient === 'string' ? message.display_recipient : '');
    const slug = encodeHashComponent(`${message.stream_id ?? ''}-${name.replaceAll(' ', '-')}`);
    return `${base}/stream/${slug}/topic/${encodeHashComponent(message.subject)}${near}`;
  }
  // Everyone in the conversation, the reader included, as the family's pm_perma_link.
  const ids = privateRecipientIds(message);
  const suffix = ids.length >= 3 ? 'group' : 'dm';
  return `${base}/dm/${ids.join(',')}-${suffix}${near}`;
}

/** A fence longer than any a line of the content opens with (the family's get_unused_fence). */
export function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) {
    length = Math.max(length, (match[1]?.length ?? 0) + 1);
  }
  return '`'.repeat(length);
}

/** The family's quote-and-reply block: who said it, a link to it, the raw Markdown quoted. */
export function quoteBlock(
  message: Pick<Message, 'sender_full_name' | 'sender_id'>,
  link: string,
  rawContent: string,
): string {
  const fence = unusedFence(rawContent);
  return `@_**${message.sender_full_name}|${message.sender_id}** [said](${link}):\n${fence}quote\n${rawContent}\n${fence}\n`;
}

// ---- mark as unread from here ------------------------------------------------------------------

/** The family's batch for POST /messages/flags/narrow (the service works on at most 5000). */
export const UNREAD_BATCH = 5000;

/** What POST /messages/flags/narrow answers (the fields read here). */
export interface FlagsNarrowAnswer {
  processed_count?: number;
  updated_count?: number;
  last_processed_id?: number | null;
  found_newest?: boolean;
}

/**
 * Marks unread every message of the narrow from `messageId` on, a batch at a time: the first
 * batch from the message itself, each next one after the last processed message, until the
 * service says it reached the newest. Answers how many messages it marked unread.
 */
export async function markUnreadFrom(
  messageId: number,
  narrow: unknown[],
  send: (params: Record<string, unknown>) => Promise<FlagsNarrowAnswer>,
  batch = UNREAD_BATCH,
): Promise<number> {
  let anchor = messageId;
  let includeAnchor = true;
  let updated = 0;
  for (;;) {
    const answer = await send({
      anchor: String(anchor),
      include_anchor: includeAnchor,
      num_before: 0,
      num_after: batch,
      narrow,
      op: 'remove',
      flag: 'read',
    });
    updated += answer.updated_count ?? 0;
    const last = answer.last_processed_id;
    if (answer.found_newest !== false || typeof last !== 'number' || (answer.processed_count ?? 0) === 0)
      return updated;
    anchor = last;
    includeAnchor = false;
  }
}

// ---- edit history ------------------------------------------------------------------------------

/** One version of GET /messages/{id}/history (the fields shown). */
export interface HistoryVersion {
  topic?: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  content?: string;
  rendered_content?: string;
  prev_content?: string;
  /** Unix seconds. */
  timestamp?: number;
  user_id?: number | null;
}

/** What made a version: "Sent by Alice", "Edited by Bob", "Moved by Bob", "Edited and moved by Bob". */
export function describeVersion(
  version: HistoryVersion,
  original: boolean,
  nameOf: (userId: number) => string,
): string {
  const who = typeof version.user_id === 'number' ? nameOf(version.user_id) : 'an unknown user';
  if (original) return `Sent by ${who}`;
  const edited = version.prev_content !== undefined;
  const moved = version.prev_topic !== undefined || version.prev_stream !== undefined;
  if (edited && moved) return `Edited and moved by ${who}`;
  return `${moved ? 'Moved' : 'Edited'} by ${who}`;
}
