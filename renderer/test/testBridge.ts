/**
 * An in-memory stand-in for the main process, for store tests that cannot run a DOM: answers
 * invokes from handlers (or holds them until the test settles them) and emits pushes.
 */
import type {
  ConfabBridge,
  InvokeChannel,
  InvokeRequest,
  InvokeResponses,
  IpcResult,
  PushChannel,
  PushPayloads,
} from '../../shared/ipc';

type AnyHandler = (request: unknown) => Promise<IpcResult<unknown>>;

export interface HeldCall {
  channel: InvokeChannel;
  request: unknown;
  resolve: (result: IpcResult<unknown>) => void;
  reject: (error: Error) => void;
}

export function createTestBridge() {
  const handlers = new Map<InvokeChannel, AnyHandler>();
  const listeners = new Map<PushChannel, Set<(payload: never) => void>>();
  const held: HeldCall[] = [];
  const calls: { channel: InvokeChannel; request: unknown }[] = [];

  const bridge: ConfabBridge = {
    invoke<C extends InvokeChannel>(channel: C, request: InvokeRequest<C>) {
      calls.push({ channel, request });
      const handler = handlers.get(channel);
      if (handler) return handler(request) as Promise<IpcResult<InvokeResponses[C]>>;
      return new Promise<IpcResult<InvokeResponses[C]>>((resolve, reject) => {
        held.push({ channel, request, resolve: resolve as HeldCall['resolve'], reject });
      });
    },
    on<P extends PushChannel>(channel: P, listener: (payload: PushPayloads[P]) => void) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
  };

  return {
    bridge,
    calls,
    held,
    handle<C extends InvokeChannel>(channel: C, answer: (request: InvokeRequest<C>) => InvokeResponses[C]) {
      handlers.set(channel, async (request) => ({ ok: true, value: answer(request as InvokeRequest<C>) }));
    },
    push<P extends PushChannel>(channel: P, payload: PushPayloads[P]) {
      for (const listener of listeners.get(channel) ?? [])
        (listener as (p: PushPayloads[P]) => void)(payload);
    },
    listenerCount: (channel: PushChannel) => listeners.get(channel)?.size ?? 0,
  };
}

/** Lets pending promise callbacks run. */
export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
