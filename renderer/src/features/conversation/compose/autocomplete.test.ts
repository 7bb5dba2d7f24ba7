import { describe, expect, it } from 'vitest';
import {
  applyCompletion,
  detectToken,
  emojiText,
  groupMention,
  matchRank,
  personMention,
  rankMatches,
  streamLink,
  topicLink,
} from './autocomplete';

/** The token with the caret at the end of `text`. */
const at = (text: string) => detectToken(text, text.length);

describe('detectToken', () => {
  it('finds a mention at the start, after a space or a bracket, holding a full name', () => {
    expect(at('@')).toEqual({ kind: 'mention', query: '', start: 0, end: 1 });
    expect(at('hi @Ali')).toEqual({ kind: 'mention', query: 'Ali', start: 3, end: 7 });
    expect(at('hi @Alice Sm')).toEqual({ kind: 'mention', query: 'Alice Sm', start: 3, end: 12 });
    expect(at('(@bo')).toEqual({ kind: 'mention', query: 'bo', start: 1, end: 4 });
    expect(at('@_bo')).toEqual({ kind: 'mention', query: 'bo', start: 0, end: 4, silent: true });
  });

  it('leaves e-mail addresses, finished mentions, long phrases and other lines alone', () => {
    expect(at('mail bob@example')).toBeNull();
    expect(at('@**Alice Smith|5** thanks')).toBeNull();
    expect(at('@Alice says this is a fine idea')).toBeNull();
    expect(at('@ ')).toBeNull();
    expect(at('@bob\nnext')).toBeNull();
  });

  it('finds a stream after #, but not a heading', () => {
    expect(at('see #gen')).toEqual({ kind: 'stream', query: 'gen', start: 4, end: 8 });
    expect(at('#')).toEqual({ kind: 'stream', query: '', start: 0, end: 1 });
    expect(at('#**gen')).toEqual({ kind: 'stream', query: 'gen', start: 0, end: 6 });
    expect(at('# Heading')).toBeNull();
    expect(at('#**general** and')).toBeNull();
  });

  it("finds a topic after a stream's name and >", () => {
    expect(at('see #**general>lun')).toEqual({
      kind: 'topic',
      query: 'lun',
      stream: 'general',
      start: 4,
      end: 18,
    });
    expect(at('#**general**>')).toEqual({ kind: 'topic', query: '', stream: 'general', start: 0, end: 13 });
  });

  it('finds an emoji of two characters or more, not a smiley or a time', () => {
    expect(at('nice :th')).toEqual({ kind: 'emoji', query: 'th', start: 5, end: 8 });
    expect(at(':+1')).toEqual({ kind: 'emoji', query: '+1', start: 0, end: 3 });
    expect(at('nice :)')).toBeNull();
    expect(at('nice :t')).toBeNull();
    expect(at('at 10:30')).toBeNull();
  });

  it('looks only before the caret', () => {
    expect(detectToken('hi @bo and more', 6)).toEqual({ kind: 'mention', query: 'bo', start: 3, end: 6 });
  });
});

describe('applyCompletion', () => {
  it('replaces the token by the Markdown and puts the caret after it', () => {
    const text = 'hi @Ali';
    const token = at(text);
    expect(token).not.toBeNull();
    expect(applyCompletion(text, token ?? { start: 0, end: 0 }, personMention('Alice Smith', 5))).toEqual({
      text: 'hi @**Alice Smith|5** ',
      caret: 22,
    });
  });

  it('does not double the space that follows', () => {
    expect(applyCompletion('x :th y', { start: 2, end: 5 }, emojiText('thumbs_up'))).toEqual({
      text: 'x :thumbs_up: y',
      caret: 14,
    });
  });

  it('writes each kind as the service reads it', () => {
    expect(personMention('Bob', 7, true)).toBe('@_**Bob|7** ');
    expect(groupMention('backend')).toBe('@*backend* ');
    expect(groupMention('backend', true)).toBe('@_*backend* ');
    expect(streamLink('general')).toBe('#**general** ');
    expect(topicLink('general', 'lunch')).toBe('#**general>lunch** ');
    expect(emojiText('tada')).toBe(':tada: ');
  });
});

describe('matching', () => {
  it('ranks a start of the name, then of a word, then anywhere', () => {
    expect(matchRank('Alice Smith', 'ali')).toBe(0);
    expect(matchRank('Alice Smith', 'smi')).toBe(1);
    expect(matchRank('Alice Smith', 'ith')).toBe(2);
    expect(matchRank('Alice Smith', 'bob')).toBeNull();
    expect(matchRank('Zoë', 'zoe')).toBe(0);
  });

  it('orders by rank, then the shorter name, then the given order, at most the limit', () => {
    const people = ['Sam Al', 'Alexandra', 'Al', 'Bob', 'Halima'];
    expect(rankMatches(people, 'al', (p) => [p])).toEqual(['Al', 'Alexandra', 'Sam Al', 'Halima']);
    expect(rankMatches(people, 'al', (p) => [p], 2)).toEqual(['Al', 'Alexandra']);
    expect(rankMatches(people, '', (p) => [p], 3)).toEqual(['Sam Al', 'Alexandra', 'Al']);
  });

  it('matches any of the names given (an e-mail address)', () => {
    const people = [
      { name: 'Alice', email: 'alice@x' },
      { name: 'Bob', email: 'robert@x' },
    ];
    expect(rankMatches(people, 'rob', (p) => [p.name, p.email]).map((p) => p.name)).toEqual(['Bob']);
  });
});
