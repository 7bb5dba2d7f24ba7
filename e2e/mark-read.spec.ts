/**
 * Long writes against a server that answers `partially_completed`: its work budget is 0 s, so
 * each request does one batch (2000 messages marked read, 100 deleted) and asks the client to
 * repeat. Marking everything as read from the command palette and deleting a topic go on to the
 * end, with a progress bar that counts the steps, and say when they are done; marking a topic
 * as read from a stream's topics says so too. Checked on screen and on the server.
 */

import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { type DemoUser, loginAs, startServerProcess } from '../test/support/server';
import { test as base, type Credentials, expect, type TestServer } from './support/app';

/** Each request does one batch, then answers partially_completed while work is left. */
const test = base.extend<{ server: TestServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  server: async ({}, use) => {
    const server = await startServerProcess({ demo: true, args: ['--work-budget-seconds', '0'] });
    try {
      await use(server);
    } finally {
      await server.dispose();
    }
  },
});

function as(server: TestServer, who: DemoUser): Credentials {
  return { email: server.demo.users[who], password: server.demo.password };
}

/**
 * Adds `count` messages from bob to the stream's topic, each with a copy for `reader` (unread
 * unless `read`). Written to the database while the server is stopped (one statement, not
 * thousands of requests), then the server starts again on it.
 */
async function addMessages(
  server: TestServer,
  o: { stream: string; topic: string; count: number; reader: DemoUser; read?: boolean },
) {
  await server.stop();
  const db = new Database(join(server.dataDir, 'confab.sqlite3'));
  try {
    const id = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { id: number }).id;
    const stream = id('SELECT id FROM streams WHERE name = ?', o.stream);
    const sender = id('SELECT id FROM users WHERE delivery_email = ?', server.demo.users.bob);
    const reader = id('SELECT id FROM users WHERE delivery_email = ?', server.demo.users[o.reader]);
    db.transaction(() => {
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent)
         SELECT (SELECT id FROM realm), ?, (SELECT id FROM recipients WHERE type = 2 AND type_id = ?), ?, ?,
           'backlog ' || i, '<p>backlog ' || i || '</p>', strftime('%s', 'now') - 86400 + i FROM n`,
      ).run(o.count, sender, stream, stream, o.topic);
      db.prepare(
        `INSERT INTO user_messages (user_id, message_id, flags)
         SELECT ?, id, ? FROM messages WHERE stream_id = ? AND topic = ?
         AND id NOT IN (SELECT message_id FROM user_messages WHERE user_id = ?)`,
      ).run(reader, o.read ? 1 : 0, stream, o.topic, reader);
    })();
  } finally {
    db.close();
  }
  await server.restart();
}

async function unreadOnServer(server: TestServer, who: DemoUser): Promise<number> {
  const client = await loginAs(server, who);
  const answer = (await client.request('GET', '/messages', {
    narrow: [{ operator: 'is', operand: 'unread' }],
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
  })) as { messages: unknown[] };
  return answer.messages.length;
}

/**
 * Records, from now on, the name and value of every progress bar the page shows: the bars of
 * quick steps come and go between two looks, so the page notes them as they appear.
 */
async function recordProgressBars(page: Page) {
  // A script (the e2e project has no DOM types): notes each new (name, value) of any progress bar.
  await page.evaluate(`(() => {
    const seen = [];
    window.progressSeen = seen;
    const note = () => {
      for (const bar of document.querySelectorAll('[role="progressbar"]')) {
        const name = (bar.getAttribute('aria-labelledby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .trim();
        const value = bar.getAttribute('aria-valuenow');
        const last = seen[seen.length - 1];
        if (!last || last.name !== name || last.value !== value) seen.push({ name, value });
      }
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  })()`);
  return async () => (await page.evaluate('window.progressSeen')) as { name: string; value: string | null }[];
}

test('mark all as read from the palette repeats partial answers to the end, with progress', async ({
  server,
  openSignedIn,
}) => {
  await addMessages(server, { stream: 'general', topic: 'backlog', count: 4500, reader: 'alice' });
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  const main = page.getByRole('main');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Inbox/ })
    .click();
  await expect(main.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  await expect(main.getByText(/^45\d\d unread messages in \d streams?$/)).toBeVisible();
  await expect(main.getByRole('region', { name: 'general' })).toContainText('backlog');
  const seen = await recordProgressBars(page);

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Go to or do' });
  await page.keyboard.type('mark all');
  await palette.getByRole('menuitem', { name: 'Mark all messages as read' }).click();

  // 4500 and more unread, 2000 a request: three steps, the last one done.
  await expect(page.getByRole('status').filter({ hasText: 'All messages are marked as read.' })).toHaveText(
    'All messages are marked as read. It took 3 steps.',
  );
  await expect(main.getByText('You have no unread messages.')).toBeVisible();
  // The strip with its "done" line, audited while it shows (it goes after a few seconds).
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/screens/mark-read-done-${scheme}.png` });
    const audit = await new AxeBuilder({ page })
      .include('main')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(
      audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
      scheme,
    ).toEqual([]);
  }
  expect(await unreadOnServer(server, 'alice')).toBe(0);

  const bars = await seen();
  const names = [...new Set(bars.map((b) => b.name))];
  expect(names).toEqual([
    'Marking all messages as read…',
    'Marking all messages as read… (step 2)',
    'Marking all messages as read… (step 3)',
  ]);
  // Determinate: it counts the unread messages left, and only goes forward.
  const values = bars.map((b) => Number(b.value));
  expect(values.some((v) => v > 0 && v < 100)).toBe(true);
  expect(values).toEqual([...values].sort((a, b) => a - b));
});

