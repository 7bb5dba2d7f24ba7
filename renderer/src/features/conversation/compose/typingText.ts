/** The typing indicator's words. */

/** "Alice is typing…", "Alice and Bob are typing…", "Alice, Bob and Carol are typing…", then "Several people…". */
export function typingText(names: readonly string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length > 3) return 'Several people are typing…';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are typing…`;
}
