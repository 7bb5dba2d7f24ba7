/**
 * The app's unread bookkeeping (issue 11, the last row): 100 message events applied to an
 * account holding 50 000 unread messages, in the main process and in each window, plus marking
 * 10 000 of them as read (and as unread) and the per-conversation counts the screens read after
 * a batch. No server: the reducers are pure, so this times them directly, in this process.
 *
 * The entry points are the ones the app runs:
 * - the main process: `UpdateMachine.absorb` (electron/core/update-machine.ts) hands each poll's
 *   batch to `applyEvents` (shared/domain/account.ts), then the attention tracker asks
 *   `selectBadgeCount` of the new state (electron/core/desktop/attention.ts);
 * - each window: its store's `applyEventBatch` (renderer/src/stores/accountState.ts), which runs
 *   the same shared `applyEvents` on the window's copy of the state; it is timed as the store
 *   calls it (it needs no DOM);
 * - the counts the screens read from the new state: `unreadSummary` (badge, stream list, topic
 *   counts) and `unreadByConversation` (the sidebar's and Recent conversations' per-conversation
 *   counts), and the Inbox's model.
 *
 * Every round starts from the same state (the reducers never change their input), so the rounds
 * are alike; the figure is their median. The state before the batch has had its badge count
 * asked, as the app has by then.
 */
import { performance } from 'node:perf_hooks';
import {
  type AccountState,
  accountStateFromSnapshot,
  applyEvents,
  selectBadgeCount,
  unreadSummary,
} from '../shared/domain';
import type { AccountSnapshot, PushPayloads } from '../shared/ipc';
import type { RegisterState, ServerEvent } from '../shared/protocol';
import { snapshotFixture, subscription, user } from '../test/fixtures/domain';
import { seededRandom as random } from '../test/fixtures/random';
import { median, ms, progress, QUICK, report } from './support';

/** What this file calls of the window's store (renderer/src/stores/accountState.ts) and screens. */
interface WindowCode {
  stateFromSnapshot(snapshot: AccountSnapshot): { account: AccountState };
  applyEventBatch<T extends { account: AccountState }>(state: T, batch: PushPayloads['account.events']): T;
  unreadByConversation(state: AccountState): Map<string, number>;
  inboxModel(state: AccountState): unknown;
}

/**
 * The window's code is in the web project, which the tools project (bench/) does not reference,
 * so tsc refuses a static import of it here (TS6307). It is plain TypeScript that needs no DOM,
 * so it is loaded at run time (tsx compiles it) and typed by what this file calls.
 */
async function windowCode(): Promise<WindowCode> {
  const load = (path: string) => import(new URL(path, import.meta.url).href);
  const [store, recent, inbox] = await Promise.all([
    load('../renderer/src/stores/accountState.ts'),
    load('../renderer/src/features/recent/recent.ts'),
    load('../renderer/src/features/home/inbox.ts'),
  ]);
  return {
    stateFromSnapshot: store.stateFromSnapshot,
    applyEventBatch: store.applyEventBatch,
    unreadByConversation: recent.unreadByConversation,
    inboxModel: inbox.inboxModel,
  };
}

const ME = 10;
const STREAMS = 200;
const TOPICS_PER_STREAM = 20;
const PEOPLE = 100;
const HUDDLES = 20;
const UNREADS = 50_000;
/** Of the unreads, how many are private (one-to-one and group). */
const PRIVATE_UNREADS = 4_000;
const BATCH = 100;
const MARKED = Number(process.env.BENCH_MARKED ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 30 : 200));
/** Rounds run before the measured ones, so the figures are of optimized code. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const TARGET_MS = 5;
const TARGET = 'at most 5 ms';

const pick = (next: () => number, n: number): number => Math.floor(next() * n);
const personId = (i: number) => 100 + i;
const huddleOf = (i: number): number[] => [ME, personId(i), personId((i + 7) % PEOPLE)].sort((a, b) => a - b);

interface Account {
  snapshot: RegisterState;
  /** Every unread id, ascending. */
  unreadIds: number[];
  /** The newest message id: new messages come after it. */
  maxId: number;
  /** Ids below maxId that are read (for marking as unread). */
  readIds: number[];
}

/**
 * 200 streams x 20 topics (a tenth of the streams muted, a few topics muted or followed) and
 * 100 one-to-one plus 20 group conversations; 50 000 unread ids spread among them, with read
 * messages in between, and 1% of the unreads mentioning the user.
 */
