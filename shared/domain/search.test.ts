/** The search syntax: parsing to narrow terms, errors, and suggestions for the last word. */
import { describe, expect, it } from 'vitest';
import { parseSearchQuery, type SearchLookup, type SuggestionContext, searchSuggestions } from './index';

const streams = [
  { id: 1, name: 'general' },
  { id: 2, name: 'design team' },
  { id: 3, name: 'design' },
  { id: 4, name: 'random' },
];
const users = [
  { id: 10, full_name: 'Me Myself', email: 'me@example.com' },
  { id: 11, full_name: 'Alice Smith', email: 'alice@example.com' },
  { id: 12, full_name: 'Bob', email: 'bob@example.com' },
  { id: 13, full_name: 'Carol Alvarez', email: 'carol@example.com' },
];

const lookup: SearchLookup = {
  streamIdByName: (name) => streams.find((s) => s.name.toLowerCase() === name.toLowerCase())?.id ?? null,
  userIdBy: (text) =>
    users.find((u) => u.email === text.toLowerCase() || u.full_name.toLowerCase() === text.toLowerCase())
      ?.id ?? null,
  ownUserId: 10,
};

const ctx: SuggestionContext = {
  streams,
  users,
  topicsOf: (id) => (id === 3 ? ['logo', 'colors', 'Logo review'] : id === 1 ? ['lunch'] : []),
};

describe('parseSearchQuery', () => {
  it('turns operators into resolved terms and the free text into one search term, last', () => {
    expect(
      parseSearchQuery(
        'logo stream:Design topic:"new logo" sender:alice@example.com has:image final',
        lookup,
      ),
    ).toEqual({
      terms: [
        { operator: 'stream', operand: 3 },
        { operator: 'topic', operand: 'new logo' },
        { operator: 'sender', operand: 11 },
        { operator: 'has', operand: 'image' },
        { operator: 'search', operand: 'logo final' },
      ],
      errors: [],
    });
  });

  it('reads quoted stream names with spaces, aliases, names and me', () => {
    expect(
      parseSearchQuery(
        'channel:"design team" subject:x from:"Alice Smith" sender:me is:DM is:private',
        lookup,
      ),
    ).toEqual({
      terms: [
        { operator: 'stream', operand: 2 },
        { operator: 'topic', operand: 'x' },
        { operator: 'sender', operand: 11 },
        { operator: 'sender', operand: 10 },
        { operator: 'is', operand: 'dm' },
        { operator: 'is', operand: 'private' },
      ],
      errors: [],
    });
  });

  it('negates with a leading dash', () => {
    expect(parseSearchQuery('-stream:random -is:starred -has:link is:unread', lookup).terms).toEqual([
      { operator: 'stream', operand: 4, negated: true },
      { operator: 'is', operand: 'starred', negated: true },
      { operator: 'has', operand: 'link', negated: true },
      { operator: 'is', operand: 'unread' },
    ]);
  });

  it('dm: takes a comma list of names or emails', () => {
    expect(parseSearchQuery('dm:"bob@example.com, Alice Smith" dm:Bob', lookup).terms).toEqual([
      { operator: 'dm', operand: [12, 11] },
      { operator: 'dm', operand: [12] },
    ]);
    expect(
      parseSearchQuery('pm-with:bob@example.com,alice@example.com is:mentioned is:alerted', lookup).terms,
    ).toEqual([
      { operator: 'dm', operand: [12, 11] },
      { operator: 'is', operand: 'mentioned' },
      { operator: 'is', operand: 'alerted' },
    ]);
  });

  it('keeps words with colons that name no operator, and quoted phrases, as text', () => {
    expect(parseSearchQuery('meet at 10:30 "the plan"', lookup)).toEqual({
      terms: [{ operator: 'search', operand: 'meet at 10:30 the plan' }],
      errors: [],
    });
    expect(parseSearchQuery('   ', lookup)).toEqual({ terms: [], errors: [] });
  });

  it('reports what it cannot resolve, and leaves those terms out', () => {
    expect(
      parseSearchQuery(
        'stream:x sender:nobody dm:bob@example.com,ghost is:muted has:video topic: hello',
        lookup,
      ),
    ).toEqual({
      terms: [{ operator: 'search', operand: 'hello' }],
      errors: [
        'Unknown stream: x',
        'Unknown person: nobody',
        'Unknown person: ghost',
        'Unknown is: operand: muted',
        'Unknown has: operand: video',
        'Missing operand for topic:',
      ],
    });
  });
});

