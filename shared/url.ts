/**
 * The one spelling of a chat server's address, used wherever server URLs are stored or compared
 * (the core's accounts and their ids, the launcher's --server, the sign-in screen), so that the
 * same server is the same string everywhere.
 */

/**
 * The part of the WHATWG URL read here. shared/ is compiled without DOM or Node types, so the
 * global is declared locally; every runtime that runs this code (Node, Chromium) has it.
 */
interface WhatwgUrl {
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  readonly origin: string;
  readonly pathname: string;
}
declare const URL: new (input: string) => WhatwgUrl;

/** Why an address was refused; `credentials` matters to callers that must not echo the input. */
export type InvalidServerUrlReason = 'not-absolute' | 'not-http' | 'no-host' | 'credentials';

const REASON_TEXT: Record<InvalidServerUrlReason, string> = {
  'not-absolute': 'it is not an absolute URL',
  'not-http': 'only http and https are supported',
  'no-host': 'it names no host',
  credentials: 'it must not contain a user name or password',
};

/** The message never repeats the input, which may hold a password. */
export class InvalidServerUrlError extends Error {
  override readonly name = 'InvalidServerUrlError';
  constructor(readonly reason: InvalidServerUrlReason) {
    super(`Not a server address: ${REASON_TEXT[reason]}`);
  }
}

/**
 * "https://Chat.example.com:443/team//?q#x" -> "https://chat.example.com/team": the origin
 * (scheme and host lower-cased, default port dropped) and the path without trailing slashes.
 * A query or fragment is dropped (a pasted page address still names its server); anything that
 * is not an absolute http(s) URL with a host, or that carries user:password, throws an
 * InvalidServerUrlError. Idempotent: a normalized URL normalizes to itself.
 */
export function normalizeServerUrl(input: string): string {
  let url: WhatwgUrl;
  try {
    url = new URL(input.trim());
  } catch {
    throw new InvalidServerUrlError('not-absolute');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidServerUrlError('not-http');
  if (url.hostname === '') throw new InvalidServerUrlError('no-host');
  // user:password@host is a phishing device, and the API key is the only credential we send.
  if (url.username !== '' || url.password !== '') throw new InvalidServerUrlError('credentials');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
