/** The response envelope and error codes of the spec and NOTES.md. */
import { z } from 'zod';

export const ERROR_CODES = [
  'BAD_REQUEST',
  'REQUEST_VARIABLE_MISSING',
  'UNAUTHORIZED',
  'INVALID_API_KEY',
  'USER_DEACTIVATED',
  'AUTHENTICATION_FAILED',
  'UNAUTHORIZED_PRINCIPAL',
  'BAD_EVENT_QUEUE_ID',
  'REQUEST_TIMEOUT',
  'RATE_LIMIT_HIT',
  'NOT_FOUND',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const resultSchema = z.enum(['success', 'error', 'partially_completed']);

/** Every JSON response has at least these. */
export const envelopeSchema = z.looseObject({
  result: resultSchema,
  msg: z.string(),
  code: z.string().optional(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

export const errorBodySchema = z.looseObject({
  result: z.literal('error'),
  msg: z.string(),
  code: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export interface SuccessBody {
  result: 'success';
  msg: '';
}
