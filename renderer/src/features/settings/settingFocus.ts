/**
 * Jumping to one setting (from the command palette): the request names the setting; the
 * settings screen, once it shows the setting's control (`data-setting="<name>"`), focuses it
 * and scrolls it into view, then forgets the request.
 */
import { type RefObject, useEffect } from 'react';
import { create } from 'zustand';

const useFocusRequest = create<{ name: string | null }>()(() => ({ name: null }));

/** Asks the settings screen to focus the control of setting `name` when it shows it. */
export function requestSettingFocus(name: string): void {
  useFocusRequest.setState({ name });
}

const FOCUSABLE = 'input:not([type="hidden"]), button, select, textarea, [tabindex]:not([tabindex="-1"])';

/** Focuses the requested setting's control inside `container` once it is there (`shown` changes: look again). */
export function useSettingFocus(container: RefObject<HTMLElement | null>, shown: unknown): void {
  const name = useFocusRequest((s) => s.name);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` (the section) makes it look again on purpose
  useEffect(() => {
    if (name === null) return;
    const anchor = container.current?.querySelector(`[data-setting="${CSS.escape(name)}"]`);
    const control = anchor?.querySelector<HTMLElement>(FOCUSABLE);
    if (!anchor || !control) return;
    useFocusRequest.setState({ name: null });
    control.focus({ preventScroll: true });
    // After the frame: the palette closing and the screen settling must not move it again.
    requestAnimationFrame(() => scrollToMiddle(shownBox(control, anchor)));
  }, [name, container, shown]);
}

/**
 * What to scroll into view for a control: itself, or for a visually hidden input (a switch's,
 * inside a 1-pixel box placed absolutely, out of the scrolling pane's flow) the element around
 * that hidden box, within the setting's anchor.
 */
function shownBox(control: HTMLElement, anchor: Element): HTMLElement {
  let shown = control;
  for (
    let element: HTMLElement | null = control;
    element && element !== anchor;
    element = element.parentElement
  ) {
    const box = element.getBoundingClientRect();
    const { position } = getComputedStyle(element);
    const hidden = box.width <= 1 || box.height <= 1 || position === 'absolute' || position === 'fixed';
    if (hidden && element.parentElement) shown = element.parentElement;
  }
  return shown;
}

/**
 * Scrolls the element's scrolling pane to show it in the middle (as far as the pane goes);
 * unlike scrollIntoView, no outer frame is moved to make up what the pane cannot.
 */
function scrollToMiddle(element: HTMLElement): void {
  let pane = element.parentElement;
  while (pane && !/(auto|scroll)/.test(getComputedStyle(pane).overflowY)) pane = pane.parentElement;
  if (!pane) return;
  const box = element.getBoundingClientRect();
  const frame = pane.getBoundingClientRect();
  pane.scrollTop += box.top - frame.top - (frame.height - box.height) / 2;
}
