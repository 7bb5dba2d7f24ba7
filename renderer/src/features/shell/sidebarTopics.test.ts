import { describe, expect, it } from 'vitest';
import { sidebarTopics } from './sidebarTopics';

const topics = [
  { name: 'a', max_id: 10 },
  { name: 'b', max_id: 90 },
  { name: 'c', max_id: 80 },
  { name: 'd', max_id: 70 },
  { name: 'e', max_id: 20 },
];

describe('sidebarTopics', () => {
  it('shows the newest few, then older ones only with unreads, newest first', () => {
    const unread = (t: string) => (t === 'a' ? 3 : 0);
    expect(sidebarTopics(topics, unread, undefined, 2).map((t) => [t.name, t.unread])).toEqual([
      ['b', 0],
      ['c', 0],
      ['a', 3],
    ]);
  });

  it('always shows the open topic, also one the list does not know yet (first)', () => {
    const none = () => 0;
    expect(sidebarTopics(topics, none, 'E', 2).map((t) => t.name)).toEqual(['b', 'c', 'e']);
    expect(sidebarTopics(topics, none, 'new one', 1).map((t) => t.name)).toEqual(['new one', 'b']);
  });
});
