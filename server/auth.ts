/**
 * Credentials: password hashing (scrypt), API keys, and HTTP Basic authentication of REST
 * requests. Failures never tell an unknown email from a wrong key (no account enumeration).
 */
import { hash as digest, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from './db';
import { keptReadVersion, readsCommitted, watching, watchRows } from './db/realm-data';
import { BOT_TYPES, getUserByApiKey, getUserByEmail, type UserRow } from './db/users';
import { ApiFailure, accountDeactivated, badRequest, missingArgument, unauthorized } from './errors';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// 2^15 rounds with r=8 costs 32 MiB and tens of milliseconds: OWASP's scrypt baseline.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keylen: 32 };

function scryptOptions(N: number, r: number, p: number) {
  return { N, r, p, maxmem: 128 * N * r * p * 2 };
}

/**
 * The service's rule for new passwords: at least this many characters (register's
 * `password_min_length`). It estimates no guesses, so register's `password_min_guesses` is 0.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MIN_GUESSES = 0;

/** `scrypt$N$r$p$salt$hash`, base64url parts; the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p, keylen } = SCRYPT;
  const hash = await scryptAsync(password, salt, keylen, scryptOptions(N, r, p));
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$');
  if (parts?.length !== 6 || parts[0] !== 'scrypt') {
    // Spend the same time as a real check, so "no such user" is not faster than "wrong password".
    await hashPassword(password);
    return false;
  }
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(
    password,
    Buffer.from(salt, 'base64url'),
    expected.length,
    scryptOptions(Number(n), Number(r), Number(p)),
  );
  return timingSafeEqual(actual, expected);
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 32 random alphanumerics (~190 bits): safe in Basic auth, query strings and file names. */
export function generateApiKey(length = 32): string {
  let key = '';
  for (let i = 0; i < length; i++) key += KEY_ALPHABET.charAt(randomInt(KEY_ALPHABET.length));
  return key;
}

/**
 * Equal-length digests make the comparison constant-time whatever the inputs' lengths. Every
 * authenticated request runs this: the one-shot `crypto.hash` costs half of a `createHash`.
 */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest('sha256', a, 'buffer'), digest('sha256', b, 'buffer'));
}

const NO_KEY = generateApiKey();

/** Parses `Authorization: Basic base64(email:api_key)`; null when the header is absent. */
export function parseBasicAuth(header: string | undefined): { username: string; password: string } | null {
  if (header === undefined || header.trim() === '') return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match?.[1]) throw unauthorized('Invalid authorization header for basic auth');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthorized('Invalid authorization header for basic auth');
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Authenticates a REST API request. 401 UNAUTHORIZED for missing, malformed or wrong
 * credentials (a key of another user is just a wrong key), and for a deactivated user once
 * the key has matched ("Account is deactivated"): NOTES.md keeps the USER_DEACTIVATED code
 * for the webhook and fetch_api_key paths. A header that authenticated is kept with its user
 * (KeptLogins): the client's next requests find it without reading or comparing anything.
 */
export function authenticateRequest(db: Db, realmId: number, header: string | undefined): UserRow {
  const logins = keptLogins(db);
  const kept = header === undefined ? undefined : logins?.find(header);
  if (kept !== undefined && kept.realm_id === realmId) return kept;
  const credentials = parseBasicAuth(header);
  if (!credentials) throw unauthorized('Not logged in: API authentication required');
  const user = getUserByEmail(db, realmId, credentials.username);
  const keyMatches = secretsEqual(credentials.password, user?.api_key ?? NO_KEY);
  if (!user || !keyMatches) throw unauthorized('Invalid API key');
  if (!user.is_active) throw accountDeactivated();
  if (user.bot_type === BOT_TYPES.incomingWebhook) {
    throw badRequest('This API is not available to incoming webhook bots.');
  }
  return logins?.keep(header as string, user) ?? user;
}

/** Authenticated headers a connection keeps: each holds a user's row, a kilobyte or two. */
const KEPT_LOGINS = 10_000;

/**
 * The users of Authorization headers that authenticated (active users who are not incoming
 * webhooks), as authenticateRequest found them. Any write of a user's row drops the user's
 * headers before the next request; a write that may change whom an address finds (a user
 * added, removed or given another address), or another connection's commit, drops them all.
 * Kept rows are shared by requests: no one may change them.
 */
