/**
 * Set your status: a text (counting down from 60 characters), an emoji (search over every
 * Unicode emoji and the organization's own, the frequently used first), the usual statuses in
 * one click, clear, and "away". Saved through POST /users/me/status; every window, the account
 * menu included, shows the new status from the server's user_status event.
 */
import { Smile, X } from 'lucide-react';
import { useState } from 'react';
import { getBridge } from '../../bridge';
import { callApi, IpcCallError } from '../../bridge/api';
import { useAccountId, useOwnUserId, useSetting, useUserStatus } from '../../stores/hooks';
import { Button, Dialog, IconButton, InlineError, Switch, TextField } from '../../ui';
import { Emoji } from '../../ui/Emoji';
import { EmojiPicker } from './EmojiPicker';
import { type EmojiChoice, loadUsage, recordUse, saveUsage } from './emojiCatalog';
import {
  CLEAR_STATUS_PARAMS,
  STATUS_PRESETS,
  STATUS_TEXT_MAX,
  type StatusDraft,
  type StatusEmoji,
  statusParams,
  statusTextProblem,
} from './statusModel';
import './status.css';

export function StatusDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  return (
    <Dialog title="Set status" isOpen={isOpen} onClose={onClose} size="md" className="status-dialog">
      <StatusForm onDone={onClose} />
    </Dialog>
  );
}

/** Mounted each time the dialog opens: it starts from the status the server has now. */
function StatusForm({ onDone }: { onDone: () => void }) {
  const accountId = useAccountId();
  const ownId = useOwnUserId();
  const status = useUserStatus(ownId ?? -1);
  const presenceEnabled = useSetting('presence_enabled');
  const [initial] = useState<StatusDraft>(() => ({
    text: status?.status_text ?? '',
    emoji: status?.emoji_name
      ? {
          name: status.emoji_name,
          code: status.emoji_code ?? '',
          type: (status.reaction_type ?? 'unicode_emoji') as StatusEmoji['type'],
        }
      : null,
    away: presenceEnabled === false || status?.away === true,
  }));
  const [text, setText] = useState(initial.text);
  const [emoji, setEmoji] = useState<StatusEmoji | null>(initial.emoji);
  const [away, setAway] = useState(initial.away);
  const [picking, setPicking] = useState(false);
  const [pending, setPending] = useState<'save' | 'clear' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const problem = statusTextProblem(text);
  const hasStatus = Boolean(initial.text || initial.emoji);

  const send = async (kind: 'save' | 'clear', params: Record<string, unknown>) => {
    setPending(kind);
    setError(null);
    try {
      await callApi(getBridge(), accountId, 'POST', '/users/me/status', params);
      onDone();
    } catch (e) {
      setError(e instanceof IpcCallError || e instanceof Error ? e.message : String(e));
      setPending(null);
    }
  };

  const save = () => {
    if (problem) return;
    if (emoji && emoji.name !== initial.emoji?.name) saveUsage(recordUse(loadUsage(), emoji));
    void send('save', statusParams(initial, { text, emoji, away }));
  };

  const pick = (choice: EmojiChoice) => {
    setEmoji({ name: choice.name, code: choice.code, type: choice.type });
    setPicking(false);
  };

  return (
    <form
      className="status-form"
      aria-label="Status"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <div className="status-line">
        <Button
          className="status-emoji-button"
          aria-label={emoji ? `Emoji: ${emoji.name.replaceAll('_', ' ')}. Change emoji` : 'Choose an emoji'}
          aria-expanded={picking}
          onPress={() => setPicking((p) => !p)}
          icon={
            emoji ? (
              <Emoji name={emoji.name} code={emoji.code} type={emoji.type} />
            ) : (
              <Smile size={18} aria-hidden="true" />
            )
          }
        />
        <TextField
          label="Status text"
          value={text}
          onChange={setText}
          maxLength={STATUS_TEXT_MAX}
          placeholder="What’s your status?"
          autoFocus
          className="status-text"
        />
        {emoji && (
          <IconButton
            label="Remove emoji"
            icon={<X size={16} aria-hidden="true" />}
            onPress={() => setEmoji(null)}
          />
        )}
      </div>
      {problem && (
        <p id="status-save-reason" className="status-problem">
          {problem}
        </p>
      )}

      {picking ? (
        <EmojiPicker onPick={pick} />
      ) : (
        <ul className="status-presets" aria-label="Suggestions">
          {STATUS_PRESETS.map((preset) => (
            <li key={preset.text}>
              <Button
                variant="ghost"
                className="status-preset"
                onPress={() => {
                  setText(preset.text);
                  setEmoji(preset.emoji);
                }}
                icon={<Emoji name={preset.emoji.name} code={preset.emoji.code} type={preset.emoji.type} />}
              >
                {preset.text}
              </Button>
            </li>
          ))}
        </ul>
      )}

      <Switch
        label="Set yourself as away"
        isSelected={away}
        onChange={setAway}
        description="Others see you as offline until you turn this off, whatever you are doing."
        className="status-away"
      />

      {error && <InlineError>{error}</InlineError>}

      <div className="status-actions">
        {hasStatus && (
          <Button
            variant="ghost"
            onPress={() => void send('clear', CLEAR_STATUS_PARAMS)}
            isDisabled={pending !== null}
          >
            {pending === 'clear' ? 'Clearing…' : 'Clear status'}
          </Button>
        )}
        <span className="status-actions-gap" />
        <Button onPress={onDone}>Cancel</Button>
        <Button
          variant="primary"
          type="submit"
          isDisabled={problem !== null || pending !== null}
          aria-describedby={problem ? 'status-save-reason' : undefined}
        >
          {pending === 'save' ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
