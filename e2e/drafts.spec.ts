/**
 * Drafts through every layer: typed in one app instance, saved locally and on the server,
 * shown in a second instance of the same user; a sign-out that would leave drafts off the
 * server asks first; drafts get a recipient from the screen; deleting (one or several) can be
 * undone, and the server keeps or loses them accordingly; the list is newest first with its
 * Markdown rendered.
 */
import type { Page } from '@playwright/test';
import { loginAs } from '../test/support/server';
import { expect, openView, signInAndWait, type TestServer, test } from './support/app';

const UNDO_WINDOW_MS = 8000;

async function openDrafts(page: Page) {
  await openView(page, 'Drafts');
  await expect(page.getByRole('heading', { name: 'Drafts', level: 1 })).toBeVisible();
}

const draftList = (page: Page) => page.getByRole('grid', { name: 'Your drafts' });
const rows = (page: Page) => draftList(page).getByRole('row');
const editorText = (page: Page) => page.getByRole('textbox', { name: 'Draft text' });
const draftStatus = (page: Page) => page.getByRole('status', { name: 'Draft status' });

async function serverDrafts(server: TestServer) {
  return (await loginAs(server, 'alice')).getDrafts();
}

test('a draft typed in one instance appears in another instance of the same user', async ({
  server,
  alice,
  openApps,
}) => {
  const [one, two] = await openApps({ serverUrl: server.url }, { serverUrl: server.url });
  for (const page of [one, two]) {
    await signInAndWait(page, alice);
    await openDrafts(page);
    // The demo organization gives alice one draft already.
    await expect(rows(page)).toHaveCount(1);
  }

  await one.getByRole('button', { name: 'New draft' }).click();
  const textOne = editorText(one);
  await expect(textOne).toBeFocused();
  // An empty draft stays on this computer.
  await expect(draftStatus(one)).toHaveText('Not synced: empty drafts stay on this computer');
  await textOne.pressSequentially('Lunch at noon?');
  await expect(draftStatus(one)).toHaveText('Synced', { timeout: 30_000 });

  await expect(rows(two)).toHaveCount(2, { timeout: 10_000 });
  const itemTwo = rows(two).filter({ hasText: 'Lunch at noon?' });
  await expect(itemTwo).toContainText('No recipient yet');
  await expect(itemTwo).toContainText('Synced');
  await itemTwo.getByText('Lunch at noon?').click();
  await expect(itemTwo).toHaveAttribute('data-open', 'true');
  const textTwo = editorText(two);
  await expect(textTwo).toHaveValue('Lunch at noon?');
  await expect(draftStatus(two)).toHaveText('Synced');

  // An edit in the second instance comes back to the first.
  await textTwo.press('End');
  await textTwo.pressSequentially(' Or one?');
  await expect(textOne).toHaveValue('Lunch at noon? Or one?', { timeout: 10_000 });

  // With the server gone, typing is saved on this computer, and sign-out asks first.
  await server.stop();
  await textOne.pressSequentially(' Bring the menu.');
  await expect(draftStatus(one)).toHaveText('Saved on this computer, will sync');
  await expect(rows(one).filter({ hasText: 'Bring the menu.' })).toContainText(
    'Saved on this computer, will sync',
  );
  await one.getByRole('button', { name: 'Account menu' }).click();
  await one.getByRole('menuitem', { name: 'Sign out' }).click();
  const dialog = one.getByRole('alertdialog', { name: 'Sign out?' });
  await expect(dialog).toContainText('You have 1 draft not yet saved to the server. Sign out anyway?');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(textOne).toHaveValue('Lunch at noon? Or one? Bring the menu.');

  await one.getByRole('button', { name: 'Account menu' }).click();
  await one.getByRole('menuitem', { name: 'Sign out' }).click();
  await one.getByRole('alertdialog').getByRole('button', { name: 'Sign out anyway' }).click();
  await expect(one.getByRole('form', { name: 'Sign in' })).toBeVisible();
});

test('a draft without a recipient gets a stream and topic, then people, and the server has them', async ({
  server,
  alice,
  openApps,
}) => {
  const [page] = await openApps({ serverUrl: server.url });
  await signInAndWait(page, alice);
  await openDrafts(page);

  await page.getByRole('button', { name: 'New draft' }).click();
  await editorText(page).pressSequentially('Ship **the release** today');
  await expect(draftStatus(page)).toHaveText('Synced', { timeout: 30_000 });
  const row = rows(page).filter({ hasText: 'Ship' });
  await expect(row).toContainText('No recipient yet');
  // The excerpt is Markdown: bold text is <strong>, and no asterisks show.
  await expect(row.locator('strong')).toHaveText('the release');
  await expect(row).not.toContainText('**');

  // A stream and a topic.
  const editor = page.getByRole('region', { name: 'Edit draft' });
  await editor.getByRole('combobox', { name: 'Stream' }).fill('engin');
  await page.getByRole('option', { name: '#engineering' }).click();
  await editor.getByRole('textbox', { name: 'Topic' }).fill('release 1.1');
  await expect(row).toContainText('#engineering > release 1.1', { timeout: 10_000 });
  await expect(draftStatus(page)).toHaveText('Synced', { timeout: 30_000 });
  const alice2 = await loginAs(server, 'alice');
  const engineering = (await alice2.request('GET', '/get_stream_id', { stream: 'engineering' })) as {
    stream_id: number;
  };
  await expect
    .poll(async () => (await serverDrafts(server)).find((d) => d.content.startsWith('Ship')))
    .toMatchObject({ type: 'stream', to: [engineering.stream_id], topic: 'release 1.1' });

  // Done closes the picker and names the target; then readdressed to a person.
  await editor.getByRole('button', { name: 'Done' }).click();
  await expect(editor).toContainText('To#engineering > release 1.1');
  await editor.getByRole('button', { name: 'Change recipient' }).click();
  await editor.getByText('People', { exact: true }).click();
  await expect(editor.getByRole('radio', { name: 'People' })).toBeChecked();
  await editor.getByRole('combobox', { name: 'Add a person' }).fill('Bob');
  await page.getByRole('option', { name: /Bob Smith/ }).click();
  await expect(editor.getByRole('row', { name: 'Bob Smith' })).toBeVisible();
  await expect(row).toContainText('Bob Smith');
  const bobId = (await (await loginAs(server, 'bob')).getOwnUser()).user_id;
  await expect
    .poll(async () => (await serverDrafts(server)).find((d) => d.content.startsWith('Ship')))
    .toMatchObject({ type: 'private', to: [bobId] });
});

