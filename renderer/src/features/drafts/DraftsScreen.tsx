/**
 * The Drafts screen. Its data is the main process's local drafts store, read and written
 * through queries/drafts (TanStack Query, kept current by the `drafts.changed` push).
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { DraftInput, LocalDraft } from '../../../../shared/ipc';
import { useDeleteDraft, useDrafts, useSaveDraft } from '../../queries/drafts';
import { draftPreview, draftStatusText, draftSyncHint, draftTarget } from './draftText';

/** Typing is saved this long after the last keystroke (every keystroke would be a disk write). */
export const SAVE_DELAY_MS = 300;
const MAX_CONTENT = 10_000;

/** The account's drafts: a list to pick from and an editor that saves as you type. */
export function DraftsScreen({ accountId }: { accountId: string }) {
  const list = useDrafts(accountId);
  // mutateAsync is stable across renders: the editor's save-on-leave effect relies on it.
  const save = useSaveDraft(accountId).mutateAsync;
  const remove = useDeleteDraft(accountId).mutateAsync;
  const drafts = list.data ?? null;
  const error = list.error?.message ?? null;
  const [selected, setSelected] = useState<string | null>(null);
  // While a new draft is being created the previous one's editor is gone, so nothing typed
  // meanwhile can land in it; the new draft's editor then opens focused.
  const [creating, setCreating] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const headingId = useId();
  const current = drafts?.find((d) => d.localId === selected) ?? null;

  // Keep something selected: the first draft, or the next one after a deletion.
  useEffect(() => {
    if (drafts && !current) setSelected(drafts[0]?.localId ?? null);
  }, [drafts, current]);

  const fail = (e: unknown) => setActionError(e instanceof Error ? e.message : String(e));

  const create = async () => {
    setCreating(true);
    try {
      const draft = await save({ type: '', to: [], topic: '', content: '' });
      setSelected(draft.localId);
      setFocusId(draft.localId);
      setActionError(null);
    } catch (e) {
      fail(e);
    } finally {
      setCreating(false);
    }
  };

  return (
    <main className="screen drafts" aria-labelledby={headingId}>
      <div className="drafts-head">
        <h1 id={headingId}>Drafts</h1>
        <button type="button" className="primary" disabled={creating} onClick={() => void create()}>
          {creating ? 'Creating…' : 'New draft'}
        </button>
      </div>
      <p className="lede">Drafts are saved on this computer as you type, then on the server.</p>
      {(error ?? actionError) && (
        <p role="alert" className="alert">
          {error ?? actionError}
        </p>
      )}
      {drafts === null ? (
        <p className="muted">Loading drafts…</p>
      ) : drafts.length === 0 ? (
        <p className="muted">No drafts yet.</p>
      ) : (
        <div className="drafts-layout">
          <ul className="draft-list" aria-label="Your drafts">
            {drafts.map((d) => (
              <li key={d.localId}>
                <button
                  type="button"
                  className="draft-item"
                  aria-current={d.localId === current?.localId ? 'true' : undefined}
                  onClick={() => setSelected(d.localId)}
                >
                  <span className="draft-item-text">{draftPreview(d.content)}</span>
                  <span className="draft-item-meta">
                    {draftTarget(d)} · {d.status === 'synced' ? 'Synced' : 'Saved locally'}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {current && !creating && (
            <DraftEditor
              key={current.localId}
              draft={current}
              autoFocus={current.localId === focusId}
              onSave={save}
              onDelete={async (localId) => {
                try {
                  await remove(localId);
                  setSelected(null);
                  setActionError(null);
                } catch (e) {
                  fail(e);
                }
              }}
            />
          )}
        </div>
      )}
    </main>
  );
}

function DraftEditor({
  draft,
  autoFocus,
  onSave,
  onDelete,
}: {
  draft: LocalDraft;
  autoFocus: boolean;
  onSave: (draft: DraftInput) => Promise<LocalDraft>;
  onDelete: (localId: string) => Promise<void>;
}) {
  const [text, setText] = useState(draft.content);
  const [typing, setTyping] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(draft.content);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(0);
  const textId = useId();
  const hintId = useId();
  const target = useRef(draft);
  target.current = draft;

  const persist = useCallback(
    async (content: string) => {
      const { localId, type, to, topic } = target.current;
      inFlight.current += 1;
      try {
        await onSave({ localId, type, to, topic, content });
        setError(null);
      } catch (e) {
        setError(`Could not save: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        inFlight.current -= 1;
        if (timer.current === null && inFlight.current === 0) setTyping(false);
      }
    },
    [onSave],
  );

  // Another client's edit (or a merge) while we are not typing: show it.
  useEffect(() => {
    if (timer.current === null && inFlight.current === 0 && draft.content !== latest.current) {
      latest.current = draft.content;
      setText(draft.content);
    }
  }, [draft.content]);

  // Leaving the draft (another one selected, another view) saves what is still waiting.
  useEffect(
    () => () => {
      if (timer.current === null) return;
      clearTimeout(timer.current);
      timer.current = null;
      void persist(latest.current);
    },
    [persist],
  );

  const change = (value: string) => {
    setText(value);
    latest.current = value;
    setTyping(true);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void persist(latest.current);
    }, SAVE_DELAY_MS);
  };

  const hint = typing ? null : draftSyncHint(draft);
  return (
    <section className="draft-editor" aria-label="Edit draft">
      <p className="muted draft-target">{draftTarget(draft)}</p>
      <label htmlFor={textId}>Draft text</label>
      <textarea
        id={textId}
        value={text}
        maxLength={MAX_CONTENT}
        rows={10}
        // biome-ignore lint/a11y/noAutofocus: focus moves to the draft the user just created
        autoFocus={autoFocus}
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => change(e.target.value)}
      />
      <div className="draft-editor-foot">
        <p role="status" className="draft-status">
          {draftStatusText(draft, typing)}
        </p>
        <button
          type="button"
          onClick={() => {
            if (timer.current !== null) clearTimeout(timer.current);
            timer.current = null;
            void onDelete(draft.localId);
          }}
        >
          Delete
        </button>
      </div>
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p role="alert" className="alert">
          {error}
        </p>
      )}
    </section>
  );
}
