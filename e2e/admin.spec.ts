/**
 * The administration sections' journeys (issue 9): custom profile fields (a choice field, the
 * keyboard reorder, the summary limit), users (role, deactivate and reactivate, seen live in
 * another window), user groups, code playgrounds, custom emoji, and a member's read-only view.
 */
import type { Locator, Page } from '@playwright/test';
import { loginAs } from '../test/support/server';
import { type Credentials, expect, openSettings, type TestServer, test } from './support/app';

function as(server: TestServer, who: 'alice' | 'admin' | 'bob' | 'owner'): Credentials {
  return { serverUrl: server.url, email: server.demo.users[who], password: server.demo.password };
}

async function serverGet<T>(server: TestServer, path: string): Promise<T> {
  const client = await loginAs(server, 'admin');
  return (await client.request('GET', path, {})) as T;
}

interface Field {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  display_in_profile_summary?: boolean;
}

/** Flips a switch or checkbox from the keyboard (its input is visually hidden under its label). */
async function flip(page: Page, toggle: Locator) {
  await toggle.focus();
  await page.keyboard.press('Space');
}

const fieldsOnServer = async (server: TestServer) =>
  (await serverGet<{ custom_fields: Field[] }>(server, '/realm/profile_fields')).custom_fields.sort(
    (a, b) => a.order - b.order,
  );

const list = (page: Page, name: string) =>
  page.getByRole(name === 'Custom profile fields' ? 'grid' : 'list', { name });

