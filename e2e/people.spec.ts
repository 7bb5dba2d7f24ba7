/**
 * People and status: the people list (search, presence groups, the list style), a person's
 * profile card (custom profile fields, local time, role), and setting a status (text counting
 * down from 60, an emoji found by search) that another window shows at once, then clearing it.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { loginAs } from '../test/support/server';
import { expect, signInAndWait, test } from './support/app';

function peoplePane(page: Page) {
  return page.getByRole('complementary', { name: 'People' });
}

function personOption(page: Page, name: string) {
  return peoplePane(page).getByRole('option', { name: new RegExp(`^${name}`) });
}

async function openStatusDialog(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Set status…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set status' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('the people list finds people, and a profile card shows their fields and local time', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  const pane = peoplePane(page);
  const list = pane.getByRole('listbox', { name: 'People' });
  await expect(list.getByRole('option')).toHaveCount(6);
  // Alice herself is active; the others have not been around: offline, by name.
  await expect(pane.getByText('Active', { exact: false }).first()).toBeVisible();
  await expect(list.getByRole('option').first()).toHaveAccessibleName(/^Alice Doe ?, active/);
  await expect(pane.getByText('Showing 6 people')).toBeVisible();

  const search = pane.getByRole('searchbox', { name: 'Search people' });
  await search.fill('bo');
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(personOption(page, 'Bob Smith')).toBeVisible();
  await expect(pane.getByText('Showing 1 of 6 people')).toBeVisible();
  await search.fill('zzz');
  await expect(pane.getByText('No one matches')).toBeVisible();
  await search.fill('adam');
  await personOption(page, 'Adam Reyes').click();

  const card = page.getByRole('dialog', { name: 'Adam Reyes' });
  await expect(card).toBeVisible();
  await expect(card.getByText('Administrator', { exact: true })).toBeVisible();
  await expect(card.getByText('IT administrator')).toBeVisible();
  await expect(card.getByText('Vim')).toBeVisible();
  await expect(card.getByText('he/him')).toBeVisible();
  await expect(card.getByRole('link', { name: server.demo.users.admin })).toBeVisible();
  // His local time in London, in 12-hour form (the demo's default).
  const london = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Europe/London',
    hour: 'numeric',
    minute: '2-digit',
    hourCycle: 'h12',
  });
  const before = london.format(new Date());
  const shown = await card.getByRole('definition').filter({ hasText: /AM|PM/ }).textContent();
  expect([before, london.format(new Date())].some((t) => shown?.startsWith(t))).toBe(true);
  await card.getByRole('button', { name: 'Close' }).click();
  await expect(card).toHaveCount(0);
  // Focus is back on the person it was opened from.
  await expect(personOption(page, 'Adam Reyes')).toBeFocused();

  // Bob's card: his status and the rendered profile fields.
  await search.fill('bob');
  await personOption(page, 'Bob Smith').press('Enter');
  const bobCard = page.getByRole('dialog', { name: 'Bob Smith' });
  await expect(bobCard.getByText('On vacation')).toBeVisible();
  await expect(bobCard.getByRole('img', { name: 'palm tree' })).toBeVisible();
  await expect(bobCard.getByText('VS Code')).toBeVisible();
  await expect(bobCard.getByText('Product designer')).toBeVisible();
  await expect(bobCard.getByText('Not active recently')).toBeVisible();

  // Bob edits his job title in Markdown: the open card shows it rendered, at once.
  const bob = await loginAs(server, 'bob');
  const { custom_fields } = (await bob.request('GET', '/realm/profile_fields')) as {
    custom_fields: { id: number; name: string }[];
  };
  const jobTitle = custom_fields.find((f) => f.name === 'Job title');
  await bob.request('PATCH', '/users/me/profile_data', {
    data: [{ id: jobTitle?.id, value: '**Lead** at [Confab](https://c.example/)' }],
  });
  await expect(bobCard.getByRole('link', { name: 'Confab', exact: true })).toHaveAttribute(
    'href',
    'https://c.example/',
  );
  await expect(bobCard.locator('strong', { hasText: 'Lead' })).toBeVisible();
  await expect(bobCard.getByText('Product designer')).toHaveCount(0);
});

test('a status set with text and a searched emoji shows in another window, and clears', async ({
  server,
  alice,
  openApps,
}) => {
  const [one, two] = await openApps({ serverUrl: server.url }, { serverUrl: server.url });
  await signInAndWait(one, alice);
  await signInAndWait(two, { email: server.demo.users.bob, password: server.demo.password });

  const dialog = await openStatusDialog(one);
  const text = dialog.getByRole('textbox', { name: 'Status text' });
  await text.fill('Writing the release notes');
  await dialog.getByRole('button', { name: 'Choose an emoji' }).click();
  await dialog.getByRole('searchbox', { name: 'Search emoji' }).fill('tada');
  await dialog.getByRole('listbox', { name: 'Search results' }).getByRole('option', { name: 'tada' }).click();
  await expect(dialog.getByRole('button', { name: 'Emoji: tada. Change emoji' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);

  // This window's account menu and the other window's people list show it, without a reload.
  await expect(one.getByRole('navigation', { name: 'Main' })).toContainText('Writing the release notes');
  const aliceInTwo = personOption(two, 'Alice Doe');
  await expect(aliceInTwo).toContainText('Writing the release notes');
  await expect(aliceInTwo.getByRole('img', { name: 'tada' })).toBeVisible();

  // The server has it.
  const api = await loginAs(server, 'alice');
  const me = await api.request('GET', '/users/me');
  const onServer = await api.request('GET', `/users/${me.user_id}/status`);
  expect(onServer.status).toMatchObject({
    status_text: 'Writing the release notes',
    emoji_name: 'tada',
    emoji_code: '1f389',
    reaction_type: 'unicode_emoji',
  });

  // The emoji now comes first among the frequently used.
  const again = await openStatusDialog(one);
  await expect(again.getByRole('textbox', { name: 'Status text' })).toHaveValue('Writing the release notes');
  await again.getByRole('button', { name: /Change emoji/ }).click();
  await expect(
    again.getByRole('listbox', { name: 'Frequently used' }).getByRole('option').first(),
  ).toHaveAccessibleName('tada');
  await again.getByRole('button', { name: 'Clear status' }).click();
  await expect(again).toHaveCount(0);
  await expect(aliceInTwo).not.toContainText('Writing the release notes');
  await expect(aliceInTwo.getByRole('img', { name: 'tada' })).toHaveCount(0);
  const cleared = await api.request('GET', `/users/${me.user_id}/status`);
  expect(cleared.status).toEqual({});
});

test('set yourself as away: the server and another window show it, and turning it off restores it', async ({
  server,
  alice,
  openApps,
}) => {
  const [one, two] = await openApps({ serverUrl: server.url }, { serverUrl: server.url });
  await signInAndWait(one, alice);
  await signInAndWait(two, { email: server.demo.users.bob, password: server.demo.password });
  const aliceInOne = personOption(one, 'Alice Doe');
  const aliceInTwo = personOption(two, 'Alice Doe');
  await expect(aliceInTwo).toHaveAccessibleName(/^Alice Doe ?, active/);

  const api = await loginAs(server, 'alice');
  const me = await api.request('GET', '/users/me');
  const onServer = async () => {
    const { status } = (await api.request('GET', `/users/${me.user_id}/status`)) as {
      status: { away?: boolean };
    };
    const { user_settings } = (await api.request('POST', '/register', {
      fetch_event_types: ['user_settings'],
    })) as { user_settings: { presence_enabled: boolean } };
    return { away: status.away === true, presence_enabled: user_settings.presence_enabled };
  };
  expect(await onServer()).toEqual({ away: false, presence_enabled: true });

  const dialog = await openStatusDialog(one);
  const away = dialog.getByRole('switch', { name: 'Set yourself as away' });
  await expect(away).not.toBeChecked();
  await expect(away).toHaveAccessibleDescription(
    'Others see you as offline until you turn this off, whatever you are doing.',
  );
  await away.focus();
  await one.keyboard.press('Space');
  await expect(away).toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);

  // The server reports it both ways (the legacy `away` and presence_enabled), and both windows
  // show Alice offline without a reload.
  await expect.poll(onServer).toEqual({ away: true, presence_enabled: false });
  await expect(aliceInTwo).toHaveAccessibleName(/^Alice Doe ?, offline/);
  await expect(aliceInOne).toHaveAccessibleName(/^Alice Doe ?, offline/);
  await expect(
    peoplePane(two)
      .getByRole('group', { name: /^Offline/ })
      .getByRole('option', { name: /^Alice Doe/ }),
  ).toBeVisible();

  // The dialog opens with it on; turning it off restores her presence everywhere.
  const again = await openStatusDialog(one);
  const awayAgain = again.getByRole('switch', { name: 'Set yourself as away' });
  await expect(awayAgain).toBeChecked();
  await awayAgain.focus();
  await one.keyboard.press('Space');
  await expect(awayAgain).not.toBeChecked();
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(again).toHaveCount(0);
  await expect.poll(onServer).toEqual({ away: false, presence_enabled: true });
  await expect(aliceInTwo).toHaveAccessibleName(/^Alice Doe ?, active/);
  await expect(aliceInOne).toHaveAccessibleName(/^Alice Doe ?, active/);
});

test('the status text counts down from 60 and refuses more', async ({ server, alice, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  // From one's own profile card.
  await personOption(page, 'Alice Doe').click();
  await page.getByRole('dialog', { name: 'Alice Doe' }).getByRole('button', { name: 'Set status…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set status' });
  const text = dialog.getByRole('textbox', { name: 'Status text' });
  await expect(text).toBeFocused();
  await expect(dialog.getByText('60', { exact: true })).toBeVisible();
  await text.fill('Lunch');
  await expect(dialog.getByText('55', { exact: true })).toBeVisible();
  await text.fill('x'.repeat(62));
  await expect(dialog.getByText('-2', { exact: true })).toBeVisible();
  await expect(dialog.getByText('The status is 2 characters too long (at most 60).')).toBeVisible();
  const save = dialog.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await text.press('Enter');
  await expect(dialog).toBeVisible();
  await text.fill('x'.repeat(60));
  await expect(dialog.getByText('0', { exact: true })).toBeVisible();
  await expect(save).toBeEnabled();
  // A suggestion fills both text and emoji.
  await dialog.getByRole('button', { name: 'Vacationing' }).click();
  await expect(text).toHaveValue('Vacationing');
  await expect(dialog.getByRole('button', { name: 'Emoji: palm tree. Change emoji' })).toBeVisible();
});

test('user_list_style changes the people list at once', async ({ server, alice, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  const list = peoplePane(page).getByRole('listbox', { name: 'People' });
  const bob = personOption(page, 'Bob Smith');
  // The demo's default: with status.
  await expect(list).toHaveAttribute('data-style', '2');
  await expect(bob).toContainText('On vacation');

  const api = await loginAs(server, 'alice');
  await api.request('PATCH', '/settings', { user_list_style: 1 });
  await expect(list).toHaveAttribute('data-style', '1');
  await expect(bob).not.toContainText('On vacation');
  await expect(bob.getByRole('img', { name: 'palm tree' })).toBeVisible();

  await api.request('PATCH', '/settings', { user_list_style: 3 });
  await expect(list).toHaveAttribute('data-style', '3');
  await expect(bob).toContainText('On vacation');
  await expect(bob).toContainText('BS');

  // left_side_userlist moves the list into the sidebar, search and all.
  await api.request('PATCH', '/settings', { left_side_userlist: true });
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  await expect(sidebar.getByRole('listbox', { name: 'People' })).toBeVisible();
  await expect(peoplePane(page)).toHaveCount(0);
  await sidebar.getByRole('searchbox', { name: 'Search people' }).fill('maya');
  await expect(sidebar.getByRole('option')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screens/people-sidebar.png' });
});

test('a long people list renders only what is on screen, and the keyboard reaches everyone', async ({
  server,
  alice,
  openSignedIn,
}) => {
  // 80 more people (two administrators share the work: the rate limit is per user).
  const creators = [await loginAs(server, 'admin'), await loginAs(server, 'owner')];
  const numbers = Array.from({ length: 80 }, (_, i) => String(i + 1).padStart(3, '0'));
  for (let start = 0; start < numbers.length; start += 20) {
    await Promise.all(
      numbers.slice(start, start + 20).map((n, i) =>
        creators[i % 2]?.request('POST', '/users', {
          email: `person${n}@demo.confab.example`,
          password: 'a-long-enough-password',
          full_name: `Zed Person ${n}`,
        }),
      ),
    );
  }
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  const pane = peoplePane(page);
  const list = pane.getByRole('listbox', { name: 'People' });
  await expect(pane.getByText('Showing 86 people')).toBeVisible();
  await expect(personOption(page, 'Adam Reyes')).toBeVisible();
  expect(await list.getByRole('option').count()).toBeLessThan(50);

  // Home / End go through the whole list; the last one is brought into view.
  await personOption(page, 'Alice Doe').focus();
  await page.keyboard.press('End');
  await expect(personOption(page, 'Zed Person 080')).toBeFocused();
  await expect(personOption(page, 'Zed Person 080')).toBeInViewport();
  await expect(personOption(page, 'Adam Reyes')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Zed Person 080' })).toBeVisible();
});

/** No serious or critical axe violation on the page as it is. */
async function expectNoSeriousViolations(page: Page, what: string) {
  const audit = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = audit.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, what).toEqual([]);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the profile card and the status dialog in ${scheme}: accessible, screenshots saved`, async ({
    server,
    alice,
    openSignedIn,
  }) => {
    const page = await openSignedIn({ serverUrl: server.url }, alice);
    await page.emulateMedia({ colorScheme: scheme });
    await personOption(page, 'Bob Smith').click();
    const card = page.getByRole('dialog', { name: 'Bob Smith' });
    await expect(card.getByText('On vacation')).toBeVisible();
    await page.screenshot({ path: `test-results/screens/profile-card-${scheme}.png` });
    await expectNoSeriousViolations(page, `profile card in ${scheme}`);
    await card.getByRole('button', { name: 'Close' }).click();

    const dialog = await openStatusDialog(page);
    await page.screenshot({ path: `test-results/screens/status-${scheme}.png` });
    await expectNoSeriousViolations(page, `status dialog in ${scheme}`);
    await dialog.getByRole('button', { name: 'Choose an emoji' }).click();
    await expect(
      dialog.getByRole('listbox', { name: 'All emoji' }).getByRole('option').first(),
    ).toBeVisible();
    await page.screenshot({ path: `test-results/screens/status-emoji-${scheme}.png` });
    await expectNoSeriousViolations(page, `emoji picker in ${scheme}`);
  });
}
