/**
 * Small pieces of feedback every screen uses the same way: an unread count, a tag, the
 * "saving / saved" mark of a setting, a banner (with an action such as Undo), an empty state
 * that says what to do next, an inline error, a lock with the reason something is read-only,
 * and progress for long work.
 */
import { AlertTriangle, Check, CircleAlert, Info, LoaderCircle, Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { ProgressBar as AriaProgressBar, Label } from 'react-aria-components';
import { cx } from './Button';

/** An unread count (99+ above 99). `label` names it for screen readers ("3 unread"). */
export function CountBadge({ count, muted, label }: { count: number; muted?: boolean; label?: string }) {
  if (count <= 0) return null;
  const text = count > 99 ? '99+' : String(count);
  return (
    <span className={cx('count-badge', muted && 'count-badge-muted')}>
      <span aria-hidden="true">{text}</span>
      <span className="visually-hidden">, {label ?? `${count} unread`}</span>
    </span>
  );
}

export function Tag({
  children,
  tone = 'neutral',
}: {
  children: ReactNode;
  tone?: 'neutral' | 'accent' | 'warn' | 'danger' | 'ok';
}) {
  return <span className={cx('tag', `tag-${tone}`)}>{children}</span>;
}

export type SaveState = 'idle' | 'saving' | 'saved' | 'error';

/** "Saving…" then "Saved" beside a setting; announced politely. */
export function SaveMark({ state }: { state: SaveState }) {
  return (
    <span className={cx('save-mark', `save-mark-${state}`)} role="status">
      {state === 'saving' && (
        <>
          <LoaderCircle size={13} aria-hidden="true" className="spin" /> Saving…
        </>
      )}
      {state === 'saved' && (
        <>
          <Check size={13} aria-hidden="true" /> Saved
        </>
      )}
    </span>
  );
}

export function Banner({
  tone = 'info',
  children,
  action,
  role,
}: {
  tone?: 'info' | 'warn' | 'danger' | 'ok';
  children: ReactNode;
  action?: ReactNode;
  role?: 'status' | 'alert';
}) {
  const Icon =
    tone === 'danger' ? CircleAlert : tone === 'warn' ? AlertTriangle : tone === 'ok' ? Check : Info;
  return (
    <div className={cx('banner', `banner-${tone}`)} role={role ?? (tone === 'danger' ? 'alert' : 'status')}>
      <Icon size={16} aria-hidden="true" className="banner-icon" />
      <div className="banner-text">{children}</div>
      {action && <div className="banner-action">{action}</div>}
    </div>
  );
}

export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children && <p className="empty-text">{children}</p>}
      {action}
    </div>
  );
}

export function InlineError({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="inline-error">
      {children}
    </p>
  );
}

/** A read-only section's reason, with a lock. */
export function LockNote({ children }: { children: ReactNode }) {
  return (
    <p className="lock-note">
      <Lock size={14} aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

/**
 * Progress of long work: determinate when `value` (0..100) is known, else a spinner bar.
 * `label` is what is happening ("Marking as read…").
 */
export function Progress({ label, value }: { label: string; value?: number }) {
  return (
    <AriaProgressBar className="progress" value={value} isIndeterminate={value === undefined}>
      {({ percentage }) => (
        <>
          <Label className="progress-label">{label}</Label>
          <div className="progress-track">
            <div
              className={cx('progress-fill', value === undefined && 'progress-indeterminate')}
              ref={(el) => {
                if (el && percentage !== undefined) el.style.width = `${percentage}%`;
              }}
            />
          </div>
        </>
      )}
    </AriaProgressBar>
  );
}
