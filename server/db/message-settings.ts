/**
 * The organization's message editing, moving, deleting and read-receipt settings, as the
 * message actions (edit, move, delete, history, read receipts) and the Message object need
 * them. Values and defaults come from realm-settings.ts (what PATCH /realm changes and
 * register shows), so the rules applied and the settings shown cannot differ; only the
 * topic-move time limit, which the organization cannot change at this feature level, is kept here.
 */
import type { Db } from './index';
import { realmSettings, requireRealm } from './realm';
import { realmSettingValue } from './realm-settings';

/** The family's policy values: who may do something (edit_topic_policy and the like). */
export const POLICY = { members: 1, admins: 2, fullMembers: 3, moderators: 4, everyone: 5 } as const;

export interface MessageSettings {
  allow_message_editing: boolean;
  /** null: no limit. */
  message_content_edit_limit_seconds: number | null;
  /** null: no limit. */
  message_content_delete_limit_seconds: number | null;
  allow_edit_history: boolean;
  /** Who may move messages to another topic (POLICY). */
  edit_topic_policy: number;
  /** Who may move messages to another stream (POLICY). */
  move_messages_between_streams_policy: number;
  /** Who may delete their own messages (POLICY); administrators always may. */
  delete_own_message_policy: number;
  /** null: no limit; moderators and administrators have none. */
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  enable_read_receipts: boolean;
}

/**
 * The time limits on moving messages (feature level 162 made them settings): until then the
 * family let users below moderator change topics of messages up to 3 days old, and move
 * messages between streams without a limit.
 */
const MOVE_LIMIT_DEFAULTS = {
  move_messages_within_stream_limit_seconds: 259_200,
  move_messages_between_streams_limit_seconds: null,
};

const isLimit = (v: unknown): v is number | null => v === null || (typeof v === 'number' && v > 0);

export function messageSettings(db: Db): MessageSettings {
  const realm = requireRealm(db);
  const value = (name: Parameters<typeof realmSettingValue>[1]) => realmSettingValue(realm, name);
  const limit = (name: keyof typeof MOVE_LIMIT_DEFAULTS): number | null => {
    const stored = realmSettings(realm)[name];
    return isLimit(stored) ? stored : MOVE_LIMIT_DEFAULTS[name];
  };
  return {
    allow_message_editing: value('allow_message_editing') !== false,
    message_content_edit_limit_seconds: value('message_content_edit_limit_seconds') as number | null,
    message_content_delete_limit_seconds: value('message_content_delete_limit_seconds') as number | null,
    allow_edit_history: value('allow_edit_history') !== false,
    edit_topic_policy: Number(value('edit_topic_policy')),
    move_messages_between_streams_policy: Number(value('move_messages_between_streams_policy')),
    delete_own_message_policy: Number(value('delete_own_message_policy')),
    move_messages_within_stream_limit_seconds: limit('move_messages_within_stream_limit_seconds'),
    move_messages_between_streams_limit_seconds: limit('move_messages_between_streams_limit_seconds'),
    enable_read_receipts: value('enable_read_receipts') !== false,
  };
}
