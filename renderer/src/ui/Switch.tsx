/**
 * A setting that is on or off. The label is the switch's accessible name; a description and,
 * when it cannot be changed, the reason why are read with it (aria-describedby).
 */
import { type ReactNode, useId } from 'react';
import { Switch as AriaSwitch } from 'react-aria-components';
import { cx } from './Button';

export interface SwitchProps {
  label: ReactNode;
  isSelected: boolean;
  onChange: (value: boolean) => void;
  description?: ReactNode;
  /** Why it cannot be changed; the switch is disabled while this is set. */
  disabledReason?: string | null;
  isDisabled?: boolean;
  /** Something beside the label (a saved mark). */
  trailing?: ReactNode;
  className?: string;
}

export function Switch({
  label,
  isSelected,
  onChange,
  description,
  disabledReason,
  isDisabled,
  trailing,
  className,
}: SwitchProps) {
  const describedBy = useId();
  const hasText = description !== undefined || Boolean(disabledReason);
  return (
    <div className={cx('switch-row', className)}>
      <AriaSwitch
        className="switch"
        isSelected={isSelected}
        onChange={onChange}
        isDisabled={isDisabled || Boolean(disabledReason)}
        aria-describedby={hasText ? describedBy : undefined}
      >
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">{label}</span>
      </AriaSwitch>
      {trailing}
      {hasText && (
        <div id={describedBy} className="field-description">
          {description}
          {disabledReason && <span className="disabled-reason">{disabledReason}</span>}
        </div>
      )}
    </div>
  );
}
