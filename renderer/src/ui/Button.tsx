/**
 * Buttons: one component, four looks. `primary` is the one main action of a place, `danger`
 * destroys something, `ghost` sits quietly in lists and toolbars. Built on react-aria's Button
 * (press events that behave the same for mouse, touch, keyboard and assistive technology).
 */
import type { ReactNode } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { Tooltip } from './Tooltip';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends Omit<AriaButtonProps, 'className' | 'children'> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  /** An icon before the label (lucide-react element). */
  icon?: ReactNode;
  children?: ReactNode;
  className?: string;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  icon,
  children,
  className,
  ...rest
}: ButtonProps) {
  return (
    <AriaButton {...rest} className={cx('btn', `btn-${variant}`, size === 'sm' && 'btn-sm', className)}>
      {icon}
      {children !== undefined && <span className="btn-label">{children}</span>}
    </AriaButton>
  );
}

export interface IconButtonProps extends Omit<AriaButtonProps, 'className' | 'children' | 'aria-label'> {
  /** The accessible name, also shown as the tooltip. */
  label: string;
  icon: ReactNode;
  variant?: ButtonVariant;
  className?: string;
  /** Shown pressed (a toggle): sets aria-pressed. */
  pressed?: boolean;
}

/** An icon-only button: always named, and the name shows on hover and focus. */
export function IconButton({ label, icon, variant = 'ghost', className, pressed, ...rest }: IconButtonProps) {
  return (
    <Tooltip text={label}>
      <AriaButton
        {...rest}
        aria-label={label}
        aria-pressed={pressed}
        className={cx('btn', 'btn-icon', `btn-${variant}`, className)}
      >
        {icon}
      </AriaButton>
    </Tooltip>
  );
}

/** Joins class names, skipping the falsy ones. */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
