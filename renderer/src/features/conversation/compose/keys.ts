/**
 * The message box's keys, as pure functions: whether Enter sends (per the `enter_sends`
 * setting: Enter sends and Ctrl+Enter breaks the line, or the other way round), the hint that
 * says which, and the Markdown shortcuts (Ctrl+B bold, Ctrl+I italic, Ctrl+Shift+L link).
 */

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** An input method is composing (Enter confirms its text then). */
  isComposing?: boolean;
}

/**
 * What Enter does: `send`, `newline` (to insert by hand: a textarea does not break the line on
 * Ctrl+Enter), or null (leave it to the text box: Shift+Enter and a plain Enter that does not
 * send insert a line break themselves).
 */
export function enterAction(event: KeyLike, enterSends: boolean): 'send' | 'newline' | null {
  if (event.key !== 'Enter' || event.isComposing || event.altKey || event.shiftKey) return null;
  const mod = event.ctrlKey || event.metaKey;
  if (enterSends) return mod ? 'newline' : 'send';
  return mod ? 'send' : null;
}

/** The hint under the box. */
export function sendHint(enterSends: boolean, mac = false): string {
  const mod = mac ? '⌘' : 'Ctrl';
  return enterSends ? `Enter to send, ${mod}+Enter for a new line` : `${mod}+Enter to send`;
}

export type MarkdownStyle = 'bold' | 'italic' | 'link';

/** The Markdown shortcut a key stands for, if any. */
export function markdownShortcut(event: KeyLike): MarkdownStyle | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (!event.shiftKey && key === 'b') return 'bold';
  if (!event.shiftKey && key === 'i') return 'italic';
  if (event.shiftKey && key === 'l') return 'link';
  return null;
}

/** A replacement of part of the text, and what to select afterwards. */
export interface Edit {
  start: number;
  end: number;
  insert: string;
  selectionStart: number;
  selectionEnd: number;
}

/**
 * The edit a style makes to the selection: wraps it (`**text**`, `*text*`, `[text](url)` with
 * "url" selected), or unwraps it when it is wrapped already; with nothing selected, puts the
 * markers around a placeholder and selects it.
 */
export function styleEdit(text: string, start: number, end: number, style: MarkdownStyle): Edit {
  const selected = text.slice(start, end);
  if (style === 'link') {
    const label = selected || 'text';
    const insert = `[${label}](url)`;
    const urlStart = start + label.length + 3;
    return selected
      ? { start, end, insert, selectionStart: urlStart, selectionEnd: urlStart + 3 }
      : { start, end, insert, selectionStart: start + 1, selectionEnd: start + 1 + label.length };
  }
  const marker = style === 'bold' ? '**' : '*';
  const m = marker.length;
  // Already wrapped (markers just outside the selection): take them away.
  const outside = text.slice(start - m, start) === marker && text.slice(end, end + m) === marker;
  const boldAround =
    style === 'italic' && text.slice(start - 2, start) === '**' && text.slice(end, end + 2) === '**';
  if (outside && !boldAround && start - m >= 0) {
    return {
      start: start - m,
      end: end + m,
      insert: selected,
      selectionStart: start - m,
      selectionEnd: end - m,
    };
  }
  const inner = selected || (style === 'bold' ? 'bold text' : 'italic text');
  return {
    start,
    end,
    insert: `${marker}${inner}${marker}`,
    selectionStart: start + m,
    selectionEnd: start + m + inner.length,
  };
}

/** The text with an edit applied. */
export const applyEdit = (text: string, edit: Edit): string =>
  text.slice(0, edit.start) + edit.insert + text.slice(edit.end);

/** Text added to what is there: after a blank line, unless the box is empty. */
export function appendBlock(text: string, block: string): string {
  const trimmed = text.replace(/\s+$/u, '');
  return trimmed === '' ? block : `${trimmed}\n\n${block}`;
}
