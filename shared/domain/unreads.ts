/**
 * The unread messages substore. The register's `unread_msgs` groups ids by conversation; we
 * keep both views: where each unread message lives (by id, for reads, deletions and moves) and
 * the unread ids of each conversation (stream and topic, one-to-one, group), from which every
 * count is derived without a pass over all the unreads (selectors.ts).
 *
 * The state is immutable, yet a batch costs what the batch touches, not what the account holds:
 * the by-id view is a persistent map (`IdMap`, a trie that shares every node a change does not
 * touch), and of the per-conversation view a batch copies only the conversations it changes and
 * the (small) maps above them. All the changes of one event, or of a run of new messages, go
 * through one `UnreadsDraft`, so each touched part is copied once per batch, not once per
 * message. (A record of 50 000 numeric keys takes about 80 ms to copy; this substore used to
 * copy one per new message, and per id of a message marked unread.) A draft still works id by
 * id; a large batch marked read, unread or deleted (thousands of ids, as "mark all as read" in
 * a busy stream gives) skips it: `readMany` and `unreadMany` below touch each id once and
 * rebuild each changed conversation once.
 */
import type { EventOf } from '../protocol';
import { sortedUnique } from './records';

// ---- IdMap: a persistent map keyed by message id --------------------------------------------

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;
/** The trie holds ids 0 ≤ id < 2^31 (all a server gives); any other key goes in a plain map. */
const TRIE_END = 2 ** 31;

interface TrieNode {
  /** The draft that created the node and may still change it in place. */
  owner: object;
  /** Below level 0, child nodes; at level 0, the values. */
  slots: unknown[];
  /** How many slots are set, so that an emptied node is dropped without a scan. */
  filled: number;
}

interface Trie<V> {
  root: TrieNode | null;
  /** The bit shift of the root's level (0 when the root holds values). */
  shift: number;
  size: number;
  /** Keys outside the trie's range (negative, fractional, or ≥ 2^31): never seen in practice. */
  extra: ReadonlyMap<number, V>;
}

const inTrie = (id: number): boolean => id >>> 0 === id && id < TRIE_END;

function lookup(
  root: TrieNode | null,
  rootShift: number,
  extra: ReadonlyMap<number, unknown>,
  id: number,
): unknown {
  if (!inTrie(id)) return extra.get(id);
  // A root at shift 30 covers every id below 2^31; a lower one, ids below 2^(shift + 5).
  if (root === null || (rootShift < 30 && id >= 1 << (rootShift + BITS))) return undefined;
  let node: TrieNode | undefined = root;
  for (let shift = rootShift; shift > 0 && node !== undefined; shift -= BITS)
    node = node.slots[(id >>> shift) & MASK] as TrieNode | undefined;
  return node?.slots[id & MASK];
}

function walk(node: TrieNode, shift: number, prefix: number, visit: (value: unknown, id: number) => void) {
  for (let i = 0; i < WIDTH; i++) {
    const slot = node.slots[i];
    if (slot === undefined) continue;
    const id = prefix + i * 2 ** shift;
    if (shift === 0) visit(slot, id);
    else walk(slot as TrieNode, shift - BITS, id, visit);
  }
}

// The draft reads and builds maps through these (set in IdMap's static block), so that the
// map's fields stay private: equality (a test's toEqual) sees a map's entries, never its nodes.
let trieOf: <V>(map: IdMap<V>) => Trie<V>;
let mapOf: <V>(trie: Trie<V>) => IdMap<V>;

/**
 * A persistent map from message id to value: reading is a walk of at most seven small arrays,
 * and a change copies only the nodes on its path (`IdMapDraft`), so the old map stays as it
 * was and a new one costs what changed. Iteration is in ascending id order, whatever order the
 * entries came in, so two maps with the same entries iterate (and compare) alike.
 */
export class IdMap<V> implements Iterable<[number, V]> {
  readonly #trie: Trie<V>;

  private constructor(trie: Trie<V>) {
    this.#trie = trie;
  }

  static {
    trieOf = <V>(map: IdMap<V>) => map.#trie;
    mapOf = <V>(trie: Trie<V>) => new IdMap(trie);
  }

  static empty<V>(): IdMap<V> {
    return EMPTY_ID_MAP as IdMap<V>;
  }

  static from<V>(entries: Iterable<readonly [number, V]>): IdMap<V> {
    const draft = new IdMapDraft(IdMap.empty<V>());
    for (const [id, value] of entries) draft.set(id, value);
    return draft.finish();
  }

  get size(): number {
    return this.#trie.size;
  }

  get(id: number): V | undefined {
    const { root, shift, extra } = this.#trie;
    return lookup(root, shift, extra, id) as V | undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Every entry, in ascending id order. */
  forEach(visit: (value: V, id: number) => void): void {
    const { root, shift, extra } = this.#trie;
    const each = visit as (value: unknown, id: number) => void;
    if (extra.size === 0) {
      if (root !== null) walk(root, shift, 0, each);
      return;
    }
    // Keys outside the trie: everything sorted together (a case no server gives).
    const all: [number, unknown][] = [...extra];
    if (root !== null) walk(root, shift, 0, (value, id) => all.push([id, value]));
    all.sort((a, b) => a[0] - b[0]);
    for (const [id, value] of all) each(value, id);
  }

  /** The ids, ascending. */
  ids(): number[] {
    const out: number[] = [];
    this.forEach((_, id) => {
      out.push(id);
    });
    return out;
  }

  [Symbol.iterator](): Iterator<[number, V]> {
    const out: [number, V][] = [];
    this.forEach((value, id) => {
      out.push([id, value]);
    });
    return out[Symbol.iterator]();
  }
}

const EMPTY_ID_MAP: IdMap<never> = mapOf<never>({
  root: null,
  shift: 0,
  size: 0,
  extra: new Map<number, never>(),
});

/**
 * Changes to an IdMap, made in place on the nodes this draft created and on copies of the
 * others (taken on first write), so a batch of n changes copies each touched node once.
 * `finish` gives the new map; the draft may go on afterwards without changing it.
 */
export class IdMapDraft<V> {
  private owner: object = {};
  private root: TrieNode | null;
  private shift: number;
  private count: number;
  private extra: ReadonlyMap<number, V>;
  private extraOwned = false;
  /** delete's path from the root, kept between calls (a batch deletes thousands). */
  private readonly path: TrieNode[] = [];

  constructor(from: IdMap<V>) {
    const trie = trieOf(from);
    this.root = trie.root;
    this.shift = trie.shift;
    this.count = trie.size;
    this.extra = trie.extra;
  }

  get size(): number {
    return this.count;
  }

