/**
 * Text entry: a labelled input or text area with its description, a character count where a
 * limit exists, and the error that explains a refusal (role=alert through FieldError).
 */
import { Search } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  SearchField as AriaSearchField,
  TextField as AriaTextField,
  FieldError,
  Input,
  Label,
  Text,
  TextArea,
} from 'react-aria-components';
import { cx } from './Button';

export interface TextFieldProps {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  description?: ReactNode;
  /** Shown under the field and makes it invalid. */
  error?: string | null;
  type?: 'text' | 'email' | 'password' | 'url' | 'search';
  multiline?: boolean;
  rows?: number;
  /** Counts characters (code points) and shows what is left. */
  maxLength?: number;
  placeholder?: string;
  isDisabled?: boolean;
  isReadOnly?: boolean;
  isRequired?: boolean;
  autoFocus?: boolean;
  autoComplete?: string;
  name?: string;
  labelHidden?: boolean;
  className?: string;
  onBlur?: () => void;
  onKeyDown?: (event: React.KeyboardEvent) => void;
}

export function TextField({
  label,
  value,
  onChange,
  description,
  error,
  type = 'text',
  multiline,
  rows = 3,
  maxLength,
  placeholder,
  isDisabled,
  isReadOnly,
  isRequired,
  autoFocus,
  autoComplete,
  name,
  labelHidden,
  className,
  onBlur,
  onKeyDown,
}: TextFieldProps) {
  const left = maxLength === undefined ? null : maxLength - [...value].length;
  return (
    <AriaTextField
      className={cx('field', className)}
      value={value}
      onChange={onChange}
      type={type}
      isDisabled={isDisabled}
      isReadOnly={isReadOnly}
      isRequired={isRequired}
      isInvalid={Boolean(error) || (left !== null && left < 0)}
      autoFocus={autoFocus}
      autoComplete={autoComplete}
      name={name}
      onBlur={onBlur}
    >
      <div className="field-head">
        <Label className={labelHidden ? 'visually-hidden' : 'field-label'}>{label}</Label>
        {left !== null && (
          <span className={cx('field-count', left < 0 && 'field-count-over')} aria-live="polite">
            {left}
          </span>
        )}
      </div>
      {multiline ? (
        <TextArea className="input textarea" rows={rows} placeholder={placeholder} onKeyDown={onKeyDown} />
      ) : (
        <Input className="input" placeholder={placeholder} onKeyDown={onKeyDown} />
      )}
      {description !== undefined && (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      )}
      <FieldError className="field-error">{error}</FieldError>
    </AriaTextField>
  );
}

/** A filter box: the magnifier, a clear button, Escape clears. */
export function SearchField({
  label,
  value,
  onChange,
  placeholder,
  className,
  autoFocus,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  className?: string;
  autoFocus?: boolean;
}) {
  return (
    <AriaSearchField
      className={cx('search-field', className)}
      aria-label={label}
      value={value}
      onChange={onChange}
      autoFocus={autoFocus}
    >
      <Search aria-hidden="true" size={15} className="search-icon" />
      <Input className="input search-input" placeholder={placeholder ?? label} />
    </AriaSearchField>
  );
}
