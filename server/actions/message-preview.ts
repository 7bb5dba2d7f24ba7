/**
 * Read-only views of messages beyond GET /messages: POST /messages/render (a preview of
 * content rendered as a message would be, mentions resolved) and GET /messages/matches_narrow
 * (which of some messages a narrow keeps, with the search terms highlighted as GET /messages
 * would show them in a search).
 */
import type { ServiceContext } from '../context';
import { narrowMatches } from '../db/narrow';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import { escapeHtml } from '../markdown';
import { messageQuery, type NarrowTerm } from './message-fetch';
import { renderWithMentions } from './messages';

/** The content rendered as a message, nothing stored. */
export function renderPreview(ctx: ServiceContext, content: string): string {
  if (content.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  return renderWithMentions(ctx, content).html;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Wraps each (case-insensitive) occurrence of the terms in HTML text, not in tags, in a highlight. */
function highlight(html: string, terms: string[]): string {
  if (terms.length === 0) return html;
  const pattern = new RegExp(terms.map((t) => escapeRegExp(escapeHtml(t))).join('|'), 'gi');
  return html.replace(
    /(^|>)([^<]+)/g,
    (_whole, open: string, text: string) =>
      `${open}${text.replace(pattern, (match) => `<span class="highlight">${match}</span>`)}`,
  );
}

/** The messages among `ids` that the narrow keeps for the user, with their search rendering. */
export function matchesNarrow(
  ctx: ServiceContext,
  user: UserRow,
  ids: readonly number[],
  narrow: NarrowTerm[],
): Record<string, { match_content: string; match_subject: string }> {
  const terms = narrow
    .filter((t) => t.operator === 'search' && !t.negated && typeof t.operand === 'string')
    .map((t) => String(t.operand).trim())
    .filter((t) => t !== '');
  const messages: Record<string, { match_content: string; match_subject: string }> = {};
  for (const row of narrowMatches(ctx.db, messageQuery(ctx, user, narrow), ids)) {
    messages[String(row.id)] = {
      match_content: highlight(row.rendered_content, terms),
      match_subject: highlight(escapeHtml(row.topic), terms),
    };
  }
  return messages;
}
