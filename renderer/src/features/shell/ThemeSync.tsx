import { useEffect } from 'react';
import { COLOR_SCHEMES } from '../../../../shared/protocol';
import { useSetting } from '../../stores/hooks';

/**
 * Puts the active account's display settings on <html> as data attributes, where the
 * stylesheet picks them up: color scheme (absent = follow the system), density, contrast,
 * width, time format, emoji set, user list style. Rendered inside the account's provider; removes what it set when it goes away.
 */
export function ThemeSync() {
  const colorScheme = useSetting('color_scheme');
  const dense = useSetting('dense_mode') === true;
  const highContrast = useSetting('high_contrast_mode') === true;
  const fluid = useSetting('fluid_layout_width') === true;
  const twentyFour = useSetting('twenty_four_hour_time') === true;
  const emojiset = useSetting('emojiset');
  const userListStyle = useSetting('user_list_style');

  useEffect(() => {
    const root = document.documentElement;
    const theme =
      colorScheme === COLOR_SCHEMES.dark ? 'dark' : colorScheme === COLOR_SCHEMES.light ? 'light' : null;
    setAttribute(root, 'data-theme', theme);
    setAttribute(root, 'data-dense', dense ? '' : null);
    setAttribute(root, 'data-high-contrast', highContrast ? '' : null);
    setAttribute(root, 'data-fluid', fluid ? '' : null);
    setAttribute(root, 'data-time-format', twentyFour ? '24' : '12');
    setAttribute(root, 'data-emojiset', typeof emojiset === 'string' ? emojiset : null);
    setAttribute(
      root,
      'data-user-list-style',
      typeof userListStyle === 'number' ? String(userListStyle) : null,
    );
  }, [colorScheme, dense, highContrast, fluid, twentyFour, emojiset, userListStyle]);

  useEffect(
    () => () => {
      for (const name of ATTRIBUTES) {
        document.documentElement.removeAttribute(name);
      }
    },
    [],
  );
  return null;
}

const ATTRIBUTES = [
  'data-theme',
  'data-dense',
  'data-high-contrast',
  'data-fluid',
  'data-time-format',
  'data-emojiset',
  'data-user-list-style',
];

function setAttribute(element: HTMLElement, name: string, value: string | null) {
  if (value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}
