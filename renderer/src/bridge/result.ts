/** The answer of an invoke, unwrapped: a failure becomes an error the UI can show as it is. */
import type { IpcResult } from '../../../shared/ipc';

/** A failed invoke, carrying the main process's message verbatim (it is shown to the user). */
export class IpcCallError extends Error {
  readonly code: string | null;
  constructor(message: string, code: string | null) {
    super(message);
    this.name = 'IpcCallError';
    this.code = code;
  }
}

export function unwrap<T>(result: IpcResult<T>): T {
  if (result.ok) return result.value;
  throw new IpcCallError(result.error.message, result.error.code);
}
