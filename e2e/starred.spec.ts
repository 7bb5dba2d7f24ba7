/**
 * starred_message_counts: the sidebar's Starred messages view counts the user's starred
 * messages while the setting is on, follows stars given anywhere (another device, through the
 * server), and drops the count in every window the moment the setting is turned off.
 */
import type { Page } from '@playwright/test';
import { loginAs } from '../test/support/server';
import { expect, openSettings, test } from './support/app';

const starredView = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Starred messages/ });

test('the starred messages count follows stars from anywhere, and the setting hides it in every window', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  const other = await openSignedIn({ serverUrl: server.url }, alice);
  const client = await loginAs(server, 'alice');
  const { messages } = (await client.request('GET', '/messages', {
    anchor: 'newest',
    num_before: 2,
    num_after: 0,
    narrow: [],
  })) as { messages: { id: number }[] };
  const ids = messages.map((m) => m.id);
  expect(ids).toHaveLength(2);

  // The demo account starts with nothing starred: no count.
  await expect(starredView(page)).toHaveAccessibleName('Starred messages');
  await client.request('POST', '/messages/flags', { messages: ids, op: 'add', flag: 'starred' });
  await expect(starredView(page)).toHaveAccessibleName('Starred messages , 2 starred messages');
  await expect(starredView(other)).toHaveAccessibleName('Starred messages , 2 starred messages');
  await client.request('POST', '/messages/flags', { messages: [ids[0]], op: 'remove', flag: 'starred' });
  await expect(starredView(page)).toHaveAccessibleName('Starred messages , 1 starred message');

  await openSettings(page, 'Preferences');
  // By keyboard, as the switch is reached with Tab.
  await page.getByRole('switch', { name: 'Show counts for starred messages' }).focus();
  await page.keyboard.press('Space');
  await expect(starredView(page)).toHaveAccessibleName('Starred messages');
  await expect(starredView(other)).toHaveAccessibleName('Starred messages');
  const snapshot = (await client.registerQueue({ fetch_event_types: ['user_settings'] })) as {
    user_settings?: { starred_message_counts?: boolean };
  };
  expect(snapshot.user_settings?.starred_message_counts).toBe(false);
});
