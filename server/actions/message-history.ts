/**
 * GET /messages/{message_id}/history: the message's versions, oldest first, rebuilt from its
 * stored edit_history (newest first, each entry holding what the edit replaced), as the
 * interface family's fill_edit_history_entries does. Refused where the organization does not
 * let users view edit history.
 */
import type { ServiceContext } from '../context';
import { messageSettings } from '../db/message-settings';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import { accessMessage } from './access';

interface StoredEdit {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  prev_stream?: number;
  stream?: number;
}

type Snapshot = Record<string, unknown>;

/** The HTML's text runs, each wrapped in a span of the class (tags kept as they are). */
function highlightText(html: string, className: string): string {
  return html.replace(/>([^<]+)</g, (_whole, text: string) =>
    text.trim() === '' ? `>${text}<` : `><span class="${className}">${text}</span><`,
  );
}

/**
 * content_html_diff between two renderings. A coarse diff: the new version's text marked
 * inserted, then the old version's marked deleted (the family's form for a replaced text).
 */
function htmlDiff(before: string, after: string): string {
  if (before === after) return `<div>${after}</div>`;
  return `<div>${highlightText(after, 'highlight_text_inserted')} ${highlightText(before, 'highlight_text_deleted')}</div>`;
}

/** Each version from the newest back: the state after the edit, and what the edit changed. */
function snapshots(
  current: { content: string; rendered: string; topic: string },
  edits: StoredEdit[],
): Snapshot[] {
  let { content, rendered, topic } = current;
  const result: Snapshot[] = [];
  for (const edit of edits) {
    const snapshot: Snapshot = {
      content,
      rendered_content: rendered,
      timestamp: edit.timestamp,
      topic,
      user_id: edit.user_id,
    };
    if (edit.prev_topic !== undefined) {
      topic = edit.prev_topic;
      snapshot.prev_topic = topic;
    }
    if (edit.prev_content !== undefined) {
      snapshot.prev_content = edit.prev_content;
      snapshot.prev_rendered_content = edit.prev_rendered_content ?? '';
      snapshot.content_html_diff = htmlDiff(edit.prev_rendered_content ?? '', rendered);
      content = edit.prev_content;
      rendered = edit.prev_rendered_content ?? '';
    }
    if (edit.prev_stream !== undefined) {
      snapshot.prev_stream = edit.prev_stream;
      snapshot.stream = edit.stream;
    }
    result.push(snapshot);
  }
  return [...result, { content, rendered_content: rendered, topic }];
}

export function messageHistory(ctx: ServiceContext, user: UserRow, messageId: number): Snapshot[] {
  if (!messageSettings(ctx.db).allow_edit_history)
    throw badRequest('Message edit history is disabled in this organization');
  const { row } = accessMessage(ctx, user, messageId);
  const edits = row.edit_history ? (JSON.parse(row.edit_history) as StoredEdit[]) : [];
  const versions = snapshots(
    { content: row.content, rendered: row.rendered_content, topic: row.topic },
    edits,
  );
  // The original version: sent by the sender, at the sending time.
  Object.assign(versions[versions.length - 1] as Snapshot, {
    timestamp: row.date_sent,
    user_id: row.sender_id,
  });
  return versions.reverse();
}
