/**
 * Where the message goes: a stream (combobox "Stream") and a topic (text box "Topic", with the
 * stream's topics suggested as one types), or people (combobox "To", each chosen person a
 * removable tag). With `chooser`, a switch between the two; otherwise the kind is the
 * conversation's and only its fields show, filled in and editable.
 */
import { ChevronDown, Hash, X } from 'lucide-react';
import { type KeyboardEvent, useId, useMemo, useState } from 'react';
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
import type { User } from '../../../../../shared/protocol';
import { useApiQuery } from '../../../queries/api';
import { useAccountState, useOwnUserId, useStreams, useSubscribedStreamIds } from '../../../stores/hooks';
import { cx } from '../../../ui';
import { rankMatches } from './autocomplete';
import { handleSuggestionKey, optionId, SuggestionList } from './Suggestions';
import { MAX_TOPIC_LENGTH, type TargetFields } from './target';

export interface FieldErrors {
  stream?: string;
  topic?: string;
  to?: string;
}

export function RecipientFields({
  fields,
  chooser,
  onChange,
  onTopicEnter,
  errors,
}: {
  fields: TargetFields;
  chooser: boolean;
  onChange: (fields: TargetFields) => void;
  /** Enter in the topic field (with no suggestion open): on to the message. */
  onTopicEnter: () => void;
  errors: FieldErrors;
}) {
  const errorId = useId();
  const message = errors.stream ?? errors.topic ?? errors.to;
  return (
    <div className="compose-recipient-block">
      <div className="compose-recipient">
        {chooser && (
          <RadioGroup
            className="compose-kind"
            aria-label="Send to"
            orientation="horizontal"
            value={fields.kind}
            onChange={(value) => onChange({ ...fields, kind: value === 'private' ? 'private' : 'stream' })}
          >
            <Radio value="stream" className="compose-kind-option">
              Stream message
            </Radio>
            <Radio value="private" className="compose-kind-option">
              Private message
            </Radio>
          </RadioGroup>
        )}
        {fields.kind === 'stream' ? (
          <>
            <StreamPicker
              streamId={fields.streamId}
              errorId={errors.stream ? errorId : undefined}
              onPick={(streamId) => onChange({ ...fields, streamId })}
            />
            <span className="compose-recipient-sep" aria-hidden="true">
              &gt;
            </span>
            <TopicField
              streamId={fields.streamId}
              topic={fields.topic}
              errorId={errors.topic ? errorId : undefined}
              onTopic={(topic) => onChange({ ...fields, topic })}
              onEnter={onTopicEnter}
            />
          </>
        ) : (
          <PeoplePicker
            userIds={fields.userIds}
            errorId={errors.to ? errorId : undefined}
            onChange={(userIds) => onChange({ ...fields, userIds })}
          />
        )}
      </div>
      {message && (
        <p id={errorId} role="alert" className="compose-field-error">
          {message}
        </p>
      )}
    </div>
  );
}

interface StreamItem {
  id: number;
  name: string;
}

