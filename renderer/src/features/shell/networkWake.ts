import type { ConfabBridge } from '../../../../shared/ipc';

/**
 * Tells the main process when the browser sees the network come or go, so that a poll stalled
 * on a dead connection is dropped and retried at once instead of after its timeout or back-off.
 * (Electron's main process also watches `net.isOnline` and `powerMonitor` itself; browser mode
 * has only the page's events.) Returns the function that stops listening.
 */
export function watchNetwork(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
  bridge: Pick<ConfabBridge, 'invoke'>,
): () => void {
  const tell = (online: boolean) => () => {
    // Best effort: if the bridge is down too, the main side's own back-off still runs.
    void bridge.invoke('app.networkChanged', { online }).catch(() => undefined);
  };
  const onOnline = tell(true);
  const onOffline = tell(false);
  target.addEventListener('online', onOnline);
  target.addEventListener('offline', onOffline);
  return () => {
    target.removeEventListener('online', onOnline);
    target.removeEventListener('offline', onOffline);
  };
}
