/**
 * Push fan-out: what the core tells every window unasked (app state, snapshots, event batches,
 * connection states, drafts) goes to each transport's listener. One listener's bug is logged,
 * never allowed to stop the others or the account's event loop that pushed.
 */
import type { PushChannel, PushPayloads } from '../../shared/ipc';

export type PushListener = <P extends PushChannel>(channel: P, payload: PushPayloads[P]) => void;

/** How a service of the core pushes (the fan-out's `push`, bound). */
export type Push = PushListener;

export class PushFanOut {
  private readonly listeners = new Set<PushListener>();

  readonly push: Push = (channel, payload) => {
    for (const listener of this.listeners) {
      try {
        listener(channel, payload);
      } catch (error) {
        console.error(`Push listener failed on ${channel}:`, error);
      }
    }
  };

  /** Adds a listener; the function returned removes it. */
  listen(listener: PushListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
