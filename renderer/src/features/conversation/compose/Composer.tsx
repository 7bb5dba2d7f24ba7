/**
 * The composer under a message view (and on the New message screen): where the message goes,
 * the text with its autocomplete, preview, files, send and send later. What is typed stays per
 * conversation (compose store) and is saved as that conversation's draft as one types; the
 * conversation's newest draft comes back when the composer opens on it. A sent message goes to
 * the main process's outbox, which shows it at once (local echo) and sends it when it can.
 */
import { Clock, Eye, MoreVertical, Paperclip, SendHorizontal, X } from 'lucide-react';
import {
  type DragEvent,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type Narrow, narrowKey } from '../../../../../shared/domain/narrow';
import type { LocalDraft } from '../../../../../shared/ipc';
import { call, getBridge } from '../../../bridge';
import { callApi, uploadApi } from '../../../bridge/api';
import { useDrafts } from '../../../queries/drafts';
import { sendToOutbox, useOutboxAccount } from '../../../queries/outbox';
import { useAccountState, useOwnUserId, useRealm, useSetting } from '../../../stores/hooks';
import { Button, cx, IconButton, InlineError, MenuButton, Progress } from '../../../ui';
import { useNavigate } from '../../shell/navigation';
import { RichText } from '../../shell/richText';
import { createDraftSaver, type DraftSaver } from './draftSaver';
import { appendBlock, sendHint } from './keys';
import { MessageBox } from './MessageBox';
import { type FieldErrors, RecipientFields } from './RecipientFields';
import { ScheduleDialog } from './ScheduleDialog';
import { scheduledText, unixSeconds } from './schedule';
import { type ComposeEntry, entryKey, readEntry, takeRequest, useComposeStore, writeEntry } from './store';
import {
  type ComposeTarget,
  checkSend,
  draftCountText,
  draftsFor,
  fieldsOfTarget,
  outgoingOf,
  type SendCheck,
  type TargetFields,
  targetOfFields,
  targetOfNarrow,
} from './target';
import { createTypingNotifier, typingParams } from './typingNotifier';
import './compose.css';

/** The most a file may weigh (the IPC's limit; the organization may set less). */
const MAX_UPLOAD_MIB = 25;

/** One saver for every composer: saves are per entry, and outlive a composer leaving the screen. */
let saver: DraftSaver | null = null;
function draftSaver(): DraftSaver {
  saver ??= createDraftSaver({
    save: (accountId, draft) => call('drafts.save', { accountId, draft }),
    remove: async (accountId, localId) => {
      await call('drafts.delete', { accountId, localId });
    },
    read: readEntry,
    write: writeEntry,
  });
  return saver;
}

function newLocalId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface Upload {
  id: number;
  name: string;
  error: string | null;
}

let uploadSeq = 0;

export interface ComposerProps {
  /** The view the composer sits under; null: a new message, no conversation chosen yet. */
  narrow: Narrow | null;
  /** Called once a message went to the outbox. */
  onSent?: (target: ComposeTarget) => void;
  autoFocus?: boolean;
}

