/**
 * Emoji reactions (POST and DELETE /messages/{message_id}/reactions), after the interface
 * family's check_add_reaction / remove_reaction: the message must be one the user may read
 * (reacting to a public stream's history gives the user a historical copy); a reaction with
 * an emoji someone already used on the message is a vote for it and takes its name; the
 * `reaction` event goes to everyone who may see the message.
 */
import type { ServiceContext } from '../context';
import { insertHistoricalCopies } from '../db/flags';
import { type MessageRow, userIdsWithCopies } from '../db/messages';
import {
  deleteReaction,
  existingReactionName,
  hasReaction,
  insertReaction,
  type ReactionEmoji,
} from '../db/reactions';
import { getStream, streamSubscriberIds } from '../db/streams';
import type { UserRow } from '../db/users';
import { checkEmojiRequest, emojiNameToCode } from '../emoji';
import { ApiFailure, badRequest } from '../errors';
import { accessMessage } from './access';
import { runAction } from './transaction';

/** An emoji as the request named it: the name, and the code and type when sent. */
export interface EmojiRequest {
  name?: string | undefined;
  code?: string | undefined;
  type?: string | undefined;
}

/**
 * Who sees a change to a message: everyone with a copy, and the subscribers of a stream
 * whose history they may read (public, or history public to subscribers).
 */
function messageAudience(ctx: ServiceContext, message: MessageRow): number[] {
  const ids = new Set(userIdsWithCopies(ctx.db, [message.id]));
  const stream = message.stream_id === null ? undefined : getStream(ctx.db, message.stream_id);
  if (stream && (stream.invite_only === 0 || stream.history_public_to_subscribers === 1)) {
    for (const id of streamSubscriberIds(ctx.db, stream.id)) ids.add(id);
  }
  return [...ids];
}

function reactionEvent(op: 'add' | 'remove', user: UserRow, messageId: number, emoji: ReactionEmoji) {
  return {
    type: 'reaction',
    op,
    user_id: user.id,
    // Deprecated, kept for older clients.
    user: { user_id: user.id, email: user.email, full_name: user.full_name },
    message_id: messageId,
    emoji_name: emoji.name,
    emoji_code: emoji.code,
    reaction_type: emoji.type,
  };
}

/** The emoji to add: the code and type as sent, or those of the name ("Emoji 'x' does not exist"). */
function emojiToAdd(
  ctx: ServiceContext,
  messageId: number,
  request: EmojiRequest & { name: string },
): ReactionEmoji {
  const named =
    request.code === undefined || request.type === undefined
      ? emojiNameToCode(ctx.db, ctx.realmId, request.name)
      : { code: request.code, type: request.type };
  const emoji = { code: named.code, type: named.type };
  // A vote for an existing reaction keeps its name; a new one must be a valid emoji.
  const voted = existingReactionName(ctx.db, messageId, emoji);
  if (voted !== undefined) return { ...emoji, name: voted };
  checkEmojiRequest(ctx.db, ctx.realmId, request.name, emoji.code, emoji.type);
  return { ...emoji, name: request.name };
}

/** POST /messages/{message_id}/reactions. */
export function addReaction(
  ctx: ServiceContext,
  user: UserRow,
  messageId: number,
  request: EmojiRequest & { name: string },
): void {
  runAction(ctx, (events) => {
    const { row, bits } = accessMessage(ctx, user, messageId);
    const emoji = emojiToAdd(ctx, messageId, request);
    if (hasReaction(ctx.db, messageId, user.id, emoji))
      throw new ApiFailure(400, 'REACTION_ALREADY_EXISTS', 'Reaction already exists.');
    if (bits === undefined) insertHistoricalCopies(ctx.db, user.id, [messageId]);
    insertReaction(ctx.db, messageId, user.id, emoji);
    events.send(reactionEvent('add', user, messageId, emoji), messageAudience(ctx, row));
  });
}

/** DELETE /messages/{message_id}/reactions: by code (and type, unicode_emoji by default) or by name. */
export function removeReaction(
  ctx: ServiceContext,
  user: UserRow,
  messageId: number,
  request: EmojiRequest,
): void {
  runAction(ctx, (events) => {
    const { row } = accessMessage(ctx, user, messageId);
    let code = request.code;
    if (code === undefined) {
      if (request.name === undefined)
        throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
      code = emojiNameToCode(ctx.db, ctx.realmId, request.name).code;
    }
    const emoji = { code, type: request.type ?? 'unicode_emoji' };
    const name = deleteReaction(ctx.db, messageId, user.id, emoji);
    if (name === undefined) throw new ApiFailure(400, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    events.send(reactionEvent('remove', user, messageId, { ...emoji, name }), messageAudience(ctx, row));
  });
}
