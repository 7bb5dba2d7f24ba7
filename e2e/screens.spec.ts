/**
 * Every main screen, in light and in dark: an accessibility audit (axe-core) that must find no
 * serious or critical violation, and a screenshot saved as a test artifact
 * (test-results/screens/<screen>-<scheme>.png, under the run's output directory, not committed)
 * for people to look at. A member's screens (the organization's read-only, with its reasons),
 * then an administrator's: the editable organization profile, the profile-field editor, custom
 * emoji with their images.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { loginAs } from '../test/support/server';
import { expect, openSettings, openView, type TestServer, test } from './support/app';

interface Screen {
  name: string;
  /** How to get there from the screen before it. */
  open: (page: Page) => Promise<void>;
  /** What shows once it is there. */
  ready: (page: Page) => Promise<void>;
}

/** Closes whatever dialog or menu is open (Escape), so the next screen starts from the frame. */
async function closeOverlays(page: Page) {
  for (
    let i = 0;
    i < 3 && (await page.locator('[role="dialog"], [role="alertdialog"], [role="menu"]').count()) > 0;
    i++
  ) {
    await page.keyboard.press('Escape');
  }
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('menu')).toHaveCount(0);
}

/** Each main screen a member sees: how to get there from the one before, and what shows there. */
const SCREENS: Screen[] = [
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
    name: 'recent',
    open: (page) => openView(page, 'Recent conversations'),
    ready: (page) => expect(page.getByRole('grid', { name: 'Recent conversations' })).toBeVisible(),
  },
  {
    name: 'search-suggestions',
    open: async (page) => {
      await page.getByRole('searchbox', { name: 'Search messages' }).click();
      await page.keyboard.type('stream:');
    },
    ready: (page) => expect(page.getByRole('menu', { name: 'Search suggestions' })).toBeVisible(),
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
    open: async (page) => {
      await openView(page, 'engineering');
      await openView(page, 'All topics');
    },
    ready: (page) => expect(page.getByRole('list', { name: 'Topics in engineering' })).toBeVisible(),
  },
  {
    // The conversation view: a topic's messages, its recipient bar, reactions and the composer.
    name: 'conversation',
    open: async (page) => {
      await openView(page, 'general');
      await openView(page, 'lunch plans');
    },
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: '#general > lunch plans', level: 1 })).toBeVisible();
      await expect(page.getByRole('log', { name: 'Messages' }).getByRole('article').first()).toBeVisible();
      await expect(page.getByRole('form', { name: 'Compose' })).toBeVisible();
    },
  },
  {
    name: 'message-actions',
    open: async (page) => {
      const row = page.getByRole('log', { name: 'Messages' }).getByRole('article').last();
      await row.hover();
      await row.getByRole('button', { name: 'Message actions' }).click();
    },
    ready: (page) => expect(page.getByRole('menuitem', { name: 'Copy link' })).toBeVisible(),
  },
  {
    name: 'compose-preview',
    open: async (page) => {
      await closeOverlays(page);
      const compose = page.getByRole('form', { name: 'Compose' });
      await compose
        .getByRole('textbox', { name: 'Message' })
        .fill('**Bold**, `code` and a [link](https://example.com)');
      await compose.getByRole('button', { name: 'Preview' }).click();
    },
    ready: (page) =>
      expect(page.getByRole('region', { name: 'Preview' }).getByText('Bold', { exact: true })).toBeVisible(),
  },
];

const peoplePane = (page: Page) => page.getByRole('complementary', { name: 'People' });

/** More of a member's screens: the rest of settings, do not disturb, status and profile card. */
const MORE_SCREENS: Screen[] = [
  {
    name: 'settings-profile',
    open: (page) => openSettings(page, 'Profile'),
    ready: (page) => expect(page.getByRole('region', { name: 'Profile details' })).toBeVisible(),
  },
  {
    name: 'settings-preferences',
    open: (page) => openSettings(page, 'Preferences'),
    ready: (page) => expect(page.getByRole('region', { name: 'Emoji' })).toBeVisible(),
  },
  {
    name: 'settings-privacy',
    open: (page) => openSettings(page, 'Privacy'),
    ready: (page) => expect(page.getByRole('region', { name: 'Typing and reading' })).toBeVisible(),
  },
  {
    name: 'settings-org-profile',
    open: (page) => openSettings(page, 'Organization profile'),
    ready: (page) =>
      expect(
        page.getByRole('region', { name: 'Organization profile' }).getByLabel('Organization name'),
      ).toBeVisible(),
  },
  {
    name: 'dnd-menu',
    open: async (page) => {
      await openView(page, 'Inbox');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: 'Do not disturb' })
        .click();
    },
    ready: (page) =>
      expect(
        page.getByRole('menu', { name: 'Do not disturb' }).getByRole('menuitem', { name: 'For 1 hour' }),
      ).toBeVisible(),
  },
  {
    name: 'status-dialog',
    open: async (page) => {
      await closeOverlays(page);
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Set status…' }).click();
    },
    ready: (page) =>
      expect(
        page.getByRole('dialog', { name: 'Set status' }).getByRole('list', { name: 'Suggestions' }),
      ).toBeVisible(),
  },
  {
    name: 'status-emoji-picker',
    open: (page) =>
      page
        .getByRole('dialog', { name: 'Set status' })
        .getByRole('button', { name: 'Choose an emoji' })
        .click(),
    ready: (page) =>
      expect(page.getByRole('listbox', { name: 'All emoji' }).getByRole('option').first()).toBeVisible(),
  },
  {
    name: 'profile-card',
    open: async (page) => {
      await closeOverlays(page);
      await peoplePane(page)
        .getByRole('option', { name: /^Bob Smith/ })
        .click();
    },
    ready: (page) =>
      expect(page.getByRole('dialog', { name: 'Bob Smith' }).getByText('Product designer')).toBeVisible(),
  },
];

