/**
 * The command palette reaches any topic, not only unread ones (a query naming a stream fetches
 * its topics), and single settings: it jumps to the setting's section and focuses its control;
 * it also holds notifications until tomorrow morning.
 */
import type { Page } from '@playwright/test';
import { loginAs } from '../test/support/server';
import { expect, test } from './support/app';

const palette = (page: Page) => page.getByRole('dialog', { name: 'Go to or do' });

async function openPalette(page: Page, query: string) {
  await page.keyboard.press('Control+k');
  await expect(palette(page)).toBeVisible();
  await expect(palette(page).getByRole('searchbox')).toBeFocused();
  await page.keyboard.type(query);
}

test('the palette finds a topic with nothing unread through its stream, and then by its name', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  // Alice has read everything in #engineering > build pipeline.
  const client = await loginAs(server, 'alice');
  const unread = (await client.request('POST', '/register', { fetch_event_types: ['message'] })) as {
    unread_msgs?: { streams?: { topic: string }[] };
  };
  expect((unread.unread_msgs?.streams ?? []).map((s) => s.topic)).not.toContain('build pipeline');

  // Not offered before typing (only unread topics are), nor found before anything fetched it.
  await openPalette(page, '');
  await expect(palette(page).getByRole('menuitem', { name: /build pipeline/ })).toHaveCount(0);
  await page.keyboard.type('build pip');
  // Nothing matches but the search of the messages for it.
  await expect(palette(page).getByRole('menuitem')).toHaveText(['Search for “build pip”in messages']);
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();

  // Naming the stream lists its topics, matched against the rest of the query.
  await openPalette(page, '#engineering build');
  const first = palette(page).getByRole('menuitem').first();
  await expect(first).toHaveText('build pipeline#engineering');
  await expect(
    palette(page)
      .getByRole('group', { name: 'Topics' })
      .getByRole('menuitem', { name: /build pipeline/ }),
  ).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
  // The topic's messages open, and the sidebar shows the topic under its stream as current.
  await expect(page.getByRole('main', { name: 'Messages' })).toBeVisible();
  await expect(
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('list', { name: 'engineering: topics' })
      .getByRole('button', { name: /^build pipeline/ }),
  ).toHaveAttribute('aria-current', 'page');

  // Known now: its name alone finds it.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Inbox/ })
    .click();
  await openPalette(page, 'build pip');
  await expect(palette(page).getByRole('menuitem').first()).toHaveText('build pipeline#engineering');
  await page.keyboard.press('Escape');
});

test('the palette jumps to a single setting and focuses it', async ({ server, alice, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  await openPalette(page, 'dense mo');
  await expect(palette(page).getByRole('menuitem').first()).toHaveText('Dense modePreferences › Theme');
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
  await expect(
    page.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name: 'Preferences' }),
  ).toHaveAttribute('aria-current', 'page');
  const dense = page.getByRole('switch', { name: 'Dense mode' });
  await expect(dense).toBeFocused();
  await expect(dense).toBeChecked();
  // Focused, so the keyboard changes it at once.
  await page.keyboard.press('Space');
  await expect(dense).not.toBeChecked();
  const client = await loginAs(server, 'alice');
  await expect
    .poll(async () => {
      const r = (await client.request('POST', '/register', { fetch_event_types: ['user_settings'] })) as {
        user_settings: { dense_mode: boolean };
      };
      return r.user_settings.dense_mode;
    })
    .toBe(false);

  // A notification trigger, from another section: the table's switch.
  await openPalette(page, 'stream messages email');
  await expect(palette(page).getByRole('menuitem').first()).toHaveText(
    'Stream messages: email notificationsNotifications › Notification triggers',
  );
  await page.keyboard.press('Enter');
  await expect(page.getByRole('switch', { name: 'Stream messages: email' })).toBeFocused();

  // From another section, a setting far below the fold: scrolled into view.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name: 'Privacy' }).click();
  const news = page.getByText('Send me news about Confab', { exact: true });
  await openPalette(page, 'news about');
  await expect(palette(page).getByRole('menuitem').first()).toHaveText(
    'Send me news about ConfabNotifications › Email',
  );
  await page.keyboard.press('Enter');
  await expect(page.getByRole('switch', { name: 'Send me news about Confab' })).toBeFocused();
  await expect(news).toBeInViewport();
  // Only the screen's pane scrolls: the frame (the sidebar with it) stays in place.
  expect((await page.getByRole('navigation', { name: 'Main' }).boundingBox())?.y).toBe(0);
});

test('the palette holds notifications until tomorrow morning', async ({ server, alice, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  await openPalette(page, 'until tomor');
  await expect(palette(page).getByRole('menuitem').first()).toHaveText('Do not disturb until tomorrow');
  await page.keyboard.press('Enter');
  // Tomorrow at 9:00 (alice uses the 12-hour clock).
  await expect(page.getByRole('status', { name: 'Do not disturb' })).toHaveText(
    /^Do not disturb until tomorrow 9:00\sAM$/,
  );
  await openPalette(page, 'dnd');
  await expect(palette(page).getByRole('menuitem').first()).toHaveText('Turn off do not disturb');
  await page.keyboard.press('Escape');
});
