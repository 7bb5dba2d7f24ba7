/**
 * "Schedule message…": when to send the message written in the composer (tomorrow at 9:00,
 * Monday at 9:00, or a date and time of one's choosing); the server keeps it and sends it then
 * (POST /scheduled_messages).
 */
import { useId, useMemo, useState } from 'react';
import { Radio, RadioGroup } from 'react-aria-components';
import { Button, Dialog, InlineError } from '../../../ui';
import { checkScheduleTime, localDateTimeValue, parseLocalDateTime, schedulePresets } from './schedule';

export function ScheduleDialog({
  isOpen,
  twentyFourHour,
  pending,
  error,
  onClose,
  onSchedule,
}: {
  isOpen: boolean;
  twentyFourHour: boolean;
  pending: boolean;
  /** The server's refusal, in its words. */
  error: string | null;
  onClose: () => void;
  onSchedule: (date: Date) => void;
}) {
  // The presets are reckoned from when the dialog opened.
  const now = useMemo(() => (isOpen ? new Date() : new Date(0)), [isOpen]);
  const presets = useMemo(() => schedulePresets(now, twentyFourHour), [now, twentyFourHour]);
  const [choice, setChoice] = useState<string>('tomorrow');
  const [custom, setCustom] = useState(() => localDateTimeValue(new Date(Date.now() + 3_600_000)));
  const [problem, setProblem] = useState<string | null>(null);
  const customId = useId();

  const chosen = (): Date | null =>
    choice === 'custom' ? parseLocalDateTime(custom) : (presets.find((p) => p.id === choice)?.date ?? null);

  const submit = () => {
    const date = chosen();
    const why = checkScheduleTime(date, new Date());
    setProblem(why);
    if (!why && date) onSchedule(date);
  };

  return (
    <Dialog
      title="Schedule message"
      isOpen={isOpen}
      onClose={onClose}
      size="sm"
      footer={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button variant="primary" onPress={submit} isDisabled={pending}>
            Schedule
          </Button>
        </>
      }
    >
      <RadioGroup
        className="compose-schedule-choices"
        aria-label="When to send"
        value={choice}
        onChange={(value) => {
          setChoice(value);
          setProblem(null);
        }}
      >
        {presets.map((preset) => (
          <Radio key={preset.id} value={preset.id} className="compose-schedule-choice">
            {preset.label}
          </Radio>
        ))}
        <Radio value="custom" className="compose-schedule-choice">
          Custom time
        </Radio>
      </RadioGroup>
      {choice === 'custom' && (
        <div className="field compose-schedule-custom">
          <label className="field-label" htmlFor={customId}>
            Date and time
          </label>
          <input
            id={customId}
            className="input"
            type="datetime-local"
            value={custom}
            min={localDateTimeValue(new Date())}
            onChange={(event) => {
              setCustom(event.target.value);
              setProblem(null);
            }}
          />
        </div>
      )}
      {(problem ?? error) && <InlineError>{problem ?? error}</InlineError>}
    </Dialog>
  );
}