test('deleting a draft can be undone; without Undo the server loses it', async ({
  server,
  alice,
  openApps,
}) => {
  const [page] = await openApps({ serverUrl: server.url });
  await signInAndWait(page, alice);
  await openDrafts(page);
  const row = rows(page).filter({ hasText: 'release notes' });
  await expect(row).toContainText('#engineering > release 1.0');

  // Keyboard: focus the draft, Delete deletes it; Undo brings it back.
  await row.getByText('release notes').click();
  await expect(editorText(page)).toHaveValue(/release notes/);
  await row.focus();
  await page.keyboard.press('Delete');
  await expect(rows(page)).toHaveCount(0);
  const banner = page.getByRole('status').filter({ hasText: 'Draft deleted.' });
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Undo' }).click();
  await expect(banner).toHaveCount(0);
  await expect(rows(page)).toHaveCount(1);
  await expect(row).toBeFocused();
  // Past the Undo window the server still has it.
  await page.waitForTimeout(UNDO_WINDOW_MS + 1000);
  expect((await serverDrafts(server)).map((d) => d.topic)).toEqual(['release 1.0']);
  await expect(rows(page)).toHaveCount(1);

  // Deleted from its row's button, not undone: the banner goes and the server loses it.
  await row.getByRole('button', { name: 'Delete draft' }).click();
  await expect(banner).toBeVisible();
  await expect(banner).toHaveCount(0, { timeout: UNDO_WINDOW_MS + 5000 });
  await expect.poll(async () => (await serverDrafts(server)).length, { timeout: 15_000 }).toBe(0);
  await expect(page.getByText('No drafts')).toBeVisible();
});

test('drafts are newest first with their times; several are selected and deleted at once', async ({
  server,
  alice,
  openApps,
}) => {
  const client = await loginAs(server, 'alice');
  const now = Math.floor(Date.now() / 1000);
  await client.createDrafts([
    { type: '', to: [], topic: '', content: 'Older idea', timestamp: now - 3600 },
    { type: '', to: [], topic: '', content: 'Newest idea', timestamp: now - 60 },
  ]);
  const [page] = await openApps({ serverUrl: server.url });
  await signInAndWait(page, alice);
  await openDrafts(page);

  // Newest first: the two from today, then the demo's draft from 2025.
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).nth(0)).toContainText('Newest idea');
  await expect(rows(page).nth(1)).toContainText('Older idea');
  await expect(rows(page).nth(2)).toContainText('release notes');
  // Today's drafts show a time of day, older ones a date with the year; the exact time on hover.
  // 12 or 24 hours per twenty_four_hour_time, following a change made elsewhere at once.
  const newestTime = rows(page).nth(0).locator('time');
  await client.updateSettings({ twenty_four_hour_time: true });
  await expect(newestTime).toHaveText(/^\d{2}:\d{2}$/, { timeout: 10_000 });
  await client.updateSettings({ twenty_four_hour_time: false });
  await expect(newestTime).toHaveText(/^\d{1,2}:\d{2}\s[AP]M$/, { timeout: 10_000 });
  await expect(rows(page).nth(2).locator('time')).toHaveText(/2025/);
  await expect(rows(page).nth(2).locator('time')).toHaveAttribute('title', /2025/);
  await expect(rows(page).nth(0)).toContainText('Synced');

  // Keyboard: arrows move between drafts, Enter opens the one in focus.
  await rows(page).nth(0).focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows(page).nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(editorText(page)).toHaveValue('Older idea');

  // Select all, then only two.
  const selectAll = page.getByRole('checkbox', { name: 'Select all' });
  await page.getByText('Select all').click();
  await expect(selectAll).toBeChecked();
  await expect(page.getByText('3 selected', { exact: true })).toBeVisible();
  await page.getByText('Select all').click();
  await expect(selectAll).not.toBeChecked();
  // Row checkboxes: by keyboard (Space on the focused box) and by pointer.
  await rows(page).nth(0).getByRole('checkbox').focus();
  await page.keyboard.press('Space');
  await rows(page).nth(1).locator('.check-box').click();
  await expect(rows(page).nth(1).getByRole('checkbox')).toBeChecked();
  await expect(selectAll).not.toBeChecked();
  await page.getByRole('button', { name: 'Delete 2 selected' }).click();
  await expect(rows(page)).toHaveCount(1);
  const banner = page.getByRole('status').filter({ hasText: '2 drafts deleted.' });
  await expect(banner).toBeVisible();
  await expect(banner).toHaveCount(0, { timeout: UNDO_WINDOW_MS + 5000 });
  await expect
    .poll(async () => (await serverDrafts(server)).map((d) => d.content), { timeout: 15_000 })
    .toEqual(['We should also mention the new settings screen in the release notes.']);
  await expect(rows(page)).toHaveCount(1);
});