  get(id: number): V | undefined {
    return lookup(this.root, this.shift, this.extra, id) as V | undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, value: V): void {
    if (!inTrie(id)) {
      const extra = this.writableExtra();
      if (!extra.has(id)) this.count++;
      extra.set(id, value);
      return;
    }
    let node = this.writable(this.reach(id));
    this.root = node;
    for (let shift = this.shift; shift > 0; shift -= BITS) {
      const i = (id >>> shift) & MASK;
      const child = node.slots[i] as TrieNode | undefined;
      let next: TrieNode;
      if (child === undefined) {
        next = this.node();
        node.filled++;
      } else {
        next = this.writable(child);
      }
      node.slots[i] = next;
      node = next;
    }
    const i = id & MASK;
    if (node.slots[i] === undefined) {
      node.filled++;
      this.count++;
    }
    node.slots[i] = value;
  }

  /**
   * Sets ids[k] to values[k] for k < n (ids ascending strictly, all in the trie's range) and
   * gives the value each had before in olds[k]: one descent of the trie for the lot, each node
   * visited once, and copied only when a value under it changes.
   */
  setMany(ids: ArrayLike<number>, values: readonly V[], n: number, olds: (V | undefined)[]): void {
    if (n === 0) return;
    this.root = this.setIn(this.reach(ids[n - 1] as number), this.shift, ids, values, olds, 0, n);
  }

  /** The root, first made tall enough to hold `id` (in the trie's range). */
  private reach(id: number): TrieNode {
    if (this.root === null) {
      this.root = this.node();
      this.shift = 0;
    }
    while (this.shift < 30 && id >= 1 << (this.shift + BITS)) {
      const taller = this.node();
      taller.slots[0] = this.root;
      taller.filled = 1;
      this.root = taller;
      this.shift += BITS;
    }
    return this.root;
  }

  /** Sets ids[from, to) (all under `node`, or where it would be); the node after. */
  private setIn(
    node: TrieNode | undefined,
    shift: number,
    ids: ArrayLike<number>,
    values: readonly V[],
    olds: (V | undefined)[],
    from: number,
    to: number,
  ): TrieNode {
    let out: TrieNode | null = node === undefined ? this.node() : null;
    const slots = (out ?? (node as TrieNode)).slots;
    let i = from;
    while (i < to) {
      const slot = ((ids[i] as number) >>> shift) & MASK;
      if (shift === 0) {
        const value = values[i] as V;
        const old = (out === null ? slots : out.slots)[slot] as V | undefined;
        olds[i] = old;
        if (old !== value) {
          out ??= this.writable(node as TrieNode);
          if (old === undefined) {
            out.filled++;
            this.count++;
          }
          out.slots[slot] = value;
        }
        i++;
        continue;
      }
      let j = i + 1;
      while (j < to && (((ids[j] as number) >>> shift) & MASK) === slot) j++;
      const child = (out === null ? slots : out.slots)[slot] as TrieNode | undefined;
      const next = this.setIn(child, shift - BITS, ids, values, olds, i, j);
      if (next !== child) {
        out ??= this.writable(node as TrieNode);
        if (child === undefined) out.filled++;
        out.slots[slot] = next;
      }
      i = j;
    }
    return out ?? (node as TrieNode);
  }

  delete(id: number): boolean {
    return this.take(id) !== undefined;
  }

  /** Deletes the entry of `id` and gives its value (undefined when there was none). */
  take(id: number): V | undefined {
    const value = this.get(id);
    if (value === undefined) return undefined;
    this.count--;
    if (!inTrie(id)) {
      this.writableExtra().delete(id);
      return value;
    }
    // The path from the root, each node made writable; then emptied nodes are cut off bottom up.
    const path = this.path;
    let depth = 0;
    let node = this.writable(this.root as TrieNode);
    this.root = node;
    for (let shift = this.shift; shift > 0; shift -= BITS) {
      path[depth++] = node;
      const i = (id >>> shift) & MASK;
      const child = this.writable(node.slots[i] as TrieNode);
      node.slots[i] = child;
      node = child;
    }
    node.slots[id & MASK] = undefined;
    node.filled--;
    for (let level = depth - 1, shift = BITS; level >= 0 && node.filled === 0; level--, shift += BITS) {
      const parent = path[level] as TrieNode;
      parent.slots[(id >>> shift) & MASK] = undefined;
      parent.filled--;
      node = parent;
    }
    if ((this.root as TrieNode).filled === 0) {
      this.root = null;
      this.shift = 0;
    }
    return value;
  }

  /**
   * Deletes the entries of `ids`, calling `deleted` for each one there was. Ascending ids (as
   * the server lists them) go down the trie once per node rather than once per id.
   */
  deleteMany(ids: readonly number[], deleted: (value: V, id: number) => void): void {
    let ascending = true;
    let allInTrie = true;
    for (let i = 0; i < ids.length && ascending; i++) {
      if (i > 0) ascending = (ids[i] as number) > (ids[i - 1] as number);
      if (!inTrie(ids[i] as number)) allInTrie = false;
    }
    let inRange = ids;
    if (!ascending || !allInTrie) {
      const rest: number[] = [];
      for (const id of ids) {
        if (ascending && inTrie(id)) {
          rest.push(id);
          continue;
        }
        const value = this.take(id);
        if (value !== undefined) deleted(value, id);
      }
      inRange = rest;
    }
    if (this.root === null || inRange.length === 0) return;
    // Ids beyond the root's reach are not here (they are last: the ids ascend).
    let end = inRange.length;
    if (this.shift < 30) while (end > 0 && (inRange[end - 1] as number) >= 1 << (this.shift + BITS)) end--;
    const root = this.deleteIn(this.root, this.shift, inRange, 0, end, deleted);
    this.root = root ?? null;
    if (root === undefined) this.shift = 0;
  }

  /** Deletes ids[from, to) (ascending, all under `node`); the node after, undefined when emptied. */
  private deleteIn(
    node: TrieNode,
    shift: number,
    ids: readonly number[],
    from: number,
    to: number,
    deleted: (value: V, id: number) => void,
  ): TrieNode | undefined {
    let out: TrieNode | null = null;
    let i = from;
    while (i < to) {
      const slot = ((ids[i] as number) >>> shift) & MASK;
      let j = i + 1;
      while (j < to && (((ids[j] as number) >>> shift) & MASK) === slot) j++;
      const child = node.slots[slot];
      if (child !== undefined) {
        const next =
          shift === 0 ? undefined : this.deleteIn(child as TrieNode, shift - BITS, ids, i, j, deleted);
        if (shift === 0) {
          this.count--;
          deleted(child as V, ids[i] as number);
        }
        if (next !== child) {
          out ??= this.writable(node);
          out.slots[slot] = next;
          if (next === undefined) out.filled--;
        }
      }
      i = j;
    }
    if (out === null) return node;
    return out.filled === 0 ? undefined : out;
  }

