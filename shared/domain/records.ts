/** Small immutable helpers for the slices: records keyed by id, updated without copying twice. */

export type ById<T> = Readonly<Record<number, T>>;

export function byId<T>(items: readonly T[] | undefined, key: (item: T) => number): ById<T> {
  const out: Record<number, T> = {};
  for (const item of items ?? []) out[key(item)] = item;
  return out;
}

export function withEntry<T>(record: ById<T>, id: number, value: T): ById<T> {
  return record[id] === value ? record : { ...record, [id]: value };
}

export function withoutEntries<T>(record: ById<T>, ids: Iterable<number>): ById<T> {
  let out: Record<number, T> | null = null;
  for (const id of ids) {
    if (!Object.hasOwn(record, id)) continue;
    out ??= { ...record };
    delete out[id];
  }
  return out ?? record;
}

/** Applies `update` to every entry; keeps the record when no entry changed. */
export function mapEntries<T>(record: ById<T>, update: (item: T, id: number) => T): ById<T> {
  let out: Record<number, T> | null = null;
  for (const [key, item] of Object.entries(record) as [string, T][]) {
    const next = update(item, Number(key));
    if (next === item) continue;
    out ??= { ...record };
    out[Number(key)] = next;
  }
  return out ?? record;
}

export const sortedUnique = (ids: Iterable<number>): number[] => [...new Set(ids)].sort((a, b) => a - b);

/** `ids` without any of `drop`; the same array when nothing is dropped. */
export function removeIds(ids: readonly number[], drop: ReadonlySet<number>): readonly number[] {
  return ids.some((id) => drop.has(id)) ? ids.filter((id) => !drop.has(id)) : ids;
}
