/**
 * Every main screen, in light and in dark: an accessibility audit (axe-core) that must find no
 * serious or critical violation, and a screenshot saved as a test artifact
 * (test-results/screens/<screen>-<scheme>.png, not committed) for people to look at.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openSettings, openView, test } from './support/app';

const SCREENSHOT_DIR = 'test-results/screens';

/** Each main screen: how to get there from anywhere, and what shows once it is there. */
const SCREENS: { name: string; open: (page: Page) => Promise<void>; ready: (page: Page) => Promise<void> }[] =
  [
    {
      // The shell's dialogs first (the inbox below closes them with Escape).
      name: 'command-palette',
      open: (page) => page.keyboard.press('Control+k'),
      ready: (page) => expect(page.getByRole('dialog', { name: 'Go to or do' })).toBeVisible(),
    },
    {
      name: 'shortcuts',
      open: async (page) => {
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await page.keyboard.press('Shift+Slash');
      },
      ready: (page) => expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible(),
    },
    {
      name: 'inbox',
      open: async (page) => {
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await openView(page, 'Inbox');
      },
      ready: (page) => expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible(),
    },
    {
      name: 'drafts',
      open: (page) => openView(page, 'Drafts'),
      ready: (page) => expect(page.getByRole('heading', { name: 'Drafts', level: 1 })).toBeVisible(),
    },
    {
      name: 'drafts-editor',
      open: async (page) => {
        await openView(page, 'Drafts');
        await page.getByRole('grid', { name: 'Your drafts' }).getByText('release notes').click();
      },
      ready: (page) => expect(page.getByRole('region', { name: 'Edit draft' })).toBeVisible(),
    },
    {
      name: 'settings',
      open: (page) => openSettings(page),
      ready: (page) => expect(page.getByRole('main', { name: 'Settings' })).toBeVisible(),
    },
    {
      name: 'settings-notifications',
      open: (page) => openSettings(page, 'Notifications'),
      ready: (page) => expect(page.getByRole('table', { name: 'Notification triggers' })).toBeVisible(),
    },
    {
      name: 'settings-account',
      open: (page) => openSettings(page, 'Account & security'),
      ready: (page) => expect(page.getByRole('form', { name: 'Change password' })).toBeVisible(),
    },
    {
      name: 'settings-organization',
      open: (page) => openSettings(page, 'Organization settings'),
      ready: (page) => expect(page.getByRole('region', { name: 'Permissions' })).toBeVisible(),
    },
    {
      name: 'settings-defaults',
      open: (page) => openSettings(page, 'Default user settings'),
      ready: (page) => expect(page.getByRole('region', { name: 'Notification triggers' })).toBeVisible(),
    },
    {
      name: 'admin-profile-fields',
      open: (page) => openSettings(page, 'Custom profile fields'),
      ready: (page) => expect(page.getByRole('grid', { name: 'Custom profile fields' })).toBeVisible(),
    },
    {
      name: 'admin-users',
      open: (page) => openSettings(page, 'Users'),
      ready: (page) => expect(page.getByRole('list', { name: 'Users' })).toBeVisible(),
    },
    {
      name: 'admin-groups',
      open: (page) => openSettings(page, 'User groups'),
      ready: (page) => expect(page.getByRole('list', { name: 'User groups' })).toBeVisible(),
    },
    {
      name: 'admin-playgrounds',
      open: (page) => openSettings(page, 'Code playgrounds'),
      ready: (page) => expect(page.getByRole('list', { name: 'Code playgrounds' })).toBeVisible(),
    },
    {
      name: 'admin-emoji',
      open: (page) => openSettings(page, 'Custom emoji'),
      ready: (page) => expect(page.getByRole('heading', { name: 'Custom emoji', level: 2 })).toBeVisible(),
    },
    {
      // The people list beside the inbox (its profile card and the status dialog: people.spec.ts).
      name: 'people',
      open: (page) => openView(page, 'Inbox'),
      ready: (page) =>
        expect(
          page.getByRole('complementary', { name: 'People' }).getByRole('option', { name: /^Bob Smith/ }),
        ).toBeVisible(),
    },
    {
      name: 'streams-create',
      open: async (page) => {
        await page.getByRole('button', { name: 'Browse and create streams' }).click();
        await page.getByRole('main').getByRole('button', { name: 'Create stream' }).click();
      },
      ready: (page) => expect(page.getByRole('dialog', { name: 'Create stream' })).toBeVisible(),
    },
    {
      name: 'streams',
      open: async (page) => {
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await page.getByRole('main').getByRole('tab', { name: 'All streams' }).click();
        await page.getByRole('main').getByRole('button', { name: 'engineering', exact: true }).click();
      },
      ready: (page) =>
        expect(
          page.getByRole('region', { name: 'Stream settings' }).getByRole('tab', { name: 'Personal' }),
        ).toBeVisible(),
    },
    {
      name: 'stream-view',
      open: (page) => openView(page, 'engineering'),
      ready: (page) => expect(page.getByRole('list', { name: 'Topics in engineering' })).toBeVisible(),
    },
  ];

for (const scheme of ['light', 'dark'] as const) {
  test(`main screens in ${scheme}: no serious accessibility violation, screenshots saved`, async ({
    openSignedIn,
    server,
    alice,
    browser,
  }) => {
    void browser;
    const page = await openSignedIn({ serverUrl: server.url }, alice);
    await page.emulateMedia({ colorScheme: scheme });
    for (const screen of SCREENS) {
      await screen.open(page);
      await screen.ready(page);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/${screen.name}-${scheme}.png`, fullPage: true });
      const audit = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      const serious = audit.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        );
      expect(serious, `${screen.name} in ${scheme}`).toEqual([]);
    }
  });
}
