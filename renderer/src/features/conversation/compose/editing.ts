/**
 * Changing a text box's text the way typing does: through the browser's editing command, so
 * the change is one step of the box's own undo history and React's onChange sees it; the plain
 * way (a new value) when the command is missing. Then the selection goes where it should.
 */

export function replaceRange(
  box: HTMLTextAreaElement | HTMLInputElement,
  value: string,
  onChange: (text: string) => void,
  edit: { start: number; end: number; insert: string; selectionStart: number; selectionEnd: number },
): void {
  box.focus();
  box.setSelectionRange(edit.start, edit.end);
  let done = false;
  try {
    // Deprecated but the only way to keep the undo history (every engine we run on has it).
    done =
      edit.insert === '' && edit.start === edit.end
        ? true
        : document.execCommand('insertText', false, edit.insert);
  } catch {
    done = false;
  }
  if (!done || box.value !== value.slice(0, edit.start) + edit.insert + value.slice(edit.end)) {
    onChange(value.slice(0, edit.start) + edit.insert + value.slice(edit.end));
    // After React wrote the new value.
    requestAnimationFrame(() => box.setSelectionRange(edit.selectionStart, edit.selectionEnd));
  }
  box.setSelectionRange(edit.selectionStart, edit.selectionEnd);
}
