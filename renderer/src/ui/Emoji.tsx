/**
 * One emoji as the account's `emojiset` setting wants it: the Unicode glyph, or `:name:` for
 * the "text" set. A custom (organization) emoji shows as `:name:` too: its image would need the
 * account's credentials, which the renderer never holds. The name is always the accessible
 * text, so a screen reader says "palm tree" and not the glyph's codepoints.
 */
import { useSetting } from '../stores/hooks';
import { cx } from './Button';
import './Emoji.css';

export interface EmojiProps {
  name: string;
  /** The spec's emoji_code: dash-separated hex code points for unicode_emoji. */
  code?: string | undefined;
  /** unicode_emoji (default), realm_emoji or service_extra_emoji. */
  type?: string | undefined;
  className?: string;
}

export function Emoji({ name, code, type = 'unicode_emoji', className }: EmojiProps) {
  const emojiset = useSetting('emojiset');
  const glyph = type === 'unicode_emoji' && emojiset !== 'text' ? glyphOfCode(code) : null;
  const label = name.replaceAll('_', ' ');
  if (glyph === null) {
    return (
      <span className={cx('emoji', 'emoji-text', className)} title={`:${name}:`}>
        :{name}:
      </span>
    );
  }
  return (
    <span className={cx('emoji', className)} role="img" aria-label={label} title={`:${name}:`}>
      {glyph}
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