  /** The map as changed so far. Later changes copy again, so it stays as it is. */
  finish(): IdMap<V> {
    this.owner = {};
    this.extraOwned = false;
    return mapOf<V>({ root: this.root, shift: this.shift, size: this.count, extra: this.extra });
  }

  private node(): TrieNode {
    return { owner: this.owner, slots: new Array<unknown>(WIDTH).fill(undefined), filled: 0 };
  }

  private writable(node: TrieNode): TrieNode {
    return node.owner === this.owner
      ? node
      : { owner: this.owner, slots: node.slots.slice(), filled: node.filled };
  }

  private writableExtra(): Map<number, V> {
    if (!this.extraOwned) {
      this.extra = new Map(this.extra);
      this.extraOwned = true;
    }
    return this.extra as Map<number, V>;
  }
}

// ---- the unread state -----------------------------------------------------------------------

export type StreamLocation = { kind: 'stream'; streamId: number; topic: string };
export type PrivateLocation =
  | { kind: 'pm'; userId: number }
  /** A group private conversation: every participant's id, ours included, sorted, comma-joined. */
  | { kind: 'huddle'; userIds: string };
export type UnreadLocation = StreamLocation | PrivateLocation;

/** One conversation's unread messages. */
export interface UnreadConversation<L extends UnreadLocation = UnreadLocation> {
  /** Where they are (the object every one of its entries in `messages` holds). */
  readonly location: L;
  /** Their ids, ascending; never empty. */
  readonly ids: readonly number[];
}

/** One stream's unread messages, by topic as the messages name it (the case kept). */
export interface StreamUnreads {
  /** Of all its topics. */
  readonly count: number;
  readonly topics: ReadonlyMap<string, UnreadConversation<StreamLocation>>;
}

export interface UnreadState {
  /** Where each unread message lives, by id. */
  readonly messages: IdMap<UnreadLocation>;
  /** Stream messages, by stream id (streams without unreads are absent). */
  readonly streams: ReadonlyMap<number, StreamUnreads>;
  /** One-to-one and group conversations, by `privateKey` ('pm:<id>', 'huddle:<ids>'). */
  readonly privates: ReadonlyMap<string, UnreadConversation<PrivateLocation>>;
  /** Unread messages that mention the user (sorted). */
  readonly mentions: readonly number[];
}

/** A private conversation's key in `UnreadState.privates`. */
export const privateKey = (where: PrivateLocation): string =>
  where.kind === 'pm' ? `pm:${where.userId}` : `huddle:${where.userIds}`;

const EMPTY: UnreadState = {
  messages: IdMap.empty(),
  streams: new Map(),
  privates: new Map(),
  mentions: [],
};

/** A state holding exactly these unread messages (tests and fixtures build theirs with it). */
export function unreadsFromLocations(
  messages: Readonly<Record<number, UnreadLocation>>,
  mentions: readonly number[] = [],
): UnreadState {
  const draft = new UnreadsDraft(EMPTY);
  for (const [id, where] of Object.entries(messages)) draft.add(Number(id), where, false);
  draft.replaceMentions(sortedUnique(mentions));
  return draft.finish();
}

/** Whether a sorted array holds `id`. */
function sortedHas(ids: readonly number[], id: number): boolean {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = ids[mid] as number;
    if (at === id) return true;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Two ascending arrays, merged into one. */
function merge(a: readonly number[], b: readonly number[]): number[] {
  if (a.length === 0) return [...b];
  if (b.length === 0 || (b[0] as number) > (a[a.length - 1] as number)) return [...a, ...b];
  return mergeRange(a, b, 0, b.length);
}

/** `a` and b[from, to), both ascending, merged into one array of exactly their length. */
function mergeRange(a: readonly number[], b: readonly number[], from: number, to: number): number[] {
  const out = new Array<number>(a.length + to - from);
  let i = 0;
  let j = from;
  let k = 0;
  while (i < a.length && j < to)
    out[k++] = (a[i] as number) < (b[j] as number) ? (a[i++] as number) : (b[j++] as number);
  while (i < a.length) out[k++] = a[i++] as number;
  while (j < to) out[k++] = b[j++] as number;
  return out;
}

/** A conversation a draft touched. */
interface TouchedConversation<L extends UnreadLocation> {
  before: UnreadConversation<L> | undefined;
  /** The object its messages' entries hold: `before`'s, or the first added message's. */
  location: L;
  /** Ids added to it (some may have left again, or been in it before and left first). */
  added: number[] | null;
  /** Ids that left it (some may have come back). */
  left: number[];
}

const NONE: readonly number[] = [];

/** `ids` without those of `gone`, both ascending: one walk, no hashing. */
function without(ids: readonly number[], gone: readonly number[]): number[] {
  const out = new Array<number>(ids.length);
  let k = 0;
  let j = 0;
  for (const id of ids) {
    while (j < gone.length && (gone[j] as number) < id) j++;
    if (gone[j] !== id) out[k++] = id;
  }
  out.length = k;
  return out;
}

/** Ascending, each once. */
function sortedIds(ids: number[]): number[] {
  for (let i = 1; i < ids.length; i++) {
    if ((ids[i] as number) <= (ids[i - 1] as number)) {
      ids.sort((a, b) => a - b);
      return ids.filter((id, k) => k === 0 || id !== ids[k - 1]);
    }
  }
  return ids;
}

/**
 * The conversation's ids after a draft's changes: `before`'s own array, or NONE, when none
 * changed. The by-id map decides: an id is in the conversation when its entry is the
 * conversation's location object (every entry of a conversation holds that one object).
 */
function changedIds(
  work: TouchedConversation<UnreadLocation>,
  messages: IdMapDraft<UnreadLocation>,
  anyAdded: boolean,
): readonly number[] {
  const before = work.before?.ids ?? NONE;
  const { location, left, added } = work;
  let ids = before;
  if (left.length > 0 && before.length > 0) {
    // Of those that left, some may have come back (only if the draft added any); the rest stay.
    let gone = left;
    if (anyAdded) {
      gone = [];
      for (const id of left) if (messages.get(id) !== location) gone.push(id);
    }
    if (gone.length > 0) ids = without(before, sortedIds(gone));
  }
  if (added === null) return ids;
  const fresh: number[] = [];
  for (const id of added) if (messages.get(id) === location && !sortedHas(before, id)) fresh.push(id);
  return fresh.length === 0 ? ids : merge(ids, sortedIds(fresh));
}

/**
 * The changes of one event or one batch to an UnreadState: the by-id map in a draft, and per
 * touched conversation the ids added and removed, applied once in `finish`. Reads (`location`,
 * `hasMention`) see the changes made so far.
 */
export class UnreadsDraft {
  private messages: IdMapDraft<UnreadLocation> | null = null;
  private readonly topics = new Map<number, Map<string, TouchedConversation<StreamLocation>>>();
  private readonly privates = new Map<string, TouchedConversation<PrivateLocation>>();
  private readonly byLocation = new Map<UnreadLocation, TouchedConversation<UnreadLocation>>();
  private last: TouchedConversation<UnreadLocation> | null = null;
  private readonly mentionChanges = new Map<number, boolean>();
  private mentionsReplaced: readonly number[] | null = null;
  /** Whether any id joined a conversation: without, no id that left one can have come back. */
  private anyAdded = false;

  constructor(private readonly base: UnreadState) {}

  location(id: number): UnreadLocation | undefined {
    return (this.messages ?? this.base.messages).get(id);
  }

  hasMention(id: number): boolean {
    const changed = this.mentionChanges.size === 0 ? undefined : this.mentionChanges.get(id);
    return changed ?? sortedHas(this.mentionsReplaced ?? this.base.mentions, id);
  }

  setMention(id: number, mentioned: boolean): void {
    if (this.hasMention(id) !== mentioned) this.mentionChanges.set(id, mentioned);
  }

  /** Replaces the mentions outright (sorted, once each); only before any other mention change. */
  replaceMentions(mentions: readonly number[]): void {
    this.mentionsReplaced = mentions;
    this.mentionChanges.clear();
  }

  /**
   * `id` is unread at `where` (moved there if it was unread elsewhere); a mention when
   * `mentioned` (a message that was one stays one).
   */
  add(id: number, where: UnreadLocation, mentioned: boolean): void {
    const before = this.location(id);
    if (before === undefined || !sameConversation(before, where)) {
      if (before !== undefined) this.leave(id, before);
      const work = this.conversation(where);
      work.added ??= [];
      work.added.push(id);
      this.anyAdded = true;
      this.draftMessages().set(id, work.location);
    }
    if (mentioned) this.setMention(id, true);
  }

  /** `id` is no longer unread, nor a mention. */
  remove(id: number): void {
    const before = this.draftMessages().take(id);
    if (before !== undefined) this.leave(id, before);
    this.setMention(id, false);
  }

  /** None of `ids` is unread, nor a mention: `remove` for each, faster when they ascend. */
  removeMany(ids: readonly number[]): void {
    this.draftMessages().deleteMany(ids, (where, id) => this.leave(id, where));
    if (this.mentionsReplaced !== null || this.base.mentions.length > 0 || this.mentionChanges.size > 0)
      for (const id of ids) this.setMention(id, false);
  }

  /** The new state; the one given when nothing changed. */
  finish(): UnreadState {
    const base = this.base;
    const draft = this.messages;
    if (draft === null) {
      const mentions = this.finishMentions();
      return mentions === base.mentions ? base : { ...base, mentions };
    }
    const streams = this.finishStreams(draft);
    const privates = this.finishPrivates(draft);
    const mentions = this.finishMentions();
    // No conversation changed (what the draft did, it undid): neither did the by-id map.
    if (streams === base.streams && privates === base.privates)
      return mentions === base.mentions ? base : { ...base, mentions };
    return { messages: draft.finish(), streams, privates, mentions };
  }

  private leave(id: number, where: UnreadLocation): void {
    this.conversation(where).left.push(id);
  }

  private draftMessages(): IdMapDraft<UnreadLocation> {
    this.messages ??= new IdMapDraft(this.base.messages);
    return this.messages;
  }

  private conversation(where: UnreadLocation): TouchedConversation<UnreadLocation> {
    // Changes come in runs of one conversation (a topic's messages, a topic marked unread).
    const last = this.last;
    if (last !== null && (last.location === where || sameConversation(last.location, where))) return last;
    // The state's own location objects (what `messages` holds) are found by identity, at once.
    const work = this.byLocation.get(where) ?? this.conversationByKey(where);
    this.last = work;
    return work;
  }

  private conversationByKey(where: UnreadLocation): TouchedConversation<UnreadLocation> {
    if (where.kind === 'stream') {
      let topics = this.topics.get(where.streamId);
      if (!topics) {
        topics = new Map();
        this.topics.set(where.streamId, topics);
      }
      let work = topics.get(where.topic);
      if (!work) {
        const before = this.base.streams.get(where.streamId)?.topics.get(where.topic);
        work = { before, location: before?.location ?? where, added: null, left: [] };
        topics.set(where.topic, work);
        this.byLocation.set(work.location, work);
      }
      return work;
    }
    const key = privateKey(where);
    let work = this.privates.get(key);
    if (!work) {
      const before = this.base.privates.get(key);
      work = { before, location: before?.location ?? where, added: null, left: [] };
      this.privates.set(key, work);
      this.byLocation.set(work.location, work);
    }
    return work;
  }

  private finishStreams(messages: IdMapDraft<UnreadLocation>): UnreadState['streams'] {
    let out: Map<number, StreamUnreads> | null = null;
    for (const [streamId, changed] of this.topics) {
      const before = this.base.streams.get(streamId);
      let topics: Map<string, UnreadConversation<StreamLocation>> | null = null;
      let count = before?.count ?? 0;
      for (const [topic, work] of changed) {
        const ids = changedIds(work, messages, this.anyAdded);
        const old = work.before?.ids ?? NONE;
        if (ids === old) continue;
        topics ??= copyMap(before?.topics);
        count += ids.length - old.length;
        if (ids.length === 0) topics.delete(topic);
        else topics.set(topic, { location: work.location, ids });
      }
      if (topics === null) continue;
      out ??= copyMap(this.base.streams);
      if (topics.size === 0) out.delete(streamId);
      else out.set(streamId, { count, topics });
    }
    return out ?? this.base.streams;
  }

  private finishPrivates(messages: IdMapDraft<UnreadLocation>): UnreadState['privates'] {
    let out: Map<string, UnreadConversation<PrivateLocation>> | null = null;
    for (const [key, work] of this.privates) {
      const ids = changedIds(work, messages, this.anyAdded);
      if (ids === (work.before?.ids ?? NONE)) continue;
      out ??= copyMap(this.base.privates);
      if (ids.length === 0) out.delete(key);
      else out.set(key, { location: work.location, ids });
    }
    return out ?? this.base.privates;
  }

  private finishMentions(): readonly number[] {
    const before = this.mentionsReplaced ?? this.base.mentions;
    if (this.mentionChanges.size === 0) return before;
    const added: number[] = [];
    let removed = false;
    for (const [id, mentioned] of this.mentionChanges) {
      // One that was a mention before, unmarked and marked again within the draft, is kept.
      if (!mentioned) removed = true;
      else if (!sortedHas(before, id)) added.push(id);
    }
    let kept = before;
    if (removed) {
      const left = before.filter((id) => this.mentionChanges.get(id) !== false);
      if (left.length !== before.length) kept = left;
    }
    return added.length === 0
      ? kept
      : merge(
          kept,
          added.sort((a, b) => a - b),
        );
  }
}

function sameConversation(a: UnreadLocation, b: UnreadLocation): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case 'stream':
      return b.kind === 'stream' && a.streamId === b.streamId && a.topic === b.topic;
    case 'pm':
      return b.kind === 'pm' && a.userId === b.userId;
    case 'huddle':
      return b.kind === 'huddle' && a.userIds === b.userIds;
  }
}

