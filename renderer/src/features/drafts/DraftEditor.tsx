/**
 * One draft open for editing: its recipient (with a picker to address or readdress it), its
 * text saved as you type (on this computer first, whatever the network), its sync state, and
 * Delete. It is sent from its conversation, whose composer takes up the newest draft there.
 */
import { Pencil, Send, Trash2, X } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { DraftInput, LocalDraft } from '../../../../shared/ipc';
import { Button, IconButton, InlineError, TextField } from '../../ui';
import { draftSyncText, draftTarget, type Names } from './draftText';
import { type PickerPerson, type PickerStream, RecipientPicker, type Target } from './RecipientPicker';
import { TargetLabel } from './TargetLabel';

/** Typing is saved this long after the last keystroke (every keystroke would be a disk write). */
export const SAVE_DELAY_MS = 300;
const MAX_CONTENT = 10_000;
export const SEND_LATER_REASON =
  'Send it from its conversation: the composer there takes up its newest draft.';

export function DraftEditor({
  draft,
  names,
  streams,
  people,
  autoFocus,
  onSave,
  onDelete,
  onClose,
}: {
  draft: LocalDraft;
  names: Names;
  streams: readonly PickerStream[];
  people: readonly PickerPerson[];
  autoFocus: boolean;
  onSave: (draft: DraftInput) => Promise<LocalDraft>;
  onDelete: () => void;
  onClose: () => void;
}) {
  const [text, setText] = useState(draft.content);
  const [typing, setTyping] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = draftTarget(draft, names);
  const [changing, setChanging] = useState(false);
  const picking = changing || target.kind === 'none';
  const headingId = useId();
  const sendReasonId = useId();

  // What to save: the latest text and target, whatever has been saved so far.
  const latest = useRef<DraftInput>({
    localId: draft.localId,
    type: draft.type,
    to: draft.to,
    topic: draft.topic,
    content: draft.content,
  });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(0);

  const persist = useCallback(async () => {
    inFlight.current += 1;
    try {
      await onSave({ ...latest.current });
      setError(null);
    } catch (e) {
      setError(`Could not save: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      inFlight.current -= 1;
      if (timer.current === null && inFlight.current === 0) setTyping(false);
    }
  }, [onSave]);

  // Another window's or client's edit while we are not typing: show it.
  useEffect(() => {
    if (timer.current !== null || inFlight.current > 0) return;
    latest.current = { ...latest.current, type: draft.type, to: draft.to, topic: draft.topic };
    if (draft.content !== latest.current.content) {
      latest.current.content = draft.content;
      setText(draft.content);
    }
  }, [draft.content, draft.type, draft.to, draft.topic]);

  // Leaving the draft (another one opened, another view) saves what is still waiting.
  useEffect(
    () => () => {
      if (timer.current === null) return;
      clearTimeout(timer.current);
      timer.current = null;
      void persist();
    },
    [persist],
  );

  const later = () => {
    setTyping(true);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void persist();
    }, SAVE_DELAY_MS);
  };

  const now = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    setTyping(true);
    void persist();
  };

  const changeText = (value: string) => {
    setText(value);
    latest.current.content = value;
    later();
  };

  const changeTarget = (next: Target) => {
    latest.current = { ...latest.current, ...next };
    now();
  };

  return (
    <section className="draft-pane" aria-labelledby={headingId}>
      <header className="draft-pane-head">
        <h2 id={headingId} className="draft-pane-title">
          Edit draft
        </h2>
        <IconButton label="Close draft" icon={<X size={16} aria-hidden="true" />} onPress={onClose} />
      </header>

      <div className="draft-pane-target">
        {!picking && (
          <div className="draft-pane-target-row">
            <span className="draft-pane-to">To</span>
            <TargetLabel target={target} />
            <Button
              size="sm"
              variant="ghost"
              icon={<Pencil size={14} aria-hidden="true" />}
              onPress={() => setChanging(true)}
            >
              Change recipient
            </Button>
          </div>
        )}
        {picking && (
          <RecipientPicker
            key={draft.localId}
            target={draft}
            streams={streams}
            people={people}
            onTarget={(next) => {
              // The picker stays open (a topic may follow the stream) until Done.
              setChanging(true);
              changeTarget(next);
            }}
            onTopic={(topic) => {
              latest.current.topic = topic;
              later();
            }}
          />
        )}
        {changing && target.kind !== 'none' && (
          <Button size="sm" variant="ghost" onPress={() => setChanging(false)}>
            Done
          </Button>
        )}
      </div>

      <TextField
        label="Draft text"
        value={text}
        onChange={changeText}
        multiline
        rows={10}
        maxLength={MAX_CONTENT}
        autoFocus={autoFocus}
        className="draft-pane-text"
      />

      <footer className="draft-pane-foot">
        <p role="status" aria-label="Draft status" className="draft-pane-status">
          {typing ? 'Saving…' : draftSyncText(draft)}
        </p>
        <div className="draft-pane-actions">
          <Button
            variant="danger"
            icon={<Trash2 size={15} aria-hidden="true" />}
            onPress={() => {
              // Typing not yet saved is saved first: Undo brings the draft back whole.
              if (timer.current !== null) now();
              onDelete();
            }}
          >
            Delete
          </Button>
          <Button
            variant="primary"
            icon={<Send size={15} aria-hidden="true" />}
            isDisabled
            aria-describedby={sendReasonId}
          >
            Send
          </Button>
        </div>
      </footer>
      <p id={sendReasonId} className="disabled-reason draft-pane-send-reason">
        {SEND_LATER_REASON}
      </p>
      {error && <InlineError>{error}</InlineError>}
    </section>
  );
}