export function Composer({ narrow, onSent, autoFocus }: ComposerProps) {
  const accountId = useOutboxAccount();
  const ownUserId = useOwnUserId();
  const navigate = useNavigate();
  const slot = narrow ? narrowKey(narrow) : 'new';
  const key = entryKey(accountId, slot);

  // The entry's first value: the narrow's conversation, nothing typed, its draft to restore.
  // Kept per place (slot), whatever the identity of the narrow object the view passes.
  const narrowRef = useRef(narrow);
  narrowRef.current = narrow;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the narrow is read through its ref, per slot
  const initial = useCallback((): ComposeEntry => {
    const current = narrowRef.current;
    const target = current ? targetOfNarrow(current) : null;
    const fields = fieldsOfTarget(target, current?.kind === 'dms' ? 'private' : 'stream');
    // A conversation with oneself is addressed to oneself.
    if (fields.kind === 'private' && target && fields.userIds.length === 0 && ownUserId !== null) {
      fields.userIds = [ownUserId];
    }
    return { accountId, fields, text: '', draftLocalId: null, generation: 0, restorable: target !== null };
  }, [slot, accountId, ownUserId]);
  const stored = useComposeStore((s) => s.entries[key]);
  const entry = useMemo(() => stored ?? initial(), [stored, initial]);
  useLayoutEffect(() => {
    // Coming back to an empty conversation: a draft written meanwhile (the Drafts screen,
    // another device) may be put in again.
    writeEntry(
      key,
      (e) =>
        !e.restorable && e.text === '' && e.draftLocalId === null && initial().restorable
          ? { ...e, restorable: true }
          : e,
      initial,
    );
  }, [key, initial]);

  const update = useCallback(
    (change: (e: ComposeEntry) => ComposeEntry) => writeEntry(key, change, initial),
    [key, initial],
  );

  const boxRef = useRef<HTMLTextAreaElement | null>(null);
  const [check, setCheck] = useState<SendCheck | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const [schedulePending, setSchedulePending] = useState(false);
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const hintId = useId();
  const messageErrorId = useId();

  const enterSends = useSetting('enter_sends') === true;
  const twentyFourHour = useSetting('twenty_four_hour_time') === true;
  const sendStreamTyping = useSetting('send_stream_typing_notifications') !== false;
  const sendPrivateTyping = useSetting('send_private_typing_notifications') !== false;
  const mandatoryTopics = useRealm('mandatory_topics') === true;
  const maxUploadMib = Math.min(
    MAX_UPLOAD_MIB,
    Number(useRealm('max_file_upload_size_mib') ?? MAX_UPLOAD_MIB),
  );

  // ---- typing notifications -------------------------------------------------------------
  const typingRef = useRef<ReturnType<typeof createTypingNotifier> | null>(null);
  const typingContext = useRef({ accountId, ownUserId });
  typingContext.current = { accountId, ownUserId };
  typingRef.current ??= createTypingNotifier({
    send: (op, target) => {
      const params = typingParams(op, target, typingContext.current.ownUserId);
      if (!params) return;
      callApi(getBridge(), typingContext.current.accountId, 'POST', '/typing', params).catch(() => {
        // A lost typing notice only means the others see no indicator.
      });
    },
  });
  const typing = typingRef.current;

  // Leaving the conversation: typing stops, what waits to be saved is saved now.
  useEffect(() => {
    const flush = () => void draftSaver().flush(key);
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      typing.stop();
      flush();
      setCheck(null);
      setSendError(null);
      setPreviewing(false);
    };
  }, [key, typing]);

  // ---- the conversation's drafts ----------------------------------------------------------
  const drafts = useDrafts(accountId).data;
  const target = targetOfFields(entry.fields);
  useEffect(() => {
    if (!drafts || !entry.restorable) return;
    const fieldsTarget = targetOfFields(entry.fields);
    const newest = fieldsTarget
      ? draftsFor(drafts, fieldsTarget, ownUserId).find((d) => !draftSaver().isForgotten(d.localId))
      : undefined;
    update((e) => {
      if (!e.restorable) return e;
      if (newest && e.text === '')
        return { ...e, text: newest.content, draftLocalId: newest.localId, restorable: false };
      return { ...e, restorable: false };
    });
  }, [drafts, entry.restorable, entry.fields, ownUserId, update]);
  const otherDrafts = useMemo(
    () =>
      target && drafts
        ? draftsFor(drafts, target, ownUserId).filter(
            (d: LocalDraft) => d.localId !== entry.draftLocalId && !draftSaver().isForgotten(d.localId),
          ).length
        : 0,
    [target, drafts, ownUserId, entry.draftLocalId],
  );

  // ---- requests from elsewhere: quote, restore, focus ------------------------------------
  const request = useComposeStore((s) => s.request);
  useEffect(() => {
    if (!request) return;
    const taken = takeRequest(request.seq);
    if (!taken) return;
    update((e) => ({
      ...e,
      fields: fieldsOfTarget(taken.target),
      text: appendBlock(e.text, taken.text),
      restorable: false,
    }));
    draftSaver().schedule(key);
    setPreviewing(false);
    setCheck(null);
  }, [request, update, key]);
  const focusSeq = useComposeStore((s) => s.focusSeq);
  const seenFocus = useRef(focusSeq);
  useEffect(() => {
    if (focusSeq === seenFocus.current) return;
    seenFocus.current = focusSeq;
    setPreviewing(false);
    requestAnimationFrame(() => {
      const box = boxRef.current;
      if (!box) return;
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
    });
  }, [focusSeq]);

  // ---- editing ----------------------------------------------------------------------------
  const onText = (text: string) => {
    update((e) => ({ ...e, text, restorable: false }));
    draftSaver().schedule(key);
    if (check?.field === 'message') setCheck(null);
    setSendError(null);
    const now = targetOfFields(readEntry(key)?.fields ?? entry.fields);
    const allowed = now && (now.type === 'stream' ? sendStreamTyping : sendPrivateTyping);
    if (text.trim() !== '' && now && allowed) {
      typing.typed(now, JSON.stringify(now.type === 'stream' ? [now.streamId, now.topic] : now.userIds));
    } else {
      typing.stop();
    }
  };

  const onFields = (fields: TargetFields) => {
    update((e) => ({ ...e, fields, restorable: false }));
    typing.stop();
    const current = readEntry(key);
    if (current && (current.text !== '' || current.draftLocalId !== null)) draftSaver().schedule(key);
    if (check && check.field !== 'message') setCheck(null);
  };

  /** Puts text at the caret (or at the end when the box is not focused). */
  const insertText = (insert: string) => {
    const box = boxRef.current;
    const text = readEntry(key)?.text ?? '';
    if (box && document.activeElement === box) {
      const start = box.selectionStart;
      const before = start > 0 && !/\s$/u.test(text.slice(0, start)) ? ' ' : '';
      box.setRangeText(before + insert, start, box.selectionEnd, 'end');
      onText(box.value);
      return;
    }
    const sep = text === '' || /\s$/u.test(text) ? '' : ' ';
    onText(text + sep + insert);
  };

  // ---- files ------------------------------------------------------------------------------
  const upload = (files: File[]) => {
    for (const file of files) {
      const id = ++uploadSeq;
      if (file.size > maxUploadMib * 1024 * 1024) {
        setUploads((list) => [
          ...list,
          { id, name: file.name, error: `${file.name} is larger than ${maxUploadMib} MiB.` },
        ]);
        continue;
      }
      setUploads((list) => [...list, { id, name: file.name, error: null }]);
      uploadApi<{ uri?: string; url?: string; filename?: string }>(
        getBridge(),
        accountId,
        '/user_uploads',
        file,
      )
        .then((answer) => {
          const url = answer.url ?? answer.uri ?? '';
          const label = (file.name || answer.filename || 'file').replace(/[[\]]/gu, '\\$&');
          insertText(`[${label}](${url})`);
          setUploads((list) => list.filter((u) => u.id !== id));
        })
        .catch((error: unknown) => {
          setUploads((list) =>
            list.map((u) =>
              u.id === id ? { ...u, error: `Could not upload ${file.name}: ${errorText(error)}` } : u,
            ),
          );
        });
    }
  };
  const fileInput = useRef<HTMLInputElement | null>(null);
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length === 0) return;
    event.preventDefault();
    upload(files);
  };

  // ---- preview ----------------------------------------------------------------------------
  const [preview, setPreview] = useState<{ html: string | null; error: string | null; loading: boolean }>({
    html: null,
    error: null,
    loading: false,
  });
  useEffect(() => {
    if (!previewing) return;
    const text = readEntry(key)?.text ?? '';
    if (text.trim() === '') {
      setPreview({ html: null, error: null, loading: false });
      return;
    }
    let live = true;
    setPreview({ html: null, error: null, loading: true });
    callApi<{ rendered: string }>(getBridge(), accountId, 'POST', '/messages/render', { content: text })
      .then((answer) => {
        if (live) setPreview({ html: answer.rendered, error: null, loading: false });
      })
      .catch((error: unknown) => {
        if (live)
          setPreview({
            html: null,
            error: `Could not render the preview: ${errorText(error)}`,
            loading: false,
          });
      });
    return () => {
      live = false;
    };
  }, [previewing, key, accountId]);

  // ---- send and send later ------------------------------------------------------------------
  const validate = (): { target: ComposeTarget; content: string } | null => {
    const current = readEntry(key) ?? entry;
    const problem = checkSend(current.fields, current.text, { mandatoryTopics });
    setCheck(problem);
    setSendError(null);
    if (problem) {
      if (problem.field === 'message') {
        setPreviewing(false);
        boxRef.current?.focus();
      }
      return null;
    }
    const chosen = targetOfFields(current.fields);
    return chosen ? { target: chosen, content: current.text } : null;
  };

  const afterSend = (target: ComposeTarget) => {
    typing.stop();
    setPreviewing(false);
    void draftSaver().sent(key);
    // A new message's recipient is chosen afresh for the next one.
    if (narrow === null) update((e) => ({ ...e, fields: initial().fields }));
    onSent?.(target);
  };

  const send = () => {
    const ready = validate();
    if (!ready) return;
    const message = { localId: newLocalId(), ...outgoingOf(ready.target, ownUserId), content: ready.content };
    // The box empties at once; the outbox shows the message in the view meanwhile.
    afterSend(ready.target);
    sendToOutbox(accountId, message).catch((error: unknown) => {
      update((e) => ({ ...e, text: appendBlock(e.text, ready.content) }));
      draftSaver().schedule(key);
      setSendError(`Could not send: ${errorText(error)}`);
    });
    boxRef.current?.focus();
  };

  const schedule = (date: Date) => {
    const ready = validate();
    if (!ready) {
      setScheduling(false);
      return;
    }
    const { target: chosen, content } = ready;
    setSchedulePending(true);
    setScheduleError(null);
    callApi(getBridge(), accountId, 'POST', '/scheduled_messages', {
      type: chosen.type,
      to:
        chosen.type === 'stream' ? String(chosen.streamId) : JSON.stringify(outgoingOf(chosen, ownUserId).to),
      ...(chosen.type === 'stream' ? { topic: chosen.topic.trim() } : {}),
      content,
      scheduled_delivery_timestamp: unixSeconds(date),
    })
      .then(() => {
        setScheduling(false);
        afterSend(chosen);
        setToast(`Scheduled for ${scheduledText(date, new Date(), twentyFourHour)}`);
      })
      .catch((error: unknown) => setScheduleError(errorText(error)))
      .finally(() => setSchedulePending(false));
  };

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), 6000);
    return () => clearTimeout(timer);
  }, [toast]);

  const errors: FieldErrors = check && check.field !== 'message' ? { [check.field]: check.message } : {};
  const messageError = check?.field === 'message' ? check.message : sendError;
  const placeholder = usePlaceholder(target);
  const hint = sendHint(enterSends, /Mac/u.test(navigator.platform));

  return (
    <form
      aria-label="Compose"
      className={cx('composer', dragging && 'composer-dragging')}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <RecipientFields
        fields={entry.fields}
        chooser={narrow === null || targetOfNarrow(narrow) === null}
        onChange={onFields}
        onTopicEnter={() => boxRef.current?.focus()}
        errors={errors}
      />
      {previewing ? (
        <section className="compose-preview" aria-label="Preview">
          {preview.loading && <p className="compose-preview-note">Rendering…</p>}
          {preview.error && <InlineError>{preview.error}</InlineError>}
          {!preview.loading && !preview.error && preview.html === null && (
            <p className="compose-preview-note">Nothing to preview.</p>
          )}
          {preview.html !== null && (
            <RichText html={preview.html} className="compose-preview-content message-content" />
          )}
        </section>
      ) : (
        <MessageBox
          value={entry.text}
          onChange={onText}
          onSend={send}
          enterSends={enterSends}
          boxRef={boxRef}
          onFiles={upload}
          placeholder={placeholder}
          invalid={check?.field === 'message'}
          describedBy={messageError ? `${messageErrorId} ${hintId}` : hintId}
          autoFocus={autoFocus}
        />
      )}
      {messageError && (
        <p id={messageErrorId} role="alert" className="compose-field-error">
          {messageError}
        </p>
      )}
      {uploads.length > 0 && (
        <ul className="compose-uploads" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.id} className="compose-upload">
              {u.error ? (
                <>
                  <span role="alert" className="compose-field-error">
                    {u.error}
                  </span>
                  <IconButton
                    label={`Dismiss the error about ${u.name}`}
                    icon={<X size={14} aria-hidden="true" />}
                    onPress={() => setUploads((list) => list.filter((x) => x.id !== u.id))}
                  />
                </>
              ) : (
                <Progress label={`Uploading ${u.name}…`} />
              )}
            </li>
          ))}
        </ul>
      )}
      {dragging && (
        <p className="compose-drop-hint" aria-hidden="true">
          Drop files to upload them
        </p>
      )}
      <div className="compose-toolbar">
        <IconButton
          label="Attach files"
          icon={<Paperclip size={16} aria-hidden="true" />}
          onPress={() => fileInput.current?.click()}
        />
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            upload(files);
          }}
        />
        <IconButton
          label="Preview"
          icon={<Eye size={16} aria-hidden="true" />}
          pressed={previewing}
          onPress={() => setPreviewing((p) => !p)}
        />
        <span id={hintId} className="compose-hint">
          {hint}
        </span>
        {otherDrafts > 0 && (
          <Button
            variant="ghost"
            size="sm"
            className="compose-drafts"
            onPress={() => navigate({ name: 'drafts' })}
          >
            {draftCountText(otherDrafts)}
          </Button>
        )}
        <div className="compose-send">
          <Button
            variant="primary"
            size="sm"
            icon={<SendHorizontal size={14} aria-hidden="true" />}
            onPress={send}
            className="compose-send-button"
          >
            Send
          </Button>
          <MenuButton
            label="Send options"
            icon={<MoreVertical size={16} aria-hidden="true" />}
            actions={[
              {
                id: 'schedule',
                label: 'Schedule message…',
                icon: <Clock size={14} aria-hidden="true" />,
                // What would stop a send stops scheduling too: said before choosing a time.
                onAction: () => {
                  if (!validate()) return;
                  setScheduleError(null);
                  setScheduling(true);
                },
              },
            ]}
          />
        </div>
      </div>
      {toast && (
        <div role="status" className="compose-toast">
          {toast}
        </div>
      )}
      <ScheduleDialog
        isOpen={scheduling}
        twentyFourHour={twentyFourHour}
        pending={schedulePending}
        error={scheduleError}
        onClose={() => setScheduling(false)}
        onSchedule={schedule}
      />
    </form>
  );
}

/** "Message #general > lunch", "Message Bob Smith, Carol", or "Write a message" without a recipient. */
function usePlaceholder(target: ComposeTarget | null): string {
  return useAccountState((a) => {
    if (!target) return 'Write a message';
    if (target.type === 'stream') {
      const name = a.streams[target.streamId]?.name ?? 'the stream';
      const topic = target.topic.trim();
      return topic ? `Message #${name} > ${topic}` : `Message #${name}`;
    }
    const others = target.userIds.filter((id) => id !== a.userId);
    if (others.length === 0) return 'Write yourself a note';
    const names = others.map(
      (id) => (a.users.active[id] ?? a.users.nonActive[id])?.full_name ?? 'Unknown user',
    );
    return `Message ${names.join(', ')}`;
  });
}