// ---- large batches --------------------------------------------------------------------------

/**
 * From this many ids on, marking as read or unread (or deleting) skips the draft: a draft
 * pays per id for reading its own changes back (lookups as the id comes, and again in
 * `finish`), which made 10 000 ids cost 6 to 10 ms at 50 000 unreads. The common case (a few
 * ids of one conversation) keeps the draft.
 */
const BULK_MIN = 64;
/**
 * Marking as read in bulk filters every conversation once: worth it when the batch holds at
 * least 1/BULK_READ_SHARE of the unreads (a test per unread is far cheaper than a draft's
 * work per id).
 */
const BULK_READ_SHARE = 32;

/** Whether the batch may go the bulk way: large, its ids plain message ids ascending strictly (as the server lists them). */
function bulkBatch(ids: readonly number[]): boolean {
  if (ids.length < BULK_MIN) return false;
  let prev = -1;
  for (const id of ids) {
    if (!inTrie(id) || id <= prev) return false;
    prev = id;
  }
  return true;
}

/** Whether removing `ids` goes the bulk way (readMany). */
const bulkRead = (state: UnreadState, ids: readonly number[]): boolean =>
  ids.length * BULK_READ_SHARE >= state.messages.size && bulkBatch(ids);

/** Whether an id is one of a batch's. */
interface IdTest {
  has(id: number): boolean;
}