function buildAccount(): Account {
  const next = random(11);
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const pms = new Map<number, { other_user_id: number; sender_id: number; unread_message_ids: number[] }>();
  const huddles = new Map<number, { user_ids_string: string; unread_message_ids: number[] }>();
  const unreadIds: number[] = [];
  const readIds: number[] = [];
  const mentions: number[] = [];
  let id = 1_000_000;
  while (unreadIds.length < UNREADS) {
    id += 1;
    if (next() < 0.3) {
      readIds.push(id);
      continue;
    }
    unreadIds.push(id);
    if (next() < 0.01) mentions.push(id);
    if (next() < PRIVATE_UNREADS / UNREADS) {
      if (next() < 0.8) {
        const other = personId(pick(next, PEOPLE));
        const pm = pms.get(other) ?? { other_user_id: other, sender_id: other, unread_message_ids: [] };
        pm.unread_message_ids.push(id);
        pms.set(other, pm);
      } else {
        const h = pick(next, HUDDLES);
        const huddle = huddles.get(h) ?? { user_ids_string: huddleOf(h).join(','), unread_message_ids: [] };
        huddle.unread_message_ids.push(id);
        huddles.set(h, huddle);
      }
      continue;
    }
    const streamId = 1 + pick(next, STREAMS);
    const topic = `topic ${pick(next, TOPICS_PER_STREAM)}`;
    const key = `${streamId}\u0000${topic}`;
    const group = streams.get(key) ?? { stream_id: streamId, topic, unread_message_ids: [] };
    group.unread_message_ids.push(id);
    streams.set(key, group);
  }
  const userTopics = [];
  for (let s = 1; s <= STREAMS; s += 13)
    userTopics.push({ stream_id: s, topic_name: 'topic 3', last_updated: 1, visibility_policy: 1 + (s % 3) });
  const snapshot = snapshotFixture({
    user_id: ME,
    realm_users: [
      user(ME, 'Me'),
      ...Array.from({ length: PEOPLE }, (_, i) => user(personId(i), `Person ${i}`)),
    ],
    streams: [],
    subscriptions: Array.from({ length: STREAMS }, (_, i) =>
      subscription(i + 1, `stream ${i + 1}`, { is_muted: (i + 1) % 10 === 0 }),
    ),
    never_subscribed: [],
    user_topics: userTopics,
    unread_msgs: {
      count: unreadIds.length,
      pms: [...pms.values()],
      streams: [...streams.values()],
      huddles: [...huddles.values()],
      mentions,
    },
  });
  return { snapshot, unreadIds, maxId: id, readIds };
}

/**
 * One poll's batch: 100 new messages after the newest, as a busy organization sends them:
 * mostly to existing topics, some to new ones, a tenth private, a few mentioning the user,
 * a few of our own (sent from another device: not unread).
 */
function messageBatch(account: Account, firstEventId: number): ServerEvent[] {
  const next = random(23);
  return Array.from({ length: BATCH }, (_, i): ServerEvent => {
    const id = account.maxId + 1 + i;
    const roll = next();
    const flags = next() < 0.05 ? ['mentioned'] : [];
    const sender = next() < 0.03 ? ME : personId(pick(next, PEOPLE));
    if (roll < 0.08) {
      const other = personId(pick(next, PEOPLE));
      const message = {
        id,
        type: 'private' as const,
        subject: '',
        sender_id: other,
        display_recipient: [{ id: ME }, { id: other }],
      };
      return { id: firstEventId + i, type: 'message', message, flags };
    }
    if (roll < 0.1) {
      const members = huddleOf(pick(next, HUDDLES));
      const message = {
        id,
        type: 'private' as const,
        subject: '',
        sender_id: members.find((m) => m !== ME) as number,
        display_recipient: members.map((m) => ({ id: m })),
      };
      return { id: firstEventId + i, type: 'message', message, flags };
    }
    const topic = roll < 0.15 ? `new topic ${i}` : `topic ${pick(next, TOPICS_PER_STREAM)}`;
    const message = {
      id,
      type: 'stream' as const,
      stream_id: 1 + pick(next, STREAMS),
      subject: topic,
      sender_id: sender,
    };
    return { id: firstEventId + i, type: 'message', message, flags };
  });
}

/** `count` distinct ids of `from`, ascending (as the server lists them), chosen at random. */
function sample(from: readonly number[], count: number, seed: number): number[] {
  const next = random(seed);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, from.length)) chosen.add(from[pick(next, from.length)] as number);
  return [...chosen].sort((a, b) => a - b);
}

/** This process's CPU time so far (user + system), in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface Timing {
  /** Median wall-clock time of a round. */
  wall: number;
  /** Median CPU time of a round: what the round costs without the machine's other work. */
  cpu: number;
}

