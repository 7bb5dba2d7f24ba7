/**
 * One account's outbox: messages the user wrote, kept on disk (`<profile>/outbox/<account>.json`,
 * written atomically and fsynced before `send` answers) until the server has them, and sent in
 * order, one at a time, whenever the account's session is connected.
 *
 * Never twice: an item is written `sending` (and "unsure": a POST may have reached the server)
 * before its POST. Only an answer settles it: the message's id (sent), or a 4xx (failed, with
 * the server's words; the server made nothing). A POST without an answer (network, 5xx, the
 * app quit or died) leaves it unsure, and an unsure item is looked for on the server before it
 * is ever sent again: our own recent messages in that conversation with its content, sent no
 * earlier than 5 s before it was written, and not already claimed by another item.
 *
 * A sent item stays (shown as pending) until the account's events bring its `message`, or for
 * SENT_LINGER_MS at most. A network failure backs off (shared back-off) and retries, at once
 * when the connection comes back.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type ApiClient, ApiError } from '../../../shared/client';
import { narrowTerms } from '../../../shared/domain';
import type { OutboxItem, OutgoingMessage } from '../../../shared/ipc';
import type { Message, ServerEvent } from '../../../shared/protocol';
import { isTransient, retryDelayMs } from '../backoff';
import { CoreError } from '../errors';
import { readJsonOrSetAside, SerialQueue, writeFileAtomic } from '../files';
import { defaultSleep, type Sleep } from '../update-machine';

/** How long a sent item waits for its `message` event before it goes anyway. */
export const SENT_LINGER_MS = 60_000;
/** How many of our recent messages in the conversation an unsure item is looked for among. */
export const CHECK_RECENT_MESSAGES = 50;
/** An unsure item's message is no older than this before the item was written (clock skew). */
export const CHECK_SLACK_SECONDS = 5;
/** Message ids delivered by this outbox, remembered so that no later check claims one twice. */
const MAX_CLAIMED = 200;
/** A send or a check that hangs is given up (and retried) after this. */
const REQUEST_TIMEOUT_MS = 60_000;

export const OUTBOX_ITEM_NOT_FOUND = 'OUTBOX_ITEM_NOT_FOUND';
export const OUTBOX_ITEM_BUSY = 'OUTBOX_ITEM_BUSY';

const storedItemSchema = z.object({
  localId: z.string(),
  type: z.enum(['stream', 'private']),
  to: z.array(z.number().int()),
  topic: z.string(),
  content: z.string(),
  createdAt: z.number(),
  status: z.enum(['queued', 'sending', 'failed', 'sent']),
  error: z.string().nullable(),
  messageId: z.number().int().nullable(),
  /** A POST of it may have reached the server: look for it there before sending again. */
  unsure: z.boolean(),
});
type StoredItem = z.infer<typeof storedItemSchema>;

const fileSchema = z.object({
  items: z.array(storedItemSchema),
  claimed: z.array(z.number().int()),
});

/** What the outbox needs of the account's session. */
export interface OutboxLink {
  client: ApiClient;
  /** The session's event queue now (sent with each message, for the local echo). */
  queueId(): string | null;
  connected(): boolean;
  ownUserId(): number | null;
}

export interface OutboxOptions {
  file: string;
  onChange?: (items: OutboxItem[]) => void;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
}

const publicItem = ({ unsure: _unsure, ...item }: StoredItem): OutboxItem => ({ ...item, to: [...item.to] });

/** Content as the server stores it (trailing white space cut), to recognize our message. */
const storedContent = (content: string) => content.trimEnd();

export class Outbox {
  private items: StoredItem[] = [];
  private claimed: number[] = [];
  private readonly writes = new SerialQueue();
  private link: OutboxLink | null = null;
  private closed = false;
  private running: Promise<void> | null = null;
  private rerun = false;
  /** Cuts a back-off wait short (a kick: new item, reconnect). */
  private waiting: AbortController | null = null;
  /** The request under way, aborted by close(). */
  private inFlight: AbortController | null = null;
  private failures = 0;
  /** Ids of `message` events seen lately (an event may come before the POST's answer). */
  private readonly seen = new Set<number>();
  private readonly lingering = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;

