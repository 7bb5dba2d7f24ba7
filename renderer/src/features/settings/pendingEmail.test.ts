import { afterEach, describe, expect, it } from 'vitest';
import {
  EMAIL_CONFIRMATION_LIFETIME_MS,
  type PendingEmail,
  setPendingEmail,
  stillPending,
  storedPendingEmail,
} from './pendingEmail';

const record: PendingEmail = { address: 'new@example.com', from: 'alice@example.com', sentAt: 1_000 };

describe('a pending email change', () => {
  afterEach(() => {
    setPendingEmail('a1', null);
    setPendingEmail('a2', null);
  });

  it('waits while the account keeps the address it asked from, however it is spelled', () => {
    expect(stillPending(record, 'alice@example.com', 2_000)).toBe(record);
    expect(stillPending(record, 'Alice@Example.com', 2_000)).toBe(record);
    expect(stillPending(null, 'alice@example.com', 2_000)).toBeNull();
  });

  it('ends when the address changes (the realm_user update with the new address)', () => {
    expect(stillPending(record, 'new@example.com', 2_000)).toBeNull();
    expect(stillPending(record, 'other@example.com', 2_000)).toBeNull();
  });

  it('ends when the confirmation link has expired (a day)', () => {
    expect(EMAIL_CONFIRMATION_LIFETIME_MS).toBe(86_400_000);
    expect(stillPending(record, 'alice@example.com', 1_000 + EMAIL_CONFIRMATION_LIFETIME_MS - 1)).toBe(
      record,
    );
    expect(stillPending(record, 'alice@example.com', 1_000 + EMAIL_CONFIRMATION_LIFETIME_MS)).toBeNull();
  });

  it('is kept per account', () => {
    setPendingEmail('a1', record);
    expect(storedPendingEmail('a1')).toEqual(record);
    expect(storedPendingEmail('a2')).toBeNull();
    const newer = { ...record, address: 'newer@example.com', sentAt: 5_000 };
    setPendingEmail('a1', newer);
    expect(storedPendingEmail('a1')).toEqual(newer);
    setPendingEmail('a1', null);
    expect(storedPendingEmail('a1')).toBeNull();
  });
});