class KeptLogins {
  private readonly users = new Map<string, UserRow>();
  private readonly headersOf = new Map<number, string[]>();
  /** data_version when they were kept: another connection's commit drops them. */
  private version = -1;

  constructor(private readonly db: Db) {
    watchRows(db, 'user_rows', (userId) => this.forget(userId));
    watchRows(db, 'user_logins', () => this.clear());
  }

  find(header: string): UserRow | undefined {
    const version = keptReadVersion(this.db);
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
    return this.users.get(header);
  }

  /** Keeps the user of a header, unless it was read in a transaction that may still roll back. */
  keep(header: string, user: UserRow): UserRow {
    if (!readsCommitted(this.db)) return user;
    if (this.users.has(header)) this.drop(header);
    if (this.users.size >= KEPT_LOGINS) {
      const oldest = this.users.keys().next().value;
      if (oldest !== undefined) this.drop(oldest);
    }
    const kept = Object.freeze(user);
    this.users.set(header, kept);
    const headers = this.headersOf.get(user.id);
    if (headers) headers.push(header);
    else this.headersOf.set(user.id, [header]);
    return kept;
  }

  private drop(header: string): void {
    const user = this.users.get(header);
    this.users.delete(header);
    if (!user) return;
    const rest = this.headersOf.get(user.id)?.filter((h) => h !== header) ?? [];
    if (rest.length > 0) this.headersOf.set(user.id, rest);
    else this.headersOf.delete(user.id);
  }

  private forget(userId: number): void {
    for (const header of this.headersOf.get(userId) ?? []) this.users.delete(header);
    this.headersOf.delete(userId);
  }

  private clear(): void {
    this.users.clear();
    this.headersOf.clear();
  }
}

const logins = new WeakMap<Db, KeptLogins>();

/** The connection's KeptLogins; none while its writes cannot be watched yet. */
function keptLogins(db: Db): KeptLogins | undefined {
  let kept = logins.get(db);
  if (kept === undefined && watching(db)) {
    kept = new KeptLogins(db);
    logins.set(db, kept);
  }
  return kept;
}

/** POST /fetch_api_key: the user for these login credentials, or the family's 401s. */
export async function authenticatePassword(db: Db, realmId: number, username: string, password: string) {
  const user = getUserByEmail(db, realmId, username);
  const ok = await verifyPassword(password, user?.password_hash ?? null);
  if (!user || !ok) {
    throw new ApiFailure(401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  }
  if (!user.is_active) throw new ApiFailure(401, 'USER_DEACTIVATED', 'Account is deactivated');
  return user;
}

/**
 * Incoming webhooks (POST /external/...): the key of an incoming-webhook bot, from the
 * `api_key` parameter, or from HTTP Basic for integrations that declare it. The family's
 * webhook codes: 401 INVALID_API_KEY for an unknown key, 401 USER_DEACTIVATED.
 */
export function authenticateWebhook(
  db: Db,
  realmId: number,
  request: { apiKey: string | undefined; authorization: string | undefined; allowBasic: boolean },
): UserRow {
  let user: UserRow | undefined;
  let apiKey = request.apiKey;
  const basic = request.allowBasic ? parseBasicAuth(request.authorization) : null;
  if (basic) {
    const candidate = getUserByEmail(db, realmId, basic.username);
    if (candidate && secretsEqual(basic.password, candidate.api_key)) user = candidate;
    apiKey = basic.password;
  } else {
    if (apiKey === undefined) throw missingArgument('api_key');
    user = getUserByApiKey(db, realmId, apiKey);
  }
  if (!user || !secretsEqual(apiKey ?? '', user.api_key)) {
    throw new ApiFailure(401, 'INVALID_API_KEY', 'Invalid API key');
  }
  if (!user.is_active) throw new ApiFailure(401, 'USER_DEACTIVATED', 'Account is deactivated');
  if (user.bot_type !== BOT_TYPES.incomingWebhook) {
    throw badRequest('This API is only available to incoming webhook bots.');
  }
  return user;
}
