/**
 * Drafts synchronized between a user's clients: validation as the interface family does it,
 * storage, and `drafts` events to the user's own queues (never to anyone else).
 */
import type { DraftParam } from '../../shared/protocol';
import type { ServiceContext } from '../context';
import { type DraftRow, deleteDraft, formatDraft, getDraft, insertDraft, updateDraft } from '../db/user-data';
import { readUserSettings, type UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import { accessStreamById, accessUserById, invalidRecipientId } from './access';
import { runAction } from './transaction';

/** A draft as the client sends it (shape checked by server/params, not yet against the database). */
type DraftInput = DraftParam;

/** A draft ready to store. */
interface CheckedDraft {
  type: DraftRow['type'];
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

const MAX_TOPIC_LENGTH = 60;
const MAX_CONTENT_LENGTH = 10000;

function draftNotFound(): ApiFailure {
  return new ApiFailure(404, 'BAD_REQUEST', 'Draft does not exist');
}

/** Every draft endpoint refuses while the user has turned synchronization off. */
export function checkDraftsEnabled(user: UserRow): void {
  if (!readUserSettings(user).enable_drafts_synchronization) {
    throw badRequest('User has disabled synchronizing drafts.');
  }
}

function truncate(text: string, max: number, marker: string): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max - [...marker].length).join('') + marker;
}

/** 9999-12-31T23:59:59Z in Unix seconds. */
export const MAX_DRAFT_TIMESTAMP = 253_402_300_799;

/**
 * Checks a draft against the database and normalizes it as the family stores it: content
 * trimmed at the end, topic only for stream drafts, private recipients sorted without the
 * user (unless the draft is to the user alone).
 */
function checkDraft(ctx: ServiceContext, user: UserRow, draft: DraftInput, nowSeconds: number): CheckedDraft {
  const content = draft.content.trimEnd().replace(/^\n+/, '');
  if (content.includes('\0')) throw badRequest('Message must not contain null bytes');
  const raw = draft.timestamp ?? nowSeconds;
  if (raw < 0) throw badRequest('Timestamp must not be negative.');
  // Beyond the last second of year 9999 (the family's datetime limit), or a number that
  // overflowed to Infinity while parsing: it would be stored as Infinity and read back as null.
  if (!Number.isFinite(raw) || raw > MAX_DRAFT_TIMESTAMP) throw badRequest('Invalid timestamp');
  const timestamp = Math.round(raw * 1e6) / 1e6;

  let topic = '';
  let to: number[] = [];
  if (draft.type === 'stream') {
    topic = truncate(draft.topic, MAX_TOPIC_LENGTH, '...');
    if (topic.includes('\0')) throw badRequest('Topic must not contain null bytes');
    if (draft.to.length !== 1) throw badRequest('Must specify exactly 1 stream ID for stream messages');
    // A stream the user may keep a draft for: one they may post to.
    to = [accessStreamById(ctx, user, draft.to[0] as number).id];
  } else if (draft.type === 'private') {
    const ids = [...new Set(draft.to)].sort((a, b) => a - b);
    for (const id of ids) accessUserById(ctx, id, { allowDeactivated: true, error: invalidRecipientId });
    to = ids.length > 1 ? ids.filter((id) => id !== user.id) : ids;
  }
  return {
    type: draft.type,
    to,
    topic,
    content: truncate(content, MAX_CONTENT_LENGTH, '\n[message truncated]'),
    timestamp,
  };
}

const nowSeconds = () => Date.now() / 1000;

/** POST /drafts: all drafts or none; one `add` event with every created draft. */
export function doCreateDrafts(ctx: ServiceContext, user: UserRow, drafts: DraftInput[]): number[] {
  checkDraftsEnabled(user);
  return runAction(ctx, (events) => {
    const now = nowSeconds();
    const created = drafts.map((d) => {
      const checked = checkDraft(ctx, user, d, now);
      const id = insertDraft(ctx.db, { userId: user.id, ...checked });
      return formatDraft(getDraft(ctx.db, user.id, id) as DraftRow);
    });
    if (created.length > 0) events.send({ type: 'drafts', op: 'add', drafts: created }, [user.id]);
    return created.map((d) => d.id);
  });
}

/** PATCH /drafts/{id}: replaces the draft; 404 for a draft that is not the user's. */
export function doEditDraft(ctx: ServiceContext, user: UserRow, draftId: number, draft: DraftInput): void {
  checkDraftsEnabled(user);
  runAction(ctx, (events) => {
    if (!getDraft(ctx.db, user.id, draftId)) throw draftNotFound();
    const checked = checkDraft(ctx, user, draft, nowSeconds());
    updateDraft(ctx.db, draftId, checked);
    const row = getDraft(ctx.db, user.id, draftId) as DraftRow;
    events.send({ type: 'drafts', op: 'update', draft: formatDraft(row) }, [user.id]);
  });
}

/** DELETE /drafts/{id}. */
export function doDeleteDraft(ctx: ServiceContext, user: UserRow, draftId: number): void {
  checkDraftsEnabled(user);
  runAction(ctx, (events) => {
    if (!getDraft(ctx.db, user.id, draftId)) throw draftNotFound();
    deleteDraft(ctx.db, draftId);
    events.send({ type: 'drafts', op: 'remove', draft_id: draftId }, [user.id]);
  });
}
