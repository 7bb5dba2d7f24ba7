/** STUB (owned by the recent-conversations helper): replaced by the real view. */
export function RecentConversations() {
  return null;
}
