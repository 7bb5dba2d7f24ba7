/**
 * What the conversation journeys share, on top of ./app.ts:
 *
 * - `serverProxy`: a TCP proxy (test/support/proxy.ts) in front of the test's server. An app
 *   signed in through `serverProxy.url` keeps that address in its profile, so `cut()` makes
 *   the server unreachable for that app alone (the other person's app and the REST clients
 *   below still talk to the server directly) and `restore()` brings it back.
 * - `launchKeptApp`: an app instance whose profile directory outlives it: `restart()` quits the
 *   instance and starts a new one on the same profile (signed in already, with its cache,
 *   outbox and drafts); a page has to be opened on the new instance's URL.
 * - `person(server, who)`: another person driven through the REST API (post to a topic or a
 *   private conversation, edit, delete, react, mark read, delete a topic, list messages).
 * - Locators by the accessible names of the conversation contract (CONTRACT.md).
 */
import type { Locator, Page } from '@playwright/test';
import type { ApiClient } from '../../shared/client';
import type { Message } from '../../shared/protocol/messages';
import { startProxy, type TestProxy } from '../../test/support/proxy';
import { type DemoUser, loginAs, makeTempDir, removeDir } from '../../test/support/server';
import { test as base, type Credentials, expect, type TestServer } from './app';
import { type AppInstance, type LaunchOptions, startAppInstance } from './launch';

export { expect };

/** An app instance on a profile directory that survives `restart()`. */
export interface KeptApp {
  readonly profileDir: string;
  /** The running instance (a new one after each `restart()`). */
  readonly current: AppInstance;
  /** Quits the instance (as a person quits the app) and starts it again on the same profile. */
  restart(): Promise<AppInstance>;
  /** Quits the instance; `start()` starts it again on the same profile. */
  stop(): Promise<void>;
  start(): Promise<AppInstance>;
}

interface ConversationFixtures {
  /**
   * A TCP proxy in front of `server`, closed after the test (not `proxy`: Playwright's own
   * option of that name configures the browser's HTTP proxy).
   */
  serverProxy: TestProxy;
  /** Starts an instance on a kept profile directory; all stopped and removed after the test. */
  launchKeptApp: (options?: Omit<LaunchOptions, 'profileDir'>) => Promise<KeptApp>;
}

