/**
 * Addresses a draft: a stream (a searchable stream picker and a topic) or people (a searchable
 * person picker adding removable tags). The picker reports only complete targets: a stream
 * draft once a stream is chosen, a direct message once someone is in it.
 */
import { ChevronDown, X } from 'lucide-react';
import { useState } from 'react';
import {
  Button as AriaButton,
  ComboBox,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Radio,
  RadioGroup,
  Tag,
  TagGroup,
  TagList,
} from 'react-aria-components';
import type { DraftInput } from '../../../../shared/ipc';
import { TextField } from '../../ui';

export type Target = Pick<DraftInput, 'type' | 'to' | 'topic'>;

export interface PickerStream {
  id: number;
  name: string;
}
export interface PickerPerson {
  id: number;
  name: string;
  email: string;
}

export function RecipientPicker({
  target,
  streams,
  people,
  onTarget,
  onTopic,
}: {
  target: Target;
  streams: readonly PickerStream[];
  people: readonly PickerPerson[];
  /** A complete new target, to save now. */
  onTarget: (target: Target) => void;
  /** The topic as typed (saved with the text, a moment later). */
  onTopic: (topic: string) => void;
}) {
  const [kind, setKind] = useState<'stream' | 'private'>(target.type === 'private' ? 'private' : 'stream');
  const [streamId, setStreamId] = useState(target.type === 'stream' ? (target.to[0] ?? null) : null);
  const [topic, setTopic] = useState(target.topic);
  const userIds = target.type === 'private' ? target.to : [];

  return (
    <div className="recipient-picker">
      <RadioGroup
        className="recipient-kind"
        orientation="horizontal"
        value={kind}
        onChange={(value) => setKind(value === 'private' ? 'private' : 'stream')}
      >
        <Label className="field-label">Send to</Label>
        <div className="recipient-kind-options">
          <Radio value="stream" className="recipient-kind-option">
            A stream
          </Radio>
          <Radio value="private" className="recipient-kind-option">
            People
          </Radio>
        </div>
      </RadioGroup>
      {kind === 'stream' ? (
        <div className="recipient-stream">
          <PickOne
            label="Stream"
            placeholder="Choose a stream"
            items={streams.map((s) => ({ id: s.id, label: `#${s.name}` }))}
            selected={streamId}
            onPick={(id) => {
              setStreamId(id);
              onTarget({ type: 'stream', to: [id], topic });
            }}
          />
          <TextField
            label="Topic"
            value={topic}
            maxLength={60}
            placeholder="Topic"
            onChange={(value) => {
              setTopic(value);
              if (streamId !== null) onTopic(value);
            }}
          />
        </div>
      ) : (
        <PeoplePicker
          people={people}
          selected={userIds}
          onChange={(ids) =>
            onTarget(
              ids.length > 0 ? { type: 'private', to: ids, topic: '' } : { type: '', to: [], topic: '' },
            )
          }
        />
      )}
    </div>
  );
}

/** A searchable single choice (react-aria ComboBox). */
function PickOne({
  label,
  placeholder,
  items,
  selected,
  onPick,
}: {
  label: string;
  placeholder: string;
  items: readonly { id: number; label: string; description?: string }[];
  selected: number | null;
  onPick: (id: number) => void;
}) {
  return (
    <ComboBox
      className="field combo"
      selectedKey={selected}
      onSelectionChange={(key) => {
        if (key !== null) onPick(Number(key));
      }}
      menuTrigger="focus"
      defaultItems={items}
    >
      <Label className="field-label">{label}</Label>
      <div className="combo-control">
        <Input className="input combo-input" placeholder={placeholder} />
        <AriaButton className="combo-button" aria-label={`Show ${label.toLowerCase()} list`}>
          <ChevronDown size={16} aria-hidden="true" />
        </AriaButton>
      </div>
      <Popover className="popover combo-popover">
        <ListBox className="listbox" renderEmptyState={() => <p className="combo-empty">No match</p>}>
          {(item: { id: number; label: string; description?: string }) => (
            <ListBoxItem id={item.id} className="listbox-item" textValue={item.label}>
              <span>{item.label}</span>
              {item.description && <span className="listbox-item-description">{item.description}</span>}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}

/** People as removable tags, plus a search to add one more. */
function PeoplePicker({
  people,
  selected,
  onChange,
}: {
  people: readonly PickerPerson[];
  selected: readonly number[];
  onChange: (ids: number[]) => void;
}) {
  // A new search box after each pick: empty, closed, and still focused.
  const [round, setRound] = useState(0);
  const byId = new Map(people.map((p) => [p.id, p]));
  const candidates = people
    .filter((p) => !selected.includes(p.id))
    .map((p) => ({ id: p.id, label: p.name, description: p.email }));
  return (
    <div className="recipient-people">
      {selected.length > 0 && (
        <TagGroup
          className="people-tags"
          aria-label="Recipients"
          onRemove={(keys) => onChange(selected.filter((id) => !keys.has(id)))}
        >
          <TagList className="people-tag-list">
            {selected.map((id) => {
              const name = byId.get(id)?.name ?? 'Unknown user';
              return (
                <Tag key={id} id={id} textValue={name} className="people-tag">
                  {name}
                  <AriaButton slot="remove" className="people-tag-remove" aria-label={`Remove ${name}`}>
                    <X size={12} aria-hidden="true" />
                  </AriaButton>
                </Tag>
              );
            })}
          </TagList>
        </TagGroup>
      )}
      <ComboBox
        key={round}
        className="field combo"
        selectedKey={null}
        onSelectionChange={(key) => {
          if (key === null) return;
          onChange([...selected, Number(key)]);
          setRound((r) => r + 1);
        }}
        menuTrigger="input"
        defaultFilter={(text, input) => text.toLowerCase().includes(input.toLowerCase())}
        defaultItems={candidates}
      >
        <Label className="field-label">Add a person</Label>
        <div className="combo-control">
          <Input
            className="input combo-input"
            placeholder="Name"
            // After a pick, focus stays in the search for the next person.
            autoFocus={round > 0}
          />
          <AriaButton className="combo-button" aria-label="Show people list">
            <ChevronDown size={16} aria-hidden="true" />
          </AriaButton>
        </div>
        <Popover className="popover combo-popover">
          <ListBox className="listbox" renderEmptyState={() => <p className="combo-empty">No match</p>}>
            {(item: { id: number; label: string; description: string }) => (
              <ListBoxItem id={item.id} className="listbox-item" textValue={item.label}>
                <span>{item.label}</span>
                <span className="listbox-item-description">{item.description}</span>
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
    </div>
  );
}
