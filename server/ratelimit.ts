/**
 * Rate limits with the interface family's defaults (NOTES.md): 200 requests / 60 s per user,
 * 100 / 60 s per IP address for unauthenticated requests, 5 failed logins per username / 30 min,
 * and the family's rule for email changes (each mails an address the user chose): 2 an hour
 * and 5 a day per user.
 *
 * Sliding-log limiters in memory: one process serves the organization, and limits need not
 * survive a restart. Every limited response carries X-RateLimit-Limit / -Remaining / -Reset
 * (epoch seconds when the whole allowance is back); a refusal is 429 RATE_LIMIT_HIT with
 * Retry-After.
 */
import type { FastifyReply } from 'fastify';
import { ApiFailure } from './errors';

export interface RateLimitOptions {
  /** Requests per window and authenticated user; 0 turns the limit off. */
  user: number;
  /** Requests per window and IP address, for unauthenticated requests; 0 turns it off. */
  ip: number;
  windowSeconds: number;
  /** Failed password logins per username and login window; 0 turns it off. */
  loginFailures: number;
  loginWindowSeconds: number;
  /** Email changes started per user per hour and per day; 0 turns the rule off. */
  emailChangesPerHour: number;
  emailChangesPerDay: number;
}

export const RATE_LIMIT_DEFAULTS: RateLimitOptions = {
  user: 200,
  ip: 100,
  windowSeconds: 60,
  loginFailures: 5,
  loginWindowSeconds: 30 * 60,
  emailChangesPerHour: 2,
  emailChangesPerDay: 5,
};

export interface LimitStatus {
  limit: number;
  remaining: number;
  /** Epoch seconds when the allowance is whole again. */
  reset: number;
  /** Seconds to wait before the next request can succeed; 0 when not blocked. */
  retryAfter: number;
}

export class SlidingLimiter {
  private readonly log = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  /** The key's recent hits, pruned; sweeps idle keys once a window so memory stays bounded. */
  private recent(key: string, now: number): number[] {
    if (now - this.lastSweep > this.windowMs) {
      this.lastSweep = now;
      for (const [k, times] of this.log) {
        if ((times[times.length - 1] ?? 0) <= now - this.windowMs) this.log.delete(k);
      }
    }
    const times = (this.log.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (times.length > 0) this.log.set(key, times);
    else this.log.delete(key);
    return times;
  }

  private status(times: number[], now: number, blocked: boolean): LimitStatus {
    const newest = times[times.length - 1];
    const oldest = times[0] ?? now;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - times.length),
      reset: Math.ceil(((newest ?? now) + (newest === undefined ? 0 : this.windowMs)) / 1000),
      retryAfter: blocked ? Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) : 0,
    };
  }

  /** Without counting: would the key's next hit be refused? */
  peek(key: string, now = Date.now()): LimitStatus {
    const times = this.recent(key, now);
    return this.status(times, now, times.length >= this.limit);
  }

  /** Counts one hit; refused hits (retryAfter > 0) are not counted. */
  hit(key: string, now = Date.now()): LimitStatus {
    const times = this.recent(key, now);
    if (times.length >= this.limit) return this.status(times, now, true);
    times.push(now);
    this.log.set(key, times);
    return this.status(times, now, false);
  }
}

export class RateLimits {
  readonly user: SlidingLimiter;
  readonly ip: SlidingLimiter;
  readonly login: SlidingLimiter;
  readonly emailChanges: SlidingLimiter[];

  constructor(options: RateLimitOptions = RATE_LIMIT_DEFAULTS) {
    this.user = new SlidingLimiter(options.user, options.windowSeconds * 1000);
    this.ip = new SlidingLimiter(options.ip, options.windowSeconds * 1000);
    this.login = new SlidingLimiter(options.loginFailures, options.loginWindowSeconds * 1000);
    this.emailChanges = [
      new SlidingLimiter(options.emailChangesPerHour, 3600 * 1000),
      new SlidingLimiter(options.emailChangesPerDay, 86400 * 1000),
    ].filter((l) => l.enabled);
  }
}

export function rateLimitHeaders(status: LimitStatus): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(status.limit),
    'X-RateLimit-Remaining': String(status.remaining),
    'X-RateLimit-Reset': String(status.reset),
  };
}

export function rateLimitHit(status: LimitStatus): ApiFailure {
  return new ApiFailure(
    429,
    'RATE_LIMIT_HIT',
    'API usage exceeded rate limit',
    { 'retry-after': status.retryAfter },
    { ...rateLimitHeaders(status), 'Retry-After': String(status.retryAfter) },
  );
}

/**
 * Requests the limits never count. GET /events: the app long-polls without pause (and
 * re-polls at once after every event batch), so counting polls would let a busy
 * organization's event stream alone exhaust the per-user allowance; a poll is cheap and
 * bounded by the queue anyway.
 */
const EXEMPT = new Set(['GET /events']);

export function isExempt(method: string, path: string): boolean {
  return EXEMPT.has(`${method} ${path}`);
}

/**
 * Counts one API request against the user's limit (or the IP's when `userId` is null), sets
 * the X-RateLimit headers on the reply, and throws 429 when the limit is used up.
 */
export function limitRequest(
  limits: RateLimits,
  reply: FastifyReply,
  key: { userId: number } | { ip: string },
): void {
  const limiter = 'userId' in key ? limits.user : limits.ip;
  if (!limiter.enabled) return;
  const status = limiter.hit('userId' in key ? `user:${key.userId}` : `ip:${key.ip}`);
  if (status.retryAfter > 0) throw rateLimitHit(status);
  reply.headers(rateLimitHeaders(status));
}

/**
 * Failed logins per username (case-insensitive, known or not, so it tells nothing about
 * which accounts exist). While blocked, even the right password is refused.
 */
export function checkLoginAllowed(limits: RateLimits, username: string): void {
  if (!limits.login.enabled) return;
  const status = limits.login.peek(loginKey(username));
  if (status.retryAfter > 0) throw rateLimitHit(status);
}

export function recordLoginFailure(limits: RateLimits, username: string): void {
  if (limits.login.enabled) limits.login.hit(loginKey(username));
}

/** Seconds until the username may try again; 0 when it may now. */
export function loginRetryAfter(limits: RateLimits, username: string): number {
  return limits.login.enabled ? limits.login.peek(loginKey(username)).retryAfter : 0;
}

const loginKey = (username: string) => username.trim().toLowerCase();

/** Throws 429 when the user may not start another email change now. */
export function checkEmailChangeAllowed(limits: RateLimits, userId: number): void {
  for (const limiter of limits.emailChanges) {
    const status = limiter.peek(`user:${userId}`);
    if (status.retryAfter > 0) throw rateLimitHit(status);
  }
}

export function recordEmailChange(limits: RateLimits, userId: number): void {
  for (const limiter of limits.emailChanges) limiter.hit(`user:${userId}`);
}
