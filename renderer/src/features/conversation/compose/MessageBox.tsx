/**
 * The message box: a text area that grows with its text, with autocomplete for people and
 * groups (`@`), streams (`#`), a stream's topics (`#**stream>`) and emoji (`:`), the Markdown
 * shortcuts, Enter or Ctrl+Enter to send per `enter_sends`, and files pasted into it.
 */
import {
  type ClipboardEvent,
  type KeyboardEvent,
  type RefObject,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';
import type { User } from '../../../../../shared/protocol';
import { useApiQuery } from '../../../queries/api';
import {
  useAccountState,
  useOwnUserId,
  useRealmEmoji,
  useStreams,
  useSubscribedStreamIds,
  useUserGroups,
} from '../../../stores/hooks';
import { Emoji } from '../../../ui';
import { customEmojiChoices, type EmojiChoice, loadUnicodeCatalog } from '../../shell/emojiCatalog';
import {
  completionEdit,
  detectToken,
  emojiText,
  groupMention,
  personMention,
  rankMatches,
  streamLink,
  type Token,
  topicLink,
} from './autocomplete';
import { replaceRange } from './editing';
import { enterAction, markdownShortcut, styleEdit } from './keys';
import { handleSuggestionKey, optionId, type Suggestion, SuggestionList } from './Suggestions';

const MAX_SUGGESTIONS = 8;

interface Candidate extends Suggestion {
  insert: string;
}

export interface MessageBoxProps {
  value: string;
  onChange: (text: string) => void;
  onSend: () => void;
  enterSends: boolean;
  boxRef: RefObject<HTMLTextAreaElement | null>;
  onFiles: (files: File[]) => void;
  placeholder: string;
  invalid: boolean;
  describedBy?: string;
  autoFocus?: boolean;
}

export function MessageBox({
  value,
  onChange,
  onSend,
  enterSends,
  boxRef,
  onFiles,
  placeholder,
  invalid,
  describedBy,
  autoFocus,
}: MessageBoxProps) {
  const listId = useId();
  const [caret, setCaret] = useState(value.length);
  const [active, setActive] = useState(0);
  /** The start of a token the user closed the list on (Escape): no list until another token. */
  const [dismissed, setDismissed] = useState<number | null>(null);

  const token = useMemo(() => detectToken(value, Math.min(caret, value.length)), [value, caret]);
  const candidates = useCandidates(token);
  const open = token !== null && dismissed !== token.start && candidates.length > 0;
  const activeIndex = Math.min(active, Math.max(candidates.length - 1, 0));

  // A new token starts with its first option highlighted.
  const tokenId = token ? `${token.kind}@${token.start}` : null;
  useEffect(() => {
    setActive(0);
    if (tokenId === null) setDismissed(null);
  }, [tokenId]);

  // Grows with the text (up to the max-height of the CSS, then scrolls).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the text
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    box.style.height = 'auto';
    box.style.height = `${box.scrollHeight + 2}px`;
  }, [value, boxRef]);

  const pick = (index: number) => {
    const candidate = candidates[index];
    const box = boxRef.current;
    if (!candidate || !token || !box) return;
    const edit = completionEdit(value, token, candidate.insert);
    replaceRange(box, value, onChange, edit);
    const at = edit.selectionStart;
    setCaret(at);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (
      open &&
      handleSuggestionKey(event, candidates.length, activeIndex, {
        move: setActive,
        pick,
        close: () => setDismissed(token?.start ?? null),
      })
    ) {
      return;
    }
    const box = event.currentTarget;
    const style = markdownShortcut(event);
    if (style) {
      event.preventDefault();
      replaceRange(box, value, onChange, styleEdit(value, box.selectionStart, box.selectionEnd, style));
      return;
    }
    const action = enterAction({ ...event, isComposing: event.nativeEvent.isComposing }, enterSends);
    if (action === 'send') {
      event.preventDefault();
      onSend();
    } else if (action === 'newline') {
      event.preventDefault();
      const at = box.selectionStart + 1;
      replaceRange(box, value, onChange, {
        start: box.selectionStart,
        end: box.selectionEnd,
        insert: '\n',
        selectionStart: at,
        selectionEnd: at,
      });
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    event.preventDefault();
    onFiles(files);
  };

  return (
    <div className="compose-box">
      {open && (
        <SuggestionList
          id={listId}
          label={suggestionsLabel(token)}
          items={candidates}
          active={activeIndex}
          onPick={pick}
        />
      )}
      <textarea
        ref={boxRef}
        className="input compose-textarea"
        aria-label="Message"
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(listId, activeIndex) : undefined}
        rows={2}
        maxLength={10_000}
        placeholder={placeholder}
        value={value}
        // biome-ignore lint/a11y/noAutofocus: the new-message screen and a quote put the user here
        autoFocus={autoFocus}
        onChange={(event) => {
          onChange(event.target.value);
          setCaret(event.target.selectionStart);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onBlur={() => setDismissed(token?.start ?? null)}
        onFocus={() => setDismissed(null)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
    </div>
  );
}

function suggestionsLabel(token: Token | null): string {
  switch (token?.kind) {
    case 'mention':
      return 'People and groups';
    case 'stream':
      return 'Streams';
    case 'topic':
      return 'Topics';
    case 'emoji':
      return 'Emoji';
    default:
      return 'Suggestions';
  }
}

/** The options for the token, best first. */
function useCandidates(token: Token | null): Candidate[] {
  const users = useAccountState((a) => a.users.active);
  const ownUserId = useOwnUserId();
  const groups = useUserGroups();
  const streams = useStreams();
  const subscribed = useSubscribedStreamIds();
  const realmEmoji = useRealmEmoji();
  const [unicode, setUnicode] = useState<EmojiChoice[] | null>(null);

  const wantsEmoji = token?.kind === 'emoji';
  useEffect(() => {
    if (!wantsEmoji || unicode) return;
    let live = true;
    loadUnicodeCatalog()
      .then((catalog) => {
        if (live) setUnicode(catalog);
      })
      .catch(() => {
        // Without the catalogue, only custom emoji are offered.
      });
    return () => {
      live = false;
    };
  }, [wantsEmoji, unicode]);

  const topicStream =
    token?.kind === 'topic'
      ? streams.find((s) => s.name.toLowerCase() === (token.stream ?? '').trim().toLowerCase())
      : undefined;
  const topics = useApiQuery<{ topics: { name: string; max_id: number }[] }>(
    `/users/me/${topicStream?.stream_id ?? 0}/topics`,
    undefined,
    { enabled: topicStream !== undefined, staleTime: 30_000 },
  );

  return useMemo((): Candidate[] => {
    if (!token) return [];
    switch (token.kind) {
      case 'mention': {
        const people = rankMatches(
          (Object.values(users) as User[]).filter((u) => u.is_active !== false),
          token.query,
          (u) => [u.full_name, u.email],
          MAX_SUGGESTIONS,
        ).map(
          (u): Candidate => ({
            id: `user-${u.user_id}`,
            label: u.full_name,
            description: u.user_id === ownUserId ? `${u.email} (you)` : u.email,
            insert: personMention(u.full_name, u.user_id, token.silent),
          }),
        );
        const named = groups.filter((g) => !(g as { is_system_group?: boolean }).is_system_group);
        const groupOptions = rankMatches(named, token.query, (g) => [g.name], 3).map(
          (g): Candidate => ({
            id: `group-${g.id}`,
            label: g.name,
            description: g.description || `Group of ${g.members.length}`,
            insert: groupMention(g.name, token.silent),
          }),
        );
        return [...people.slice(0, MAX_SUGGESTIONS - groupOptions.length), ...groupOptions];
      }
      case 'stream': {
        const subs = new Set(subscribed);
        // Subscribed streams first, then the others the user can see.
        const ordered = [...streams].sort(
          (a, b) => Number(subs.has(b.stream_id)) - Number(subs.has(a.stream_id)),
        );
        return rankMatches(ordered, token.query, (s) => [s.name], MAX_SUGGESTIONS).map((s) => ({
          id: `stream-${s.stream_id}`,
          label: `#${s.name}`,
          description: typeof s.description === 'string' ? s.description : undefined,
          insert: streamLink(s.name),
        }));
      }
      case 'topic': {
        if (!topicStream) return [];
        const names = (topics.data?.topics ?? []).map((t) => t.name);
        return rankMatches(names, token.query, (name) => [name], MAX_SUGGESTIONS).map((name) => ({
          id: `topic-${name}`,
          label: name,
          description: `#${topicStream.name}`,
          insert: topicLink(topicStream.name, name),
        }));
      }
      case 'emoji': {
        const choices = [...customEmojiChoices(realmEmoji), ...(unicode ?? [])];
        // Names first: a shortcode starting with what was typed beats a word of a label.
        return rankMatches(
          choices,
          token.query,
          (c) => [c.name, ...c.keywords.map((k) => k.replaceAll(' ', '_'))],
          MAX_SUGGESTIONS,
        ).map((choice) => ({
          id: `emoji-${choice.type}-${choice.code}`,
          label: `:${choice.name}:`,
          content: (
            <span className="compose-emoji-option">
              <Emoji name={choice.name} code={choice.code} type={choice.type} decorative />
              <span>:{choice.name}:</span>
            </span>
          ),
          insert: emojiText(choice.name),
        }));
      }
    }
  }, [token, users, ownUserId, groups, streams, subscribed, topicStream, topics.data, realmEmoji, unicode]);
}
