/**
 * A person's initials on a color of their own (stable per user id), with their presence as a
 * dot. Images from the server would need the account's credentials; initials never do.
 */
import { cx } from './Button';

export type PresenceState = 'active' | 'idle' | 'offline';

const HUES = 12;

export function Avatar({
  name,
  userId,
  size = 'md',
  presence,
}: {
  name: string;
  userId: number;
  size?: 'sm' | 'md' | 'lg';
  presence?: PresenceState;
}) {
  return (
    <span
      className={cx('avatar', `avatar-${size}`, `avatar-hue-${Math.abs(userId) % HUES}`)}
      aria-hidden="true"
    >
      {initials(name)}
      {presence && <PresenceDot state={presence} />}
    </span>
  );
}

/** A presence dot; its meaning is given in words by whoever shows it (title or text). */
export function PresenceDot({ state }: { state: PresenceState }) {
  return <span className={cx('presence-dot', `presence-${state}`)} aria-hidden="true" />;
}

export function initials(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  const first = words[0]?.[Symbol.iterator]().next().value ?? '?';
  const last = words.length > 1 ? (words[words.length - 1]?.[Symbol.iterator]().next().value ?? '') : '';
  return (first + last).toUpperCase();
}
