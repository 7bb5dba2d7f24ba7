/**
 * A stream's message retention, as creating a stream and its administration both ask it: the
 * organization's default (named with its value), forever, or a number of days.
 */
import { Select, TextField } from '../../ui';
import { parseRetentionDays, type RetentionChoice, realmRetentionText } from './streamsModel';

export function RetentionFields({
  choice,
  onChoice,
  days,
  onDays,
  realmRetention,
  lockedReason,
}: {
  choice: RetentionChoice;
  onChoice: (choice: RetentionChoice) => void;
  /** The number of days as typed. */
  days: string;
  onDays: (days: string) => void;
  /** The organization's message_retention_days. */
  realmRetention: number | null | undefined;
  /** Why the user may not change it, or null. */
  lockedReason: string | null;
}) {
  const parsed = choice === 'days' ? parseRetentionDays(days) : null;
  return (
    <>
      <Select<RetentionChoice>
        label="Message retention"
        options={[
          { id: 'realm_default', label: `Organization default (${realmRetentionText(realmRetention)})` },
          { id: 'unlimited', label: 'Keep forever' },
          { id: 'days', label: 'A number of days' },
        ]}
        value={choice}
        onChange={onChoice}
        disabledReason={lockedReason}
      />
      {choice === 'days' && !lockedReason && (
        <TextField
          label="Days to keep messages"
          value={days}
          onChange={onDays}
          error={parsed && 'error' in parsed ? parsed.error : undefined}
        />
      )}
    </>
  );
}
