import { describe, expect, it } from 'vitest';
import { normalizeServerUrl } from './serverUrl';

describe('normalizeServerUrl', () => {
  it.each([
    ['http://127.0.0.1:9991', 'http://127.0.0.1:9991'],
    ['http://127.0.0.1:9991/', 'http://127.0.0.1:9991'],
    ['  https://chat.example.com/  ', 'https://chat.example.com'],
    ['chat.example.com', 'https://chat.example.com'],
    ['localhost:9991', 'http://localhost:9991'],
    ['127.0.0.1:9991', 'http://127.0.0.1:9991'],
    ['https://example.com/chat/', 'https://example.com/chat'],
    ['HTTPS://Chat.Example.com', 'https://chat.example.com'],
    ['chat.example.com/team/#narrow/stream/1', 'https://chat.example.com/team'],
    ['[::1]:9991/', 'http://[::1]:9991'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeServerUrl(input)).toBe(expected);
  });

  it.each(['', '   ', 'ftp://example.com', 'https://user:pw@example.com', 'user@example.com', 'http://'])(
    'rejects %j',
    (input) => {
      expect(normalizeServerUrl(input)).toBeNull();
    },
  );
});
