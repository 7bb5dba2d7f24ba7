import { describe, expect, it } from 'vitest';
import { glyphOfCode } from './Emoji';

describe('glyphOfCode', () => {
  it('turns a unicode_emoji code into its characters', () => {
    expect(glyphOfCode('1f334')).toBe('🌴');
    expect(glyphOfCode('1f1fa-1f1f8')).toBe('🇺🇸');
    expect(glyphOfCode('2764')).toBe('❤');
  });
  it('refuses what is not a code point sequence', () => {
    expect(glyphOfCode(undefined)).toBeNull();
    expect(glyphOfCode('')).toBeNull();
    expect(glyphOfCode('zz')).toBeNull();
    expect(glyphOfCode('110000')).toBeNull();
  });
});