test('deleting a big topic repeats partial answers to the end, with progress in the dialog', async ({
  server,
  openSignedIn,
}) => {
  await addMessages(server, {
    stream: 'general',
    topic: 'old logs',
    count: 250,
    reader: 'admin',
    read: true,
  });
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^general/ })
    .click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^All topics/ })
    .click();
  const topics = page.getByRole('main').getByRole('list', { name: 'Topics in general' });
  const seen = await recordProgressBars(page);
  await topics.getByRole('button', { name: 'Actions for topic old logs' }).click();
  await page.getByRole('menuitem', { name: 'Delete topic…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete topic “old logs”?' });
  await expect(confirm).toContainText('This deletes 250 messages in this topic');
  await confirm.getByRole('button', { name: 'Delete topic' }).click();
  await expect(confirm).toHaveCount(0);

  // 250 messages, 100 a request: three steps.
  await expect(page.getByRole('status').filter({ hasText: 'is deleted' })).toHaveText(
    '#general > old logs is deleted. It took 3 steps.',
  );
  await expect(topics.getByText('old logs')).toHaveCount(0);
  const client = await loginAs(server, 'admin');
  const left = (await client.request('GET', '/messages', {
    narrow: [
      { operator: 'channel', operand: 'general' },
      { operator: 'topic', operand: 'old logs' },
    ],
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
  })) as { messages: unknown[] };
  expect(left.messages).toHaveLength(0);
  expect([...new Set((await seen()).map((b) => b.name))]).toEqual(
    expect.arrayContaining([
      'Deleting #general > old logs…',
      'Deleting #general > old logs… (step 2)',
      'Deleting #general > old logs… (step 3)',
    ]),
  );
});

test('marking a topic as read from its menu shows progress and says when it is done', async ({
  server,
  openSignedIn,
}) => {
  // Seeing the stream's messages on the way to its topic list would read them: not here.
  await (await loginAs(server, 'alice')).request('PATCH', '/settings', { web_mark_read_on_scroll_policy: 3 });
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^engineering/ })
    .click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^All topics/ })
    .click();
  const main = page.getByRole('main');
  const topics = main.getByRole('list', { name: 'Topics in engineering' });
  const row = topics.getByRole('listitem').filter({ hasText: 'release 1.0' });
  await expect(row.getByText(/unread/)).toBeVisible();
  const seen = await recordProgressBars(page);
  await row.getByRole('button', { name: 'Actions for topic release 1.0' }).click();
  await page.getByRole('menuitem', { name: 'Mark topic as read' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is marked as read' })).toHaveText(
    '#engineering > release 1.0 is marked as read.',
  );
  await expect(row.getByText(/unread/)).toHaveCount(0);
  expect((await seen()).map((b) => b.name)).toContain('Marking #engineering > release 1.0 as read…');
  const client = await loginAs(server, 'alice');
  const unread = (await client.request('GET', '/messages', {
    narrow: [
      { operator: 'channel', operand: 'engineering' },
      { operator: 'topic', operand: 'release 1.0' },
      { operator: 'is', operand: 'unread' },
    ],
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
  })) as { messages: unknown[] };
  expect(unread.messages).toHaveLength(0);
});
