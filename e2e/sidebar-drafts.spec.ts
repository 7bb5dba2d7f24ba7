/**
 * The sidebar's Drafts count is the Drafts screen's list: drafts kept only on this computer
 * (not yet on the server) count, and a draft being deleted (Undo still offered) does not.
 */
import type { Page } from '@playwright/test';
import { loginAs } from '../test/support/server';
import { expect, openView, signInAndWait, type TestServer, test } from './support/app';

/** The sidebar's Drafts item, named by its count (", 2 drafts"; no count when there are none). */
const draftsItem = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Drafts/ });

const rows = (page: Page) => page.getByRole('grid', { name: 'Your drafts' }).getByRole('row');

async function serverDraftCount(server: TestServer): Promise<number> {
  return (await (await loginAs(server, 'alice')).getDrafts()).length;
}

test('the Drafts count includes drafts only on this computer and leaves out those being deleted', async ({
  server,
  alice,
  openApps,
}) => {
  const [page] = await openApps({ serverUrl: server.url });
  await signInAndWait(page, alice);
  // The demo gives alice one draft, on the server.
  await expect(draftsItem(page)).toHaveAccessibleName(/^Drafts\s*, 1 draft$/);
  expect(await serverDraftCount(server)).toBe(1);

  // An empty draft stays on this computer: the screen lists it, and the sidebar counts it.
  await openView(page, 'Drafts');
  await page.getByRole('button', { name: 'New draft' }).click();
  await expect(page.getByRole('status', { name: 'Draft status' })).toHaveText(
    'Not synced: empty drafts stay on this computer',
  );
  await expect(rows(page)).toHaveCount(2);
  await expect(draftsItem(page)).toHaveAccessibleName(/^Drafts\s*, 2 drafts$/);
  expect(await serverDraftCount(server)).toBe(1);

  // With the server gone, a typed draft is kept here too, and still counted.
  await server.stop();
  await page.getByRole('textbox', { name: 'Draft text' }).pressSequentially('Agenda for Monday');
  await expect(page.getByRole('status', { name: 'Draft status' })).toHaveText(
    'Saved on this computer, will sync',
  );
  await expect(draftsItem(page)).toHaveAccessibleName(/^Drafts\s*, 2 drafts$/);

  // Deleting hides it at once, from the list and from the count; Undo brings both back.
  await rows(page)
    .filter({ hasText: 'Agenda for Monday' })
    .getByRole('button', { name: 'Delete draft' })
    .click();
  const banner = page.getByRole('status').filter({ hasText: 'Draft deleted.' });
  await expect(banner).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  await expect(draftsItem(page)).toHaveAccessibleName(/^Drafts\s*, 1 draft$/);
  await banner.getByRole('button', { name: 'Undo' }).click();
  await expect(rows(page)).toHaveCount(2);
  await expect(draftsItem(page)).toHaveAccessibleName(/^Drafts\s*, 2 drafts$/);
});
