/**
 * Local echo, generalized: an overlay of writes in flight over the server's values, keyed by
 * what is written ("color_scheme", "12:is_muted"). A write shows at once, settles when the
 * server's event brings the same value (or its answer says the value is already there), and a
 * failed write drops its overlay. The server's values are never edited locally, so a rollback
 * is just forgetting the overlay.
 */
export interface PendingWrite<V> {
  value: V;
  /** Which write this is; an answer to an older request never touches a newer one. */
  seq: number;
  /** The server accepted it; we still wait for its event (or a fresh snapshot). */
  acknowledged: boolean;
}

export type Overlay<V> = Readonly<Record<string, PendingWrite<V>>>;

export function echoWrite<V>(overlay: Overlay<V>, key: string, value: V, seq: number): Overlay<V> {
  return { ...overlay, [key]: { value, seq, acknowledged: false } };
}

/**
 * The server accepted write `seq`. If it already holds that value (the server sends no event
 * for a change that changes nothing) the overlay is done; otherwise its event settles it.
 */
export function acknowledgeWrite<V>(
  overlay: Overlay<V>,
  key: string,
  seq: number,
  serverValue: unknown,
): Overlay<V> {
  const entry = overlay[key];
  if (!entry || entry.seq !== seq) return overlay;
  if (serverValue === entry.value) return without(overlay, key);
  return { ...overlay, [key]: { ...entry, acknowledged: true } };
}

/** Write `seq` failed: drop its overlay, unless a newer write replaced it. */
export function rollbackWrite<V>(overlay: Overlay<V>, key: string, seq: number): Overlay<V> {
  return overlay[key]?.seq === seq ? without(overlay, key) : overlay;
}

/** The server's event says `key` is now `serverValue`: our own write came back. */
export function settleWrite<V>(overlay: Overlay<V>, key: string, serverValue: unknown): Overlay<V> {
  return overlay[key] && overlay[key].value === serverValue ? without(overlay, key) : overlay;
}

/**
 * A fresh snapshot carries every write the server acknowledged; writes still in flight stay
 * visible until their answer comes.
 */
export function keepInFlight<V>(overlay: Overlay<V>): Overlay<V> {
  const kept: Record<string, PendingWrite<V>> = {};
  for (const [key, entry] of Object.entries(overlay)) if (!entry.acknowledged) kept[key] = entry;
  return kept;
}

function without<V>(overlay: Overlay<V>, key: string): Overlay<V> {
  const { [key]: _removed, ...rest } = overlay;
  return rest;
}
