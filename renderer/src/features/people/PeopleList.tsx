/**
 * The people list (the right pane, or in the sidebar per `left_side_userlist`): everyone in
 * the organization with their presence, active first, grouped as Active / Idle / Offline, a
 * search, each person's status, and how many there are. `user_list_style` chooses the rows:
 * 1 compact (name), 2 with status, 3 with avatar and status. The list is virtualized: an
 * organization may have thousands of people. Choosing someone opens their profile card.
 */
import { useMemo, useState } from 'react';
import {
  Collection,
  Header,
  ListBox,
  ListBoxItem,
  ListBoxSection,
  ListLayout,
  Virtualizer,
} from 'react-aria-components';
import { useSetting, useUser, useUserStatus } from '../../stores/hooks';
import { Avatar, cx, EmptyState, PresenceDot, SearchField } from '../../ui';
import { Emoji } from '../../ui/Emoji';
import { ProfileCard } from './ProfileCard';
import { countText, groupPeople, matchesQuery, type PersonEntry, type Presence } from './peopleModel';
import { usePeopleEntries } from './usePeople';
import './people.css';

export type ListStyle = 1 | 2 | 3;

const PRESENCE_WORDS: Record<Presence, string> = { active: 'active', idle: 'idle', offline: 'offline' };

/** The setting as one of its three values (unknown values: with status, the family's default). */
export function listStyleOf(value: unknown): ListStyle {
  return value === 1 || value === 3 ? value : 2;
}

export function PeopleList({ placement }: { placement: 'pane' | 'sidebar' }) {
  const style = listStyleOf(useSetting('user_list_style'));
  const everyone = usePeopleEntries();
  const [query, setQuery] = useState('');
  const [openUserId, setOpenUserId] = useState<number | null>(null);
  const searching = query.trim() !== '';
  const groups = useMemo(
    () =>
      groupPeople(everyone.filter((p) => matchesQuery(p, query))).map((g) => ({
        ...g,
        id: g.key,
        people: g.people.map((p) => ({ ...p, id: p.userId })),
      })),
    [everyone, query],
  );
  const shown = groups.reduce((n, g) => n + g.people.length, 0);
  const headingId = `people-heading-${placement}`;

  return (
    <section className={cx('people', `people-${placement}`)} aria-labelledby={headingId}>
      <header className="people-head">
        <h2 id={headingId} className="people-title">
          People
        </h2>
        <span className="people-count" aria-live="polite">
          <span className="visually-hidden">Showing </span>
          {countText(shown, everyone.length, searching)}
          <span className="visually-hidden"> people</span>
        </span>
      </header>
      <SearchField
        label="Search people"
        value={query}
        onChange={setQuery}
        placeholder="Search people"
        className="people-search"
      />
      {shown === 0 ? (
        <div className="people-empty">
          <EmptyState title={searching ? 'No one matches' : 'No one here yet'}>
            {searching ? 'Try part of a name or an email address.' : 'People who join will show here.'}
          </EmptyState>
        </div>
      ) : (
        <Virtualizer
          layout={ListLayout}
          layoutOptions={{ estimatedRowHeight: style === 1 ? 28 : 42, estimatedHeadingHeight: 28, gap: 0 }}
        >
          <ListBox
            aria-label="People"
            className={cx('people-list', `people-style-${style}`)}
            items={groups}
            selectionMode="none"
            onAction={(key) => setOpenUserId(Number(key))}
            data-style={style}
          >
            {(group) => (
              <ListBoxSection id={group.key} className="people-group">
                <Header className="people-group-title">
                  {group.title} <span className="people-group-count">{group.people.length}</span>
                </Header>
                <Collection items={group.people}>{(person) => <PersonRow person={person} />}</Collection>
              </ListBoxSection>
            )}
          </ListBox>
        </Virtualizer>
      )}
      {openUserId !== null && <ProfileCard userId={openUserId} isOpen onClose={() => setOpenUserId(null)} />}
    </section>
  );
}

/** A row reads the style itself: the collection keeps rendered rows while their item is the same. */
function PersonRow({ person }: { person: PersonEntry & { id: number } }) {
  const listStyle = listStyleOf(useSetting('user_list_style'));
  const status = useUserStatus(person.userId);
  const user = useUser(person.userId);
  const text = status?.status_text ?? '';
  const emoji = status?.emoji_name ? (
    <Emoji
      name={status.emoji_name}
      code={status.emoji_code}
      type={status.reaction_type}
      className="people-emoji"
    />
  ) : null;
  // The accessible name is the row's own text (name, presence in words, status as shown), so
  // what is seen is what is heard.
  return (
    <ListBoxItem id={person.userId} textValue={person.name} className="people-row">
      {listStyle === 3 ? (
        <Avatar name={person.name} userId={person.userId} size="sm" presence={person.presence} />
      ) : (
        <PresenceDot state={person.presence} />
      )}
      <span className="people-row-text">
        <span className="people-row-line">
          <span className="people-name">{person.name}</span>
          <span className="visually-hidden">, {PRESENCE_WORDS[person.presence]}</span>
          {user?.is_guest && <span className="people-guest">(guest)</span>}
          {listStyle === 1 && emoji}
        </span>
        {listStyle !== 1 && (emoji || text) && (
          <span className="people-status">
            {emoji}
            {text && <span className="people-status-text">{text}</span>}
          </span>
        )}
      </span>
    </ListBoxItem>
  );
}
