/**
 * Helpers for the core's tests: a fetch that records (and, where a test says so, delays or
 * rewrites) what goes over the wire to the real server, and condition polling.
 */
import type { FetchLike, RequestInitLike, ResponseLike } from '../../shared/client';
import type { ConnectionState } from '../../shared/ipc';
import type { UpdateMachine, UpdateMachineEvents } from './update-machine';

/** Polls `check` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | null | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface RecordedRequest {
  method: string;
  url: URL;
  init: RequestInitLike;
  /** 'pending' until the answer (or the failure) arrives. */
  outcome: 'pending' | 'response' | 'error';
  status: number | null;
}

export interface RecordingOptions {
  /** Runs before the request is sent (a test can hold it here). */
  before?: (request: RecordedRequest) => Promise<void> | void;
  /** May replace the body of an answer (to play an older or a misbehaving server). */
  rewrite?: (request: RecordedRequest, body: string) => string;
}

export function recordingFetch(options: RecordingOptions = {}): {
  fetch: FetchLike;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  const fetchImpl: FetchLike = async (url, init) => {
    const request: RecordedRequest = {
      method: init.method,
      url: new URL(url),
      init,
      outcome: 'pending',
      status: null,
    };
    requests.push(request);
    try {
      await options.before?.(request);
      const response = await (globalThis.fetch as unknown as FetchLike)(url, init);
      const text = await response.text();
      request.outcome = 'response';
      request.status = response.status;
      const body = options.rewrite ? options.rewrite(request, text) : text;
      const answer: ResponseLike = {
        status: response.status,
        headers: response.headers,
        text: async () => body,
      };
      return answer;
    } catch (error) {
      request.outcome = 'error';
      throw error;
    }
  };
  return { fetch: fetchImpl, requests };
}

export const isPoll = (r: RecordedRequest) => r.method === 'GET' && r.url.pathname.endsWith('/events');
export const isRegister = (r: RecordedRequest) => r.method === 'POST' && r.url.pathname.endsWith('/register');

/** Everything a machine tells its listeners, in order. */
export function collect(machine: UpdateMachine) {
  const seen = {
    snapshots: [] as UpdateMachineEvents['snapshot'][],
    batches: [] as UpdateMachineEvents['events'][],
    connections: [] as ConnectionState[],
  };
  machine.on('snapshot', (s) => seen.snapshots.push(s));
  machine.on('events', (b) => seen.batches.push(b));
  machine.on('connection', (c) => seen.connections.push(c));
  return seen;
}

/** The statuses a machine went through, with repeats of the same status folded. */
export function statusPath(connections: readonly ConnectionState[]): string[] {
  const path: string[] = [];
  for (const c of connections) if (path[path.length - 1] !== c.status) path.push(c.status);
  return path;
}
