import { describe, expect, it } from 'vitest';
import { type KeyPress, latinKey, matchShortcut, SHORTCUTS } from './hotkeys';

const press = (key: string, code: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  code,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...extra,
});

describe('hotkeys', () => {
  it('maps Latin keys directly', () => {
    expect(matchShortcut(press('n', 'KeyN'), false)).toBe('next-unread');
    expect(matchShortcut(press('i', 'KeyI'), false)).toBe('inbox');
    expect(matchShortcut(press('/', 'Slash'), false)).toBe('search');
    expect(matchShortcut(press('?', 'Slash', { shiftKey: true }), false)).toBe('shortcuts');
    expect(matchShortcut(press('Escape', 'Escape'), false)).toBe('escape');
  });

  it('reads the physical key on a non-Latin layout', () => {
    // Russian layout: the N key types "т", the I key "ш", the slash key "."
    expect(latinKey(press('т', 'KeyN'))).toBe('n');
    expect(matchShortcut(press('т', 'KeyN'), false)).toBe('next-unread');
    expect(matchShortcut(press('ш', 'KeyI'), false)).toBe('inbox');
    expect(matchShortcut(press('в', 'KeyD'), false)).toBe('drafts');
    expect(matchShortcut(press('л', 'KeyK', { ctrlKey: true }), false)).toBe('palette');
    // Greek: Shift+Slash still asks for the list.
    expect(matchShortcut(press('΅', 'Slash', { shiftKey: true }), false)).toBe('shortcuts');
  });

  it('keeps a Latin key on a layout that moves keys (AZERTY)', () => {
    // On AZERTY the key labelled A sits at KeyQ: the letter typed wins.
    expect(matchShortcut(press('d', 'KeyD'), false)).toBe('drafts');
    expect(matchShortcut(press('a', 'KeyQ'), false)).toBeNull();
  });

  it('never fires plain keys while typing, but Mod+K does', () => {
    expect(matchShortcut(press('n', 'KeyN'), true)).toBeNull();
    expect(matchShortcut(press('?', 'Slash', { shiftKey: true }), true)).toBeNull();
    expect(matchShortcut(press('Escape', 'Escape'), true)).toBeNull();
    expect(matchShortcut(press('k', 'KeyK', { metaKey: true }), true)).toBe('palette');
    expect(matchShortcut(press(',', 'Comma', { ctrlKey: true }), true)).toBe('settings');
  });

  it('ignores other modifiers', () => {
    expect(matchShortcut(press('n', 'KeyN', { ctrlKey: true }), false)).toBeNull();
    expect(matchShortcut(press('n', 'KeyN', { altKey: true }), false)).toBeNull();
    expect(matchShortcut(press('N', 'KeyN', { shiftKey: true }), false)).toBeNull();
  });
});

describe('the shortcut list', () => {
  it('says / searches the messages and n opens the next unread topic', () => {
    const said = (id: string) => SHORTCUTS.find((s) => s.id === id);
    expect(said('search')).toMatchObject({ keys: ['/'], description: 'Search messages' });
    expect(said('next-unread')).toMatchObject({ keys: ['N'], description: 'Go to the next unread topic' });
  });
});
