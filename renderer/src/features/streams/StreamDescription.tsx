/**
 * A stream's description as the server rendered it (`rendered_description`), sanitized by the
 * shared RichText (parsed inertly, only known tags and web links kept); the Markdown source only
 * when the server sent no rendering.
 */
import { cx } from '../../ui';
import { RichText } from '../shell/richText';

export function StreamDescription({
  stream,
  className,
}: {
  stream: { description?: unknown; rendered_description?: unknown };
  className?: string;
}) {
  const rendered = typeof stream.rendered_description === 'string' ? stream.rendered_description : '';
  const source = typeof stream.description === 'string' ? stream.description : '';
  if (rendered.trim() !== '')
    return <RichText html={rendered} className={cx('stream-description', className)} />;
  if (source.trim() === '') return null;
  return <p className={cx('stream-description', className)}>{source}</p>;
}
