/**
 * Focus around dialogs (issue 9's quality bar): a dialog keeps the focus inside while open,
 * and Escape gives it back to what opened it: the account menu's button for a dialog opened
 * from that menu, the element focused before the command palette for one the palette opened.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/app';

/** Whether the document's focused element is inside `container`. */
const focusInside = (container: Locator) =>
  container.evaluate((element) => element.contains(element.ownerDocument.activeElement));

async function expectTrapped(page: Page, dialog: Locator, key: 'Tab' | 'Shift+Tab', presses: number) {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(key);
    expect(await focusInside(dialog), `focus after ${key} × ${i + 1}`).toBe(true);
  }
}

const palette = (page: Page) => page.getByRole('dialog', { name: 'Go to or do' });

async function runFromPalette(page: Page, query: string, item: string | RegExp) {
  await page.keyboard.press('Control+k');
  await expect(palette(page).getByRole('searchbox')).toBeFocused();
  await page.keyboard.type(query);
  await expect(palette(page).getByRole('menuitem').first()).toHaveAccessibleName(item);
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
}

test('the status dialog from the account menu traps the focus and gives it back on Escape', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  const menuButton = page.getByRole('button', { name: 'Account menu' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Set status…' }).press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Set status' });
  await expect(dialog.getByRole('textbox', { name: 'Status text' })).toBeFocused();

  // Round the dialog more than once, both ways: the focus never leaves it.
  await expectTrapped(page, dialog, 'Tab', 15);
  await expectTrapped(page, dialog, 'Shift+Tab', 15);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(menuButton).toBeFocused();

  // The same by pointer: the menu's button again.
  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Set status…' }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(menuButton).toBeFocused();
});

test('a dialog opened from the command palette gives the focus back to where it was before', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  const inbox = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Inbox/ });
  await inbox.focus();

  // Closing the palette itself.
  await page.keyboard.press('Control+k');
  await expect(palette(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();
  await expect(inbox).toBeFocused();

  // Set status, from the palette.
  await runFromPalette(page, 'set status', 'Set status…');
  const status = page.getByRole('dialog', { name: 'Set status' });
  await expect(status.getByRole('textbox', { name: 'Status text' })).toBeFocused();
  await expectTrapped(page, status, 'Tab', 15);
  await page.keyboard.press('Escape');
  await expect(status).toBeHidden();
  await expect(inbox).toBeFocused();

  // A person's profile card, from the palette.
  await runFromPalette(page, 'bob smith', /^Bob Smith/);
  const card = page.getByRole('dialog', { name: 'Bob Smith' });
  await expect(card).toBeVisible();
  expect(await focusInside(card)).toBe(true);
  await expectTrapped(page, card, 'Tab', 15);
  // 15 Tabs end on the Close button, whose tooltip shows: Escape hides the tooltip first, the
  // next one closes the card.
  const close = card.getByRole('button', { name: 'Close' });
  await expect(close).toBeFocused();
  await expect(page.getByRole('tooltip', { name: 'Close' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip', { name: 'Close' })).toBeHidden();
  await expect(card).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(card).toBeHidden();
  await expect(inbox).toBeFocused();
});

test('the status dialog opened from one’s own profile card gives the focus back to the people list', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  const me = page.getByRole('complementary', { name: 'People' }).getByRole('option', { name: /^Alice Doe/ });
  await me.focus();
  await page.keyboard.press('Enter');
  const card = page.getByRole('dialog', { name: 'Alice Doe' });
  await card.getByRole('button', { name: 'Set status…' }).press('Enter');
  await expect(card).toBeHidden();
  const status = page.getByRole('dialog', { name: 'Set status' });
  await expect(status.getByRole('textbox', { name: 'Status text' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(status).toBeHidden();
  await expect(me).toBeFocused();
});