describe('searchSuggestions', () => {
  const labels = (query: string, limit?: number) => searchSuggestions(query, ctx, limit).map((s) => s.label);

  it('offers the operators for an empty query or after a space', () => {
    expect(labels('')).toEqual(['stream:', 'topic:', 'sender:', 'dm:', 'is:', 'has:']);
    expect(searchSuggestions('logo ', ctx)[0]).toEqual({
      query: 'logo stream:',
      label: 'stream:',
      description: 'Messages in a stream',
    });
  });

  it('a bare word: the text itself, operators it starts, streams and people it names', () => {
    expect(searchSuggestions('design', ctx)).toEqual([
      { query: 'design', label: 'design', description: 'Search for "design"' },
      {
        query: 'stream:"design team"',
        label: 'stream:"design team"',
        description: 'Messages in #design team',
      },
      { query: 'stream:design', label: 'stream:design', description: 'Messages in #design' },
    ]);
    expect(labels('al')).toEqual(['al', 'sender:alice@example.com', 'sender:carol@example.com']);
    expect(labels('s')).toEqual(['s', 'stream:', 'sender:', 'sender:alice@example.com']);
    expect(labels('-s')).toEqual(['-stream:', '-sender:', '-sender:alice@example.com']);
  });

  it('completes stream names, quoting those with spaces, keeping the rest of the query', () => {
    expect(searchSuggestions('logo stream:des', ctx)).toEqual([
      {
        query: 'logo stream:"design team"',
        label: 'stream:"design team"',
        description: 'Messages in #design team',
      },
      { query: 'logo stream:design', label: 'stream:design', description: 'Messages in #design' },
    ]);
    expect(labels('stream:"design t')).toEqual(['stream:"design team"']);
    expect(labels('-stream:ran')).toEqual(['-stream:random']);
  });

  it('completes topics of the stream the query names, and none without one', () => {
    expect(searchSuggestions('stream:design topic:lo', ctx)).toEqual([
      {
        query: 'stream:design topic:logo',
        label: 'topic:logo',
        description: 'Messages in #design > logo',
      },
      {
        query: 'stream:design topic:"Logo review"',
        label: 'topic:"Logo review"',
        description: 'Messages in #design > Logo review',
      },
    ]);
    expect(labels('stream:design topic:rev')).toEqual(['topic:"Logo review"']);
    expect(labels('topic:lo')).toEqual([]);
  });

  it('completes people for sender: (me first) and dm: lists', () => {
    expect(labels('sender:')).toEqual([
      'sender:me',
      'sender:me@example.com',
      'sender:alice@example.com',
      'sender:bob@example.com',
      'sender:carol@example.com',
    ]);
    expect(labels('sender:smi')).toEqual(['sender:alice@example.com']);
    expect(searchSuggestions('dm:bob@example.com,al', ctx)).toEqual([
      {
        query: 'dm:bob@example.com,alice@example.com',
        label: 'dm:bob@example.com,alice@example.com',
        description: 'Private messages with Alice Smith',
      },
      {
        query: 'dm:bob@example.com,carol@example.com',
        label: 'dm:bob@example.com,carol@example.com',
        description: 'Private messages with Carol Alvarez',
      },
    ]);
  });

  it('completes is: and has: operands, negated ones too', () => {
    expect(labels('is:')).toEqual(['is:starred', 'is:mentioned', 'is:unread', 'is:dm', 'is:alerted']);
    expect(labels('is:u')).toEqual(['is:unread']);
    expect(searchSuggestions('-has:i', ctx)).toEqual([
      { query: '-has:image', label: '-has:image', description: 'Exclude: Messages with an image' },
    ]);
  });

  it('stops at the limit', () => {
    expect(labels('', 2)).toEqual(['stream:', 'topic:']);
  });
});
