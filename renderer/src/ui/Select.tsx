/**
 * Pick one of a few named options (a listbox in a popover: typeahead, arrows, Home/End, the
 * selected option marked). Options have human labels; the value travels as its key.
 */
import { ChevronDown } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  Select as AriaSelect,
  Button,
  type Key,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  SelectValue,
  Text,
} from 'react-aria-components';
import { cx } from './Button';

export interface SelectOption<K extends Key = Key> {
  id: K;
  label: string;
  description?: string;
}

export interface SelectProps<K extends Key> {
  label: ReactNode;
  options: readonly SelectOption<K>[];
  value: K | null;
  onChange: (value: K) => void;
  description?: ReactNode;
  disabledReason?: string | null;
  isDisabled?: boolean;
  /** Hide the visible label (it still names the control). */
  labelHidden?: boolean;
  placeholder?: string;
  className?: string;
  trailing?: ReactNode;
}

export function Select<K extends Key>({
  label,
  options,
  value,
  onChange,
  description,
  disabledReason,
  isDisabled,
  labelHidden,
  placeholder,
  className,
  trailing,
}: SelectProps<K>) {
  return (
    <AriaSelect
      className={cx('field', 'select', className)}
      selectedKey={value}
      onSelectionChange={(key) => {
        if (key !== null) onChange(key as K);
      }}
      isDisabled={isDisabled || Boolean(disabledReason)}
      placeholder={placeholder}
    >
      <div className="field-head">
        <Label className={labelHidden ? 'visually-hidden' : 'field-label'}>{label}</Label>
        {trailing}
      </div>
      <Button className="select-button">
        <SelectValue className="select-value" />
        <ChevronDown aria-hidden="true" size={16} />
      </Button>
      {(description !== undefined || disabledReason) && (
        <Text slot="description" className="field-description">
          {description}
          {disabledReason && <span className="disabled-reason">{disabledReason}</span>}
        </Text>
      )}
      <Popover className="popover select-popover">
        <ListBox className="listbox" items={options}>
          {(option) => (
            <ListBoxItem id={option.id} className="listbox-item" textValue={option.label}>
              <span>{option.label}</span>
              {option.description && <span className="listbox-item-description">{option.description}</span>}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
