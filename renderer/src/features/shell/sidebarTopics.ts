/**
 * Which topics the sidebar shows under the stream being read: the newest few, plus every topic
 * with unread messages (the newest of them first), and always the one open, each once
 * (names compared without regard to case), newest first.
 */
export interface SidebarTopic {
  name: string;
  maxId: number;
  unread: number;
}

export function sidebarTopics(
  topics: readonly { name: string; max_id: number }[],
  unreadOf: (topic: string) => number,
  current: string | undefined,
  newest = 5,
): SidebarTopic[] {
  const sorted = [...topics].sort((a, b) => b.max_id - a.max_id);
  const shown: SidebarTopic[] = [];
  const seen = new Set<string>();
  sorted.forEach((t, i) => {
    const key = t.name.toLowerCase();
    if (seen.has(key)) return;
    const unread = unreadOf(t.name);
    const isCurrent = current !== undefined && key === current.toLowerCase();
    if (i < newest || unread > 0 || isCurrent) {
      seen.add(key);
      shown.push({ name: t.name, maxId: t.max_id, unread });
    }
  });
  if (current !== undefined && !seen.has(current.toLowerCase()))
    shown.unshift({ name: current, maxId: Number.MAX_SAFE_INTEGER, unread: unreadOf(current) });
  return shown;
}
