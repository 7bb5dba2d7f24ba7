/**
 * Drafts through every layer: typed in one app instance, saved locally and on the server,
 * shown in a second instance of the same user; and a sign-out that would leave drafts off the
 * server asks first.
 */
import { expect, signInAndWait, test } from './support/app';

test('a draft typed in one instance appears in another instance of the same user', async ({
  server,
  alice,
  openApps,
}) => {
  const [one, two] = await openApps({ serverUrl: server.url }, { serverUrl: server.url });
  for (const page of [one, two]) {
    await signInAndWait(page, alice);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Drafts' }).click();
    await expect(page.getByRole('heading', { name: 'Drafts' })).toBeVisible();
    // The demo organization gives alice one draft already.
    await expect(page.getByRole('list', { name: 'Your drafts' }).getByRole('button')).toHaveCount(1);
  }

  await one.getByRole('button', { name: 'New draft' }).click();
  const textOne = one.getByLabel('Draft text');
  await textOne.pressSequentially('Lunch at noon?');
  const statusOne = one.getByRole('main').getByRole('status');
  await expect(statusOne).toHaveText('Synced', { timeout: 30_000 });

  const listTwo = two.getByRole('list', { name: 'Your drafts' });
  await expect(listTwo.getByRole('button')).toHaveCount(2, { timeout: 10_000 });
  const itemTwo = listTwo.getByRole('button', { name: /^Lunch at noon\?/ });
  await expect(itemTwo).toContainText('No recipient yet · Synced');
  await itemTwo.click();
  await expect(itemTwo).toHaveAttribute('aria-current', 'true');
  const textTwo = two.getByLabel('Draft text');
  await expect(textTwo).toHaveValue('Lunch at noon?');
  await expect(two.getByRole('main').getByRole('status')).toHaveText('Synced');

  // An edit in the second instance comes back to the first.
  await textTwo.press('End');
  await textTwo.pressSequentially(' Or one?');
  await expect(textOne).toHaveValue('Lunch at noon? Or one?', { timeout: 10_000 });

  // With the server gone, typing is saved on this computer, and sign-out asks first.
  await server.stop();
  await textOne.pressSequentially(' Bring the menu.');
  await expect(statusOne).toHaveText('Saved locally');
  await one.getByRole('button', { name: 'Sign out' }).click();
  const dialog = one.getByRole('alertdialog', { name: 'Sign out?' });
  await expect(dialog).toContainText('You have 1 draft not yet saved to the server. Sign out anyway?');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(textOne).toHaveValue('Lunch at noon? Or one? Bring the menu.');

  await one.getByRole('button', { name: 'Sign out' }).click();
  await one.getByRole('alertdialog').getByRole('button', { name: 'Sign out anyway' }).click();
  await expect(one.getByRole('form', { name: 'Sign in' })).toBeVisible();
});