/** A batch's ids (ascending, in the trie's range) as a bitmap over their range: a test is a shift and a mask. */
class IdBits implements IdTest {
  private readonly lo: number;
  private readonly span: number;
  private readonly words: Uint32Array;

  constructor(ids: readonly number[]) {
    this.lo = ids[0] as number;
    this.span = (ids[ids.length - 1] as number) - this.lo + 1;
    this.words = new Uint32Array((this.span + 31) >>> 5);
    for (const id of ids) {
      const k = id - this.lo;
      this.words[k >>> 5] = (this.words[k >>> 5] as number) | (1 << (k & 31));
    }
  }

  /** Whether a bitmap of `ids` stays small (a word per 32 ids of the range: at most two per id). */
  static fits(ids: readonly number[]): boolean {
    return (ids[ids.length - 1] as number) - (ids[0] as number) < ids.length * 64;
  }

  has(id: number): boolean {
    const k = id - this.lo;
    return k >>> 0 === k && k < this.span && ((this.words[k >>> 5] as number) & (1 << (k & 31))) !== 0;
  }
}

/** The ids a by-id map lost: every conversation's ids were in the map before, so absent now means removed. */
class GoneFrom implements IdTest {
  constructor(private readonly after: IdMap<UnreadLocation>) {}

  has(id: number): boolean {
    return this.after.get(id) === undefined;
  }
}

/** Where keptIds gathers a conversation's ids before copying them out at their size. */
const scratch: number[] = [];

/** `ids` without those `removed` holds; the same array when it holds none. */
function keptIds(ids: readonly number[], removed: IdTest): readonly number[] {
  let i = 0;
  while (i < ids.length && !removed.has(ids[i] as number)) i++;
  if (i === ids.length) return ids;
  // One test per id, into a buffer reused across conversations, then one copy at the size:
  // no array grown id by id, none allocated to be trimmed.
  let k = 0;
  for (let j = 0; j < i; j++) scratch[k++] = ids[j] as number;
  for (i++; i < ids.length; i++) {
    const id = ids[i] as number;
    if (!removed.has(id)) scratch[k++] = id;
  }
  const out = scratch.slice(0, k);
  // A buffer the size of a huge conversation is not kept for the next batch.
  if (scratch.length > 65_536) scratch.length = 0;
  return out;
}

/** A new map of the first `n` entries of `map`. */
function firstEntries<K, V>(map: ReadonlyMap<K, V>, n: number): Map<K, V> {
  const out = new Map<K, V>();
  if (n === 0) return out;
  for (const [key, value] of map) {
    out.set(key, value);
    if (out.size === n) break;
  }
  return out;
}

/** A copy of `map`, entry by entry: measured faster than `new Map(map)` for these small maps. */
function copyMap<K, V>(map: ReadonlyMap<K, V> | undefined): Map<K, V> {
  const out = new Map<K, V>();
  map?.forEach((value, key) => {
    out.set(key, value);
  });
  return out;
}

/** `sorted` without any of `drop` (ascending); the same array when none is there. */
function withoutAny(sorted: readonly number[], drop: readonly number[]): readonly number[] {
  let out: number[] | null = null;
  for (let i = 0; i < sorted.length; i++) {
    const id = sorted[i] as number;
    if (sortedHas(drop, id)) out ??= sorted.slice(0, i);
    else out?.push(id);
  }
  return out ?? sorted;
}

const ignore = () => {};

/**
 * `ids` (a bulk batch) no longer unread, nor mentions, in one pass: the by-id map loses them
 * going down the trie once per node, and each conversation is filtered once against the batch
 * (a bitmap when its range is dense enough, else the new map), with no lookup or allocation
 * per id. Copies what changed, as a draft does: unchanged conversations and streams stay the
 * same objects.
 */
function readMany(state: UnreadState, ids: readonly number[]): UnreadState {
  const mentions = withoutAny(state.mentions, ids);
  const draft = new IdMapDraft(state.messages);
  draft.deleteMany(ids, ignore);
  if (draft.size === state.messages.size) return mentions === state.mentions ? state : { ...state, mentions };
  const messages = draft.finish();
  const removed: IdTest = IdBits.fits(ids) ? new IdBits(ids) : new GoneFrom(messages);
  // Each pass in a function of its own (here and in unreadMany): a long first call gets its
  // loop optimized while it runs, and code past that loop, not yet run then, would throw the
  // optimized code away on every such call.
  return {
    messages,
    streams: streamsWithout(state.streams, removed),
    privates: privatesWithout(state.privates, removed),
    mentions,
  };
}