  private constructor(private readonly options: OutboxOptions) {
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /**
   * Reads the outbox file. Items left `sending` (the app stopped mid-send) become queued and
   * unsure; items already `sent` are done (the server has them).
   */
  static async open(options: OutboxOptions): Promise<Outbox> {
    const outbox = new Outbox(options);
    const data = await readJsonOrSetAside(options.file, fileSchema);
    if (data) {
      outbox.claimed = data.claimed;
      for (const item of data.items) {
        if (item.status === 'sent') {
          if (item.messageId !== null) outbox.claim(item.messageId);
          continue;
        }
        outbox.items.push(item.status === 'sending' ? { ...item, status: 'queued', unsure: true } : item);
      }
    }
    return outbox;
  }

  list(): OutboxItem[] {
    return this.items.map(publicItem);
  }

  /** Appends a message (on disk before this answers) and starts sending if connected. */
  async send(message: OutgoingMessage): Promise<OutboxItem> {
    this.checkOpen();
    const localId = message.localId ?? randomUUID();
    const existing = this.items.find((i) => i.localId === localId);
    // The same local id twice (a renderer retrying its invoke): one message.
    if (existing) return publicItem(existing);
    const item: StoredItem = {
      localId,
      type: message.type,
      to: [...message.to],
      topic: message.topic,
      content: message.content,
      createdAt: this.now(),
      status: 'queued',
      error: null,
      messageId: null,
      unsure: false,
    };
    this.items.push(item);
    await this.commit();
    const answer = publicItem(item);
    this.kick();
    return answer;
  }

  /** Queues a failed message again. */
  async retry(localId: string): Promise<OutboxItem> {
    this.checkOpen();
    const item = this.find(localId);
    if (item.status !== 'failed') return publicItem(item);
    item.status = 'queued';
    item.error = null;
    await this.commit();
    const answer = publicItem(item);
    this.kick();
    return answer;
  }

  /** Removes a queued or failed message; one on its way (or sent) cannot be taken back. */
  async discard(localId: string): Promise<OutboxItem[]> {
    this.checkOpen();
    const item = this.find(localId);
    if (item.status === 'sending' || item.status === 'sent')
      throw new CoreError(OUTBOX_ITEM_BUSY, 'This message is already on its way and cannot be discarded.');
    this.items = this.items.filter((i) => i !== item);
    await this.commit();
    return this.list();
  }

  /** The account's session to send through (a new one after each sign-in or start). */
  connect(link: OutboxLink): void {
    this.link = link;
    this.kick();
  }

  /** The session's connection changed: sending resumes at once when it is back. */
  connectionChanged(connected: boolean): void {
    if (!connected) return;
    this.failures = 0;
    this.kick();
  }

  /** A batch of the account's events: a `message` we sent settles its item. */
  onEvents(events: readonly ServerEvent[]): void {
    const done: string[] = [];
    for (const event of events) {
      if (event.type !== 'message') continue;
      const id = event.message.id;
      this.seen.add(id);
      // Our queue's own echo names the item: it is on the server, whether or not the POST's
      // answer ever comes back (a network that just returned may lose it).
      const echoed = (event as { local_message_id?: unknown }).local_message_id;
      const own =
        typeof echoed === 'string'
          ? this.items.find((i) => i.localId === echoed && i.status !== 'failed' && i.status !== 'sent')
          : undefined;
      if (own) {
        own.status = 'sent';
        own.unsure = false;
        own.error = null;
        own.messageId = id;
        this.claim(id);
        done.push(own.localId);
        continue;
      }
      const item = this.items.find((i) => i.status === 'sent' && i.messageId === id);
      if (item) done.push(item.localId);
    }
    while (this.seen.size > 1000) this.seen.delete(this.seen.values().next().value as number);
    if (done.length > 0) void this.forget(done);
  }

  /** Resolves when nothing is being sent now (for tests and orderly shutdown). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
    await this.writes.run(async () => undefined);
  }

  /** Stops sending (a request under way is aborted: it stays unsure) and waits for the disk. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiting?.abort();
    this.inFlight?.abort(new Error('closed'));
    for (const timer of this.lingering.values()) clearTimeout(timer);
    this.lingering.clear();
    await this.running?.catch(() => undefined);
    await this.writes.run(async () => undefined);
  }

  // ---- sending -----------------------------------------------------------------------------

  private kick(): void {
    if (this.closed) return;
    this.waiting?.abort();
    if (this.running) {
      this.rerun = true;
      return;
    }
    this.running = (async () => {
      do {
        this.rerun = false;
        try {
          await this.run();
        } catch (error) {
          console.error('Outbox: sending failed:', error);
        }
      } while (this.rerun && !this.closed);
      this.running = null;
    })();
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      const link = this.link;
      if (!link?.connected()) return;
      const item = this.items.find((i) => i.status === 'queued');
      if (!item) return;
      try {
        await this.deliver(link, item);
        this.failures = 0;
      } catch (error) {
        if (this.closed) return;
        if (!isTransient(error) && !(error instanceof OwnIdUnknown)) throw error;
        const delay = retryDelayMs(error, this.failures++, this.random);
        const controller = new AbortController();
        this.waiting = controller;
        await this.sleep(delay, controller.signal);
        if (this.waiting === controller) this.waiting = null;
      }
    }
  }

  private async deliver(link: OutboxLink, item: StoredItem): Promise<void> {
    if (item.unsure) {
      const found = await this.findOnServer(link, item);
      if (found !== null) {
        // There before our queue, most likely: its event will not come. Done at once.
        await this.settle(item, found);
        await this.forget([item.localId]);
        return;
      }
    }
    item.status = 'sending';
    item.unsure = true;
    await this.commit();
    const queueId = link.queueId();
    const params = {
      type: item.type,
      to: item.to,
      ...(item.type === 'stream' && { topic: item.topic }),
      content: item.content,
      ...(queueId !== null && { queue_id: queueId, local_id: item.localId }),
    };
    let id: number;
    try {
      const body = await this.request((signal) =>
        link.client.request('POST', '/messages', params, { signal }),
      );
      id = body.id as number;
    } catch (error) {
      if (error instanceof ApiError && !isTransient(error)) {
        // Refused: the server made nothing. The user decides (Retry, Restore to compose).
        item.status = 'failed';
        item.unsure = false;
        item.error = error.message;
        await this.commit();
        return;
      }
      // No answer: it may or may not be there; looked for before the next attempt.
      item.status = 'queued';
      await this.commit();
      throw error;
    }
    await this.settle(item, id);
  }

  /** The server has the item's message: sent, until its event comes (or SENT_LINGER_MS). */
  private async settle(item: StoredItem, messageId: number): Promise<void> {
    item.status = 'sent';
    item.unsure = false;
    item.error = null;
    item.messageId = messageId;
    this.claim(messageId);
    if (this.seen.has(messageId)) {
      await this.forget([item.localId]);
      return;
    }
    await this.commit();
    const timer = setTimeout(() => {
      this.lingering.delete(item.localId);
      void this.forget([item.localId]);
    }, SENT_LINGER_MS);
    timer.unref?.();
    this.lingering.set(item.localId, timer);
  }

  /**
   * Our message of an unsure item on the server, or null: among our recent messages in the
   * conversation, one with its content, not older than the item (with some slack for clocks),
   * and not one another item already delivered.
   */
  private async findOnServer(link: OutboxLink, item: StoredItem): Promise<number | null> {
    const own = link.ownUserId();
    if (own === null) throw new OwnIdUnknown();
    const conversation =
      item.type === 'stream'
        ? narrowTerms({ kind: 'topic', streamId: item.to[0] as number, topic: item.topic.trim() })
        : narrowTerms({ kind: 'dm', userIds: item.to });
    const body = await this.request((signal) =>
      link.client.request(
        'GET',
        '/messages',
        {
          anchor: 'newest',
          num_before: CHECK_RECENT_MESSAGES,
          num_after: 0,
          apply_markdown: false,
          narrow: [...conversation, { operator: 'sender', operand: own }],
        },
        { signal },
      ),
    );
    const messages = (body.messages ?? []) as Message[];
    const content = storedContent(item.content);
    const since = item.createdAt / 1000 - CHECK_SLACK_SECONDS;
    const claimed = new Set(this.claimed);
    for (const other of this.items) if (other.messageId !== null) claimed.add(other.messageId);
    const match = messages.find(
      (m) => m.sender_id === own && m.content === content && m.timestamp >= since && !claimed.has(m.id),
    );
    return match ? match.id : null;
  }

  private async request<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.inFlight = controller;
    const timer = setTimeout(() => controller.abort(new Error('timed out')), REQUEST_TIMEOUT_MS);
    try {
      return await call(controller.signal);
    } finally {
      clearTimeout(timer);
      if (this.inFlight === controller) this.inFlight = null;
    }
  }

