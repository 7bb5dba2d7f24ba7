/**
 * The autocomplete list under a text box (the message box's `@`, `#`, `:`, the topic field's
 * topics): the box keeps the focus and names the highlighted option (aria-activedescendant);
 * arrows move, Enter or Tab picks, Escape closes, a click picks.
 */
import type { KeyboardEvent, ReactNode } from 'react';
import { cx } from '../../../ui';

export interface Suggestion {
  id: string;
  /** The option's accessible name. */
  label: string;
  /** What shows (the label by default). */
  content?: ReactNode;
  description?: string;
}

export const optionId = (listId: string, index: number): string => `${listId}-option-${index}`;

export function SuggestionList({
  id,
  label,
  items,
  active,
  onPick,
  className,
}: {
  id: string;
  label: string;
  items: readonly Suggestion[];
  active: number;
  onPick: (index: number) => void;
  className?: string;
}) {
  if (items.length === 0) return null;
  return (
    <div id={id} role="listbox" aria-label={label} className={cx('compose-suggestions', className)}>
      {items.map((item, index) => (
        // The text box keeps the focus: options are picked by keys there, or by a click here.
        // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the text box's (aria-activedescendant)
        <div
          key={item.id}
          id={optionId(id, index)}
          role="option"
          aria-selected={index === active}
          tabIndex={-1}
          className={cx('compose-suggestion', index === active && 'compose-suggestion-active')}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(index)}
        >
          <span className="compose-suggestion-label">{item.content ?? item.label}</span>
          {item.description && <span className="compose-suggestion-description">{item.description}</span>}
        </div>
      ))}
    </div>
  );
}

/**
 * The list's keys, for the text box's onKeyDown: answers true when the key was the list's
 * (and stops it), false to let the box have it.
 */
export function handleSuggestionKey(
  event: KeyboardEvent,
  count: number,
  active: number,
  { move, pick, close }: { move: (index: number) => void; pick: (index: number) => void; close: () => void },
): boolean {
  if (count === 0) return false;
  switch (event.key) {
    case 'ArrowDown':
      move((active + 1) % count);
      break;
    case 'ArrowUp':
      move((active - 1 + count) % count);
      break;
    case 'Enter':
    case 'Tab':
      if (event.shiftKey || event.ctrlKey || event.metaKey || event.altKey || event.nativeEvent.isComposing)
        return false;
      pick(active);
      break;
    case 'Escape':
      close();
      break;
    default:
      return false;
  }
  event.preventDefault();
  event.stopPropagation();
  return true;
}
