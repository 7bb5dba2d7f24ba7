/**
 * A requested email change waiting for its confirmation link, per account: "Confirmation sent
 * to …" stays while the app runs, in every window (kept in localStorage, followed through the
 * `storage` event), however often the person leaves the section. It ends when the account's
 * address changes (the `realm_user` update with the new `delivery_email` reaches the store),
 * or when the link has expired (the service's links last a day).
 */
import { useEffect } from 'react';
import { create } from 'zustand';

export const PENDING_EMAIL_KEY_PREFIX = 'confab.pendingEmail.';
/** How long the service's confirmation link works. */
export const EMAIL_CONFIRMATION_LIFETIME_MS = 24 * 60 * 60_000;

export interface PendingEmail {
  /** The new address the link was sent to. */
  address: string;
  /** The address the account had when asking. */
  from: string;
  /** Epoch ms. */
  sentAt: number;
}

/** Whether `record` still waits, given the account's address now: null once it changed or the link expired. */
export function stillPending(
  record: PendingEmail | null | undefined,
  currentEmail: string,
  now: number,
): PendingEmail | null {
  if (!record) return null;
  if (record.from.toLowerCase() !== currentEmail.toLowerCase()) return null;
  if (now - record.sentAt >= EMAIL_CONFIRMATION_LIFETIME_MS) return null;
  return record;
}

const storageKey = (accountId: string) => `${PENDING_EMAIL_KEY_PREFIX}${accountId}`;

function parse(raw: string | null | undefined): PendingEmail | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PendingEmail>;
    return typeof value.address === 'string' &&
      typeof value.from === 'string' &&
      typeof value.sentAt === 'number'
      ? { address: value.address, from: value.from, sentAt: value.sentAt }
      : null;
  } catch {
    return null;
  }
}

/** What storage held when first asked (one object per account, as the store's selector needs). */
const firstRead = new Map<string, PendingEmail | null>();

function readStored(accountId: string): PendingEmail | null {
  if (!firstRead.has(accountId)) {
    let value: PendingEmail | null = null;
    try {
      value = parse(globalThis.localStorage?.getItem(storageKey(accountId)));
    } catch {
      // Storage unavailable: nothing kept.
    }
    firstRead.set(accountId, value);
  }
  return firstRead.get(accountId) ?? null;
}

interface PendingEmailState {
  /** Per account id, once set here or by another window; otherwise storage's first read counts. */
  byAccount: Readonly<Record<string, PendingEmail | null>>;
}

const usePendingEmailStore = create<PendingEmailState>()(() => ({ byAccount: {} }));

if (typeof window !== 'undefined') {
  // Another window asked for a change, or saw it end.
  window.addEventListener('storage', (event) => {
    if (event.key === null) {
      // Storage was cleared.
      firstRead.clear();
      usePendingEmailStore.setState({ byAccount: {} });
    } else if (event.key.startsWith(PENDING_EMAIL_KEY_PREFIX)) {
      const accountId = event.key.slice(PENDING_EMAIL_KEY_PREFIX.length);
      usePendingEmailStore.setState((s) => ({
        byAccount: { ...s.byAccount, [accountId]: parse(event.newValue) },
      }));
    }
  });
}

/** Records (or, with null, forgets) the account's pending change, for every window. */
export function setPendingEmail(accountId: string, record: PendingEmail | null): void {
  try {
    if (record === null) globalThis.localStorage?.removeItem(storageKey(accountId));
    else globalThis.localStorage?.setItem(storageKey(accountId), JSON.stringify(record));
  } catch {
    // Storage unavailable: this window still shows it.
  }
  usePendingEmailStore.setState((s) => ({ byAccount: { ...s.byAccount, [accountId]: record } }));
}

/** The account's pending change as stored (for code outside React and tests). */
export function storedPendingEmail(accountId: string): PendingEmail | null {
  const { byAccount } = usePendingEmailStore.getState();
  return accountId in byAccount ? (byAccount[accountId] ?? null) : readStored(accountId);
}

/** The account's change still waiting for its link, given its address now; forgets it once it ended. */
export function usePendingEmail(accountId: string, currentEmail: string): PendingEmail | null {
  const record = usePendingEmailStore((s) =>
    accountId in s.byAccount ? (s.byAccount[accountId] ?? null) : readStored(accountId),
  );
  const pending = currentEmail === '' ? null : stillPending(record, currentEmail, Date.now());
  const ended = record !== null && pending === null && currentEmail !== '';
  useEffect(() => {
    if (ended) setPendingEmail(accountId, null);
  }, [ended, accountId]);
  return pending;
}
