/**
 * A message's edit history (GET /messages/{id}/history): every version, newest first, with
 * when and by whom it was made, what the topic or stream became, and the content as it read
 * then (the server's HTML, sanitized again by the shell's rich text). The service refuses
 * where the organization turned history off, and that refusal is shown as it is.
 */
import { useMemo } from 'react';
import type { Message } from '../../../../../shared/protocol/messages';
import { useApiQuery } from '../../../queries/api';
import { useAccountState } from '../../../stores/hooks';
import { Button, Dialog, InlineError, Progress } from '../../../ui';
import { RichText } from '../../shell/richText';
import { useTimeFormatter } from '../../shell/time';
import { useNameOf } from './hooks';
import { describeVersion, type HistoryVersion } from './model';

export function HistoryDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const history = useApiQuery<{ message_history: HistoryVersion[] }>(
    `/messages/${message.id}/history`,
    undefined,
    { gcTime: 0, staleTime: 0 },
  );
  // Newest first, each numbered from the original (1), which is also its key.
  const versions = useMemo(
    () =>
      (history.data?.message_history ?? []).map((version, i) => ({ ...version, number: i + 1 })).reverse(),
    [history.data],
  );
  const editors = useMemo(
    () => [...new Set(versions.map((v) => v.user_id).filter((id): id is number => typeof id === 'number'))],
    [versions],
  );
  const nameOf = useNameOf(editors);
  const streams = useAccountState((a) => a.streams);
  const streamName = (id: number) => streams[id]?.name ?? `stream ${id}`;
  const format = useTimeFormatter();
  return (
    <Dialog
      title="Message edit history"
      isOpen
      onClose={onClose}
      size="lg"
      footer={<Button onPress={onClose}>Close</Button>}
    >
      {history.isPending && <Progress label="Loading the edit history…" />}
      {history.error && <InlineError>{history.error.message}</InlineError>}
      {history.data && (
        <ol className="edit-history" aria-label="Versions">
          {versions.map((version) => {
            const when = new Date((version.timestamp ?? message.timestamp) * 1000);
            return (
              <li key={version.number} className="edit-history-version">
                <p className="edit-history-head">
                  <span className="edit-history-what">
                    {describeVersion(version, version.number === 1, nameOf)}
                  </span>
                  <time dateTime={when.toISOString()} title={when.toLocaleString()}>
                    {format.dateTime(when)}
                  </time>
                </p>
                {version.prev_topic !== undefined && (
                  <p className="edit-history-topic">
                    Topic: {version.prev_topic} → {version.topic}
                  </p>
                )}
                {version.prev_stream !== undefined && version.stream !== undefined && (
                  <p className="edit-history-topic">
                    Stream: #{streamName(version.prev_stream)} → #{streamName(version.stream)}
                  </p>
                )}
                <RichText html={version.rendered_content ?? ''} className="edit-history-content" />
              </li>
            );
          })}
        </ol>
      )}
    </Dialog>
  );
}
