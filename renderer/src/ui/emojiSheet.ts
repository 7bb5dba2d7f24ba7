/**
 * The image emoji sets (`emojiset` google and twitter) as sprite sheets: one PNG per set from
 * the emoji-datasource packages (32 px cells on a square grid, each cell padded by 1 px), and
 * their shared emoji.json saying which cell holds which emoji. The data and the sheet are only
 * fetched once a set that needs them is chosen: the data is a lazily imported chunk, and the
 * sheet is a background image of the `.emoji-sheet-<set>` rule (Emoji.css), which the browser
 * loads when the first element using it shows.
 *
 * The service names the sets neutrally (shared/protocol/settings.ts, spec: `setA` for the
 * vendor set google, `setA-blob` for google-blob, `setB` for twitter); the family's own names
 * are taken too. google-blob has no package on the registry: it shows the google set.
 */

/** How the account's emojiset shows a Unicode emoji. */
export type EmojiLook = 'google' | 'twitter' | 'text' | 'native';
export type SheetSet = 'google' | 'twitter';

/** The look of an `emojiset` value: the blob style falls back to google, unknown ones to the font. */
export function emojiLookOf(emojiset: unknown): EmojiLook {
  switch (emojiset) {
    case 'setA':
    case 'setA-blob':
    case 'google':
    case 'google-blob':
      return 'google';
    case 'setB':
    case 'twitter':
      return 'twitter';
    case 'text':
      return 'text';
    default:
      return 'native';
  }
}

/** One emoji of emoji-datasource's emoji.json (the fields used here). */
export interface DatasourceEmoji {
  unified: string;
  non_qualified?: string | null;
  short_name: string;
  short_names?: readonly string[];
  sheet_x: number;
  sheet_y: number;
  has_img_google?: boolean;
  has_img_twitter?: boolean;
  skin_variations?: Readonly<
    Record<
      string,
      {
        unified: string;
        non_qualified?: string | null;
        sheet_x: number;
        sheet_y: number;
        has_img_google?: boolean;
        has_img_twitter?: boolean;
      }
    >
  >;
}

/** A cell of the sheets and the sets that have an image there. */
export interface SheetCell {
  x: number;
  y: number;
  google: boolean;
  twitter: boolean;
}

export interface SheetIndex {
  /** Cells per row (and per column: the sheets are square). */
  size: number;
  /** By emoji_code: lowercase hex code points joined by dashes, without U+FE0F. */
  byCode: ReadonlyMap<string, SheetCell>;
  /** By short name, to the emoji_code it names. */
  byName: ReadonlyMap<string, string>;
}

/** An emoji_code as the index keys it ("2764-FE0F" and "2764" are both "2764"). */
export function codeKey(code: string): string {
  return code
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

/** The index of emoji.json's entries (and their skin tone variations). */
export function buildSheetIndex(entries: readonly DatasourceEmoji[]): SheetIndex {
  const byCode = new Map<string, SheetCell>();
  const byName = new Map<string, string>();
  let max = 0;
  const add = (entry: {
    unified: string;
    non_qualified?: string | null;
    sheet_x: number;
    sheet_y: number;
    has_img_google?: boolean;
    has_img_twitter?: boolean;
  }): string => {
    const cell: SheetCell = {
      x: entry.sheet_x,
      y: entry.sheet_y,
      google: entry.has_img_google !== false,
      twitter: entry.has_img_twitter !== false,
    };
    max = Math.max(max, cell.x, cell.y);
    const key = codeKey(entry.unified);
    if (!byCode.has(key)) byCode.set(key, cell);
    if (entry.non_qualified) {
      const other = codeKey(entry.non_qualified);
      if (!byCode.has(other)) byCode.set(other, cell);
    }
    return key;
  };
  for (const entry of entries) {
    const key = add(entry);
    for (const name of [entry.short_name, ...(entry.short_names ?? [])]) {
      if (!byName.has(name)) byName.set(name, key);
    }
    for (const variation of Object.values(entry.skin_variations ?? {})) add(variation);
  }
  return { size: max + 1, byCode, byName };
}

/**
 * The cell showing an emoji in a set: by its code, else by its name; null when the set has no
 * image for it (the caller shows the font's glyph).
 */
export function sheetCell(
  index: SheetIndex,
  set: SheetSet,
  code: string | undefined,
  name: string | undefined,
): SheetCell | null {
  const key = code ? codeKey(code) : name ? index.byName.get(name) : undefined;
  const cell = key === undefined ? undefined : index.byCode.get(key);
  return cell?.[set] ? cell : null;
}

/**
 * CSS background-position of a cell, with the sheet scaled to `size` cells per element
 * (background-size: size × 100%): percentages count from 0 (first cell) to 100 (last).
 */
export function sheetBackgroundPosition(cell: { x: number; y: number }, size: number): string {
  const percent = (n: number) => `${Math.round((n * 100 * 10_000) / (size - 1)) / 10_000}%`;
  return `${percent(cell.x)} ${percent(cell.y)}`;
}

let loaded: SheetIndex | null = null;
let loading: Promise<SheetIndex> | null = null;

/** The index once loaded (null before). */
export function loadedSheetIndex(): SheetIndex | null {
  return loaded;
}

/**
 * Loads emoji.json (its own chunk, about 1 MB, fetched once). Both packages ship the same
 * emoji.json; the google one is read for both sets.
 */
export function loadSheetIndex(): Promise<SheetIndex> {
  loading ??= import('emoji-datasource-google/emoji.json').then(
    (module) => {
      loaded = buildSheetIndex(module.default as readonly DatasourceEmoji[]);
      return loaded;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
