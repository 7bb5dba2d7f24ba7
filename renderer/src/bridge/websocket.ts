/**
 * Browser mode: the IPC contract of shared/ipc carried over a WebSocket to electron/browser.
 * Invokes are request/response frames matched by id; pushes are fanned out to listeners.
 * When the socket closes (host restarted, laptop slept), every pending invoke is rejected
 * at once with a clear error and the socket is reopened with the app's one back-off policy
 * (shared/backoff.ts: exponential with full jitter, so many tabs do not all knock at the same
 * instant when the host comes back), and the page keeps working without a reload.
 */
import { type BackoffLimits, backoffDelayMs } from '../../../shared/backoff';
import type {
  ClientFrame,
  ConfabBridge,
  HostFrame,
  InvokeChannel,
  InvokeRequest,
  InvokeResponses,
  IpcResult,
  PushChannel,
  PushPayloads,
} from '../../../shared/ipc';

/** The part of the DOM WebSocket this bridge uses (so a test can supply its own socket). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface WebSocketBridgeOptions {
  url: string;
  createSocket?: (url: string) => SocketLike;
  /**
   * Ceiling of the first reconnect delay; it doubles per failed attempt up to maxDelayMs, and
   * each wait is drawn uniformly below the ceiling. Defaults: shared/backoff.ts (100 ms, 10 s).
   */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** In [0, 1) like Math.random (the default); a test passes its own to fix the jitter. */
  random?: () => number;
  /** Called when the link to the host goes up or down (for a banner in the UI). */
  onLinkChange?: (up: boolean) => void;
}

const OPEN = 1;

export class BridgeClosedError extends Error {
  constructor(message = 'The connection to the Confab app was lost. Please try again.') {
    super(message);
    this.name = 'BridgeClosedError';
  }
}

interface Pending {
  resolve: (result: IpcResult<unknown>) => void;
  reject: (error: Error) => void;
}

export interface WebSocketBridge extends ConfabBridge {
  /** Stops reconnecting and closes the socket. */
  close(): void;
}

export function createWebSocketBridge(options: WebSocketBridgeOptions): WebSocketBridge {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  // Unset limits stay undefined, and backoffDelayMs takes its defaults for them.
  const limits: BackoffLimits = { baseMs: options.initialDelayMs, capMs: options.maxDelayMs };
  const random = options.random ?? Math.random;
  const listeners = new Map<PushChannel, Set<(payload: never) => void>>();
  const pending = new Map<number, Pending>();
  // Frames sent while the socket is (re)connecting go out once it opens.
  let queue: string[] = [];
  let nextId = 1;
  let socket: SocketLike | null = null;
  /** Reconnects that failed in a row (0 after an open): picks the back-off ceiling. */
  let attempt = 0;
  let closed = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;

  const connect = () => {
    const ws = createSocket(options.url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      const frames = queue;
      queue = [];
      for (const frame of frames) ws.send(frame);
      options.onLinkChange?.(true);
    };
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let frame: HostFrame;
      try {
        frame = JSON.parse(ev.data) as HostFrame;
      } catch {
        return;
      }
      if (frame.kind === 'result') {
        const entry = pending.get(frame.id);
        if (!entry) return;
        pending.delete(frame.id);
        entry.resolve(frame.result);
      } else if (frame.kind === 'push') {
        for (const listener of listeners.get(frame.channel) ?? []) {
          try {
            (listener as (payload: unknown) => void)(frame.payload);
          } catch (error) {
            // One broken listener must not starve the others.
            console.error(`Listener for ${frame.channel} failed`, error);
          }
        }
      }
    };
    ws.onerror = () => {
      // A close event always follows; the reconnect logic lives there.
    };
    ws.onclose = (ev) => {
      if (socket !== ws) return;
      socket = null;
      const reason = ev.reason ? `: ${ev.reason}` : '';
      const error = new BridgeClosedError(`The connection to the Confab app was lost${reason}.`);
      // Invokes in flight may or may not have run; the caller decides whether to retry.
      for (const entry of pending.values()) entry.reject(error);
      pending.clear();
      queue = [];
      options.onLinkChange?.(false);
      if (closed) return;
      reconnectTimer = setTimeout(
        () => {
          reconnectTimer = null;
          if (!closed) connect();
        },
        backoffDelayMs(attempt++, random, limits),
      );
    };
  };

  connect();

  return {
    invoke<C extends InvokeChannel>(
      channel: C,
      request: InvokeRequest<C>,
    ): Promise<IpcResult<InvokeResponses[C]>> {
      if (closed) return Promise.reject(new BridgeClosedError('The bridge to the Confab app is closed.'));
      const id = nextId++;
      const frame: ClientFrame = { kind: 'invoke', id, channel, payload: request };
      const text = JSON.stringify(frame);
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as Pending['resolve'], reject });
        if (socket && socket.readyState === OPEN) socket.send(text);
        else queue.push(text);
      });
    },
    on<P extends PushChannel>(channel: P, listener: (payload: PushPayloads[P]) => void): () => void {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      const entry = listener as (payload: never) => void;
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      socket?.close(1000, 'closed by the page');
    },
  };
}
