/**
 * Streams' weekly traffic (issue 9): the browse list says how busy each stream is from the
 * server's stream_weekly_traffic, and the sidebar demotes a stream without recent messages per
 * demote_inactive_streams. Old traffic is made by sending messages through the API and moving
 * their time back in the server's database.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { type DemoUser, loginAs } from '../test/support/server';
import { type Credentials, expect, type TestServer, test } from './support/app';

const DAY = 86_400;
/** The start of the current UTC day: the server counts the four weeks before it. */
const today = () => Math.floor(Date.now() / 1000 / DAY) * DAY;

function as(server: TestServer, who: DemoUser): Credentials {
  return { email: server.demo.users[who], password: server.demo.password };
}

/** Runs one statement on the server's database (a second connection; the server runs in WAL mode). */
function sql(server: TestServer, statement: string, ...params: unknown[]): void {
  const db = new Database(path.join(server.dataDir, 'confab.sqlite3'));
  try {
    db.prepare(statement).run(...params);
  } finally {
    db.close();
  }
}

/**
 * Alice creates a stream `daysOld` days old (by its creation date) and sends it `count`
 * messages dated `daysAgo` days before today: her own, so they leave her nothing unread.
 */
async function streamWithHistory(
  server: TestServer,
  name: string,
  { daysOld, count = 0, daysAgo = 0 }: { daysOld: number; count?: number; daysAgo?: number },
): Promise<void> {
  const alice = await loginAs(server, 'alice');
  const created = (await alice.request('POST', '/users/me/subscriptions', {
    subscriptions: [{ name, description: `The ${name} stream.` }],
  })) as { subscribed: Record<string, string[]> };
  expect(Object.values(created.subscribed).flat()).toContain(name);
  const { streams } = (await alice.request('GET', '/streams')) as {
    streams: { stream_id: number; name: string }[];
  };
  const streamId = streams.find((s) => s.name === name)?.stream_id;
  sql(server, 'UPDATE streams SET date_created = ? WHERE id = ?', today() - daysOld * DAY - 3600, streamId);
  for (let i = 0; i < count; i++) {
    const sent = (await alice.request('POST', '/messages', {
      type: 'stream',
      to: name,
      topic: 'history',
      content: `Message ${i + 1}`,
    })) as { id: number };
    sql(server, 'UPDATE messages SET date_sent = ? WHERE id = ?', today() - daysAgo * DAY + 60 * i, sent.id);
  }
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const main = (page: Page) => page.getByRole('main');

/** A stream's row in the browse list, by the stream's name. */
const browseRow = (page: Page, name: string) =>
  main(page)
    .getByRole('list', { name: 'All streams' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name, exact: true }) });

test('the browse list says each stream’s weekly traffic, and “New stream” only for a new one', async ({
  server,
  openSignedIn,
}, testInfo) => {
  // 20 messages in the last four weeks: about 5 a week.
  await streamWithHistory(server, 'busy', { daysOld: 60, count: 20, daysAgo: 3 });
  // Three days old, with messages: too new to tell.
  await streamWithHistory(server, 'fresh', { daysOld: 3, count: 2, daysAgo: 1 });
  // Messages only before the last four weeks.
  await streamWithHistory(server, 'dormant', { daysOld: 90, count: 3, daysAgo: 40 });

  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await sidebar(page).getByRole('button', { name: 'Browse and create streams' }).click();
  await expect(main(page).getByRole('heading', { name: 'Streams', level: 1 })).toBeVisible();

  await expect(browseRow(page, 'busy')).toContainText('About 5 messages a week');
  await expect(browseRow(page, 'fresh')).toContainText('New stream');
  await expect(browseRow(page, 'dormant')).toContainText('No recent messages');
  // The demo's own streams are long past their messages, not new.
  await expect(browseRow(page, 'general')).toContainText('No recent messages');
  await expect(main(page).getByText('New stream', { exact: true })).toHaveCount(1);
  await expect(browseRow(page, 'busy').getByText('About 5 messages a week')).toHaveAttribute(
    'title',
    'Average number of messages a week over the last four weeks.',
  );

  await page.screenshot({ path: testInfo.outputPath('streams-traffic.png') });

  // A message sent today leaves the figures as they are (they count whole days before today):
  // a window signed in afterwards, with a fresh snapshot, says the same.
  const alice = await loginAs(server, 'alice');
  await alice.request('POST', '/messages', { type: 'stream', to: 'dormant', topic: 'today', content: 'Hi' });
  const later = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await sidebar(later).getByRole('button', { name: 'Browse and create streams' }).click();
  await expect(browseRow(later, 'dormant')).toContainText('No recent messages');
  await expect(browseRow(later, 'busy')).toContainText('About 5 messages a week');
  await expect(browseRow(page, 'dormant')).toContainText('No recent messages');
});

test('a stream without recent messages is demoted in the sidebar when demote_inactive_streams says so', async ({
  server,
  openSignedIn,
}, testInfo) => {
  await streamWithHistory(server, 'busy', { daysOld: 60, count: 8, daysAgo: 2 });
  // It had messages, long ago: before, with no traffic figures, it counted as active.
  await streamWithHistory(server, 'dormant', { daysOld: 90, count: 3, daysAgo: 40 });
  const alice = await loginAs(server, 'alice');
  await alice.request('PATCH', '/settings', { demote_inactive_streams: 2 });

  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  const inactive = sidebar(page).getByRole('list', { name: 'Inactive streams' });
  await expect(sidebar(page).getByRole('heading', { name: 'Inactive streams' })).toBeVisible();
  await expect(inactive.getByRole('button', { name: /^dormant/ })).toBeVisible();
  await expect(inactive.getByRole('button')).toHaveCount(1);
  const active = sidebar(page).getByRole('list', { name: 'Subscribed streams' });
  await expect(active.getByRole('button', { name: /^busy/ })).toBeVisible();
  // Alice's unread messages keep the demo's old streams up, whatever their traffic.
  await expect(active.getByRole('button', { name: /^general/ })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('sidebar-inactive.png') });

  // "Automatic" with a handful of streams demotes nothing, nor does "Never".
  await alice.request('PATCH', '/settings', { demote_inactive_streams: 1 });
  await expect(sidebar(page).getByRole('heading', { name: 'Inactive streams' })).toBeHidden();
  await expect(active.getByRole('button', { name: /^dormant/ })).toBeVisible();
  await alice.request('PATCH', '/settings', { demote_inactive_streams: 2 });
  await expect(inactive.getByRole('button', { name: /^dormant/ })).toBeVisible();
  await alice.request('PATCH', '/settings', { demote_inactive_streams: 3 });
  await expect(sidebar(page).getByRole('list', { name: 'Inactive streams' })).toHaveCount(0);
  await expect(active.getByRole('button', { name: /^dormant/ })).toBeVisible();
});
