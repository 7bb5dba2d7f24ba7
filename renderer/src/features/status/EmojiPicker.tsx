/**
 * Choosing an emoji: a search over every Unicode emoji (emojibase-data, loaded on first use)
 * and the organization's custom emoji, the frequently used ones first. A grid of options:
 * arrow keys move, Enter picks; the long list is virtualized. Each cell shows the emoji as the
 * account's emoji set draws it (the font's glyph for "text": `:name:` would not fit), and a
 * custom emoji its image once the main process has fetched it.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { GridLayout, ListBox, ListBoxItem, Size, Virtualizer } from 'react-aria-components';
import { useRealmEmoji } from '../../stores/hooks';
import { Emoji, EmptyState, InlineError, Progress, SearchField, useRealmEmojiImage } from '../../ui';
import {
  customEmojiChoices,
  type EmojiChoice,
  frequentlyUsed,
  loadUnicodeCatalog,
  loadUsage,
  searchEmoji,
  usageKey,
} from './emojiCatalog';

const CELL = new Size(36, 36);
const GAP = new Size(2, 2);

export function EmojiPicker({ onPick }: { onPick: (choice: EmojiChoice) => void }) {
  const [unicode, setUnicode] = useState<EmojiChoice[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const realmEmoji = useRealmEmoji();
  useEffect(() => {
    let live = true;
    loadUnicodeCatalog().then(
      (list) => live && setUnicode(list),
      (error: unknown) => live && setLoadError(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, []);

  const all = useMemo(() => [...customEmojiChoices(realmEmoji), ...(unicode ?? [])], [realmEmoji, unicode]);
  const frequent = useMemo(() => frequentlyUsed(all, loadUsage()), [all]);
  const results = useMemo(() => searchEmoji(all, query), [all, query]);
  const searching = query.trim() !== '';

  return (
    <div className="emoji-picker">
      <SearchField label="Search emoji" value={query} onChange={setQuery} autoFocus />
      {loadError && <InlineError>Could not load the emoji list: {loadError}</InlineError>}
      {!unicode && !loadError && <Progress label="Loading emoji…" />}
      {unicode && !searching && frequent.length > 0 && (
        <EmojiGrid label="Frequently used" items={frequent} onPick={onPick} virtual={false} />
      )}
      {unicode &&
        (results.length === 0 ? (
          <EmptyState title="No emoji found">Try another word, like “smile” or “tree”.</EmptyState>
        ) : (
          <EmojiGrid
            label={searching ? 'Search results' : 'All emoji'}
            items={results}
            onPick={onPick}
            virtual
          />
        ))}
    </div>
  );
}

function EmojiGrid({
  label,
  items,
  onPick,
  virtual,
}: {
  label: string;
  items: EmojiChoice[];
  onPick: (choice: EmojiChoice) => void;
  virtual: boolean;
}) {
  const headingId = useId();
  const byKey = useMemo(() => new Map(items.map((c) => [usageKey(c), c])), [items]);
  const list = (
    <ListBox
      aria-labelledby={headingId}
      layout="grid"
      className={virtual ? 'emoji-grid emoji-grid-all' : 'emoji-grid emoji-grid-frequent'}
      items={items.map((c) => ({ ...c, id: usageKey(c) }))}
      selectionMode="none"
      onAction={(key) => {
        const choice = byKey.get(String(key));
        if (choice) onPick(choice);
      }}
    >
      {(choice) => (
        <ListBoxItem
          id={choice.id}
          textValue={choice.name}
          aria-label={choice.name.replaceAll('_', ' ')}
          className="emoji-cell"
        >
          {choice.type === 'realm_emoji' ? (
            <CustomEmojiCell name={choice.name} id={choice.code} />
          ) : (
            <Emoji name={choice.name} code={choice.code} decorative alwaysPicture />
          )}
        </ListBoxItem>
      )}
    </ListBox>
  );
  return (
    <div className="emoji-section">
      <h3 id={headingId} className="emoji-section-title">
        {label}
      </h3>
      {virtual ? (
        <Virtualizer
          layout={GridLayout}
          layoutOptions={{ minItemSize: CELL, maxItemSize: CELL, minSpace: GAP }}
        >
          {list}
        </Virtualizer>
      ) : (
        list
      )}
    </div>
  );
}

/** A custom emoji's image, or its `:name:` (shrunk to fit) until the image is there. */
function CustomEmojiCell({ name, id }: { name: string; id: string }) {
  const image = useRealmEmojiImage(id);
  return image === null ? (
    <span className="emoji-cell-custom" aria-hidden="true">
      :{name}:
    </span>
  ) : (
    <Emoji name={name} code={id} type="realm_emoji" decorative />
  );
}
