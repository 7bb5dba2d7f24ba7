/** The inbox model of the account in context, recomputed only when one of its slices changes. */
import { useMemo } from 'react';
import { useAccountState } from '../../stores/hooks';
import { type InboxModel, inboxModel } from './inbox';

export function useInbox(): InboxModel {
  const userId = useAccountState((a) => a.userId);
  const users = useAccountState((a) => a.users);
  const subscriptions = useAccountState((a) => a.subscriptions);
  const userTopics = useAccountState((a) => a.userTopics);
  const unreads = useAccountState((a) => a.unreads);
  return useMemo(
    () => inboxModel({ userId, users, subscriptions, userTopics, unreads }),
    [userId, users, subscriptions, userTopics, unreads],
  );
}
