/**
 * The shapes of a screen: a header with its title and actions, sections with a heading and
 * an optional save widget, and setting rows (label and description left, control right).
 */
import type { ReactNode } from 'react';
import { cx } from './Button';

export function ScreenHeader({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="screen-header">
      <div className="screen-header-text">
        <h1 className="screen-title">{title}</h1>
        {subtitle && <p className="screen-subtitle">{subtitle}</p>}
      </div>
      {actions && <div className="screen-actions">{actions}</div>}
    </header>
  );
}

export function Section({
  title,
  description,
  actions,
  children,
  className,
  headingLevel = 2,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  headingLevel?: 2 | 3;
}) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className={cx('section', className)} aria-label={title}>
      <div className="section-head">
        <div>
          <H className="section-title">{title}</H>
          {description && <p className="section-description">{description}</p>}
        </div>
        {actions && <div className="section-actions">{actions}</div>}
      </div>
      <div className="section-body">{children}</div>
    </section>
  );
}

/** A row of a settings list: words on the left, the control on the right. */
export function SettingRow({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cx('setting-row', className)}>{children}</div>;
}
