import { describe, expect, it } from 'vitest';
import { InvalidServerUrlError, normalizeServerUrl } from './url';

describe('normalizeServerUrl', () => {
  it.each([
    ['http://127.0.0.1:9991', 'http://127.0.0.1:9991'],
    ['http://127.0.0.1:9991/', 'http://127.0.0.1:9991'],
    ['  https://chat.example.com/  ', 'https://chat.example.com'],
    ['HTTPS://Chat.Example.com', 'https://chat.example.com'],
    ['https://Chat.Example.com/team//', 'https://chat.example.com/team'],
    ['https://chat.example.com:443/', 'https://chat.example.com'],
    ['http://chat.example.com:80', 'http://chat.example.com'],
    ['https://chat.example.com:8443/a/b/', 'https://chat.example.com:8443/a/b'],
    ['https://chat.example.com/team/?next=/x#narrow/stream/1', 'https://chat.example.com/team'],
    ['http://[::1]:9991/', 'http://[::1]:9991'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeServerUrl(input)).toBe(expected);
    // Idempotent: stored URLs (and the account ids hashed from them) keep their spelling.
    expect(normalizeServerUrl(expected)).toBe(expected);
  });

  it.each([
    ['', 'not-absolute', 'it is not an absolute URL'],
    ['chat.example.com', 'not-absolute', 'it is not an absolute URL'],
    ['http://', 'not-absolute', 'it is not an absolute URL'],
    ['ftp://example.com', 'not-http', 'only http and https are supported'],
    ['file:///etc/passwd', 'not-http', 'only http and https are supported'],
    ['https://user:pw@example.com', 'credentials', 'it must not contain a user name or password'],
    ['https://user@example.com', 'credentials', 'it must not contain a user name or password'],
  ])('rejects %j (%s)', (input, reason, text) => {
    let error: unknown;
    try {
      normalizeServerUrl(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidServerUrlError);
    expect(error).toMatchObject({ reason, message: `Not a server address: ${text}` });
    // The input (which may hold a password) is not repeated.
    if (input) expect((error as Error).message).not.toContain(input);
  });
});
