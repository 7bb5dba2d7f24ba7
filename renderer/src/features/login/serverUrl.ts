import { InvalidServerUrlError, normalizeServerUrl as normalizeAbsolute } from '../../../../shared/url';

/**
 * What the user typed as the server's address, as the URL the main process expects: a scheme is
 * added when missing (https, or http for this machine), then shared/url.ts normalizes it like
 * everywhere else (no credentials, no query or fragment, no trailing slash). Null when it cannot
 * be a server's address.
 */
export function normalizeServerUrl(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/i.test(text);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `${local ? 'http' : 'https'}://${text}`;
  try {
    return normalizeAbsolute(withScheme);
  } catch (error) {
    if (error instanceof InvalidServerUrlError) return null;
    throw error;
  }
}
