/**
 * The service's REST API through the main process (`api.call`, `api.upload`): the main process
 * checks the endpoint against the catalogue, adds the account's key and answers the success
 * body without its envelope (electron/core/api-proxy.ts). A failure is thrown as an
 * IpcCallError carrying the service's message and code (BAD_REQUEST for a refusal, the
 * service's own code otherwise, NETWORK_ERROR when the server could not be reached).
 */
import type { ApiBody, ApiMethod, ConfabBridge } from '../../../shared/ipc';
import { unwrap } from './result';

export type { ApiBody, ApiMethod } from '../../../shared/ipc';
export { IpcCallError } from './result';

/** Parameters as the service takes them: strings travel bare, everything else as JSON. */
export type ApiParams = Record<string, unknown>;

/** One REST request: `path` relative to /api/v1 (`/streams/12`). */
export async function callApi<T = ApiBody>(
  bridge: Pick<ConfabBridge, 'invoke'>,
  accountId: string,
  method: ApiMethod,
  path: string,
  params?: ApiParams,
): Promise<T> {
  const request = { accountId, method, path, ...(params === undefined ? {} : { params }) };
  return unwrap(await bridge.invoke('api.call', request)) as T;
}

/** A file for api.upload: a DOM File fits (name, type and its bytes). */
export interface UploadSource {
  name: string;
  type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Base64 of bytes, in chunks (String.fromCharCode takes a bounded number of arguments). */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/**
 * Uploads one file as multipart/form-data: to `/user_uploads` (answers `{uri, url, filename}`,
 * the URL to link it by in a message) or to `/realm/emoji/{name}` (a custom emoji; answers
 * `{}`, the new emoji arrives by the realm_emoji event). At most 25 MiB.
 */
export async function uploadApi<T = ApiBody>(
  bridge: Pick<ConfabBridge, 'invoke'>,
  accountId: string,
  path: string,
  file: UploadSource,
): Promise<T> {
  const dataBase64 = base64Of(new Uint8Array(await file.arrayBuffer()));
  const request = { accountId, path, fileName: file.name, mimeType: file.type, dataBase64 };
  return unwrap(await bridge.invoke('api.upload', request)) as T;
}
