import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { localDraftFixture } from '../../test/fixtures';
import { createTestBridge } from '../../test/testBridge';
import { draftsQueryKey, followDraftPushes } from './drafts';

describe('drafts query cache', () => {
  it('writes each drafts.changed push into that account’s list, until unsubscribed', () => {
    const test = createTestBridge();
    const queryClient = new QueryClient();
    const stop = followDraftPushes(queryClient, test.bridge);
    const lunch = localDraftFixture('d1', 'Lunch?');

    test.push('drafts.changed', { accountId: 'acct-1', drafts: [lunch] });
    expect(queryClient.getQueryData(draftsQueryKey('acct-1'))).toEqual([lunch]);
    expect(queryClient.getQueryData(draftsQueryKey('acct-2'))).toBeUndefined();

    stop();
    expect(test.listenerCount('drafts.changed')).toBe(0);
  });

  it('replaces the list a query read with the pushed one', async () => {
    const test = createTestBridge();
    const queryClient = new QueryClient();
    followDraftPushes(queryClient, test.bridge);
    const read = [localDraftFixture('d1', 'Lunch?')];
    await queryClient.fetchQuery({ queryKey: draftsQueryKey('acct-1'), queryFn: () => read });

    const pushed = [localDraftFixture('d1', 'Lunch at noon?'), localDraftFixture('d2', '')];
    test.push('drafts.changed', { accountId: 'acct-1', drafts: pushed });
    expect(queryClient.getQueryData(draftsQueryKey('acct-1'))).toEqual(pushed);
  });
});
