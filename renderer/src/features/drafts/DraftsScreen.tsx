/**
 * The Drafts screen. Its data is the main process's local drafts store, read and written
 * through queries/drafts (TanStack Query, kept current by the `drafts.changed` push), so it
 * works the same offline. Each draft shows where it goes, its text as Markdown, its time and
 * whether the server has it; the open conversation's drafts come first. Drafts open in an
 * editor pane; deleting (one, or several selected) can be undone for a few seconds.
 * Keyboard: arrows move between drafts, Enter opens, Delete or Backspace deletes.
 */
import { useQueryClient } from '@tanstack/react-query';
import { FilePlus2, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useMemo, useRef, useState } from 'react';
import {
  Checkbox,
  GridList,
  GridListHeader,
  GridListItem,
  GridListSection,
  type Selection,
} from 'react-aria-components';
import type { LocalDraft } from '../../../../shared/ipc';
import type { User } from '../../../../shared/protocol';
import { call } from '../../bridge';
import { draftsQueryKey, useDrafts, useSaveDraft } from '../../queries/drafts';
import { useAccountState, useOwnUserId, useSetting, useStreams } from '../../stores/hooks';
import { Banner, Button, EmptyState, IconButton, InlineError, ScreenHeader } from '../../ui';
import { useRoute } from '../shell/navigation';
import { DraftEditor } from './DraftEditor';
import {
  type Conversation,
  deletedText,
  draftSyncText,
  draftTarget,
  draftTargetText,
  draftTime,
  groupDrafts,
  type Names,
} from './draftText';
import { MarkdownExcerpt } from './markdown';
import { pendingDeletes, usePendingDeletes } from './pendingDeletes';
import { TargetLabel } from './TargetLabel';
import './drafts.css';