/** An administrator's own screens: what a member sees read-only, editable, and the editors. */
const ADMIN_SCREENS: Screen[] = [
  {
    name: 'admin-org-profile',
    open: (page) => openSettings(page, 'Organization profile'),
    ready: (page) =>
      expect(
        page.getByRole('region', { name: 'Organization profile' }).getByLabel('Organization name'),
      ).toBeEditable(),
  },
  {
    name: 'admin-profile-field-editor',
    open: async (page) => {
      await openSettings(page, 'Custom profile fields');
      await page.getByRole('button', { name: 'Add field' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a custom profile field' });
      await dialog.getByRole('button', { name: /Type$/ }).click();
      await page.getByRole('option', { name: 'List of options' }).click();
      await dialog.getByRole('textbox', { name: 'New choice' }).fill('Platform');
    },
    ready: (page) =>
      expect(
        page
          .getByRole('dialog', { name: 'Add a custom profile field' })
          .getByRole('textbox', { name: 'Choice 1' }),
      ).toHaveValue('Platform'),
  },
  {
    name: 'admin-profile-field-edit',
    open: async (page) => {
      await closeOverlays(page);
      await page
        .getByRole('grid', { name: 'Custom profile fields' })
        .getByRole('button', { name: 'Edit Favorite editor' })
        .click();
    },
    ready: (page) =>
      expect(
        page
          .getByRole('dialog', { name: 'Edit “Favorite editor”' })
          .getByRole('button', { name: 'Save field' }),
      ).toBeVisible(),
  },
  {
    name: 'admin-emoji-images',
    open: async (page) => {
      await closeOverlays(page);
      await openSettings(page, 'Custom emoji');
    },
    ready: async (page) => {
      const row = page
        .getByRole('list', { name: 'Custom emoji' })
        .getByRole('listitem')
        .filter({ hasText: ':team_dot:' });
      await expect(row.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
    },
  },
  {
    name: 'admin-emoji-upload',
    open: (page) => page.getByRole('button', { name: 'Add emoji' }).click(),
    ready: (page) => expect(page.getByRole('dialog', { name: 'Add a custom emoji' })).toBeVisible(),
  },
];

/** A real 2×2 PNG, for a custom emoji with an image to show. */
const PNG_2X2 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

async function addCustomEmoji(server: TestServer) {
  const admin = await loginAs(server, 'admin');
  await admin.upload('/realm/emoji/team_dot', {
    fileName: 'dot.png',
    mimeType: 'image/png',
    data: new Uint8Array(Buffer.from(PNG_2X2, 'base64')),
  });
}

/** Visits each screen in turn: its screenshot, then axe's audit, which must find nothing serious. */
async function auditScreens(page: Page, screens: readonly Screen[], scheme: string) {
  const dir = `${test.info().project.outputDir}/screens`;
  const found: string[] = [];
  for (const screen of screens) {
    await screen.open(page);
    await screen.ready(page);
    await page.screenshot({ path: `${dir}/${screen.name}-${scheme}.png`, fullPage: true });
    const audit = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    found.push(
      ...audit.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${screen.name}: ${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(', ')}`,
        ),
    );
  }
  // Every screen is visited before failing, so one run names every violation.
  expect(found, `in ${scheme}`).toEqual([]);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`main screens in ${scheme}: no serious accessibility violation, screenshots saved`, async ({
    openSignedIn,
    server,
    alice,
  }) => {
    const page = await openSignedIn({ serverUrl: server.url }, alice);
    await page.emulateMedia({ colorScheme: scheme });
    await auditScreens(page, SCREENS, scheme);
  });

  test(`settings, status and people screens in ${scheme}: no serious accessibility violation, screenshots saved`, async ({
    openSignedIn,
    server,
    alice,
  }) => {
    const page = await openSignedIn({ serverUrl: server.url }, alice);
    await page.emulateMedia({ colorScheme: scheme });
    await auditScreens(page, MORE_SCREENS, scheme);
  });

  test(`administrator screens in ${scheme}: no serious accessibility violation, screenshots saved`, async ({
    openSignedIn,
    server,
  }) => {
    await addCustomEmoji(server);
    const page = await openSignedIn(
      { serverUrl: server.url },
      { email: server.demo.users.admin, password: server.demo.password },
    );
    await page.emulateMedia({ colorScheme: scheme });
    await auditScreens(page, ADMIN_SCREENS, scheme);
  });
}
