/**
 * Which shortcut a key press is, independent of the keyboard layout: on a non-Latin layout
 * (Cyrillic, Greek, Hebrew...) `event.key` is the layout's letter, so the physical key
 * (`event.code`) stands in for it, as the family's hotkey.ts does. Presses while typing in a
 * field never count (except the ones with a modifier that fields do not use, like Ctrl+K).
 */

export type ShortcutId =
  | 'palette'
  | 'search'
  | 'shortcuts'
  | 'next-unread'
  | 'compose'
  | 'drafts'
  | 'inbox'
  | 'recent'
  | 'settings'
  | 'escape';

export interface ShortcutInfo {
  id: ShortcutId;
  /** The keys as shown (one entry per alternative). */
  keys: string[];
  description: string;
  group: 'Navigation' | 'Actions' | 'Help';
}

/** Every shortcut, as the Shortcuts dialog lists them. `Mod` is Ctrl (⌘ on macOS). */
export const SHORTCUTS: readonly ShortcutInfo[] = [
  { id: 'palette', keys: ['Mod+K'], description: 'Open the command palette', group: 'Navigation' },
  { id: 'search', keys: ['/'], description: 'Search messages', group: 'Navigation' },
  { id: 'next-unread', keys: ['N'], description: 'Go to the next unread topic', group: 'Navigation' },
  { id: 'inbox', keys: ['I'], description: 'Go to the inbox', group: 'Navigation' },
  { id: 'recent', keys: ['T'], description: 'Go to recent conversations', group: 'Navigation' },
  { id: 'drafts', keys: ['D'], description: 'Go to drafts', group: 'Navigation' },
  { id: 'settings', keys: ['Mod+,'], description: 'Open settings', group: 'Navigation' },
  {
    id: 'escape',
    keys: ['Esc'],
    description: 'Go to the default view (when enabled in Preferences)',
    group: 'Navigation',
  },
  { id: 'compose', keys: ['C'], description: 'New message', group: 'Actions' },
  { id: 'shortcuts', keys: ['?'], description: 'Show keyboard shortcuts', group: 'Help' },
];

/** The subset of KeyboardEvent the matcher reads (tests pass plain objects). */
export interface KeyPress {
  key: string;
  code: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const CODE_KEYS: Record<string, [string, string]> = {
  Slash: ['/', '?'],
  Comma: [',', '<'],
  Period: ['.', '>'],
  Semicolon: [';', ':'],
  Quote: ["'", '"'],
  BracketLeft: ['[', '{'],
  BracketRight: [']', '}'],
  Minus: ['-', '_'],
  Equal: ['=', '+'],
  Backquote: ['`', '~'],
};

/**
 * The Latin key of a press: `event.key` when it is Latin (or a named key like Escape), else
 * what the physical key would type on a US layout.
 */
export function latinKey(press: Pick<KeyPress, 'key' | 'code' | 'shiftKey'>): string {
  const { key, code, shiftKey } = press;
  if (key.length !== 1 || /^[\x20-\x7e]$/.test(key)) return key;
  const letter = /^Key([A-Z])$/.exec(code);
  if (letter?.[1]) return shiftKey ? letter[1] : letter[1].toLowerCase();
  const digit = /^Digit([0-9])$/.exec(code);
  if (digit?.[1]) return digit[1];
  const punct = CODE_KEYS[code];
  if (punct) return shiftKey ? punct[1] : punct[0];
  return key;
}

/** Whether the page is taking typing there (the shortcuts without a modifier stay off). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  return (
    el.closest(
      'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"]',
    ) !== null
  );
}

/** The shortcut a press means, or null. `typing`: the focus is in a field. */
export function matchShortcut(press: KeyPress, typing: boolean): ShortcutId | null {
  const key = latinKey(press);
  const mod = press.ctrlKey || press.metaKey;
  if (mod && !press.altKey && !press.shiftKey) {
    if (key.toLowerCase() === 'k') return 'palette';
    if (key === ',') return 'settings';
    return null;
  }
  if (typing || mod || press.altKey) return null;
  if (key === 'Escape') return 'escape';
  if (key === '?') return 'shortcuts';
  if (press.shiftKey) return null;
  switch (key) {
    case '/':
      return 'search';
    case 'n':
      return 'next-unread';
    case 'c':
      return 'compose';
    case 'd':
      return 'drafts';
    case 'i':
      return 'inbox';
    case 't':
      return 'recent';
    default:
      return null;
  }
}

/** How a key is written for the person: Mod as Ctrl or ⌘. */
export function keyLabel(key: string, mac: boolean): string {
  return key.replace('Mod', mac ? '⌘' : 'Ctrl');
}
