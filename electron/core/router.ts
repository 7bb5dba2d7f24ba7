/**
 * The IPC router: the one place where a request from a renderer is checked (sender, channel,
 * payload) before any handler sees it, and where every failure becomes data. Both transports
 * (Electron's ipcMain, browser mode's WebSocket) call `handleInvoke` and nothing else.
 */
import type { z } from 'zod';
import { ApiError, NetworkError } from '../../shared/client';
import {
  type InvokeChannel,
  type InvokeRequest,
  type InvokeResponses,
  type IpcError,
  type IpcResult,
  invokeSchemas,
  isInvokeChannel,
} from '../../shared/ipc';
import { CoreError } from './errors';

export type InvokeHandlers = {
  [C in InvokeChannel]: (request: InvokeRequest<C>) => Promise<InvokeResponses[C]>;
};

export const UNTRUSTED_SENDER_MESSAGE = 'Refused: untrusted sender';

export interface Router {
  handleInvoke(sender: unknown, channel: unknown, payload: unknown): Promise<IpcResult<unknown>>;
}

export function createRouter(
  handlers: InvokeHandlers,
  isTrustedSender: (sender: unknown) => boolean,
): Router {
  return {
    async handleInvoke(sender, channel, payload) {
      try {
        if (!isTrustedSender(sender)) return failure(UNTRUSTED_SENDER_MESSAGE, 'UNTRUSTED_SENDER');
        if (!isInvokeChannel(channel)) {
          return failure(`Unknown channel: ${describeValue(channel)}`, 'BAD_REQUEST');
        }
        const parsed = invokeSchemas[channel].safeParse(payload);
        if (!parsed.success) {
          return failure(`Invalid request for ${channel}: ${describeIssues(parsed.error)}`, 'BAD_REQUEST');
        }
        const handler = handlers[channel] as (request: unknown) => Promise<unknown>;
        return { ok: true, value: await handler(parsed.data) };
      } catch (error) {
        return { ok: false, error: toIpcError(error) };
      }
    },
  };
}

function failure(message: string, code: string | null): IpcResult<never> {
  return { ok: false, error: { message, code } };
}

/** Errors as the renderer sees them: the service's message and code survive. */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof ApiError || error instanceof CoreError)
    return { message: error.message, code: error.code };
  if (error instanceof NetworkError) return { message: error.message, code: 'NETWORK_ERROR' };
  if (error instanceof Error) return { message: error.message, code: null };
  return { message: String(error), code: null };
}

/** "email: Invalid input: expected string, received undefined; password: ..." */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
  return value === null ? 'null' : typeof value;
}
