/**
 * One emoji as the account's `emojiset` setting wants it: a cell of the google or twitter
 * sprite sheet (emojiSheet.ts), the font's glyph while the sheet's data loads or for an emoji
 * the set lacks, or `:name:` for the "text" set. An organization's custom emoji shows its
 * image, fetched through the main process (RealmEmojiImage.tsx), or `:name:` until it has it
 * (and always in the "text" set, as every emoji there).
 * Always one element with role="img" named by the emoji's name, so a screen reader says
 * "palm tree" and not the glyph's codepoints or the sheet.
 */
import { useCallback, useEffect, useState } from 'react';
import { useSetting } from '../stores/hooks';
import { cx } from './Button';
import {
  type EmojiLook,
  emojiLookOf,
  loadedSheetIndex,
  loadSheetIndex,
  type SheetIndex,
  type SheetSet,
  sheetBackgroundPosition,
  sheetCell,
} from './emojiSheet';
import { useRealmEmojiImage } from './RealmEmojiImage';
import './Emoji.css';

export interface EmojiProps {
  name: string;
  /** The spec's emoji_code: dash-separated hex code points for unicode_emoji, the id for realm_emoji. */
  code?: string | undefined;
  /** unicode_emoji (default), realm_emoji or service_extra_emoji. */
  type?: string | undefined;
  className?: string;
  /** Hidden from assistive technology: something around it already says the name. */
  decorative?: boolean;
  /** Show a picture even in the "text" set (the font's glyph): for pickers, where :name: cannot fit. */
  alwaysPicture?: boolean;
}

export function Emoji({
  name,
  code,
  type = 'unicode_emoji',
  className,
  decorative = false,
  alwaysPicture = false,
}: EmojiProps) {
  const setting = useSetting('emojiset');
  let look: EmojiLook = emojiLookOf(setting);
  if (look === 'text' && alwaysPicture) look = 'native';
  const label = name.replaceAll('_', ' ');
  const a11y = decorative
    ? ({ 'aria-hidden': true } as const)
    : ({ role: 'img', 'aria-label': label } as const);
  if (type === 'realm_emoji' && look !== 'text') {
    return <CustomEmoji name={name} id={code} className={className} a11y={a11y} />;
  }
  const glyph = type === 'unicode_emoji' && look !== 'text' ? glyphOfCode(code) : null;
  const set: SheetSet | null = glyph !== null && (look === 'google' || look === 'twitter') ? look : null;
  if (set !== null) {
    return (
      <SheetEmoji set={set} name={name} code={code} glyph={glyph ?? ''} className={className} a11y={a11y} />
    );
  }
  if (glyph === null) {
    return (
      <span className={cx('emoji', 'emoji-text', className)} title={`:${name}:`} {...a11y}>
        :{name}:
      </span>
    );
  }
  return (
    <span className={cx('emoji', 'emoji-native', className)} title={`:${name}:`} {...a11y}>
      {glyph}
    </span>
  );
}

type A11y = { 'aria-hidden': true } | { role: 'img'; 'aria-label': string };

/** The sheet's index, loading it on first use; null until it is there (or when it failed). */
export function useSheetIndex(): SheetIndex | null {
  const [index, setIndex] = useState(loadedSheetIndex);
  useEffect(() => {
    if (index) return;
    let live = true;
    loadSheetIndex().then(
      (loaded) => live && setIndex(loaded),
      // Without the data the font's glyph stays: still an emoji, just not the set's.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [index]);
  return index;
}

function SheetEmoji({
  set,
  name,
  code,
  glyph,
  className,
  a11y,
}: {
  set: SheetSet;
  name: string;
  code: string | undefined;
  glyph: string;
  className: string | undefined;
  a11y: A11y;
}) {
  const index = useSheetIndex();
  const cell = index ? sheetCell(index, set, code, name) : null;
  const position = cell && index ? sheetBackgroundPosition(cell, index.size) : null;
  const size = index ? `${index.size * 100}% ${index.size * 100}%` : null;
  // The CSP forbids style attributes; the CSSOM is allowed.
  const place = useCallback(
    (el: HTMLSpanElement | null) => {
      if (!el || position === null || size === null) return;
      el.style.backgroundPosition = position;
      el.style.backgroundSize = size;
    },
    [position, size],
  );
  if (position === null) {
    return (
      <span className={cx('emoji', 'emoji-native', className)} title={`:${name}:`} {...a11y}>
        {glyph}
      </span>
    );
  }
  return (
    <span
      ref={place}
      className={cx('emoji', 'emoji-sheet', `emoji-sheet-${set}`, className)}
      title={`:${name}:`}
      data-emoji-cell={position}
      {...a11y}
    />
  );
}

function CustomEmoji({
  name,
  id,
  className,
  a11y,
}: {
  name: string;
  id: string | undefined;
  className: string | undefined;
  a11y: A11y;
}) {
  const src = useRealmEmojiImage(id);
  if (src === null) {
    return (
      <span className={cx('emoji', 'emoji-text', className)} title={`:${name}:`} {...a11y}>
        :{name}:
      </span>
    );
  }
  return (
    <span className={cx('emoji', 'emoji-custom', className)} title={`:${name}:`} {...a11y}>
      <img src={src} alt="" className="emoji-custom-img" />
    </span>
  );
}

/** The characters of a unicode_emoji code ("1f334", "1f1fa-1f1f8"); null when it is not one. */
export function glyphOfCode(code: string | undefined): string | null {
  if (!code || !/^[0-9a-f]{1,6}(-[0-9a-f]{1,6})*$/iu.test(code)) return null;
  try {
    return String.fromCodePoint(...code.split('-').map((part) => Number.parseInt(part, 16)));
  } catch {
    return null;
  }
}