export const test = base.extend<ConversationFixtures>({
  serverProxy: async ({ server }, use) => {
    const proxy = await startProxy({ port: server.port });
    try {
      await use(proxy);
    } finally {
      await proxy.close();
    }
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  launchKeptApp: async ({}, use, testInfo) => {
    const kept: { dir: string; instances: AppInstance[] }[] = [];
    await use(async (options = {}) => {
      const profileDir = await makeTempDir('confab-e2e-kept-');
      const record = { dir: profileDir, instances: [] as AppInstance[] };
      kept.push(record);
      let current: AppInstance | null = null;
      const start = async () => {
        if (current) throw new Error('The kept app is running already; stop() it first');
        current = await startAppInstance({ ...options, profileDir });
        record.instances.push(current);
        return current;
      };
      const stop = async () => {
        const running = current;
        current = null;
        await running?.stop();
      };
      await start();
      return {
        profileDir,
        get current() {
          if (!current) throw new Error('The kept app is stopped');
          return current;
        },
        start,
        stop,
        async restart() {
          await stop();
          return start();
        },
      };
    });
    for (const [index, record] of kept.entries()) {
      if (testInfo.status !== testInfo.expectedStatus) {
        for (const [run, app] of record.instances.entries()) {
          await testInfo.attach(`kept-app-${index + 1}-run-${run + 1}.log`, {
            body: app.output(),
            contentType: 'text/plain',
          });
        }
      }
      await Promise.all(record.instances.map((app) => app.stop()));
      await removeDir(record.dir);
    }
  },
});

/** A demo user's sign-in details on `server`; `serverUrl` when the app should use another address. */
export function credentialsOf(server: TestServer, who: DemoUser, serverUrl?: string): Credentials {
  return {
    email: server.demo.users[who],
    password: server.demo.password,
    ...(serverUrl === undefined ? {} : { serverUrl }),
  };
}

/** A narrow as GET /messages takes it. */
export type ApiNarrow = { operator: string; operand: string | number | number[] }[];

/** Another person (or the same user on another client), driven through the REST API. */
export interface Person {
  readonly client: ApiClient;
  readonly userId: number;
  readonly email: string;
  readonly fullName: string;
  /** Posts to a stream's topic (the stream by name); resolves with the message id. */
  sendToTopic(stream: string, topic: string, content: string): Promise<number>;
  /** Posts a private message to these people (by email); resolves with the message id. */
  sendPrivate(to: string[], content: string): Promise<number>;
  edit(messageId: number, content: string): Promise<void>;
  remove(messageId: number): Promise<void>;
  react(messageId: number, emojiName: string): Promise<void>;
  unreact(messageId: number, emojiName: string): Promise<void>;
  markRead(messageIds: number[]): Promise<void>;
  /** POST /streams/{id}/delete_topic (administrators). */
  deleteTopic(stream: string, topic: string): Promise<void>;
  /** The newest `count` messages of a narrow, oldest first, with this user's flags. */
  messages(narrow: ApiNarrow, count?: number): Promise<Message[]>;
  /** This user's unread messages (ids, oldest first) in a narrow. */
  unreadIds(narrow?: ApiNarrow): Promise<number[]>;
  streamId(name: string): Promise<number>;
  userIdOf(email: string): Promise<number>;
}

export async function person(server: TestServer, who: DemoUser): Promise<Person> {
  const client = await loginAs(server, who);
  const me = (await client.request('GET', '/users/me')) as {
    user_id: number;
    email: string;
    full_name: string;
  };
  const messages = async (narrow: ApiNarrow, count = 100) =>
    (
      (await client.request('GET', '/messages', {
        narrow,
        anchor: 'newest',
        num_before: count,
        num_after: 0,
        apply_markdown: false,
      })) as { messages: Message[] }
    ).messages;
  const streamId = async (name: string) =>
    ((await client.request('GET', '/get_stream_id', { stream: name })) as { stream_id: number }).stream_id;
  return {
    client,
    userId: me.user_id,
    email: me.email,
    fullName: me.full_name,
    async sendToTopic(stream, topic, content) {
      const answer = await client.request('POST', '/messages', {
        type: 'stream',
        to: stream,
        topic,
        content,
      });
      return answer.id as number;
    },
    async sendPrivate(to, content) {
      const answer = await client.request('POST', '/messages', { type: 'private', to, content });
      return answer.id as number;
    },
    async edit(messageId, content) {
      await client.request('PATCH', `/messages/${messageId}`, { content });
    },
    async remove(messageId) {
      await client.request('DELETE', `/messages/${messageId}`);
    },
    async react(messageId, emojiName) {
      await client.request('POST', `/messages/${messageId}/reactions`, { emoji_name: emojiName });
    },
    async unreact(messageId, emojiName) {
      await client.request('DELETE', `/messages/${messageId}/reactions`, { emoji_name: emojiName });
    },
    async markRead(messageIds) {
      await client.request('POST', '/messages/flags', { messages: messageIds, op: 'add', flag: 'read' });
    },
    async deleteTopic(stream, topic) {
      const id = await streamId(stream);
      // A long write: repeated until the server has done it all.
      for (;;) {
        const answer = await client.request('POST', `/streams/${id}/delete_topic`, { topic_name: topic });
        if (answer.result === 'success') return;
      }
    },
    messages,
    async unreadIds(narrow = []) {
      const list = await messages([...narrow, { operator: 'is', operand: 'unread' }], 1000);
      return list.map((m) => m.id);
    },
    streamId,
    async userIdOf(email) {
      const answer = (await client.request('GET', `/users/${encodeURIComponent(email)}`)) as {
        user: { user_id: number };
      };
      return answer.user.user_id;
    },
  };
}

/** Lets members delete their own messages (the demo organization leaves it to administrators). */
export async function letMembersDeleteOwnMessages(server: TestServer): Promise<void> {
  const owner = await loginAs(server, 'owner');
  await owner.request('PATCH', '/realm', { delete_own_message_policy: 1 });
}

// ---- the screen, by the contract's accessible names ----

/**
 * A sidebar row by its label exactly: its accessible name goes on with ", N unread" or a
 * description, and a private conversation's label is itself a list of names.
 */
function navRow(scope: Locator, label: string): Locator {
  return scope.getByRole('button').filter({ has: scope.page().getByText(label, { exact: true }) });
}

export function sidebar(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main' });
}

/** A subscribed stream's row in the sidebar. */
export function streamRow(page: Page, stream: string): Locator {
  return navRow(sidebar(page), stream).first();
}

/** A topic's row in the list under the stream being read (in the stream's own list item). */
export function topicRow(page: Page, stream: string, topic: string): Locator {
  const streamItem = sidebar(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('button').filter({ has: page.getByText(stream, { exact: true }) }) });
  return navRow(streamItem.getByRole('list'), topic);
}

