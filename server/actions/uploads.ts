/**
 * Uploaded files: POST /user_uploads stores one file for its uploader, downloads are for the
 * uploader and for whoever may read a message linking to the file, GET /attachments lists
 * the user's files and DELETE /attachments/{id} removes one. `attachment` events go to the
 * uploader only: `add` for an upload, `remove` for a deletion, and `update` (the file with
 * its new `messages`) when a message of theirs comes to link the file, sent or edited so, as
 * the family claims attachments. As in the family, a message deleted or edited so that it no
 * longer links the file sends none.
 */
import type { ServiceContext } from '../context';
import {
  type AttachmentRow,
  attachmentById,
  attachmentByPathId,
  deleteAttachment,
  insertAttachment,
  messagesLinking,
  ownerAttachments,
  ownerAttachmentsLinkedBy,
  uploadSpaceUsed,
} from '../db/uploads';
import type { UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import type { UploadedFile } from '../params/multipart';
import {
  attachmentIdOfToken,
  newPathId,
  readStoredFile,
  removeStoredFile,
  sniffContentType,
  storeFile,
  temporaryFileUrl,
} from '../uploads';
import { accessMessage } from './access';
import { type EventBatch, runAction } from './transaction';

/** The one file part of an upload request, as the family words its absence or excess. */
export function singleFile(files: readonly UploadedFile[]): UploadedFile {
  if (files.length === 0) throw badRequest('You must specify a file to upload');
  if (files.length > 1) throw badRequest('You may only upload one file at a time');
  return files[0] as UploadedFile;
}

/** The family's Attachment object; `messages` are those of the uploader linking to it. */
function formatAttachment(ctx: ServiceContext, row: AttachmentRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: row.size,
    create_time: row.create_time_ms,
    messages: messagesLinking(ctx.db, row.realm_id, row.path_id, row.owner_id).map((m) => ({
      id: m.id,
      date_sent: m.date_sent * 1000,
    })),
  };
}

function sendAttachmentEvent(
  ctx: ServiceContext,
  events: EventBatch,
  ownerId: number,
  op: 'add' | 'update' | 'remove',
  attachment: Record<string, unknown>,
): void {
  const event = { type: 'attachment', op, attachment, upload_space_used: uploadSpaceUsed(ctx.db, ownerId) };
  events.send(event, [ownerId]);
}

/**
 * A message of `senderId` now says `content` (just sent, or edited from `previous`): an
 * `update` for each of the sender's files it links and did not before, the message already
 * among the file's `messages`. Call once the message is stored.
 */
export function sendLinkedAttachmentUpdates(
  ctx: ServiceContext,
  events: EventBatch,
  senderId: number,
  content: string,
  previous = '',
): void {
  for (const row of ownerAttachmentsLinkedBy(ctx.db, senderId, content)) {
    if (previous.includes(`/user_uploads/${row.path_id}`)) continue;
    sendAttachmentEvent(ctx, events, senderId, 'update', formatAttachment(ctx, row));
  }
}

/** POST /user_uploads: stores the file, then records it; the URL to link it by. */
export async function doUploadFile(
  ctx: ServiceContext,
  user: UserRow,
  files: readonly UploadedFile[],
): Promise<{ uri: string; url: string; filename: string }> {
  const file = singleFile(files);
  const pathId = newPathId(ctx.realmId, file.filename);
  const dataDir = ctx.config.dataDir;
  await storeFile(dataDir, pathId, file.data);
  try {
    runAction(ctx, (events) => {
      const row = {
        realm_id: ctx.realmId,
        owner_id: user.id,
        path_id: pathId,
        file_name: pathId.split('/').pop() as string,
        content_type: sniffContentType(file.data),
        size: file.data.length,
        create_time_ms: Date.now(),
      };
      const id = insertAttachment(ctx.db, row);
      sendAttachmentEvent(ctx, events, user.id, 'add', formatAttachment(ctx, { id, ...row }));
    });
  } catch (error) {
    await removeStoredFile(dataDir, pathId);
    throw error;
  }
  const url = `/user_uploads/${pathId}`;
  return { uri: url, url, filename: file.filename };
}

/** Whether the user may read some message that links to the file. */
function canReadLinkingMessage(ctx: ServiceContext, user: UserRow, row: AttachmentRow): boolean {
  return messagesLinking(ctx.db, row.realm_id, row.path_id).some((m) => {
    try {
      accessMessage(ctx, user, m.id);
      return true;
    } catch {
      return false;
    }
  });
}

const fileNotFound = () => new ApiFailure(404, 'NOT_FOUND', 'File not found');

/** The file's row, for the uploader or a reader of a message linking it. */
function accessAttachment(ctx: ServiceContext, user: UserRow, pathId: string): AttachmentRow {
  const row = attachmentByPathId(ctx.db, pathId);
  if (!row || row.realm_id !== user.realm_id) throw fileNotFound();
  if (row.owner_id !== user.id && !canReadLinkingMessage(ctx, user, row)) {
    throw new ApiFailure(403, 'UNAUTHORIZED', 'You are not authorized to view this file.');
  }
  return row;
}

/** The stored bytes of a recorded file; a file missing on disk is not found. */
async function withData(
  ctx: ServiceContext,
  row: AttachmentRow,
): Promise<{ row: AttachmentRow; data: Buffer }> {
  try {
    return { row, data: await readStoredFile(ctx.config.dataDir, row.path_id) };
  } catch {
    throw fileNotFound();
  }
}

/** A file to serve to a signed-in user who may read it. */
export function accessUploadedFile(
  ctx: ServiceContext,
  user: UserRow,
  pathId: string,
): Promise<{ row: AttachmentRow; data: Buffer }> {
  return withData(ctx, accessAttachment(ctx, user, pathId));
}

/** A file by a temporary URL's token: anyone holding a valid, unexpired token may read it. */
export function fileByToken(
  ctx: ServiceContext,
  token: string,
  fileName: string,
): Promise<{ row: AttachmentRow; data: Buffer }> {
  const id = attachmentIdOfToken(token, Date.now());
  const row = id === null ? undefined : attachmentById(ctx.db, id);
  if (!row || row.file_name !== fileName) throw fileNotFound();
  return withData(ctx, row);
}

/** GET /api/v1/user_uploads/...: a URL that serves the file without credentials for a minute. */
export function temporaryUrlFor(ctx: ServiceContext, user: UserRow, pathId: string): string {
  return temporaryFileUrl(accessAttachment(ctx, user, pathId), Date.now());
}

/** GET /attachments: the user's files and the space they take. */
export function listAttachments(ctx: ServiceContext, user: UserRow): Record<string, unknown> {
  return {
    attachments: ownerAttachments(ctx.db, user.id).map((row) => formatAttachment(ctx, row)),
    upload_space_used: uploadSpaceUsed(ctx.db, user.id),
  };
}

/** DELETE /attachments/{attachment_id}: the row now, the file once that has committed. */
export function doDeleteAttachment(ctx: ServiceContext, user: UserRow, attachmentId: number): void {
  runAction(ctx, (events) => {
    const row = attachmentById(ctx.db, attachmentId);
    if (!row || row.owner_id !== user.id) throw badRequest('Invalid attachment');
    deleteAttachment(ctx.db, row.id);
    sendAttachmentEvent(ctx, events, user.id, 'remove', { id: row.id });
    events.afterCommit(() => {
      removeStoredFile(ctx.config.dataDir, row.path_id).catch((error: unknown) => {
        console.error(`Could not remove upload ${row.path_id}: ${String(error)}`);
      });
    });
  });
}
