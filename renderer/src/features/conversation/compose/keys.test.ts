import { describe, expect, it } from 'vitest';
import {
  appendBlock,
  applyEdit,
  enterAction,
  type KeyLike,
  markdownShortcut,
  sendHint,
  styleEdit,
} from './keys';

const key = (over: Partial<KeyLike>): KeyLike => ({
  key: 'Enter',
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...over,
});

describe('enterAction', () => {
  it('with enter_sends: Enter sends, Ctrl+Enter or Cmd+Enter breaks the line', () => {
    expect(enterAction(key({}), true)).toBe('send');
    expect(enterAction(key({ ctrlKey: true }), true)).toBe('newline');
    expect(enterAction(key({ metaKey: true }), true)).toBe('newline');
  });

  it('without: Ctrl+Enter sends, Enter is left to the text box', () => {
    expect(enterAction(key({}), false)).toBeNull();
    expect(enterAction(key({ ctrlKey: true }), false)).toBe('send');
    expect(enterAction(key({ metaKey: true }), false)).toBe('send');
  });

  it('never sends on Shift+Enter, Alt+Enter, while composing, or another key', () => {
    for (const enterSends of [true, false]) {
      expect(enterAction(key({ shiftKey: true }), enterSends)).toBeNull();
      expect(enterAction(key({ altKey: true }), enterSends)).toBeNull();
      expect(enterAction(key({ isComposing: true }), enterSends)).toBeNull();
      expect(enterAction(key({ key: 'a', ctrlKey: true }), enterSends)).toBeNull();
    }
  });

  it('says which key sends', () => {
    expect(sendHint(true)).toBe('Enter to send, Ctrl+Enter for a new line');
    expect(sendHint(false)).toBe('Ctrl+Enter to send');
    expect(sendHint(false, true)).toBe('⌘+Enter to send');
  });
});

describe('markdown shortcuts', () => {
  it('knows Ctrl+B, Ctrl+I and Ctrl+Shift+L', () => {
    expect(markdownShortcut(key({ key: 'b', ctrlKey: true }))).toBe('bold');
    expect(markdownShortcut(key({ key: 'i', metaKey: true }))).toBe('italic');
    expect(markdownShortcut(key({ key: 'L', ctrlKey: true, shiftKey: true }))).toBe('link');
    expect(markdownShortcut(key({ key: 'b' }))).toBeNull();
    expect(markdownShortcut(key({ key: 'b', ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(markdownShortcut(key({ key: 'l', ctrlKey: true }))).toBeNull();
  });

  it('wraps the selection and keeps it selected', () => {
    const text = 'say hello now';
    const edit = styleEdit(text, 4, 9, 'bold');
    expect(applyEdit(text, edit)).toBe('say **hello** now');
    expect([edit.selectionStart, edit.selectionEnd]).toEqual([6, 11]);
    const italic = styleEdit(text, 4, 9, 'italic');
    expect(applyEdit(text, italic)).toBe('say *hello* now');
    expect([italic.selectionStart, italic.selectionEnd]).toEqual([5, 10]);
  });

  it('unwraps a selection already wrapped', () => {
    const text = 'say **hello** now';
    const edit = styleEdit(text, 6, 11, 'bold');
    expect(applyEdit(text, edit)).toBe('say hello now');
    expect([edit.selectionStart, edit.selectionEnd]).toEqual([4, 9]);
  });

  it('puts a placeholder, selected, when nothing is selected', () => {
    const edit = styleEdit('a ', 2, 2, 'bold');
    expect(applyEdit('a ', edit)).toBe('a **bold text**');
    expect([edit.selectionStart, edit.selectionEnd]).toEqual([4, 13]);
  });

  it('makes a link of the selection with "url" selected, or a label to type', () => {
    const text = 'see docs';
    const edit = styleEdit(text, 4, 8, 'link');
    expect(applyEdit(text, edit)).toBe('see [docs](url)');
    expect(applyEdit(text, edit).slice(edit.selectionStart, edit.selectionEnd)).toBe('url');
    const empty = styleEdit('', 0, 0, 'link');
    expect(applyEdit('', empty)).toBe('[text](url)');
    expect(applyEdit('', empty).slice(empty.selectionStart, empty.selectionEnd)).toBe('text');
  });

  it('appends a block after a blank line unless the box is empty', () => {
    expect(appendBlock('', '> quote')).toBe('> quote');
    expect(appendBlock('  \n', '> quote')).toBe('> quote');
    expect(appendBlock('mine\n', '> quote')).toBe('mine\n\n> quote');
  });
});