/** The medians over ROUNDS of `measure`, each round on its own input from `prepare`. */
function timed<T>(prepare: () => T, measure: (input: T) => void): Timing {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < ROUNDS + WARMUP; round++) {
    const input = prepare();
    const start = performance.now();
    const startCpu = cpuMs();
    measure(input);
    const elapsedCpu = cpuMs() - startCpu;
    const elapsed = performance.now() - start;
    if (round < WARMUP) continue;
    wall.push(elapsed);
    cpu.push(elapsedCpu);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

function row(path: string, timing: Timing, detail: string): void {
  report({
    path,
    figure: `${ms(timing.wall)} (CPU ${ms(timing.cpu)}; medians of ${ROUNDS} rounds)${detail}`,
    target: TARGET,
    holds: timing.wall <= TARGET_MS,
  });
}

export async function unreadsBench(): Promise<void> {
  const { stateFromSnapshot, applyEventBatch, unreadByConversation, inboxModel } = await windowCode();
  progress(`building an account with ${UNREADS} unreads`);
  const account = buildAccount();
  const base: AccountState = accountStateFromSnapshot(account.snapshot);
  // The app asked the badge of the state before the batch when that state was new.
  selectBadgeCount(base);
  unreadSummary(base);
  const lastEventId = 100;
  const batch = messageBatch(account, lastEventId + 1);
  const where = `${UNREADS} unreads in ${STREAMS} streams x ${TOPICS_PER_STREAM} topics + ${PEOPLE + HUDDLES} private conversations`;

  const main = timed(
    () => base,
    (state) => {
      selectBadgeCount(applyEvents(state, batch));
    },
  );
  row(
    `App: ${BATCH} message events applied with ${UNREADS} unreads, main process`,
    main,
    `: applyEvents (shared/domain, as UpdateMachine.absorb calls it) + selectBadgeCount; ${where}`,
  );

  const store = stateFromSnapshot({
    accountId: 'bench',
    generation: 1,
    state: { ...account.snapshot, last_event_id: lastEventId },
  });
  unreadSummary(store.account);
  const inWindow = timed(
    () => store,
    (data) => {
      applyEventBatch(data, { accountId: 'bench', generation: 1, events: batch });
    },
  );
  row(
    `App: ${BATCH} message events applied with ${UNREADS} unreads, each window`,
    inWindow,
    ": the window store's applyEventBatch (renderer/src/stores/accountState.ts), the same shared applyEvents",
  );

  const after = () => applyEvents(base, batch);
  const counts = timed(after, (state) => {
    unreadSummary(state);
    unreadByConversation(state);
  });
  row(
    `App: unread counts per stream, topic and conversation after the batch (${UNREADS} unreads)`,
    counts,
    ': unreadSummary + unreadByConversation on the new state',
  );

  const inbox = timed(after, (state) => {
    inboxModel(state);
  });
  row(`App: the Inbox's model after the batch (${UNREADS} unreads)`, inbox, ': inboxModel on the new state');

  const readIds = sample(account.unreadIds, MARKED, 31);
  const markRead: ServerEvent = {
    id: lastEventId + 1,
    type: 'update_message_flags',
    op: 'add',
    flag: 'read',
    messages: readIds,
    all: false,
  };
  const read = timed(
    () => base,
    (state) => {
      selectBadgeCount(applyEvents(state, [markRead]));
    },
  );
  row(
    `App: mark as read of ${MARKED} ids with ${UNREADS} unreads`,
    read,
    ': one update_message_flags event through applyEvents + selectBadgeCount',
  );

  const unreadAgain = sample(account.readIds, MARKED, 37);
  const details: Record<string, unknown> = {};
  const next = random(41);
  for (const id of unreadAgain) {
    details[id] =
      next() < 0.9
        ? {
            type: 'stream',
            stream_id: 1 + pick(next, STREAMS),
            topic: `topic ${pick(next, TOPICS_PER_STREAM)}`,
          }
        : { type: 'private', user_ids: [personId(pick(next, PEOPLE))] };
  }
  const markUnread = {
    id: lastEventId + 1,
    type: 'update_message_flags',
    op: 'remove',
    flag: 'read',
    messages: unreadAgain,
    all: false,
    message_details: details,
  } as ServerEvent;
  const unread = timed(
    () => base,
    (state) => {
      selectBadgeCount(applyEvents(state, [markUnread]));
    },
  );
  row(
    `App: mark as unread of ${MARKED} ids with ${UNREADS} unreads`,
    unread,
    ': one update_message_flags event (message_details) through applyEvents + selectBadgeCount',
  );
}
