import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../shared/ipc';
import { createTestBridge } from '../../test/testBridge';
import { followOutboxPushes, outboxQueryKey } from './outbox';

function item(localId: string, status: OutboxItem['status']): OutboxItem {
  return {
    localId,
    type: 'stream',
    to: [4],
    topic: 'lunch',
    content: `message ${localId}`,
    createdAt: 1,
    status,
    error: status === 'failed' ? 'Not allowed' : null,
    messageId: null,
  };
}

describe('outbox query cache', () => {
  it("writes each outbox.changed push into that account's list, until unsubscribed", async () => {
    const test = createTestBridge();
    const queryClient = new QueryClient();
    const stop = followOutboxPushes(queryClient, test.bridge);
    await queryClient.fetchQuery({
      queryKey: outboxQueryKey('acct-1'),
      queryFn: () => [item('a', 'queued')],
    });

    const pushed = [item('a', 'sending'), item('b', 'failed')];
    test.push('outbox.changed', { accountId: 'acct-1', items: pushed });
    expect(queryClient.getQueryData(outboxQueryKey('acct-1'))).toEqual(pushed);
    expect(queryClient.getQueryData(outboxQueryKey('acct-2'))).toBeUndefined();

    stop();
    expect(test.listenerCount('outbox.changed')).toBe(0);
  });

  it('follows once per query client however often it is asked', () => {
    const test = createTestBridge();
    const queryClient = new QueryClient();
    const first = followOutboxPushes(queryClient, test.bridge);
    const second = followOutboxPushes(queryClient, test.bridge);
    expect(second).toBe(first);
    expect(test.listenerCount('outbox.changed')).toBe(1);
    followOutboxPushes(new QueryClient(), test.bridge);
    expect(test.listenerCount('outbox.changed')).toBe(2);
  });
});