/** A private conversation's row in the sidebar ("Bob Smith", "Alice Doe, Bob Smith"). */
export function privateRow(page: Page, names: string): Locator {
  return navRow(sidebar(page).getByRole('list', { name: 'Private conversations' }), names);
}

/** The unread count a sidebar row says (0 without a badge). */
export async function unreadOf(row: Locator): Promise<number> {
  const text = (await row.textContent()) ?? '';
  return Number(/(\d+) unread/.exec(text)?.[1] ?? 0);
}

/** Opens a stream's messages from the sidebar. */
export async function openStream(page: Page, stream: string): Promise<void> {
  await streamRow(page, stream).click();
  await expect(screenTitle(page)).toHaveText(`#${stream}`);
}

/** A recipient bar's link in the open list ("#general > lunch plans"). */
export function recipientBar(page: Page, text: string): Locator {
  return messageLog(page).getByRole('button', { name: text, exact: true });
}

/**
 * Opens a topic as a person does: the stream in the sidebar, then the topic under it, or (when
 * the sidebar cannot list the stream's topics, as without a server) the topic's recipient bar
 * in the stream's messages.
 */
export async function openTopic(page: Page, stream: string, topic: string): Promise<void> {
  await streamRow(page, stream).click();
  await topicRow(page, stream, topic)
    .or(recipientBar(page, `#${stream} > ${topic}`))
    .first()
    .click();
  await expect(screenTitle(page)).toHaveText(`#${stream} > ${topic}`);
}

/** Opens a private conversation from the sidebar. */
export async function openPrivate(page: Page, names: string): Promise<void> {
  await privateRow(page, names).click();
  await expect(screenTitle(page)).toHaveText(names);
}

/** The open conversation's message list. */
export function messageLog(page: Page): Locator {
  return page.getByRole('log', { name: 'Messages' });
}

/** Message rows of the open conversation, or those of one sender ("Message from Bob Smith"). */
export function messageRows(page: Page, sender?: string): Locator {
  const rows = messageLog(page).getByRole('article');
  return sender === undefined
    ? rows
    : messageLog(page).getByRole('article', { name: `Message from ${sender}` });
}

/** The row whose content has this text. */
export function messageRow(page: Page, text: string | RegExp): Locator {
  return messageRows(page).filter({ has: page.locator('.message-content', { hasText: text }) });
}

/**
 * Waits until the message shows exactly once, as sent: the server's message is there and its
 * pending row (local echo) is gone. The two may stand side by side for a moment (the message's
 * event and the outbox's change arrive one after the other), so no single-row assertion is made
 * before then (it would trip Playwright's strict mode on two rows).
 */
export async function expectSentOnce(page: Page, text: string | RegExp, timeout = 30_000): Promise<void> {
  await expect(messageRow(page, text).filter({ hasNotText: 'Sending…' })).toHaveCount(1, { timeout });
  await expect(messageRow(page, text)).toHaveCount(1, { timeout });
}

/** The screen's title (`narrowTitle`). */
export function screenTitle(page: Page): Locator {
  return page.getByRole('main').getByRole('heading', { level: 1 });
}

export function composer(page: Page): Locator {
  return page.getByRole('form', { name: 'Compose' });
}

/** Types a message into the compose box of the open conversation and sends it with the button. */
export async function sendFromComposer(page: Page, content: string): Promise<void> {
  const form = composer(page);
  const box = form.getByRole('textbox', { name: 'Message' });
  await box.fill(content);
  await form.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(box).toHaveValue('');
}

/** The banner of a view shown from the offline cache. */
export function cacheBanner(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: 'Showing saved messages; they may be out of date.' });
}

/** Messages the server holds with exactly this content (raw Markdown) in a narrow, as `who` sees them. */
export async function countOnServer(viewer: Person, narrow: ApiNarrow, content: string): Promise<number> {
  const list = await viewer.messages(narrow, 1000);
  return list.filter((m) => m.content === content).length;
}