/** `streams` without the ids `removed` holds: the same map when none of them was there. */
function streamsWithout(streams: UnreadState['streams'], removed: IdTest): UnreadState['streams'] {
  let out: Map<number, StreamUnreads> | null = null;
  for (const [streamId, stream] of streams) {
    const topics = topicsWithout(stream, removed);
    if (topics === stream.topics) continue;
    out ??= copyMap(streams);
    if (topics.size === 0) out.delete(streamId);
    else {
      let count = 0;
      topics.forEach(({ ids }) => {
        count += ids.length;
      });
      out.set(streamId, { count, topics });
    }
  }
  return out ?? streams;
}

/**
 * A stream's topics without the ids `removed` holds: its own map when none of them was there.
 * The new map is built in the same pass from the first change on (the topics before it copied
 * then), so each topic goes in once: no copy of the whole map to overwrite most of it.
 */
function topicsWithout(stream: StreamUnreads, removed: IdTest): StreamUnreads['topics'] {
  let topics: Map<string, UnreadConversation<StreamLocation>> | null = null;
  let unchanged = 0;
  for (const [topic, conversation] of stream.topics) {
    const kept = keptIds(conversation.ids, removed);
    if (topics === null) {
      if (kept === conversation.ids) {
        unchanged++;
        continue;
      }
      topics = firstEntries(stream.topics, unchanged);
    }
    if (kept === conversation.ids) topics.set(topic, conversation);
    else if (kept.length > 0) topics.set(topic, { location: conversation.location, ids: kept });
  }
  return topics ?? stream.topics;
}

/** `privates` without the ids `removed` holds: the same map when none of them was there. */
function privatesWithout(privates: UnreadState['privates'], removed: IdTest): UnreadState['privates'] {
  let out: Map<string, UnreadConversation<PrivateLocation>> | null = null;
  for (const [key, conversation] of privates) {
    const kept = keptIds(conversation.ids, removed);
    if (kept === conversation.ids) continue;
    out ??= copyMap(privates);
    if (kept.length === 0) out.delete(key);
    else out.set(key, { location: conversation.location, ids: kept });
  }
  return out ?? privates;
}

/** A conversation one bulk batch touches. */
interface BulkConversation<L extends UnreadLocation> {
  before: UnreadConversation<L> | undefined;
  /** The object its messages' entries hold: `before`'s, or a new one. */
  location: L;
  /** Its place in `Touched.all`: the batch's ids joining it are grouped by it. */
  index: number;
  /** Ids of the batch that leave it for another conversation (ascending), if any. */
  left: number[] | null;
}

/** A stream one bulk batch touches: its unreads before, and its touched topics. */
interface TouchedStream {
  before: StreamUnreads | undefined;
  topics: Map<string, BulkConversation<StreamLocation>>;
}

/** The conversations one bulk batch touches, found by key; new ones get a location of their own. */
class Touched {
  readonly streams = new Map<number, TouchedStream>();
  /** By `privateKey`. */
  readonly privates = new Map<string, BulkConversation<PrivateLocation>>();
  /** The one-to-one ones again, by the other user's id: found without building their key. */
  private readonly pms = new Map<number, BulkConversation<PrivateLocation>>();
  readonly all: BulkConversation<UnreadLocation>[] = [];
  private last: BulkConversation<StreamLocation> | null = null;

  constructor(private readonly base: UnreadState) {}

  stream(streamId: number, topic: string): BulkConversation<StreamLocation> {
    // Batches come in runs of one conversation (a topic marked unread).
    const last = this.last;
    if (last !== null && last.location.streamId === streamId && last.location.topic === topic) return last;
    let stream = this.streams.get(streamId);
    if (stream === undefined) {
      stream = { before: this.base.streams.get(streamId), topics: new Map() };
      this.streams.set(streamId, stream);
    }
    let work = stream.topics.get(topic);
    if (work === undefined) {
      const before = stream.before?.topics.get(topic);
      work = this.create(before, before?.location ?? { kind: 'stream', streamId, topic });
      stream.topics.set(topic, work);
    }
    this.last = work;
    return work;
  }

  pm(userId: number): BulkConversation<PrivateLocation> {
    let work = this.pms.get(userId);
    if (work === undefined) {
      work = this.private({ kind: 'pm', userId });
      this.pms.set(userId, work);
    }
    return work;
  }

  private(where: PrivateLocation): BulkConversation<PrivateLocation> {
    const key = privateKey(where);
    let work = this.privates.get(key);
    if (work === undefined) {
      const before = this.base.privates.get(key);
      work = this.create(before, before?.location ?? where);
      this.privates.set(key, work);
    }
    return work;
  }

  of(where: UnreadLocation): BulkConversation<UnreadLocation> {
    return where.kind === 'stream' ? this.stream(where.streamId, where.topic) : this.private(where);
  }

  private create<L extends UnreadLocation>(
    before: UnreadConversation<L> | undefined,
    location: L,
  ): BulkConversation<L> {
    const work = { before, location, index: this.all.length, left: null };
    this.all.push(work);
    return work;
  }
}

/**
 * The conversation of a private message for `selfId`, by its recipients: privateLocation's
 * rule, with a one-to-one conversation found by the other user's id, building nothing.
 */
function privateConversation(
  touched: Touched,
  recipients: readonly number[],
  selfId: number,
): BulkConversation<PrivateLocation> {
  let others = 0;
  let other = selfId;
  for (const id of recipients) {
    if (id === selfId) continue;
    if (others++ === 0) other = id;
  }
  return others <= 1
    ? touched.pm(other)
    : touched.private(privateLocation(recipients, selfId) as PrivateLocation);
}

/**
 * `ids` (a bulk batch) unread again where `details` says, as a draft would have it, at a
 * fraction of the cost: each id's conversation is found by key (no location built for it),
 * the by-id map is set in one descent (giving each id's old place), and the ids joining each
 * conversation are grouped by a counting sort into one array (no array per conversation to
 * grow), then merged into the conversation's ids once.
 */
function unreadMany(
  state: UnreadState,
  ids: readonly number[],
  details: Record<string, MessageDetail>,
  selfId: number | null,
): UnreadState {
  const touched = new Touched(state);
  const placed = placeAll(state, touched, ids, details, selfId ?? 0);
  const mentions = placed.mentioned.length === 0 ? state.mentions : merge(state.mentions, placed.mentioned);
  const draft = new IdMapDraft(state.messages);
  const olds = new Array<UnreadLocation | undefined>(placed.n);
  draft.setMany(placed.ids, placed.places, placed.n, olds);
  // Each pass in a function of its own: see readMany.
  const moved = leaveOldPlaces(touched, placed, olds);
  if (moved === 0) return mentions === state.mentions ? state : { ...state, mentions };
  const joins = groupJoins(touched.all.length, placed, moved);
  return {
    messages: draft.finish(),
    streams: streamsJoined(state.streams, touched, joins),
    privates: privatesJoined(state.privates, touched, joins),
    mentions,
  };
}

