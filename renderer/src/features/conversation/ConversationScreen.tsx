import type { Narrow } from '../../../../shared/domain/narrow';

/** STUB (owned by the conversation-view helper): replaced by the real screen. */
export function ConversationScreen(_props: { narrow: Narrow; messageId?: number | undefined }) {
  return null;
}
