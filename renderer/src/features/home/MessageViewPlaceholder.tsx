/**
 * The message views (Recent conversations, All messages, Starred) arrive with the conversation
 * view (issue 10); until then their place says so plainly.
 */
import { EmptyState, ScreenHeader } from '../../ui';

const TITLES = { recent: 'Recent conversations', all: 'All messages', starred: 'Starred messages' } as const;

export function MessageViewPlaceholder({ view }: { view: keyof typeof TITLES }) {
  return (
    <div className="screen">
      <ScreenHeader title={TITLES[view]} />
      <EmptyState title="Messages are not shown in this version yet.">
        Unread counts, streams, drafts and settings are live; the conversation view comes next.
      </EmptyState>
    </div>
  );
}
