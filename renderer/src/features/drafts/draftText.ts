/** Words the Drafts screen shows for a draft: its target, a preview, its sync state. */
import type { LocalDraft } from '../../../../shared/ipc';

export function draftTarget(draft: Pick<LocalDraft, 'type' | 'to' | 'topic'>): string {
  if (draft.type === 'stream') {
    const stream = draft.to[0] === undefined ? 'a stream' : `stream #${draft.to[0]}`;
    return draft.topic ? `To ${stream} · ${draft.topic}` : `To ${stream}`;
  }
  if (draft.type === 'private') {
    if (draft.to.length === 0) return 'Private message';
    return `Private message to user ${draft.to.join(', ')}`;
  }
  return 'No recipient yet';
}

/** The first line, shortened: what the list shows. */
export function draftPreview(content: string, max = 60): string {
  const line = content.trim().split('\n')[0] ?? '';
  if (line === '') return '(empty draft)';
  const chars = [...line];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : line;
}

/** The editor's status line: typing, on this computer, or on the server too. */
export function draftStatusText(draft: Pick<LocalDraft, 'status'> | null, typing: boolean): string {
  if (typing) return 'Saving…';
  if (draft === null) return '';
  return draft.status === 'synced' ? 'Synced' : 'Saved locally';
}

/** Why a saved draft is not (yet) on the server, or null when there is nothing to say. */
export function draftSyncHint(draft: Pick<LocalDraft, 'status' | 'syncError' | 'content'>): string | null {
  if (draft.syncError) return `Kept on this computer only: the server refused it (${draft.syncError}).`;
  if (draft.status === 'local-only') {
    return draft.content.trim() === ''
      ? 'Empty drafts stay on this computer.'
      : 'Draft synchronization is off: this draft stays on this computer.';
  }
  if (draft.status === 'pending') return 'Will be saved to the server when it can be reached.';
  return null;
}
