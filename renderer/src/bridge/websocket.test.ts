import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS } from '../../../shared/backoff';
import type { ClientFrame, HostFrame } from '../../../shared/ipc';
import {
  BridgeClosedError,
  createWebSocketBridge,
  type SocketLike,
  type WebSocketBridgeOptions,
} from './websocket';

/** A socket the test drives: what the page sent, and the host's side of open/message/close. */
class TestSocket implements SocketLike {
  readyState = 0;
  sent: ClientFrame[] = [];
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }
  close() {
    this.drop(1000, '');
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(frame: HostFrame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

describe('WebSocket bridge', () => {
  let sockets: TestSocket[];
  const links: boolean[] = [];
  const make = (overrides: Partial<WebSocketBridgeOptions> = {}) =>
    createWebSocketBridge({
      url: 'ws://127.0.0.1:1/bridge?token=s3cret',
      createSocket: (url) => {
        const socket = new TestSocket(url);
        sockets.push(socket);
        return socket;
      },
      initialDelayMs: 100,
      maxDelayMs: 400,
      // The top of the jitter range (Math.random comes as close as it likes), so waits are exact.
      random: () => 1,
      onLinkChange: (up) => links.push(up),
      ...overrides,
    });

  /** Drops the newest socket and measures how long the bridge waits before it opens the next. */
  const reconnectDelay = () => {
    const count = sockets.length;
    sockets.at(-1)?.drop();
    const dropped = Date.now();
    vi.advanceTimersToNextTimer();
    expect(sockets).toHaveLength(count + 1);
    return Date.now() - dropped;
  };

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    links.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('sends invokes queued before the socket opened and matches answers by id', async () => {
    const bridge = make();
    const info = bridge.invoke('app.getInfo', {});
    const state = bridge.invoke('app.getState', {});
    expect(sockets[0]?.url).toBe('ws://127.0.0.1:1/bridge?token=s3cret');
    expect(sockets[0]?.sent).toEqual([]);
    sockets[0]?.open();
    expect(sockets[0]?.sent).toEqual([
      { kind: 'invoke', id: 1, channel: 'app.getInfo', payload: {} },
      { kind: 'invoke', id: 2, channel: 'app.getState', payload: {} },
    ]);
    const appState = { accounts: [], activeAccountId: null };
    sockets[0]?.receive({ kind: 'result', id: 2, result: { ok: true, value: appState } });
    sockets[0]?.receive({
      kind: 'result',
      id: 1,
      result: { ok: false, error: { message: 'nope', code: null } },
    });
    await expect(state).resolves.toEqual({ ok: true, value: appState });
    await expect(info).resolves.toEqual({ ok: false, error: { message: 'nope', code: null } });
  });

  it('delivers pushes to the listeners of their channel until unsubscribed', () => {
    const bridge = make();
    sockets[0]?.open();
    const seen: unknown[] = [];
    const off = bridge.on('app.state', (payload) => seen.push(payload));
    bridge.on('account.connection', () => seen.push('wrong channel'));
    sockets[0]?.receive({
      kind: 'push',
      channel: 'app.state',
      payload: { accounts: [], activeAccountId: null },
    });
    off();
    sockets[0]?.receive({
      kind: 'push',
      channel: 'app.state',
      payload: { accounts: [], activeAccountId: 'x' },
    });
    expect(seen).toEqual([{ accounts: [], activeAccountId: null }]);
  });

  it('rejects pending invokes when the socket closes, then reconnects with back-off', async () => {
    const bridge = make();
    sockets[0]?.open();
    const call = bridge.invoke('app.getState', {});
    sockets[0]?.drop(1006, 'host stopped');
    await expect(call).rejects.toBeInstanceOf(BridgeClosedError);
    await expect(call).rejects.toThrow('The connection to the Confab app was lost: host stopped.');
    expect(links).toEqual([true, false]);

    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    // Still down: the next wait doubles.
    sockets[1]?.drop();
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);

    sockets[2]?.open();
    expect(links).toEqual([true, false, false, true]);
    const again = bridge.invoke('app.getState', {});
    expect(sockets[2]?.sent).toEqual([{ kind: 'invoke', id: 2, channel: 'app.getState', payload: {} }]);
    sockets[2]?.receive({
      kind: 'result',
      id: 2,
      result: { ok: true, value: { accounts: [], activeAccountId: null } },
    });
    await expect(again).resolves.toMatchObject({ ok: true });
  });

  it('draws each reconnect wait below a doubling ceiling (full jitter), capped, reset by an open', () => {
    const draws = [0.5, 0.25, 0.5, 0.75, 0.5, 0.1, 0.5];
    make({ random: () => draws.shift() ?? 0 });
    sockets[0]?.open();
    // Ceilings 100, 200, 400, then the 400 cap.
    expect([
      reconnectDelay(),
      reconnectDelay(),
      reconnectDelay(),
      reconnectDelay(),
      reconnectDelay(),
    ]).toEqual([50, 50, 200, 300, 200]);
    // Back up: the next loss starts from the first ceiling again.
    sockets.at(-1)?.open();
    expect([reconnectDelay(), reconnectDelay()]).toEqual([10, 100]);
  });

  it("uses the app's back-off policy (shared/backoff.ts) unless told otherwise", () => {
    make({ initialDelayMs: undefined, maxDelayMs: undefined });
    sockets[0]?.open();
    const delays = Array.from({ length: 10 }, reconnectDelay);
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000, 10_000]);
    expect([delays[0], delays.at(-1)]).toEqual([BACKOFF_BASE_MS, BACKOFF_CAP_MS]);
  });

  it('keeps the real, jittered waits under the ceiling', () => {
    make({ random: undefined, maxDelayMs: 10_000 });
    const delays = Array.from({ length: 12 }, reconnectDelay);
    delays.forEach((delay, attempt) => {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(Math.min(10_000, 100 * 2 ** attempt));
    });
    // Twelve draws that all land on the ceiling would mean no jitter at all.
    expect(delays.some((delay, attempt) => delay < Math.min(10_000, 100 * 2 ** attempt))).toBe(true);
  });

  it('stops reconnecting once closed', async () => {
    const bridge = make();
    sockets[0]?.open();
    bridge.close();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    await expect(bridge.invoke('app.getState', {})).rejects.toBeInstanceOf(BridgeClosedError);
  });
});
