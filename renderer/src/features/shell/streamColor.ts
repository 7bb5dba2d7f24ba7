/**
 * A stream's own color on an element. The CSP forbids inline style attributes, but not the
 * CSSOM: a ref callback sets the custom property `--stream-color`, which the stylesheet reads.
 */
const VALID_COLOR = /^#[0-9a-fA-F]{3,8}$/;

export function streamColorRef(color: string | undefined): (el: HTMLElement | null) => void {
  return (el) => {
    if (!el) return;
    if (color && VALID_COLOR.test(color)) el.style.setProperty('--stream-color', color);
    else el.style.removeProperty('--stream-color');
  };
}