/** A bulk batch's ids that have details (ascending), each with its new conversation. */
interface Placed {
  ids: Int32Array;
  /** Per id, its conversation's index in `Touched.all` (-1 once found already there). */
  into: Int32Array;
  /** Per id, its conversation's location. */
  places: UnreadLocation[];
  n: number;
  /** Ids that mention the user and were not mentions before (ascending). */
  mentioned: number[];
}

function placeAll(
  state: UnreadState,
  touched: Touched,
  ids: readonly number[],
  details: Record<string, MessageDetail>,
  selfId: number,
): Placed {
  const placed: Placed = {
    ids: new Int32Array(ids.length),
    into: new Int32Array(ids.length),
    places: new Array<UnreadLocation>(ids.length),
    n: 0,
    mentioned: [],
  };
  let n = 0;
  for (const id of ids) {
    const d = details[id];
    if (!d) continue;
    const work: BulkConversation<UnreadLocation> =
      d.type === 'stream'
        ? touched.stream(d.stream_id ?? 0, d.topic ?? '')
        : privateConversation(touched, d.user_ids ?? [], selfId);
    if (d.mentioned === true && !sortedHas(state.mentions, id)) placed.mentioned.push(id);
    placed.ids[n] = id;
    placed.into[n] = work.index;
    placed.places[n++] = work.location;
  }
  placed.n = n;
  return placed;
}

/**
 * Marks the ids already in their conversation (into = -1) and lists those that were unread
 * elsewhere as leaving there (which may touch a conversation no detail names); how many ids
 * change place.
 */
function leaveOldPlaces(
  touched: Touched,
  placed: Placed,
  olds: readonly (UnreadLocation | undefined)[],
): number {
  let moved = 0;
  for (let k = 0; k < placed.n; k++) {
    const old = olds[k];
    if (old === placed.places[k]) {
      placed.into[k] = -1;
      continue;
    }
    if (old !== undefined) {
      const from = touched.of(old);
      from.left ??= [];
      from.left.push(placed.ids[k] as number);
    }
    moved++;
  }
  return moved;
}

/** The ids that change place, by conversation: conversation i's are joined[start[i], start[i + 1]). */
interface Joins {
  start: Int32Array;
  joined: number[];
}

