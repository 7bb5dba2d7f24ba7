/** POST /users/me/status: the user's status text and emoji, and the legacy `away`. */
import type { ServiceContext } from '../context';
import { getUserStatus, setUserStatus } from '../db/user-data';
import { activeUserIds, getUserById, readUserSettings, writeUserSettings } from '../db/users';
import { checkEmojiRequest, emojiNameToCode } from '../emoji';
import { badRequest } from '../errors';
import { presenceEnabledChanged } from './presence';
import { sendSettingChanged } from './settings';
import { runAction } from './transaction';

export const MAX_STATUS_TEXT_LENGTH = 60;

/** The parameters as passed: undefined means "leave unchanged". */
export interface StatusRequest {
  statusText?: string | undefined;
  away?: boolean | undefined;
  emojiName?: string | undefined;
  emojiCode?: string | undefined;
  reactionType?: string | undefined;
}

/** A checked change: emoji fields are all set or all undefined. */
export interface StatusChange {
  statusText?: string;
  away?: boolean;
  emoji?: { name: string; code: string; type: string };
}

/** Validates a request in the interface family's order, with its error texts. */
export function checkStatusRequest(ctx: ServiceContext, req: StatusRequest): StatusChange {
  const statusText = req.statusText?.trim();
  if (statusText !== undefined && [...statusText].length > MAX_STATUS_TEXT_LENGTH) {
    throw badRequest(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
  // The spec's table: an emoji code or type without a name is refused as such, even when
  // nothing else was passed.
  if (req.emojiName === undefined && (req.emojiCode !== undefined || req.reactionType !== undefined)) {
    throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  if (req.away === undefined && statusText === undefined && req.emojiName === undefined) {
    throw badRequest('Client did not pass any new values.');
  }
  const change: StatusChange = {};
  if (statusText !== undefined) change.statusText = statusText;
  if (req.away !== undefined) change.away = req.away;

  const { emojiName } = req;
  if (emojiName === '') {
    // An empty name clears the emoji, whatever code or type came with it.
    change.emoji = { name: '', code: '', type: 'unicode_emoji' };
  } else if (emojiName !== undefined) {
    let code = req.emojiCode;
    let type = req.reactionType;
    if (code === undefined || type === undefined) {
      // Simple clients send only the name: look up what it currently stands for.
      const found = emojiNameToCode(ctx.db, ctx.realmId, emojiName);
      code ??= found.code;
      type ??= found.type;
    }
    checkEmojiRequest(ctx.db, ctx.realmId, emojiName, code, type);
    change.emoji = { name: emojiName, code, type };
  }
  return change;
}

/**
 * Stores the change and tells everyone in the organization: a user_status event with what
 * was passed. `away` is the inverse of presence_enabled (feature level 148), so changing it
 * also changes that setting, with the setting's own event to the user's clients.
 */
export function doUpdateStatus(ctx: ServiceContext, userId: number, change: StatusChange): void {
  runAction(ctx, (events) => {
    const user = getUserById(ctx.db, userId);
    if (!user) throw new Error(`User ${userId} vanished`);
    const event: Record<string, unknown> = { type: 'user_status', user_id: user.id };

    if (change.away !== undefined) {
      const presenceEnabled = !change.away;
      if (readUserSettings(user).presence_enabled !== presenceEnabled) {
        writeUserSettings(ctx.db, user, { presence_enabled: presenceEnabled });
        sendSettingChanged(events, user, 'presence_enabled', presenceEnabled);
        presenceEnabledChanged(ctx, events, user, presenceEnabled);
      }
      event.away = change.away;
    }

    if (change.statusText !== undefined || change.emoji !== undefined) {
      const current = getUserStatus(ctx.db, user.id);
      setUserStatus(ctx.db, {
        userId: user.id,
        statusText: change.statusText ?? current?.status_text ?? '',
        emojiName: change.emoji?.name ?? current?.emoji_name ?? '',
        emojiCode: change.emoji?.code ?? current?.emoji_code ?? '',
        reactionType: change.emoji?.type ?? current?.reaction_type ?? 'unicode_emoji',
        now: Math.floor(Date.now() / 1000),
      });
      if (change.statusText !== undefined) event.status_text = change.statusText;
      if (change.emoji !== undefined) {
        event.emoji_name = change.emoji.name;
        event.emoji_code = change.emoji.code;
        event.reaction_type = change.emoji.type;
      }
    }
    events.send(event as { type: string }, activeUserIds(ctx.db, user.realm_id));
  });
}
