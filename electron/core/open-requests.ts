/**
 * A clicked notification's conversation, kept for a minute for the window that did not see
 * the `app.openNarrow` push: the glue may have created the window for the click, and its page
 * subscribes only once it has loaded. The first window to take it (`app.takeOpenNarrow`), or the
 * push it followed, uses it up.
 */
import type { OpenNarrowRequest } from '../../shared/ipc';

/** How long a request waits for a window to take it. */
export const OPEN_REQUEST_TTL_MS = 60_000;

export class OpenRequests {
  private pending: { request: OpenNarrowRequest; at: number } | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  offer(request: OpenNarrowRequest): void {
    this.pending = { request, at: this.now() };
  }

  /** The waiting request, once; null when none waits or it is older than the TTL. */
  take(): OpenNarrowRequest | null {
    const pending = this.pending;
    this.pending = null;
    if (!pending || this.now() - pending.at > OPEN_REQUEST_TTL_MS) return null;
    return pending.request;
  }
}
