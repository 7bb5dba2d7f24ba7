/**
 * The renderer's one way to the main process. In Electron the preload exposes `window.confab`;
 * in browser mode the same contract travels over a WebSocket to electron/browser, authenticated
 * by the secret the launcher put in the page URL.
 */
import {
  BROWSER_SECRET_PARAM,
  BROWSER_WS_PATH,
  type ConfabBridge,
  type InvokeChannel,
  type InvokeRequest,
  type InvokeResponses,
} from '../../../shared/ipc';
import { unwrap } from './result';
import { createWebSocketBridge } from './websocket';

declare global {
  interface Window {
    confab?: ConfabBridge;
  }
}

export { BridgeClosedError } from './websocket';

type LinkListener = (up: boolean) => void;
const linkListeners = new Set<LinkListener>();
let bridge: ConfabBridge | null = null;

/**
 * Called with `true` when the bridge (re)connects after having been down, and `false` when it
 * drops. Pushes sent while it was down are lost, so subscribers re-read what they show.
 */
export function onBridgeLink(listener: LinkListener): () => void {
  linkListeners.add(listener);
  return () => {
    linkListeners.delete(listener);
  };
}

/** The secret from the page URL; kept in memory only. */
function takeSecret(): string {
  const params = new URLSearchParams(window.location.search);
  const secret = params.get(BROWSER_SECRET_PARAM) ?? sessionStorage.getItem('confab.bridge') ?? '';
  if (params.has(BROWSER_SECRET_PARAM)) {
    // Keep the secret out of the address bar and history, but survive a reload of this tab
    // (sessionStorage is per tab and cleared with it).
    sessionStorage.setItem('confab.bridge', secret);
    params.delete(BROWSER_SECRET_PARAM);
    const query = params.toString();
    window.history.replaceState(
      window.history.state,
      '',
      `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`,
    );
  }
  return secret;
}

export function getBridge(): ConfabBridge {
  if (bridge) return bridge;
  if (window.confab) {
    bridge = window.confab;
    return bridge;
  }
  const secret = takeSecret();
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = `${scheme}//${window.location.host}${BROWSER_WS_PATH}?${BROWSER_SECRET_PARAM}=${encodeURIComponent(secret)}`;
  let dropped = false;
  bridge = createWebSocketBridge({
    url,
    onLinkChange(up) {
      // The first open is not a reconnect: nothing was missed yet.
      if (up && !dropped) return;
      if (!up) dropped = true;
      for (const listener of linkListeners) listener(up);
    },
  });
  return bridge;
}

/** Invokes one main-process operation: its value, or its failure thrown as an IpcCallError. */
export async function call<C extends InvokeChannel>(
  channel: C,
  request: InvokeRequest<C>,
): Promise<InvokeResponses[C]> {
  return unwrap(await getBridge().invoke(channel, request));
}