test('custom profile fields: a choice field, the summary limit, and a keyboard reorder', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  await openSettings(page, 'Custom profile fields');
  const fields = list(page, 'Custom profile fields');
  await expect(fields.getByRole('row', { name: 'Pronouns' })).toBeVisible();

  // A choice field: a new empty row appears as the last one is typed in.
  await page.getByRole('button', { name: 'Add field' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a custom profile field' });
  await dialog.getByRole('button', { name: /Type$/ }).click();
  await page.getByRole('option', { name: 'List of options' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Team');
  await dialog.getByRole('textbox', { name: 'Hint' }).fill('Which team you work in');
  await dialog.getByRole('textbox', { name: 'New choice' }).fill('Platform');
  await dialog.getByRole('textbox', { name: 'New choice' }).fill('Design');
  await dialog.getByRole('textbox', { name: 'New choice' }).fill('Apps');
  await expect(dialog.getByRole('textbox', { name: 'Choice 3' })).toHaveValue('Apps');
  await dialog.getByRole('button', { name: 'Alphabetize' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Choice 1' })).toHaveValue('Apps');
  // The demo has 2 summary fields (Job title, Pronouns): the limit is reached, the switch says why.
  const summary = dialog.getByRole('switch', { name: 'Display in profile summary' });
  await expect(summary).toBeDisabled();
  await expect(dialog.getByText(/At most 2 fields can be shown in the profile summary/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Add field' }).click();
  await expect(dialog).toBeHidden();
  await expect(fields.getByRole('row', { name: 'Team' })).toBeVisible();

  await expect
    .poll(async () => {
      const team = (await fieldsOnServer(server)).find((f) => f.name === 'Team');
      if (!team) return null;
      const data = JSON.parse(team.field_data) as Record<string, { text: string; order: string }>;
      return Object.values(data)
        .sort((a, b) => Number(a.order) - Number(b.order))
        .map((c) => c.text);
    })
    .toEqual(['Apps', 'Design', 'Platform']);

  // Job title leaves the summary: now Team may join it.
  await fields.getByRole('button', { name: 'Edit Job title' }).click();
  const editTitle = page.getByRole('dialog', { name: 'Edit “Job title”' });
  await flip(page, editTitle.getByRole('switch', { name: 'Display in profile summary' }));
  await editTitle.getByRole('button', { name: 'Save field' }).click();
  await expect(editTitle).toBeHidden();
  await fields.getByRole('button', { name: 'Edit Team' }).click();
  const editTeam = page.getByRole('dialog', { name: 'Edit “Team”' });
  const teamSummary = editTeam.getByRole('switch', { name: 'Display in profile summary' });
  await expect(teamSummary).toBeEnabled();
  await flip(page, teamSummary);
  await expect(teamSummary).toBeChecked();
  await editTeam.getByRole('button', { name: 'Save field' }).click();
  await expect(editTeam).toBeHidden();
  await expect(fields.getByRole('row', { name: 'Team' })).toContainText('In summary');
  await expect
    .poll(async () =>
      (await fieldsOnServer(server)).filter((f) => f.display_in_profile_summary).map((f) => f.name),
    )
    .toEqual(['Pronouns', 'Team']);

  // Removing a choice people have selected says how many; an unchanged edit cannot be saved.
  await fields.getByRole('button', { name: 'Edit Favorite editor' }).click();
  const editEditor = page.getByRole('dialog', { name: 'Edit “Favorite editor”' });
  await expect(editEditor.getByRole('button', { name: 'Save field' })).toBeDisabled();
  await editEditor.getByRole('button', { name: 'Remove “Vim”' }).click();
  const removeVim = page.getByRole('alertdialog', { name: 'Remove “Vim”?' });
  await expect(removeVim).toContainText('2 people have it selected');
  await removeVim.getByRole('button', { name: 'Remove choice' }).click();
  await expect(editEditor.getByRole('textbox', { name: 'Choice 1' })).toHaveValue('Emacs');
  await expect(editEditor.getByRole('button', { name: 'Save field' })).toBeEnabled();
  await editEditor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editEditor).toBeHidden();

  // A long text field cannot be shown there at all.
  await page.getByRole('button', { name: 'Add field' }).click();
  await dialog.getByRole('button', { name: /Type$/ }).click();
  await page.getByRole('option', { name: 'Long text' }).click();
  await expect(dialog.getByText('Long text fields cannot be shown in the profile summary.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Keyboard reorder: the first field moves down, and the server has the new order at once.
  const before = (await fieldsOnServer(server)).map((f) => f.name);
  const first = before[0] ?? '';
  await fields.getByRole('button', { name: `More actions for ${first}` }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Move down' }).focus();
  await page.keyboard.press('Enter');
  const expected = [before[1], before[0], ...before.slice(2)];
  await expect.poll(async () => (await fieldsOnServer(server)).map((f) => f.name)).toEqual(expected);
  await expect(fields.getByRole('row').first()).toHaveAccessibleName(expected[0] ?? '');

  // The same with react-aria's keyboard drag and drop: Enter on the handle, arrows, Enter.
  const top = expected[0] ?? '';
  await fields.getByRole('button', { name: `Drag to reorder ${top}` }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const dropped = [expected[1], expected[2], expected[0], ...expected.slice(3)];
  await expect.poll(async () => (await fieldsOnServer(server)).map((f) => f.name)).toEqual(dropped);
  await expect(fields.getByRole('row').first()).toHaveAccessibleName(dropped[0] ?? '');

  // Delete says how many people have data in the field.
  await fields.getByRole('button', { name: 'More actions for Pronouns' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete “Pronouns”?' });
  await expect(confirm).toContainText('6 people filled it in');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
});

test('custom profile fields: the pronouns and external-account presets', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  await openSettings(page, 'Custom profile fields');
  const fields = list(page, 'Custom profile fields');
  await page.getByRole('button', { name: 'Add field' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a custom profile field' });
  const name = dialog.getByRole('textbox', { name: 'Name' });
  const hint = dialog.getByRole('textbox', { name: 'Hint' });
  const startFrom = async (preset: string) => {
    await dialog.getByRole('button', { name: /Start from$/ }).click();
    await page.getByRole('option', { name: preset, exact: true }).click();
  };

  // Pronouns: the family's name and hint, the pronouns type; both stay editable.
  await startFrom('Pronouns');
  await expect(name).toHaveValue('Pronouns');
  await expect(hint).toHaveValue('What pronouns should people use to refer to you?');
  await expect(dialog.getByRole('button', { name: /Type$/ })).toHaveAccessibleName('Pronouns Type');
  await expect(name).toBeEditable();
  await expect(hint).toBeEditable();

  // A known external account names its own field: name and hint locked, with the reason.
  await startFrom('GitHub account');
  await expect(dialog.getByRole('button', { name: /Type$/ })).toHaveAccessibleName('External account Type');
  await expect(dialog.getByRole('button', { name: /Service$/ })).toHaveAccessibleName('GitHub Service');
  await expect(name).toHaveValue('GitHub');
  await expect(hint).toHaveValue('Enter your GitHub username');
  const reason = 'A known service’s field keeps its name and hint.';
  await expect(name).not.toBeEditable();
  await expect(hint).not.toBeEditable();
  await expect(name).toHaveAccessibleDescription(reason);
  await expect(dialog.getByText(reason)).toBeVisible();
  // Another service renames it (and re-hints it) with the lock kept.
  await dialog.getByRole('button', { name: /Service$/ }).click();
  await page.getByRole('option', { name: 'Twitter', exact: true }).click();
  await expect(name).toHaveValue('Twitter');
  await expect(hint).toHaveValue('Enter your Twitter username');
  await expect(name).not.toBeEditable();
  await expect(dialog.getByRole('button', { name: /Start from$/ })).toHaveAccessibleName(
    'Twitter account Start from',
  );
  await startFrom('GitHub account');
  await expect(name).toHaveValue('GitHub');

  await dialog.getByRole('button', { name: 'Add field' }).click();
  await expect(dialog).toBeHidden();
  await expect(fields.getByRole('row', { name: 'GitHub' })).toBeVisible();
  await expect
    .poll(async () => {
      const github = (await fieldsOnServer(server)).find((f) => f.name === 'GitHub');
      return github && { type: github.type, field_data: github.field_data, hint: github.hint };
    })
    .toEqual({ type: 7, field_data: '{"subtype":"github"}', hint: 'Enter your GitHub username' });
});

test('users: change a role, deactivate and reactivate, seen live in another window', async ({
  server,
  openSignedIn,
}) => {
  const admin = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  const other = await openSignedIn({ serverUrl: server.url }, as(server, 'owner'));
  for (const page of [admin, other]) await openSettings(page, 'Users');
  const users = list(admin, 'Users');
  const bobRow = (page: Page) => list(page, 'Users').getByRole('listitem').filter({ hasText: 'Bob Smith' });
  await expect(bobRow(admin)).toContainText('Member');

  await admin.getByRole('searchbox', { name: 'Search users' }).fill('bob');
  await expect(users.getByRole('listitem')).toHaveCount(1);

  await admin.getByRole('button', { name: 'Actions for Bob Smith' }).click();
  await admin.getByRole('menuitem', { name: 'Change role…' }).click();
  const roleDialog = admin.getByRole('dialog', { name: 'Change role of Bob Smith' });
  await roleDialog.getByRole('button', { name: /Role$/ }).click();
  await admin.getByRole('option', { name: 'Moderator' }).click();
  await roleDialog.getByRole('button', { name: 'Save role' }).click();
  await expect(roleDialog).toBeHidden();
  await expect(bobRow(admin)).toContainText('Moderator');
  await expect(bobRow(other)).toContainText('Moderator', { timeout: 5000 });
  const bobId = async () => {
    const { members } = await serverGet<{
      members: { user_id: number; email: string; role: number; is_active: boolean }[];
    }>(server, '/users');
    return members.find((m) => m.email === server.demo.users.bob);
  };
  await expect.poll(async () => (await bobId())?.role).toBe(300);

  await admin.getByRole('button', { name: 'Actions for Bob Smith' }).click();
  await admin.getByRole('menuitem', { name: 'Deactivate…' }).click();
  const confirm = admin.getByRole('alertdialog', { name: 'Deactivate Bob Smith?' });
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(confirm).toBeHidden();
  await expect(bobRow(admin)).toContainText('Deactivated');
  await expect(bobRow(other)).toContainText('Deactivated', { timeout: 5000 });
  await expect.poll(async () => (await bobId())?.is_active).toBe(false);

  await admin.getByRole('button', { name: 'Actions for Bob Smith' }).click();
  await admin.getByRole('menuitem', { name: 'Reactivate…' }).click();
  await admin
    .getByRole('alertdialog', { name: 'Reactivate Bob Smith?' })
    .getByRole('button', { name: 'Reactivate' })
    .click();
  await expect(bobRow(admin)).not.toContainText('Deactivated');
  await expect(bobRow(other)).not.toContainText('Deactivated', { timeout: 5000 });
  await expect.poll(async () => (await bobId())?.is_active).toBe(true);

  // The demo administrator may create users (can_create_users): the new person shows everywhere.
  await admin.getByRole('searchbox', { name: 'Search users' }).fill('');
  await admin.getByRole('button', { name: 'Create user' }).click();
  const create = admin.getByRole('dialog', { name: 'Create a user' });
  await create.getByRole('textbox', { name: 'Email' }).fill('newbie@example.com');
  await create.getByRole('textbox', { name: 'Full name' }).fill('Nina Newman');
  await create.getByLabel('Initial password').fill('a long enough password');
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(create).toBeHidden();
  for (const page of [admin, other])
    await expect(list(page, 'Users').getByRole('listitem').filter({ hasText: 'Nina Newman' })).toContainText(
      'Member',
      {
        timeout: 5000,
      },
    );
  await expect
    .poll(async () => {
      const { members } = await serverGet<{ members: { email: string }[] }>(server, '/users');
      return members.some((m) => m.email === 'newbie@example.com');
    })
    .toBe(true);
});

test('user groups: create one with members, then remove a member', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  const other = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  for (const p of [page, other]) await openSettings(p, 'User groups');
  await page.getByRole('button', { name: 'Create group' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a user group' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Designers');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Everyone who draws');
  await dialog.getByRole('searchbox', { name: 'Search people' }).fill('bob');
  await flip(page, dialog.getByRole('checkbox', { name: /Bob Smith/ }));
  await dialog.getByRole('searchbox', { name: 'Search people' }).fill('alice');
  await flip(page, dialog.getByRole('checkbox', { name: /Alice Doe/ }));
  await expect(dialog.getByText('2 members chosen')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create group' }).click();
  await expect(dialog).toBeHidden();
  const row = (p: Page) => list(p, 'User groups').getByRole('listitem').filter({ hasText: 'Designers' });
  await expect(row(page)).toContainText('2 members');
  await expect(row(other)).toContainText('2 members', { timeout: 5000 });
  const group = async () => {
    const { user_groups } = await serverGet<{ user_groups: { name: string; members: number[] }[] }>(
      server,
      '/user_groups',
    );
    return user_groups.find((g) => g.name === 'Designers')?.members.length;
  };
  await expect.poll(group).toBe(2);

  await page.getByRole('button', { name: 'Edit Designers' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Designers' });
  await flip(page, edit.getByRole('checkbox', { name: /Bob Smith/ }));
  await edit.getByRole('button', { name: 'Save group' }).click();
  await expect(edit).toBeHidden();
  await expect(row(page)).toContainText('1 member');
  await expect(row(other)).toContainText('1 member', { timeout: 5000 });
  await expect.poll(group).toBe(1);

  await page.getByRole('button', { name: 'Deactivate Designers' }).click();
  await page
    .getByRole('alertdialog', { name: 'Deactivate Designers?' })
    .getByRole('button', { name: 'Deactivate' })
    .click();
  await expect(row(page)).toHaveCount(0);
  await expect(row(other)).toHaveCount(0, { timeout: 5000 });
});

test('code playgrounds: the URL is checked, then one is added and deleted', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  await openSettings(page, 'Code playgrounds');
  const playgrounds = list(page, 'Code playgrounds');
  await expect(playgrounds.getByRole('listitem').filter({ hasText: 'Rust playground' })).toBeVisible();

  await page.getByRole('button', { name: 'Add playground' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a code playground' });
  await dialog.getByRole('combobox', { name: 'Language' }).fill('py');
  await page.getByRole('option', { name: /^Python/ }).click();
  await expect(dialog.getByRole('combobox', { name: 'Language' })).toHaveValue('Python');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Python tutor');
  await dialog.getByRole('textbox', { name: 'URL prefix' }).fill('ftp://pythontutor.com/?code=');
  await dialog.getByRole('button', { name: 'Add playground' }).click();
  await expect(dialog.getByText('The URL must start with http:// or https://.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'URL prefix' }).fill('https://pythontutor.com/?code=');
  await dialog.getByRole('button', { name: 'Add playground' }).click();
  await expect(dialog).toBeHidden();
  const row = playgrounds.getByRole('listitem').filter({ hasText: 'Python tutor' });
  await expect(row).toContainText('https://pythontutor.com/?code=');
  const onServer = async () =>
    (
      (await loginAs(server, 'admin').then((c) =>
        c.request('POST', '/register', { fetch_event_types: ['realm_playgrounds'] }),
      )) as {
        realm_playgrounds: { name: string }[];
      }
    ).realm_playgrounds.map((p) => p.name);
  await expect.poll(onServer).toContain('Python tutor');

  await page.getByRole('button', { name: 'Delete Python tutor' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete Python tutor?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(row).toHaveCount(0);
  await expect.poll(onServer).not.toContain('Python tutor');
});

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

test('custom emoji: upload one with a checked name, then delete it', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  await openSettings(page, 'Custom emoji');
  await page.getByRole('button', { name: 'Add emoji' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a custom emoji' });
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: 'Party Parrot.png', mimeType: 'image/png', buffer: PNG });
  const name = dialog.getByRole('textbox', { name: 'Name' });
  await expect(name).toHaveValue('party_parrot');
  await name.fill('Party!');
  await name.blur();
  await expect(
    dialog.getByText('Use lowercase letters, digits, underscores, dashes and spaces only.'),
  ).toBeVisible();
  await name.fill('party parrot');
  await dialog.getByRole('button', { name: 'Add emoji' }).click();
  await expect(dialog).toBeHidden();
  const emoji = list(page, 'Custom emoji');
  await expect(emoji.getByRole('listitem').filter({ hasText: ':party_parrot:' })).toContainText(
    'Added by Adam Reyes',
  );
  const names = async () =>
    Object.values(
      (
        await serverGet<{ emoji: Record<string, { name: string; deactivated: boolean }> }>(
          server,
          '/realm/emoji',
        )
      ).emoji,
    )
      .filter((e) => !e.deactivated)
      .map((e) => e.name);
  await expect.poll(names).toContain('party_parrot');

  await page.getByRole('button', { name: 'Delete :party_parrot:' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete :party_parrot:?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText(':party_parrot:')).toHaveCount(0);
  await expect.poll(names).not.toContain('party_parrot');
});

test('a member sees the administration read-only, with the reason', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  const reason = 'Only organization administrators can manage this.';
  await openSettings(page, 'Custom profile fields');
  await expect(page.getByText(reason)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add field' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^More actions for/ })).toHaveCount(0);
  await openSettings(page, 'Users');
  await expect(page.getByText(reason)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create user' })).toBeDisabled();
  await expect(page.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
  await expect(list(page, 'Users').getByRole('listitem').filter({ hasText: 'Olivia Owens' })).toContainText(
    'Owner',
  );
  // User groups follow user_group_edit_policy ("members" here), not the role: see group-policy.spec.ts.
  await openSettings(page, 'User groups');
  await expect(page.getByRole('button', { name: 'Create group' })).toBeEnabled();
  await openSettings(page, 'Code playgrounds');
  await expect(page.getByText(reason)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add playground' })).toHaveCount(0);
});
