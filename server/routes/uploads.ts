/**
 * Uploaded files: POST /user_uploads, GET /attachments, DELETE /attachments/{attachment_id},
 * and the page that serves a file, /user_uploads/<path id>, with headers under which it can
 * never run script on our origin (server/uploads.ts fileHeaders).
 */
import {
  accessUploadedFile,
  doDeleteAttachment,
  doUploadFile,
  fileByToken,
  listAttachments,
  temporaryUrlFor,
} from '../actions/uploads';
import { route } from '../http';
import { fileHeaders, MAX_FILE_UPLOAD_SIZE_MIB } from '../uploads';
import { actionRoute } from './shapes';

export const MAX_UPLOAD_BYTES = MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024;

export const uploadEndpoints = [
  route({
    endpoint: 'POST /user_uploads',
    maxFileBytes: MAX_UPLOAD_BYTES,
    handle({ ctx, user, files }) {
      return doUploadFile(ctx, user, files);
    },
  }),
  route({
    endpoint: 'GET /user_uploads/{realm_id}/{dir}/{key}/{filename}',
    handle({ ctx, user, params }) {
      const pathId = [params.realm_id, params.dir, params.key, params.filename].join('/');
      return { url: temporaryUrlFor(ctx, user, pathId) };
    },
  }),
  route({
    endpoint: 'GET /attachments',
    handle({ ctx, user }) {
      return listAttachments(ctx, user);
    },
  }),
  actionRoute('DELETE /attachments/{attachment_id}', ({ ctx, user, params }) =>
    doDeleteAttachment(ctx, user, params.attachment_id),
  ),
];

export const uploadPageEndpoints = [
  route({
    endpoint: 'GET /user_uploads/{realm_id}/{dir}/{key}/{filename}',
    async handle({ ctx, user, params, reply }) {
      const pathId = [params.realm_id, params.dir, params.key, params.filename].join('/');
      const { row, data } = await accessUploadedFile(ctx, user, pathId);
      reply.headers(fileHeaders(row.content_type, row.file_name)).send(data);
      return undefined;
    },
  }),
  route({
    endpoint: 'GET /user_uploads/temporary/{token}/{filename}',
    async handle({ ctx, params, reply }) {
      const { row, data } = await fileByToken(ctx, params.token, params.filename);
      reply.headers(fileHeaders(row.content_type, row.file_name)).send(data);
      return undefined;
    },
  }),
];