export function DraftsScreen({
  accountId,
  conversation,
}: {
  accountId: string;
  /** The conversation open beside the drafts; by default the route's stream or topic. */
  conversation?: Conversation | null;
}) {
  const list = useDrafts(accountId);
  // mutateAsync is stable across renders: the editor's save-on-leave effect relies on it.
  const save = useSaveDraft(accountId).mutateAsync;
  const queryClient = useQueryClient();
  const deletes = usePendingDeletes(accountId);
  const route = useRoute();
  const openStream = conversation?.streamId ?? (route.name === 'stream' ? route.streamId : null);
  const openTopic = conversation ? conversation.topic : route.name === 'stream' ? route.topic : undefined;
  const twentyFour = useSetting('twenty_four_hour_time') === true;

  const streamsById = useAccountState((a) => a.streams);
  const activeUsers = useAccountState((a) => a.users.active);
  const otherUsers = useAccountState((a) => a.users.nonActive);
  const ownUserId = useOwnUserId();
  const allStreams = useStreams();
  const names: Names = useMemo(
    () => ({
      streamName: (id) => streamsById[id]?.name,
      userName: (id) => (activeUsers[id] ?? otherUsers[id])?.full_name,
      ownUserId,
    }),
    [streamsById, activeUsers, otherUsers, ownUserId],
  );
  const streams = useMemo(() => allStreams.map((s) => ({ id: s.stream_id, name: s.name })), [allStreams]);
  const people = useMemo(
    () =>
      (Object.values(activeUsers) as User[])
        .filter((u) => !u.is_bot)
        .sort((a, b) => a.full_name.localeCompare(b.full_name))
        .map((u) => ({ id: u.user_id, name: u.full_name, email: u.email })),
    [activeUsers],
  );

  const drafts = useMemo(
    () => (list.data ? list.data.filter((d) => !deletes.hidden.has(d.localId)) : null),
    [list.data, deletes.hidden],
  );
  const groups = useMemo(
    () =>
      drafts
        ? groupDrafts(
            drafts,
            openStream === null ? null : { streamId: openStream, topic: openTopic },
            names.streamName,
          )
        : [],
    [drafts, openStream, openTopic, names],
  );
  const ordered = groups.flatMap((g) => g.drafts);

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const selectedVisible = ordered.filter((d) => selected.has(d.localId)).map((d) => d.localId);
  const [openId, setOpenId] = useState<string | null>(null);
  const [focusEditor, setFocusEditor] = useState(false);
  const [creating, setCreating] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const current = ordered.find((d) => d.localId === openId) ?? null;

  const openDraft = (localId: string) => {
    setOpenId(localId);
    setFocusEditor(true);
  };

  const create = async () => {
    setCreating(true);
    try {
      const draft = await save({ type: '', to: [], topic: '', content: '' });
      // Wait for the list to have it (the push follows the save), then open it.
      queryClient.setQueryData<LocalDraft[]>(draftsQueryKey(accountId), (old) =>
        old?.some((d) => d.localId === draft.localId) ? old : [draft, ...(old ?? [])],
      );
      openDraft(draft.localId);
      setActionError(null);
    } catch (e) {
      setActionError(e instanceof Error ? e.message : String(e));
    } finally {
      setCreating(false);
    }
  };

  const remove = (localIds: readonly string[]) => {
    if (localIds.length === 0) return;
    // Where focus goes next: the first draft after the deleted ones, else the one before.
    const index = ordered.findIndex((d) => localIds.includes(d.localId));
    const rest = ordered.filter((d) => !localIds.includes(d.localId));
    const next = rest[Math.min(Math.max(index, 0), rest.length - 1)]?.localId ?? null;
    pendingDeletes.schedule(accountId, localIds, async (ids) => {
      for (const localId of ids) {
        const after = await call('drafts.delete', { accountId, localId });
        queryClient.setQueryData(draftsQueryKey(accountId), after);
      }
    });
    setSelected((old) => new Set([...old].filter((id) => !localIds.includes(id))));
    if (openId !== null && localIds.includes(openId)) setOpenId(null);
    if (next) focusRow(next);
  };

  /** Focus goes to a draft's row once it is rendered (after a deletion, an Undo, closing the editor). */
  const focusRow = (localId: string) =>
    requestAnimationFrame(() =>
      listRef.current?.querySelector<HTMLElement>(`[data-draft-id="${CSS.escape(localId)}"]`)?.focus(),
    );

  const undo = () => {
    const latest = deletes.latest;
    const first = latest?.localIds[0];
    if (latest && pendingDeletes.undo(latest.id) && first) focusRow(first);
  };

  // Delete or Backspace on a draft deletes it (or, when it is selected, every selected one).
  const onListKey = (event: KeyboardEvent) => {
    if (event.key !== 'Delete' && event.key !== 'Backspace') return;
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-draft-id]');
    const localId = row?.dataset.draftId;
    if (!localId) return;
    event.preventDefault();
    remove(selected.has(localId) ? selectedVisible : [localId]);
  };

  const onSelection = (keys: Selection) => {
    setSelected(keys === 'all' ? new Set(ordered.map((d) => d.localId)) : new Set([...keys].map(String)));
  };

  const allSelected = ordered.length > 0 && selectedVisible.length === ordered.length;
  const now = new Date();
  const failure = list.error?.message ?? actionError ?? deletes.failure;

  const renderRow = (d: LocalDraft) => (
    <DraftRow
      key={d.localId}
      draft={d}
      names={names}
      isOpen={d.localId === openId}
      now={now}
      twentyFour={twentyFour}
      onDelete={() => remove([d.localId])}
    />
  );

  return (
    <div className="screen drafts-screen">
      <ScreenHeader
        title="Drafts"
        subtitle="Saved on this computer as you type, and on the server whenever it can be reached."
        actions={
          <Button
            variant="primary"
            icon={<FilePlus2 size={16} aria-hidden="true" />}
            isDisabled={creating}
            onPress={() => void create()}
          >
            {creating ? 'Creating…' : 'New draft'}
          </Button>
        }
      />
      <div className="screen-body drafts-body">
        {deletes.latest && (
          <Banner
            tone="info"
            action={
              <Button size="sm" onPress={undo}>
                Undo
              </Button>
            }
          >
            {deletedText(deletes.latest.localIds.length)}
          </Banner>
        )}
        {failure && <InlineError>{failure}</InlineError>}
        {drafts === null ? (
          <p className="muted">Loading drafts…</p>
        ) : drafts.length === 0 ? (
          <EmptyState
            title="No drafts"
            action={
              <Button variant="primary" onPress={() => void create()} isDisabled={creating}>
                Start a draft
              </Button>
            }
          >
            Text you start writing is kept here until you send it, on this computer and on the server.
          </EmptyState>
        ) : (
          <div className="drafts-split" data-editor={current ? 'open' : 'closed'}>
            <div className="drafts-list-pane">
              <div className="drafts-toolbar">
                <Checkbox
                  className="check drafts-select-all"
                  isSelected={allSelected}
                  isIndeterminate={selectedVisible.length > 0 && !allSelected}
                  onChange={(on) => setSelected(on ? new Set(ordered.map((d) => d.localId)) : new Set())}
                >
                  <CheckBox />
                  Select all
                </Checkbox>
                <span className="drafts-count" aria-live="polite">
                  {selectedVisible.length > 0
                    ? `${selectedVisible.length} selected`
                    : `${ordered.length} ${ordered.length === 1 ? 'draft' : 'drafts'}`}
                </span>
                {selectedVisible.length > 0 && (
                  <Button
                    size="sm"
                    variant="danger"
                    icon={<Trash2 size={14} aria-hidden="true" />}
                    onPress={() => remove(selectedVisible)}
                  >
                    {`Delete ${selectedVisible.length} selected`}
                  </Button>
                )}
              </div>
              {/* biome-ignore lint/a11y/noStaticElementInteractions: the grid's rows take the keys; this only hears Delete bubbling up */}
              <div ref={listRef} onKeyDown={onListKey}>
                <GridList
                  aria-label="Your drafts"
                  className="drafts-grid"
                  selectionMode="multiple"
                  selectionBehavior="toggle"
                  selectedKeys={new Set(selectedVisible)}
                  onSelectionChange={onSelection}
                  onAction={(key) => openDraft(String(key))}
                >
                  {groups.length === 1
                    ? ordered.map(renderRow)
                    : groups.map((g) => (
                        <GridListSection key={g.id} id={g.id} className="draft-group">
                          <GridListHeader className="draft-group-title">{g.title}</GridListHeader>
                          {g.drafts.map(renderRow)}
                        </GridListSection>
                      ))}
                </GridList>
              </div>
            </div>
            <div className="drafts-editor-pane">
              {current ? (
                <DraftEditor
                  key={current.localId}
                  draft={current}
                  names={names}
                  streams={streams}
                  people={people}
                  autoFocus={focusEditor}
                  onSave={save}
                  onDelete={() => remove([current.localId])}
                  onClose={() => {
                    const id = current.localId;
                    setOpenId(null);
                    focusRow(id);
                  }}
                />
              ) : (
                <p className="drafts-editor-placeholder">
                  Open a draft to edit it or give it a recipient. Enter opens the draft in focus.
                </p>
              )}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}

function DraftRow({
  draft,
  names,
  isOpen,
  now,
  twentyFour,
  onDelete,
}: {
  draft: LocalDraft;
  names: Names;
  isOpen: boolean;
  now: Date;
  twentyFour: boolean;
  onDelete: () => void;
}) {
  const target = draftTarget(draft, names);
  const time = draftTime(draft.timestamp, now, twentyFour);
  const empty = draft.content.trim() === '';
  const label = `${draftTargetText(target)}: ${empty ? 'empty draft' : firstLine(draft.content)}`;
  return (
    <GridListItem
      id={draft.localId}
      textValue={label}
      className="draft-row"
      data-draft-id={draft.localId}
      data-open={isOpen || undefined}
    >
      <Checkbox slot="selection" className="check draft-check">
        <CheckBox />
      </Checkbox>
      <div className="draft-row-main">
        <div className="draft-row-top">
          <TargetLabel target={target} />
          <time className="draft-time" dateTime={time.iso} title={time.exact}>
            {time.short}
          </time>
        </div>
        {empty ? (
          <p className="draft-excerpt draft-excerpt-empty">Empty draft</p>
        ) : (
          <MarkdownExcerpt source={draft.content} className="draft-excerpt md" />
        )}
        <p className="draft-sync" data-status={draft.status}>
          {draftSyncText(draft)}
        </p>
      </div>
      <IconButton
        label="Delete draft"
        icon={<Trash2 size={15} aria-hidden="true" />}
        className="draft-row-delete"
        onPress={onDelete}
      />
    </GridListItem>
  );
}

function firstLine(content: string): string {
  const line = content.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** The box of a react-aria Checkbox (its state comes from the data attributes, in the CSS). */
function CheckBox() {
  return (
    <span className="check-box" aria-hidden="true">
      <svg viewBox="0 0 16 16" className="check-mark" aria-hidden="true">
        <path d="M3.5 8.5l3 3 6-7" />
      </svg>
      <span className="check-dash" />
    </span>
  );
}
