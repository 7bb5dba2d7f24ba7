import { describe, expect, it } from 'vitest';
import { operand, searchNarrow, searchPrefix, streamNamedIn } from './searchModel';

const names: Record<number, string> = { 1: 'general', 2: 'design team' };
const nameOf = (id: number) => names[id];

describe('searchPrefix', () => {
  it('offers the stream or topic being read, quoting names with spaces', () => {
    expect(searchPrefix({ kind: 'stream', streamId: 1 }, nameOf)).toBe('stream:general ');
    expect(searchPrefix({ kind: 'topic', streamId: 2, topic: 'logo ideas' }, nameOf)).toBe(
      'stream:"design team" topic:"logo ideas" ',
    );
  });

  it('offers nothing elsewhere or for an unknown stream', () => {
    expect(searchPrefix({ kind: 'all' }, nameOf)).toBe('');
    expect(searchPrefix({ kind: 'dm', userIds: [3] }, nameOf)).toBe('');
    expect(searchPrefix(null, nameOf)).toBe('');
    expect(searchPrefix({ kind: 'stream', streamId: 9 }, nameOf)).toBe('');
  });
});

describe('streamNamedIn', () => {
  const streams = [
    { id: 1, name: 'general' },
    { id: 2, name: 'design team' },
  ];
  it('finds the last stream a query names, quoted or not, in any case', () => {
    expect(streamNamedIn('stream:General topic:', streams)).toBe(1);
    expect(streamNamedIn('channel:"design team" topic:lo', streams)).toBe(2);
    expect(streamNamedIn('stream:general stream:"design team"', streams)).toBe(2);
  });
  it('finds none for unknown or negated streams or plain text', () => {
    expect(streamNamedIn('stream:nope', streams)).toBeNull();
    expect(streamNamedIn('-stream:general', streams)).toBeNull();
    expect(streamNamedIn('general', streams)).toBeNull();
  });
});

describe('searchNarrow and operand', () => {
  it('opens a search for the trimmed query, none for blanks', () => {
    expect(searchNarrow('  stream:general   lunch ')).toEqual({
      kind: 'search',
      query: 'stream:general lunch',
    });
    expect(searchNarrow('   ')).toBeNull();
  });
  it('quotes operands with spaces or quotes', () => {
    expect(operand('plain')).toBe('plain');
    expect(operand('two words')).toBe('"two words"');
    expect(operand('say "hi"')).toBe('"say hi"');
  });
});
