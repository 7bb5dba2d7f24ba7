/** STUB (owned by the compose helper): replaced by the real screen. */
export function NewMessageScreen() {
  return null;
}
