/**
 * Emoji as the account's emoji theme draws them (issue 9: `emojiset` visibly changes the app):
 * Set A (google) and Set B (twitter) are cells of their own sprite sheet, each sheet fetched only
 * once an emoji of its set shows; Plain text shows `:name:`. And the organization's custom
 * emoji show their images, which the main process fetches for the renderer (its CSP loads
 * nothing from the server), in the administration's list and the status emoji picker.
 */
import type { Locator, Page } from '@playwright/test';
import { loginAs } from '../test/support/server';
import { expect, openSettings, test } from './support/app';

/** A real 2×2 PNG. */
const PNG_2X2 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

/** A Select's button: named by its value, then its label. */
const selectButton = (page: Page, label: string) =>
  page.getByRole('button', { name: new RegExp(`${label}$`) });

async function choose(page: Page, label: string, option: string) {
  await selectButton(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The page's globals used here (the e2e project has no DOM typings). */
type PageGlobals = { getComputedStyle(element: unknown): Record<string, string> };

/** A computed style property of the element. */
const style = (element: Locator, property: string) =>
  element.evaluate(
    (el, name) => (globalThis as unknown as PageGlobals).getComputedStyle(el)[name] ?? '',
    property,
  );

/** An image element's decoded size. */
const naturalSize = (image: Locator) =>
  image.evaluate((img) => {
    const { naturalWidth, naturalHeight } = img as unknown as { naturalWidth: number; naturalHeight: number };
    return [naturalWidth, naturalHeight];
  });

/** The sheet file of a background-image (`url("http://…/assets/32-abc.png")`). */
const sheetOf = (backgroundImage: string) =>
  /\/assets\/(32-[\w-]+\.png)"?\)$/.exec(backgroundImage)?.[1] ?? null;

test('the emoji theme draws emoji from its own sheet, and plain text shows :name:', async ({
  server,
  alice,
  launchApp,
  openApp,
}) => {
  const app = await launchApp();
  const sheetsFetched: string[] = [];
  const page = await openApp(app, (p) =>
    p.on('request', (request) => {
      const file = /\/assets\/(32-[\w-]+\.png)$/.exec(new URL(request.url()).pathname)?.[1];
      if (file) sheetsFetched.push(file);
    }),
  );
  await page.getByRole('form', { name: 'Sign in' }).getByLabel('Server URL').fill(server.url);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(alice.email);
  await form.getByLabel('Password').fill(alice.password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();

  // Bob's status emoji in the people list: the palm tree, cell (5, 45) of the 62-cell sheet.
  const palmTree = page
    .getByRole('complementary', { name: 'People' })
    .getByRole('option', { name: /^Bob Smith/ })
    .getByRole('img', { name: 'palm tree' });
  await expect(palmTree).toBeVisible({ timeout: 30_000 });
  // The service's default set is Set A: the google sheet.
  await expect.poll(() => style(palmTree, 'backgroundImage')).toMatch(/32-[\w-]+\.png/);
  const google = sheetOf(await style(palmTree, 'backgroundImage'));
  expect(await style(palmTree, 'backgroundPosition')).toBe('8.1967% 73.7705%');
  expect(await style(palmTree, 'width')).toBe(await style(palmTree, 'height'));
  await expect(palmTree).toHaveText('');
  expect(sheetsFetched).toEqual([google]);

  await openSettings(page, 'Preferences');
  await choose(page, 'Emoji theme', 'Set B');
  await expect.poll(async () => sheetOf(await style(palmTree, 'backgroundImage'))).not.toBe(google);
  const twitter = sheetOf(await style(palmTree, 'backgroundImage'));
  expect(twitter).not.toBeNull();
  expect(await style(palmTree, 'backgroundPosition')).toBe('8.1967% 73.7705%');
  // Only now is the second sheet fetched, and it is a real 2108 px square (62 cells of 34 px).
  await expect.poll(() => sheetsFetched).toEqual([google, twitter]);
  const size = await page.evaluate(
    `new Promise((resolve) => { const i = new Image(); i.onload = () => resolve([i.naturalWidth, i.naturalHeight]); i.onerror = () => resolve(null); i.src = 'assets/${twitter}'; })`,
  );
  expect(size).toEqual([2108, 2108]);

  await choose(page, 'Emoji theme', 'Plain text');
  await expect(palmTree).toHaveText(':palm_tree:');
  expect(await style(palmTree, 'backgroundImage')).toBe('none');

  await choose(page, 'Emoji theme', 'Set A');
  await expect.poll(async () => sheetOf(await style(palmTree, 'backgroundImage'))).toBe(google);
  await expect(palmTree).toHaveText('');
  // Set A, blob style has no sheet of its own: it is drawn like Set A.
  await choose(page, 'Emoji theme', 'Set A, blob style');
  await expect(selectButton(page, 'Emoji theme')).toHaveAccessibleName(/^Set A, blob style/);
  expect(sheetOf(await style(palmTree, 'backgroundImage'))).toBe(google);
});

test("custom emoji show their image in the administration's list and the status emoji picker", async ({
  server,
  alice,
  openSignedIn,
}) => {
  const admin = await loginAs(server, 'admin');
  await admin.upload('/realm/emoji/team_dot', {
    fileName: 'dot.png',
    mimeType: 'image/png',
    data: new Uint8Array(Buffer.from(PNG_2X2, 'base64')),
  });
  const page = await openSignedIn({ serverUrl: server.url }, alice);

  await openSettings(page, 'Custom emoji');
  const row = page
    .getByRole('list', { name: 'Custom emoji' })
    .getByRole('listitem')
    .filter({ hasText: ':team_dot:' });
  const listed = row.locator('img');
  await expect(listed).toHaveAttribute('src', `data:image/png;base64,${PNG_2X2}`);
  // Decoded (the CSP allows it): its natural size is the PNG's.
  await expect.poll(() => naturalSize(listed)).toEqual([2, 2]);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Set status…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set status' });
  await dialog.getByRole('button', { name: 'Choose an emoji' }).click();
  await page.getByRole('searchbox', { name: 'Search emoji' }).fill('team_dot');
  const cell = page
    .getByRole('listbox', { name: 'Search results' })
    .getByRole('option', { name: 'team dot' });
  await expect(cell.locator('img')).toHaveAttribute('src', `data:image/png;base64,${PNG_2X2}`);
  await expect.poll(() => naturalSize(cell.locator('img'))).toEqual([2, 2]);
});