/** A counting sort of the ids that change place by their conversation's index (stable: ascending within each). */
function groupJoins(conversations: number, placed: Placed, moved: number): Joins {
  const { into } = placed;
  const start = new Int32Array(conversations + 1);
  for (let k = 0; k < placed.n; k++) {
    const next = (into[k] as number) + 1;
    if (next > 0) start[next] = (start[next] as number) + 1;
  }
  for (let i = 0; i < conversations; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
  const fill = start.slice(0, conversations);
  // A plain array, as every other array merged with conversations' ids (one kind for mergeRange).
  const joined = new Array<number>(moved);
  for (let k = 0; k < placed.n; k++) {
    const i = into[k] as number;
    if (i < 0) continue;
    const at = fill[i] as number;
    joined[at] = placed.ids[k] as number;
    fill[i] = at + 1;
  }
  return { start, joined };
}

/** A touched conversation's ids after the batch: `before`'s own array when none changed. */
function idsAfter(work: BulkConversation<UnreadLocation>, { start, joined }: Joins): readonly number[] {
  const before = work.before?.ids ?? NONE;
  const kept = work.left === null ? before : without(before, work.left);
  const from = start[work.index] as number;
  const to = start[work.index + 1] as number;
  return from === to ? kept : mergeRange(kept, joined, from, to);
}

function streamsJoined(
  streams: UnreadState['streams'],
  touched: Touched,
  joins: Joins,
): UnreadState['streams'] {
  let out: Map<number, StreamUnreads> | null = null;
  for (const [streamId, { before, topics: works }] of touched.streams) {
    let topics: Map<string, UnreadConversation<StreamLocation>> | null = null;
    let count = before?.count ?? 0;
    for (const [topic, work] of works) {
      const ids = idsAfter(work, joins);
      const old = work.before?.ids ?? NONE;
      if (ids === old) continue;
      topics ??= copyMap(before?.topics);
      count += ids.length - old.length;
      if (ids.length === 0) topics.delete(topic);
      else topics.set(topic, { location: work.location, ids });
    }
    if (topics === null) continue;
    out ??= copyMap(streams);
    if (topics.size === 0) out.delete(streamId);
    else out.set(streamId, { count, topics });
  }
  return out ?? streams;
}

function privatesJoined(
  privates: UnreadState['privates'],
  touched: Touched,
  joins: Joins,
): UnreadState['privates'] {
  let out: Map<string, UnreadConversation<PrivateLocation>> | null = null;
  for (const [key, work] of touched.privates) {
    const ids = idsAfter(work, joins);
    if (ids === (work.before?.ids ?? NONE)) continue;
    out ??= copyMap(privates);
    if (ids.length === 0) out.delete(key);
    else out.set(key, { location: work.location, ids });
  }
  return out ?? privates;
}

// ---- from the register ----------------------------------------------------------------------

interface RawUnreads {
  pms?: readonly { other_user_id?: number; sender_id?: number; unread_message_ids: readonly number[] }[];
  streams?: readonly { stream_id: number; topic: string; unread_message_ids: readonly number[] }[];
  huddles?: readonly { user_ids_string: string; unread_message_ids: readonly number[] }[];
  mentions?: readonly number[];
}

/** The groups of one unread_msgs list that have the shape `valid` checks; others are skipped. */
function groups<T extends { unread_message_ids: readonly number[] }>(
  list: unknown,
  valid: (group: Record<string, unknown>) => boolean,
): T[] {
  if (!Array.isArray(list)) return [];
  return list.filter(
    (g): g is T =>
      typeof g === 'object' &&
      g !== null &&
      Array.isArray(g.unread_message_ids) &&
      g.unread_message_ids.every(Number.isInteger) &&
      valid(g),
  );
}

/**
 * From the register's unread_msgs. Missing, or parts of another shape (an older or foreign
 * server): those parts count no unreads, rather than failing the whole snapshot. An id listed
 * twice ends where it is listed last (streams, then one-to-one, then group conversations).
 */
export function unreadsFromSnapshot(raw: unknown): UnreadState {
  const u = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<keyof RawUnreads, unknown>;
  const draft = new UnreadsDraft(EMPTY);
  type Raw = Required<RawUnreads>;
  const streams = groups<Raw['streams'][number]>(
    u.streams,
    (g) => Number.isInteger(g.stream_id) && typeof g.topic === 'string',
  );
  for (const s of streams) {
    const where: UnreadLocation = { kind: 'stream', streamId: s.stream_id, topic: s.topic };
    for (const id of s.unread_message_ids) draft.add(id, where, false);
  }
  for (const p of groups<Raw['pms'][number]>(u.pms, () => true)) {
    const where: UnreadLocation = { kind: 'pm', userId: p.other_user_id ?? p.sender_id ?? 0 };
    for (const id of p.unread_message_ids) draft.add(id, where, false);
  }
  for (const h of groups<Raw['huddles'][number]>(u.huddles, (g) => typeof g.user_ids_string === 'string')) {
    const where: UnreadLocation = { kind: 'huddle', userIds: h.user_ids_string };
    for (const id of h.unread_message_ids) draft.add(id, where, false);
  }
  const mentions = Array.isArray(u.mentions) ? u.mentions.filter(Number.isInteger) : [];
  draft.replaceMentions(sortedUnique(mentions));
  return draft.finish();
}

// ---- events ---------------------------------------------------------------------------------

const MENTION_FLAGS = new Set([
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
]);

/** Where a private message lives for `selfId`, from its recipients. */
function privateLocation(recipients: readonly number[], selfId: number): UnreadLocation {
  const others = recipients.filter((id) => id !== selfId);
  if (others.length <= 1) return { kind: 'pm', userId: others[0] ?? selfId };
  return { kind: 'huddle', userIds: sortedUnique([...recipients, selfId]).join(',') };
}

function recipientIds(displayRecipient: unknown): number[] {
  if (!Array.isArray(displayRecipient)) return [];
  return displayRecipient
    .map((r: unknown) => (typeof r === 'object' && r !== null ? (r as { id?: unknown }).id : undefined))
    .filter((id): id is number => typeof id === 'number');
}

/** Where a new message lives and whether it mentions the user; null when it is not unread. */
function unreadEntry(
  event: EventOf<'message'>,
  selfId: number | null,
): { location: UnreadLocation; mentioned: boolean } | null {
  const { message, flags } = event;
  if (flags.includes('read') || message.sender_id === selfId) return null;
  const mentioned = flags.some((f) => MENTION_FLAGS.has(f));
  const location: UnreadLocation =
    message.type === 'stream'
      ? { kind: 'stream', streamId: message.stream_id ?? 0, topic: message.subject }
      : privateLocation(recipientIds(message.display_recipient), selfId ?? 0);
  return { location, mentioned };
}

/** A new message: unread unless it is our own or arrives read. */
export function handleMessageEvent(
  state: UnreadState,
  event: EventOf<'message'>,
  selfId: number | null,
): UnreadState {
  return handleMessageEvents(state, [event], selfId);
}

/**
 * Many new messages at once (a poll's batch, a burst after a long time offline): the same as
 * applying `handleMessageEvent` to each in turn, with each touched part of the state copied
 * once for the whole run, so the run costs what it adds, not what the account holds.
 */
export function handleMessageEvents(
  state: UnreadState,
  events: readonly EventOf<'message'>[],
  selfId: number | null,
): UnreadState {
  const draft = new UnreadsDraft(state);
  for (const event of events) {
    const entry = unreadEntry(event, selfId);
    if (entry) draft.add(event.message.id, entry.location, entry.mentioned);
  }
  return draft.finish();
}

interface MessageDetail {
  type?: string;
  stream_id?: number;
  topic?: string;
  user_ids?: number[];
  mentioned?: boolean;
}

/** Every message read: no unreads left; a mention of a message that was not unread stays. */
function readAll(state: UnreadState): UnreadState {
  if (state.messages.size === 0) return state;
  const mentions = state.mentions.filter((id) => !state.messages.has(id));
  return { ...EMPTY, mentions: mentions.length === state.mentions.length ? state.mentions : mentions };
}

export function handleUpdateMessageFlagsEvent(
  state: UnreadState,
  event: EventOf<'update_message_flags'>,
  selfId: number | null,
): UnreadState {
  if (event.flag === 'read') {
    if (event.op === 'add' && event.all) return readAll(state);
    if (event.op === 'add') {
      if (bulkRead(state, event.messages)) return readMany(state, event.messages);
      const draft = new UnreadsDraft(state);
      draft.removeMany(event.messages);
      return draft.finish();
    }
    // Marked unread: the family's event says where each message lives (message_details).
    const details = (event.message_details ?? {}) as Record<string, MessageDetail>;
    if (bulkBatch(event.messages)) return unreadMany(state, event.messages, details, selfId);
    const draft = new UnreadsDraft(state);
    for (const id of event.messages) {
      const d = details[id];
      if (!d) continue;
      const location: UnreadLocation =
        d.type === 'stream'
          ? { kind: 'stream', streamId: d.stream_id ?? 0, topic: d.topic ?? '' }
          : privateLocation(d.user_ids ?? [], selfId ?? 0);
      draft.add(id, location, d.mentioned === true);
    }
    return draft.finish();
  }
  if (MENTION_FLAGS.has(event.flag)) {
    const draft = new UnreadsDraft(state);
    // A mention flag added to a message that is not unread does not make it an unread mention.
    for (const id of event.messages)
      if (event.op === 'remove' || state.messages.has(id)) draft.setMention(id, event.op === 'add');
    return draft.finish();
  }
  return state;
}

/** Deleted messages are no longer unread (bulk form and the older one-message form). */
export function handleDeleteMessageEvent(state: UnreadState, event: EventOf<'delete_message'>): UnreadState {
  const ids = event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id]);
  if (bulkRead(state, ids)) return readMany(state, ids);
  const draft = new UnreadsDraft(state);
  draft.removeMany(ids);
  return draft.finish();
}

/**
 * Moved messages (a new topic, a new stream, or both; `message_ids` lists every message the
 * move took along): their unread entries follow them. An edit of the content alone moves
 * nothing.
 */
export function handleUpdateMessageEvent(state: UnreadState, event: EventOf<'update_message'>): UnreadState {
  const { new_stream_id: newStreamId, subject: newTopic } = event;
  if (newStreamId === undefined && newTopic === undefined) return state;
  const draft = new UnreadsDraft(state);
  for (const id of event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id])) {
    const where = state.messages.get(id);
    if (where?.kind !== 'stream') continue;
    const moved: UnreadLocation = {
      kind: 'stream',
      streamId: newStreamId ?? where.streamId,
      topic: newTopic ?? where.topic,
    };
    draft.add(id, moved, false);
  }
  return draft.finish();
}
