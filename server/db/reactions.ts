/**
 * Emoji reactions on messages: one row per user, message and emoji (code and type). The
 * Message object reads them through db/messages.ts messageReactions.
 */
import type { Db } from './index';

/** An emoji as reactions store it: the code and type identify it, the name is for display. */
export interface ReactionEmoji {
  name: string;
  code: string;
  type: string;
}

/** One user's reaction with one emoji: the WHERE clause and its arguments. */
const ONE_REACTION = 'message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?';
const oneReaction = (messageId: number, userId: number, emoji: Omit<ReactionEmoji, 'name'>) => [
  messageId,
  userId,
  emoji.code,
  emoji.type,
];

/** Whether the user reacted to the message with this emoji (code and type). */
export function hasReaction(
  db: Db,
  messageId: number,
  userId: number,
  emoji: Omit<ReactionEmoji, 'name'>,
): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM reactions WHERE ${ONE_REACTION}`)
      .get(...oneReaction(messageId, userId, emoji)) !== undefined
  );
}

/** The name under which someone already reacted with this emoji to the message, if anyone did. */
export function existingReactionName(
  db: Db,
  messageId: number,
  emoji: Omit<ReactionEmoji, 'name'>,
): string | undefined {
  const row = db
    .prepare(
      // Every reaction with one emoji carries the first one's name (see actions/reactions.ts).
      'SELECT emoji_name FROM reactions WHERE message_id = ? AND emoji_code = ? AND reaction_type = ? LIMIT 1',
    )
    .get(messageId, emoji.code, emoji.type) as { emoji_name: string } | undefined;
  return row?.emoji_name;
}

export function insertReaction(db: Db, messageId: number, userId: number, emoji: ReactionEmoji): void {
  db.prepare(
    'INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (?, ?, ?, ?, ?)',
  ).run(messageId, userId, emoji.name, emoji.code, emoji.type);
}

/** Deletes the user's reaction; answers the name it had. */
export function deleteReaction(
  db: Db,
  messageId: number,
  userId: number,
  emoji: Omit<ReactionEmoji, 'name'>,
): string | undefined {
  const row = db
    .prepare(`DELETE FROM reactions WHERE ${ONE_REACTION} RETURNING emoji_name`)
    .get(...oneReaction(messageId, userId, emoji)) as { emoji_name: string } | undefined;
  return row?.emoji_name;
}