  // ---- the file ----------------------------------------------------------------------------

  private claim(messageId: number): void {
    if (this.claimed.includes(messageId)) return;
    this.claimed.push(messageId);
    if (this.claimed.length > MAX_CLAIMED) this.claimed.splice(0, this.claimed.length - MAX_CLAIMED);
  }

  private async forget(localIds: readonly string[]): Promise<void> {
    const gone = new Set(localIds);
    for (const id of gone) {
      clearTimeout(this.lingering.get(id));
      this.lingering.delete(id);
    }
    const before = this.items.length;
    this.items = this.items.filter((i) => !(gone.has(i.localId) && i.status === 'sent'));
    if (this.items.length !== before) await this.commit();
  }

  private find(localId: string): StoredItem {
    const item = this.items.find((i) => i.localId === localId);
    if (!item) throw new CoreError(OUTBOX_ITEM_NOT_FOUND, 'No such message in the outbox.');
    return item;
  }

  private checkOpen(): void {
    if (this.closed) throw new CoreError('SIGNED_OUT', 'This account is signed out.');
  }

  /** Writes the outbox (fsynced), then tells the windows. */
  private async commit(): Promise<void> {
    await this.writes.run(() =>
      writeFileAtomic(this.options.file, JSON.stringify({ items: this.items, claimed: this.claimed })),
    );
    this.options.onChange?.(this.list());
  }
}

/** The account's own user id is not known yet: the check waits for it. */
class OwnIdUnknown extends Error {}
