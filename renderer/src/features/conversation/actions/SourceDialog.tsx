/**
 * A message's Markdown as written (GET /messages/{id} with raw_content), read-only and
 * selectable, with a button that copies it.
 */
import { Copy } from 'lucide-react';
import { useState } from 'react';
import { TextField as AriaTextField, Label, TextArea } from 'react-aria-components';
import type { Message } from '../../../../../shared/protocol/messages';
import { useApiQuery } from '../../../queries/api';
import { Button, Dialog, InlineError, Progress } from '../../../ui';
import { errorText, type RawMessageAnswer } from './hooks';

export function SourceDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const source = useApiQuery<RawMessageAnswer>(
    `/messages/${message.id}`,
    { apply_markdown: false },
    { gcTime: 0, staleTime: 0 },
  );
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('Copied.');
    } catch (e) {
      setCopied(`Could not copy: ${errorText(e)}`);
    }
  };
  const raw = source.data?.raw_content;
  return (
    <Dialog
      title="Message source"
      isOpen
      onClose={onClose}
      size="lg"
      footer={
        <>
          {copied && (
            <span role="status" className="source-copied">
              {copied}
            </span>
          )}
          <Button
            icon={<Copy size={15} aria-hidden="true" />}
            isDisabled={raw === undefined}
            onPress={() => raw !== undefined && void copy(raw)}
          >
            Copy
          </Button>
          <Button variant="primary" onPress={onClose}>
            Close
          </Button>
        </>
      }
    >
      {source.isPending && <Progress label="Loading the source…" />}
      {source.error && <InlineError>{source.error.message}</InlineError>}
      {raw !== undefined && (
        <AriaTextField className="field" value={raw} isReadOnly>
          <Label className="visually-hidden">Markdown source</Label>
          <TextArea
            className="input textarea message-source"
            rows={Math.min(20, raw.split('\n').length + 1)}
          />
        </AriaTextField>
      )}
    </Dialog>
  );
}
