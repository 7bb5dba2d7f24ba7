/**
 * Where a draft goes, as the list and the editor show it: a stream in its color with the topic
 * ("#engineering > release 1.0"), the people by name, or "No recipient yet".
 */
import { UserRound } from 'lucide-react';
import { useSubscription } from '../../stores/hooks';
import { cx } from '../../ui';
import { streamColorRef } from '../shell/streamColor';
import type { DraftTarget } from './draftText';
import { joinNames } from './draftText';

export function TargetLabel({ target }: { target: DraftTarget }) {
  const color = useSubscription(target.kind === 'stream' ? target.streamId : -1)?.color;
  switch (target.kind) {
    case 'stream':
      return (
        <span className="draft-to draft-to-stream" ref={streamColorRef(color)}>
          <span className="draft-to-stream-name">#{target.stream}</span>
          {target.topic && (
            <>
              <span className="draft-to-sep"> &gt; </span>
              <span className="draft-to-topic">{target.topic}</span>
            </>
          )}
        </span>
      );
    case 'private':
      return (
        <span className="draft-to draft-to-people">
          <UserRound size={13} aria-hidden="true" className="draft-to-icon" />
          {joinNames(target.names)}
        </span>
      );
    case 'none':
      return <span className={cx('draft-to', 'draft-to-none')}>No recipient yet</span>;
  }
}
