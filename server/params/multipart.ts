/**
 * multipart/form-data bodies, read with @fastify/multipart: every text part becomes a
 * parameter exactly as a form field does, and every file part is read into memory (up to a
 * per-file limit the route may set) and handed to the route's handler as `files`. Whatever the
 * parser cannot take is the client's mistake and gets a 4xx envelope, never a 500.
 */
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiFailure, badRequest } from '../errors';
import { strictUtf8 } from './text';

/** The largest file part a route takes unless it says otherwise (the family's default). */
export const DEFAULT_FILE_LIMIT_BYTES = 25 * 1024 * 1024;

/** The largest text part: as large as a whole form-encoded body may be. */
export const MULTIPART_FIELD_LIMIT_BYTES = 1024 * 1024;

/** One uploaded file part, whole. */
export interface UploadedFile {
  fieldname: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** A request body's parameters (in body order) and files. */
export interface MultipartBody {
  fields: [string, string][];
  files: UploadedFile[];
}

export const NO_MULTIPART: MultipartBody = { fields: [], files: [] };

/** File parts one request may carry. */
export const MULTIPART_MAX_FILES = 10;

/** Options for @fastify/multipart: texts arrive as bytes (latin1), checked as UTF-8 here. */
export const MULTIPART_OPTIONS = {
  defCharset: 'latin1',
  throwFileSizeLimit: true,
  limits: { fieldSize: MULTIPART_FIELD_LIMIT_BYTES, parts: 1000, files: MULTIPART_MAX_FILES },
} as const;

const MIB = 1024 * 1024;

const bodyTooLarge = () => new ApiFailure(413, 'BAD_REQUEST', 'Request body is too large');

function fileTooLarge(limitBytes: number): ApiFailure {
  const limit = Number.isInteger(limitBytes / MIB) ? String(limitBytes / MIB) : (limitBytes / MIB).toFixed(2);
  return badRequest(`Uploaded file is larger than the allowed limit of ${limit} MiB`);
}

/** The envelope for whatever reading the body threw: limits by name, the rest malformed. */
function multipartFailure(error: unknown, fileLimitBytes: number): ApiFailure {
  if (error instanceof ApiFailure) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(fileLimitBytes);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return bodyTooLarge();
  }
  return badRequest('Malformed multipart body');
}

/**
 * A text part's value: busboy decoded its bytes as latin1 (one character per byte), so they
 * are checked as UTF-8 here; a part that named its own charset arrives already decoded.
 */
function fieldText(part: Exclude<Multipart, { type: 'file' }>): string {
  if (part.valueTruncated) throw bodyTooLarge();
  const value: unknown = part.value;
  if (typeof value !== 'string') return JSON.stringify(value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: any character past latin1 was decoded already
  if (/[^\u0000-\u00ff]/.test(value)) return value;
  return strictUtf8(Buffer.from(value, 'latin1'));
}

async function readParts(parts: AsyncIterableIterator<Multipart>): Promise<MultipartBody> {
  const body: MultipartBody = { fields: [], files: [] };
  // All text parts together may be as large as one form-encoded body.
  let textBytes = 0;
  for await (const part of parts) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      body.files.push({ fieldname: part.fieldname, filename: part.filename, mimetype: part.mimetype, data });
    } else {
      const text = fieldText(part);
      textBytes += Buffer.byteLength(text);
      if (textBytes > MULTIPART_FIELD_LIMIT_BYTES) throw bodyTooLarge();
      body.fields.push([part.fieldname, text]);
    }
  }
  return body;
}

/** Reads a multipart body whole; any other body has no multipart parameters or files. */
export async function readMultipart(request: FastifyRequest, fileLimitBytes: number): Promise<MultipartBody> {
  if (!request.isMultipart()) return NO_MULTIPART;
  try {
    return await readParts(request.parts({ limits: { fileSize: fileLimitBytes } }));
  } catch (error) {
    throw multipartFailure(error, fileLimitBytes);
  }
}
