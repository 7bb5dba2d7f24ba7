import { describe, expect, it } from 'vitest';
import { typingText } from './typingText';

describe('typingText', () => {
  it('names up to three people, then says several', () => {
    expect(typingText([])).toBe('');
    expect(typingText(['Alice Smith'])).toBe('Alice Smith is typing…');
    expect(typingText(['Alice Smith', 'Bob'])).toBe('Alice Smith and Bob are typing…');
    expect(typingText(['Alice', 'Bob', 'Carol'])).toBe('Alice, Bob and Carol are typing…');
    expect(typingText(['Alice', 'Bob', 'Carol', 'Dan'])).toBe('Several people are typing…');
  });
});
