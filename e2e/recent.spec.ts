/**
 * Getting to conversations (issue 10): the app starts on the user's default view; Recent
 * conversations lists topics and private conversations newest first, live, filterable and
 * keyboard-navigable, and opens them; the search box suggests operators and searches; the
 * sidebar opens a stream's and a topic's messages.
 */
import type { Page } from '@playwright/test';
import { loginAs } from '../test/support/server';
import { expect, test } from './support/app';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const grid = (page: Page) => page.getByRole('grid', { name: 'Recent conversations' });
const row = (page: Page, name: RegExp) => grid(page).getByRole('row', { name });

test('recent conversations: newest first, live, filtered, opened by keyboard, in light and dark', async ({
  server,
  alice,
  openSignedIn,
}, testInfo) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  // default_view is recent_topics: the app starts there, and the sidebar lists it first.
  await expect(page.getByRole('heading', { name: 'Recent conversations', level: 1 })).toBeVisible();
  await expect(
    sidebar(page).getByRole('list', { name: 'Views' }).getByRole('button').first(),
  ).toHaveAccessibleName(/^Recent conversations/);
  await expect(grid(page).getByRole('row').nth(1)).toBeVisible();

  const bob = await loginAs(server, 'bob');
  await bob.request('POST', '/messages', {
    type: 'stream',
    to: 'general',
    topic: 'recent check',
    content: 'Fresh news',
  });
  const fresh = row(page, /#general > recent check/);
  await expect(fresh).toBeVisible({ timeout: 5000 });
  // Newest first: the header row, then the new conversation.
  await expect(grid(page).getByRole('row').nth(1)).toHaveAccessibleName(/#general > recent check/);
  await expect(fresh).toContainText('1 unread');

  await page.screenshot({ path: testInfo.outputPath('recent-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('recent-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  const filter = page.getByRole('searchbox', { name: 'Filter conversations' });
  await filter.fill('recent che');
  await expect(grid(page).getByRole('row')).toHaveCount(2);
  await filter.fill('');
  await page.getByRole('button', { name: 'Private only' }).click();
  await expect(fresh).toHaveCount(0);
  await page.getByRole('button', { name: 'Private only' }).click();
  await expect(fresh).toBeVisible();

  // Arrow keys move between the rows; Enter opens the conversation.
  const rows = grid(page).getByRole('row');
  await fresh.focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(2)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(fresh).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main', { name: 'Messages' })).toBeVisible();
  // The sidebar unfolds the stream with the topic current.
  const topics = sidebar(page).getByRole('list', { name: 'general: topics' });
  await expect(topics.getByRole('button', { name: /^recent check/ })).toHaveAttribute('aria-current', 'page');
});

test('the search box suggests operators, searches on Enter, and offers the stream being read', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  await expect(page.getByRole('heading', { name: 'Recent conversations', level: 1 })).toBeVisible();
  const box = page.getByRole('searchbox', { name: 'Search messages' });

  await page.keyboard.press('/');
  await expect(box).toBeFocused();
  await page.keyboard.type('stream:gen');
  const suggestions = page.getByRole('menu', { name: 'Search suggestions' });
  await expect(suggestions.getByRole('menuitem').first()).toContainText('stream:general');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main', { name: 'Messages' })).toBeVisible();
  await expect(box).toHaveValue('stream:general');

  // Escape clears the box.
  await box.focus();
  await page.keyboard.press('Escape');
  await expect(box).toHaveValue('');

  // Reading a stream, the box starts with it.
  await sidebar(page)
    .getByRole('button', { name: /^engineering/ })
    .click();
  await expect(sidebar(page).getByRole('button', { name: /^engineering/ })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.keyboard.press('/');
  await expect(box).toHaveValue('stream:engineering ');
  await page.keyboard.type('deploy');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('stream:engineering deploy');
});

test('default_view all_messages starts the app on All messages', async ({ server, alice, openSignedIn }) => {
  const api = await loginAs(server, 'alice');
  await api.request('PATCH', '/settings', { default_view: 'all_messages' });
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  await expect(page.getByRole('main', { name: 'All messages' })).toBeVisible();
  await expect(
    sidebar(page).getByRole('list', { name: 'Views' }).getByRole('button').first(),
  ).toHaveAccessibleName(/^All messages/);
  // A later change of the setting moves nobody.
  await api.request('PATCH', '/settings', { default_view: 'recent_topics' });
  await expect(
    sidebar(page).getByRole('list', { name: 'Views' }).getByRole('button').first(),
  ).toHaveAccessibleName(/^Recent conversations/);
  await expect(page.getByRole('main', { name: 'All messages' })).toBeVisible();
});