function StreamPicker({
  streamId,
  errorId,
  onPick,
}: {
  streamId: number | null;
  /** The id of the message that says what is wrong with this field. */
  errorId: string | undefined;
  onPick: (streamId: number) => void;
}) {
  const streams = useStreams();
  const subscribed = useSubscribedStreamIds();
  const items = useMemo((): StreamItem[] => {
    const subs = new Set(subscribed);
    // The streams one can write to from here: subscribed ones, and the chosen one if not.
    return streams
      .filter((s) => subs.has(s.stream_id) || s.stream_id === streamId)
      .map((s) => ({ id: s.stream_id, name: s.name }));
  }, [streams, subscribed, streamId]);
  return (
    <ComboBox
      className="compose-field compose-stream"
      selectedKey={streamId}
      onSelectionChange={(key) => {
        if (key !== null) onPick(Number(key));
      }}
      menuTrigger="focus"
      defaultItems={items}
      isInvalid={errorId !== undefined}
    >
      <Label className="visually-hidden">Stream</Label>
      <div className="compose-combo">
        <Hash size={14} aria-hidden="true" className="compose-combo-icon" />
        <Input
          className={cx('input', 'compose-input', 'compose-combo-input')}
          placeholder="Stream"
          aria-describedby={errorId}
        />
        <AriaButton className="compose-combo-button" aria-label="Show streams">
          <ChevronDown size={14} aria-hidden="true" />
        </AriaButton>
      </div>
      <Popover className="popover compose-popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => <p className="compose-empty">No stream matches</p>}
        >
          {(item: StreamItem) => (
            <ListBoxItem id={item.id} className="listbox-item" textValue={item.name}>
              #{item.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}

function TopicField({
  streamId,
  topic,
  errorId,
  onTopic,
  onEnter,
}: {
  streamId: number | null;
  topic: string;
  /** The id of the message that says what is wrong with this field. */
  errorId: string | undefined;
  onTopic: (topic: string) => void;
  onEnter: () => void;
}) {
  const listId = useId();
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(0);
  const [closed, setClosed] = useState(false);
  const topics = useApiQuery<{ topics: { name: string; max_id: number }[] }>(
    `/users/me/${streamId ?? 0}/topics`,
    undefined,
    { enabled: streamId !== null && focused, staleTime: 30_000 },
  );
  const suggestions = useMemo(() => {
    const names = (topics.data?.topics ?? []).map((t) => t.name);
    return rankMatches(names, topic, (name) => [name], 8)
      .filter((name) => name !== topic)
      .map((name) => ({ id: name, label: name }));
  }, [topics.data, topic]);
  const open = focused && !closed && suggestions.length > 0;
  const activeIndex = Math.min(active, Math.max(suggestions.length - 1, 0));

  // A topic picked: on to the message.
  const pick = (index: number) => {
    const item = suggestions[index];
    if (item) onTopic(item.label);
    setClosed(true);
    onEnter();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (
      open &&
      handleSuggestionKey(event, suggestions.length, activeIndex, {
        move: setActive,
        pick,
        close: () => setClosed(true),
      })
    ) {
      return;
    }
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onEnter();
    }
  };

  return (
    <div className="compose-field compose-topic">
      <input
        className="input compose-input"
        aria-label="Topic"
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(listId, activeIndex) : undefined}
        placeholder="Topic"
        maxLength={MAX_TOPIC_LENGTH}
        value={topic}
        onChange={(event) => {
          onTopic(event.target.value);
          setClosed(false);
          setActive(0);
        }}
        onFocus={() => {
          setFocused(true);
          setClosed(false);
        }}
        onBlur={() => setFocused(false)}
        onKeyDown={onKeyDown}
      />
      {open && (
        <SuggestionList
          id={listId}
          label="Topics"
          items={suggestions}
          active={activeIndex}
          onPick={pick}
          className="compose-suggestions-below"
        />
      )}
    </div>
  );
}

interface PersonItem {
  id: number;
  name: string;
  email: string;
}

function PeoplePicker({
  userIds,
  errorId,
  onChange,
}: {
  userIds: readonly number[];
  /** The id of the message that says what is wrong with this field. */
  errorId: string | undefined;
  onChange: (userIds: number[]) => void;
}) {
  const active = useAccountState((a) => a.users.active);
  const inactive = useAccountState((a) => a.users.nonActive);
  const ownUserId = useOwnUserId();
  const [search, setSearch] = useState('');
  // A new search box after each pick: empty, and still focused.
  const [round, setRound] = useState(0);
  const nameOf = (id: number) => (active[id] ?? inactive[id])?.full_name ?? 'Unknown user';
  const items = useMemo(
    () =>
      rankMatches(
        (Object.values(active) as User[])
          .filter((u) => !userIds.includes(u.user_id))
          .sort((a, b) => a.full_name.localeCompare(b.full_name)),
        search,
        (u) => [u.full_name, u.email],
        50,
      ).map(
        (u): PersonItem => ({
          id: u.user_id,
          name: u.full_name,
          email: u.user_id === ownUserId ? `${u.email} (you)` : u.email,
        }),
      ),
    [active, userIds, search, ownUserId],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Backspace in the empty search takes the last person off.
    if (event.key === 'Backspace' && search === '' && userIds.length > 0) {
      onChange(userIds.slice(0, -1));
    }
  };

  return (
    <div className="compose-field compose-people">
      {userIds.length > 0 && (
        <TagGroup
          className="compose-people-tags"
          aria-label="Recipients"
          onRemove={(keys) => onChange(userIds.filter((id) => !keys.has(id)))}
        >
          <TagList className="compose-people-tag-list">
            {userIds.map((id) => (
              <Tag key={id} id={id} textValue={nameOf(id)} className="compose-people-tag">
                {nameOf(id)}
                <AriaButton
                  slot="remove"
                  className="compose-people-tag-remove"
                  aria-label={`Remove ${nameOf(id)}`}
                >
                  <X size={12} aria-hidden="true" />
                </AriaButton>
              </Tag>
            ))}
          </TagList>
        </TagGroup>
      )}
      <ComboBox
        key={round}
        className="compose-people-search"
        selectedKey={null}
        inputValue={search}
        onInputChange={setSearch}
        onSelectionChange={(key) => {
          if (key === null) return;
          onChange([...userIds, Number(key)]);
          setSearch('');
          setRound((r) => r + 1);
        }}
        menuTrigger="input"
        items={items}
        isInvalid={errorId !== undefined}
      >
        <Label className="visually-hidden">To</Label>
        <div className="compose-combo">
          <Input
            className="input compose-input compose-combo-input"
            placeholder={userIds.length > 0 ? 'Add someone' : 'To: name or e-mail'}
            aria-describedby={errorId}
            // After a pick, the focus stays in the search for the next person.
            autoFocus={round > 0}
            onKeyDown={onKeyDown}
          />
        </div>
        <Popover className="popover compose-popover">
          <ListBox
            className="listbox"
            renderEmptyState={() => <p className="compose-empty">Nobody matches</p>}
          >
            {(item: PersonItem) => (
              <ListBoxItem id={item.id} className="listbox-item" textValue={item.name}>
                <span>{item.name}</span>
                <span className="listbox-item-description">{item.email}</span>
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
    </div>
  );
}
