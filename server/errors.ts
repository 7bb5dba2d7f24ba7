/**
 * Errors that become the spec's error envelope: `{result: "error", msg, code, ...extra}`.
 * Anything thrown that is not an ApiFailure is a bug and becomes a 500.
 */
import type { ErrorCode } from '../shared/protocol';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return { result: 'error', msg: this.message, code: this.code, ...this.extra };
  }
}

/** The common case: 400 BAD_REQUEST with a message. */
export function badRequest(message: string, extra: Record<string, unknown> = {}): ApiFailure {
  return new ApiFailure(400, 'BAD_REQUEST', message, extra);
}

export function missingArgument(name: string): ApiFailure {
  return new ApiFailure(400, 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, { var_name: name });
}

/** The realm in the WWW-Authenticate challenge of every 401 on the REST API. */
export const AUTH_CHALLENGE = 'Basic realm="Confab"';

export function unauthorized(message: string, code: ErrorCode = 'UNAUTHORIZED'): ApiFailure {
  return new ApiFailure(401, code, message, {}, { 'WWW-Authenticate': AUTH_CHALLENGE });
}

/** A deactivated user's credentials on the REST API (NOTES.md: USER_DEACTIVATED is the webhook paths' code). */
export function accountDeactivated(): ApiFailure {
  return unauthorized('Account is deactivated');
}

export function badEventQueueId(queueId: string): ApiFailure {
  return new ApiFailure(400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, { queue_id: queueId });
}
