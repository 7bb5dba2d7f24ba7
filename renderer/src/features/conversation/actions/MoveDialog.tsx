/**
 * Moving a stream message to another topic or stream (PATCH /messages/{id} with topic and/or
 * stream_id): this message alone, it and the later ones of its topic, or the whole topic, with
 * notices in the old and new topics as the family offers. The choices follow what the
 * organization lets the user move; the service decides, and its refusal is shown as it is.
 */
import { useState } from 'react';
import type { Message } from '../../../../../shared/protocol/messages';
import { useStreams } from '../../../stores/hooks';
import { Button, Dialog, InlineError, Select, Switch, TextField } from '../../../ui';
import { errorText, useCall, usePolicies, useSelf } from './hooks';
import { moveDecision } from './model';

type Mode = 'change_one' | 'change_later' | 'change_all';

const MODES: { id: Mode; label: string }[] = [
  { id: 'change_one', label: 'Move only this message' },
  { id: 'change_later', label: 'Move this and all following messages in this topic' },
  { id: 'change_all', label: 'Move all messages in this topic' },
];

export function MoveDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const call = useCall();
  const self = useSelf();
  const policies = usePolicies();
  const streams = useStreams();
  const [rights] = useState(
    () => moveDecision(message, policies, { ...self, now: Date.now() / 1000 }).rights,
  );
  const [streamId, setStreamId] = useState<number>(message.stream_id ?? -1);
  const [topic, setTopic] = useState(message.subject);
  const [mode, setMode] = useState<Mode>('change_one');
  const [notifyOld, setNotifyOld] = useState(false);
  const [notifyNew, setNotifyNew] = useState(true);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const streamChanged = streamId !== message.stream_id;
  const topicChanged = topic.trim() !== message.subject;
  const changed = streamChanged || topicChanged;

  const move = async () => {
    if (!changed) return;
    setPending(true);
    setError(null);
    try {
      await call('PATCH', `/messages/${message.id}`, {
        ...(topicChanged ? { topic: topic.trim() } : {}),
        ...(streamChanged ? { stream_id: streamId } : {}),
        propagate_mode: mode,
        send_notification_to_old_thread: notifyOld,
        send_notification_to_new_thread: notifyNew,
      });
      onClose();
    } catch (e) {
      setError(errorText(e));
      setPending(false);
    }
  };

  return (
    <Dialog
      title="Move message"
      isOpen
      onClose={onClose}
      size="md"
      footer={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button
            variant="primary"
            type="submit"
            form={`move-${message.id}`}
            isDisabled={!changed || pending}
          >
            {pending ? 'Moving…' : 'Move'}
          </Button>
        </>
      }
    >
      <form
        id={`move-${message.id}`}
        className="move-form"
        aria-label="Move message"
        onSubmit={(event) => {
          event.preventDefault();
          void move();
        }}
      >
        <Select
          label="Stream"
          options={streams.map((s) => ({ id: s.stream_id, label: `#${s.name}` }))}
          value={streamId}
          onChange={setStreamId}
          disabledReason={rights.stream ? null : 'You may not move this message to another stream.'}
        />
        <TextField
          label="Topic"
          value={topic}
          onChange={setTopic}
          isDisabled={!rights.topic}
          description={rights.topic ? undefined : 'You may not move this message to another topic.'}
          autoFocus={rights.topic}
        />
        <Select label="Which messages" options={MODES} value={mode} onChange={setMode} />
        {streamChanged || topicChanged ? (
          <>
            <Switch
              label="Send notification to the old topic"
              isSelected={notifyOld}
              onChange={setNotifyOld}
            />
            <Switch
              label="Send notification to the new topic"
              isSelected={notifyNew}
              onChange={setNotifyNew}
            />
          </>
        ) : null}
        {error && <InlineError>{error}</InlineError>}
      </form>
    </Dialog>
  );
}
