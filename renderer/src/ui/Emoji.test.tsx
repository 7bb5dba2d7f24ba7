/**
 * Emoji per `emojiset`, rendered once with react-dom/server over a real account store (no DOM
 * here): the sheet cell of the google and twitter sets, `:name:` for text, a custom emoji's
 * image from the main process's answer; and the pure helpers behind them.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { snapshotFixture } from '../../../test/fixtures/domain';
import { createTestBridge, flush } from '../../test/testBridge';
import { apiQueryKey } from '../queries/api';
import { AccountProvider, SyncProvider } from '../stores/hooks';
import { createSync } from '../stores/sync';
import { Emoji, glyphOfCode } from './Emoji';
import { loadSheetIndex } from './emojiSheet';
import { emojiImageDataUrl } from './RealmEmojiImage';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SOURCE_URL = '/user_uploads/emoji/7/parrot.png';

async function render(emojiset: string, element: ReactElement, seed?: (q: QueryClient) => void) {
  const test = createTestBridge();
  test.handle('app.getState', () => ({
    accounts: [
      {
        id: 'acct-1',
        serverUrl: 'http://x',
        email: 'me@example.com',
        userId: 10,
        fullName: 'Me',
        serviceVersion: null,
        featureLevel: null,
      },
    ],
    activeAccountId: 'acct-1',
  }));
  test.handle('account.getSnapshot', () => ({
    accountId: 'acct-1',
    generation: 1,
    state: snapshotFixture({
      user_settings: { twenty_four_hour_time: false, emojiset },
      realm_emoji: {
        7: { id: '7', name: 'parrot', source_url: SOURCE_URL, deactivated: false, author_id: 10 },
      },
    }),
  }));
  test.handle('account.getConnection', () => ({ status: 'connected', nextRetryAt: null, lastError: null }));
  const sync = createSync(test.bridge);
  await sync.resync();
  await flush();
  sync.registry.getInitialState = sync.registry.getState;
  const queryClient = new QueryClient();
  seed?.(queryClient);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <SyncProvider sync={sync}>
        <AccountProvider accountId="acct-1" fallback={null}>
          {element}
        </AccountProvider>
      </SyncProvider>
    </QueryClientProvider>,
  );
}

const palmTree = <Emoji name="palm_tree" code="1f334" />;

describe('Emoji', () => {
  beforeAll(async () => {
    // The sheet's data is loaded on first use; server rendering cannot wait for it.
    await loadSheetIndex();
  });

  it('shows a cell of the google sheet, named by the emoji, for setA and setA-blob', async () => {
    // emoji.json puts 1F334 at cell (5, 45) of 62: 5/61 = 8.1967%, 45/61 = 73.7705%.
    for (const set of ['setA', 'setA-blob']) {
      expect(await render(set, palmTree)).toBe(
        '<span class="emoji emoji-sheet emoji-sheet-google" title=":palm_tree:" data-emoji-cell="8.1967% 73.7705%" role="img" aria-label="palm tree"></span>',
      );
    }
  });

  it('shows the same cell of the twitter sheet for setB', async () => {
    expect(await render('setB', palmTree)).toContain(
      'class="emoji emoji-sheet emoji-sheet-twitter" title=":palm_tree:" data-emoji-cell="8.1967% 73.7705%" role="img" aria-label="palm tree"',
    );
  });

  it('shows :name: for text, and the font glyph for a set it does not know', async () => {
    expect(await render('text', palmTree)).toBe(
      '<span class="emoji emoji-text" title=":palm_tree:" role="img" aria-label="palm tree">:palm_tree:</span>',
    );
    expect(await render('setZ', palmTree)).toBe(
      '<span class="emoji emoji-native" title=":palm_tree:" role="img" aria-label="palm tree">🌴</span>',
    );
    // A picker cannot fit :name: in a cell: the glyph, hidden when the cell names it.
    expect(await render('text', <Emoji name="palm_tree" code="1f334" decorative alwaysPicture />)).toBe(
      '<span class="emoji emoji-native" title=":palm_tree:" aria-hidden="true">🌴</span>',
    );
  });

  it("shows a custom emoji's image once the main process answered it, :name: before", async () => {
    const parrot = <Emoji name="parrot" code="7" type="realm_emoji" />;
    expect(await render('setA', parrot)).toBe(
      '<span class="emoji emoji-text" title=":parrot:" role="img" aria-label="parrot">:parrot:</span>',
    );
    const seeded = await render('setA', parrot, (q) =>
      q.setQueryData(apiQueryKey('acct-1', SOURCE_URL), { content_type: 'image/png', data_base64: PNG_1X1 }),
    );
    expect(seeded).toBe(
      `<span class="emoji emoji-custom" title=":parrot:" role="img" aria-label="parrot"><img src="data:image/png;base64,${PNG_1X1}" alt="" class="emoji-custom-img"/></span>`,
    );
    // Plain text is plain for custom emoji too; a picker still shows the image.
    const seed = (q: QueryClient) =>
      q.setQueryData(apiQueryKey('acct-1', SOURCE_URL), { content_type: 'image/png', data_base64: PNG_1X1 });
    expect(await render('text', parrot, seed)).toBe(
      '<span class="emoji emoji-text" title=":parrot:" role="img" aria-label="parrot">:parrot:</span>',
    );
    expect(
      await render(
        'text',
        <Emoji name="parrot" code="7" type="realm_emoji" decorative alwaysPicture />,
        seed,
      ),
    ).toBe(
      `<span class="emoji emoji-custom" title=":parrot:" aria-hidden="true"><img src="data:image/png;base64,${PNG_1X1}" alt="" class="emoji-custom-img"/></span>`,
    );
  });
});

describe('emojiImageDataUrl', () => {
  it('makes a data: URL of an image answer, and refuses what is not a shown image type', () => {
    expect(emojiImageDataUrl({ content_type: 'image/png', data_base64: PNG_1X1 })).toBe(
      `data:image/png;base64,${PNG_1X1}`,
    );
    expect(emojiImageDataUrl({ content_type: 'image/GIF; charset=binary', data_base64: 'R0lG' })).toBe(
      'data:image/gif;base64,R0lG',
    );
    expect(emojiImageDataUrl({ content_type: 'image/svg+xml', data_base64: 'PHN2Zz4=' })).toBeNull();
    expect(emojiImageDataUrl({ content_type: 'image/png', data_base64: 'not base64!' })).toBeNull();
    expect(emojiImageDataUrl(undefined)).toBeNull();
  });
});

describe('glyphOfCode', () => {
  it('turns a unicode_emoji code into its characters', () => {
    expect(glyphOfCode('1f334')).toBe('🌴');
    expect(glyphOfCode('1f1fa-1f1f8')).toBe('🇺🇸');
    expect(glyphOfCode('2764')).toBe('❤');
  });
  it('refuses what is not a code point sequence', () => {
    expect(glyphOfCode(undefined)).toBeNull();
    expect(glyphOfCode('')).toBeNull();
    expect(glyphOfCode('zz')).toBeNull();
    expect(glyphOfCode('110000')).toBeNull();
  });
});
