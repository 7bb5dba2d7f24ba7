/**
 * Do not disturb for the whole app: one `until` (epoch ms, DND_FOREVER while on with no end) or
 * off, kept in `<profileDir>/dnd.json` so it survives a restart. Every window learns a change
 * through the `dnd.changed` push (windows of both transports, at once), and the notification
 * rules ask `isOn()` before they notify (electron/core/desktop/attention.ts). It ends by itself:
 * a time already past reads as off, and a timer pushes the end when it comes.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { DND_FOREVER, type DndState, dndUntilSchema } from '../../shared/ipc';
import { readJsonOrSetAside, SerialQueue, writeFileAtomic } from './files';
import type { Push } from './push';

const fileSchema = z.object({ version: z.literal(1), until: dndUntilSchema });

/** setTimeout's longest delay (about 24.8 days); a later end is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface DoNotDisturbOptions {
  profileDir: string;
  push: Push;
  /** Default: Date.now. */
  now?: () => number;
}

export class DoNotDisturb {
  readonly filePath: string;
  private until: number | null = null;
  private loading: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly queue = new SerialQueue();
  private readonly now: () => number;

  constructor(private readonly options: DoNotDisturbOptions) {
    this.filePath = join(options.profileDir, 'dnd.json');
    this.now = options.now ?? Date.now;
  }

  /** Reads dnd.json once; later calls wait for the same read. An unreadable file reads as off. */
  load(): Promise<void> {
    this.loading ??= this.read().catch((error: unknown) => {
      console.error(`confab: could not read ${this.filePath}; do not disturb is off`, error);
    });
    return this.loading;
  }

  /** Whether notifications are held back now. */
  isOn(): boolean {
    return this.until !== null && this.until > this.now();
  }

  state(): DndState {
    return { until: this.isOn() ? this.until : null };
  }

  /**
   * Turns do not disturb on until `until` (DND_FOREVER: until turned off), or off (null); an
   * end already past turns it off. Written to disk before it answers, then pushed to every window.
   */
  async set(until: number | null): Promise<DndState> {
    await this.load();
    const next = until !== null && until > this.now() ? Math.min(until, DND_FOREVER) : null;
    return this.queue.run(async () => {
      await this.write(next);
      this.apply(next);
      return this.state();
    });
  }

  /** Stops the expiry timer (the state stays on disk). */
  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private apply(next: number | null): void {
    const before = this.state().until;
    this.until = next;
    this.schedule();
    const after = this.state().until;
    if (after !== before) this.options.push('dnd.changed', { until: after });
  }

  /** Arms a timer for the end, so every window learns it ended without asking. */
  private schedule(): void {
    this.close();
    if (!this.isOn() || this.until === null) return;
    const left = this.until - this.now();
    this.timer = setTimeout(() => this.expire(), Math.min(left, MAX_TIMER_MS));
    // Never keeps a process alive on its own.
    this.timer.unref?.();
  }

  private expire(): void {
    this.timer = null;
    if (this.until === null) return;
    if (this.isOn()) {
      // A far end: not yet.
      this.schedule();
      return;
    }
    this.until = null;
    this.options.push('dnd.changed', { until: null });
    // Tidy the file; a failure only leaves an end in the past, which reads as off.
    void this.queue.run(() => (this.until === null ? this.write(null) : Promise.resolve())).catch(() => {});
  }

  private async read(): Promise<void> {
    const file = await readJsonOrSetAside(this.filePath, fileSchema);
    if (file === null) return;
    this.until = file.until;
    this.schedule();
  }

  private write(until: number | null): Promise<void> {
    return writeFileAtomic(this.filePath, `${JSON.stringify({ version: 1, until })}\n`);
  }
}
