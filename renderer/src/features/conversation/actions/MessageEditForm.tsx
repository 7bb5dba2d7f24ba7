/**
 * Editing a message in place: its Markdown as written (GET /messages/{id}), Save (PATCH
 * /messages/{id} content; Ctrl+Enter) and Cancel (Escape). The server's update_message event
 * then changes the message everywhere; a refusal (time limit, permission) is shown as the
 * service says it, and the text stays so nothing typed is lost.
 */
import { useEffect, useRef, useState } from 'react';
import type { Message } from '../../../../../shared/protocol/messages';
import { Button, InlineError, Progress, TextField } from '../../../ui';
import { editing } from './editing';
import { errorText, type RawMessageAnswer, useCall } from './hooks';
import './actions.css';

export function MessageEditForm({ message }: { message: Message }) {
  const call = useCall();
  const [text, setText] = useState<string | null>(null);
  const original = useRef<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    let live = true;
    call<RawMessageAnswer>('GET', `/messages/${message.id}`, { apply_markdown: false }).then(
      (answer) => {
        if (!live) return;
        original.current = answer.raw_content;
        setText(answer.raw_content);
      },
      (e: unknown) => live && setLoadError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [call, message.id]);

  const cancel = () => editing.stop(message.id);
  const save = async () => {
    if (text === null || pending) return;
    if (text === original.current) {
      cancel();
      return;
    }
    setPending(true);
    setError(null);
    try {
      await call('PATCH', `/messages/${message.id}`, { content: text });
      cancel();
    } catch (e) {
      setError(errorText(e));
      setPending(false);
    }
  };

  return (
    <form
      className="message-edit-form"
      aria-label="Edit message"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {text === null && !loadError && <Progress label="Loading the message…" />}
      {loadError && <InlineError>Could not load the message: {loadError}</InlineError>}
      {text !== null && (
        <TextField
          label="Edit message"
          labelHidden
          multiline
          rows={Math.min(12, Math.max(3, text.split('\n').length + 1))}
          value={text}
          onChange={setText}
          autoFocus
          isDisabled={pending}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              void save();
            } else if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              cancel();
            }
          }}
        />
      )}
      {error && <InlineError>{error}</InlineError>}
      <div className="message-edit-buttons">
        <span className="message-edit-hint">Ctrl+Enter to save, Escape to cancel</span>
        <Button size="sm" onPress={cancel}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" type="submit" isDisabled={text === null || pending}>
          {pending ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
