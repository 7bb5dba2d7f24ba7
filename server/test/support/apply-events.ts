/**
 * A pure reducer over the RAW POST /register response, for verify-action: applying the
 * events of an action to a snapshot taken before it must give what a fresh register gives
 * after it (the interface family's apply_events). It knows every event type of NOTES.md and
 * shared/protocol/events.ts; unknown types are ignored (a fresh register then shows the gap).
 *
 * It never reads the database, so two things it cannot know stay as they were:
 * - max_message_id and recent_private_conversations after delete_message (the family
 *   re-queries them; verifyAction skips them then);
 * - subscription notification values the server fills from user settings for clients
 *   without notification_settings_null.
 */
import type { RawEvent } from '../../../shared/protocol';

type Obj = Record<string, unknown>;

export interface ApplyOptions {
  /** The snapshot was registered with include_subscribers (stream objects carry subscribers). */
  includeSubscribers?: boolean;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'number') : []);

/** Stream lists of the snapshot that hold objects keyed by stream_id. */
const STREAM_LISTS = [
  'subscriptions',
  'unsubscribed',
  'never_subscribed',
  'streams',
  'realm_default_streams',
] as const;

/** Event fields that describe the event rather than the changed object. */
const ENVELOPE = new Set(['id', 'type', 'op', 'stream_id', 'name', 'property', 'value']);

function removeIds(list: unknown, drop: ReadonlySet<number>): number[] {
  return ids(list).filter((id) => !drop.has(id));
}

function ownAdmin(state: Obj, userId: number): boolean {
  if (typeof state.is_admin === 'boolean') return state.is_admin;
  const me = objs(state.realm_users).find((u) => u.user_id === userId);
  return me?.is_admin === true;
}

// ---- users ----

function findUser(state: Obj, userId: number): Obj | undefined {
  for (const key of ['realm_users', 'realm_non_active_users'] as const) {
    const found = objs(state[key]).find((u) => u.user_id === userId);
    if (found) return found;
  }
  return undefined;
}

/** The requester's own fields at the top level of the snapshot (want realm_user). */
function updateOwnTopLevel(state: Obj, person: Obj): void {
  const set = (key: string, value: unknown) => {
    if (key in state) state[key] = value;
  };
  for (const key of ['full_name', 'delivery_email', 'avatar_source', 'avatar_url', 'avatar_url_medium']) {
    // The own real address is always known: a null one only hides it from the lists.
    if (key in person && !(key === 'delivery_email' && person[key] === null)) set(key, person[key]);
  }
  if ('avatar_version' in person) set('avatar_version', person.avatar_version);
  if ('is_billing_admin' in person) set('is_billing_admin', person.is_billing_admin);
  if ('new_email' in person) set('email', person.new_email);
  if (typeof person.role === 'number') {
    const role = person.role;
    set('is_owner', role === 100);
    set('is_admin', role <= 200);
    set('is_moderator', role === 300);
    set('is_guest', role === 600);
  }
}

/** Whether the organization's email_address_visibility shows this viewer real addresses in lists. */
function seesDeliveryEmails(state: Obj, userId: number): boolean {
  const admin = ownAdmin(state, userId);
  if (state.realm_email_address_visibility === 3) return admin;
  if (state.realm_email_address_visibility === 5) return admin || state.is_moderator === true;
  return false;
}

function applyPersonUpdate(state: Obj, person: Obj, userId: number): void {
  const targetId = person.user_id;
  if (typeof targetId !== 'number') return;
  if (targetId === userId) updateOwnTopLevel(state, person);
  const user = findUser(state, targetId);
  if (!user) return;
  for (const [key, value] of Object.entries(person)) {
    if (key === 'user_id') continue;
    if (key === 'role' && typeof value === 'number') {
      user.role = value;
      user.is_owner = value === 100;
      user.is_admin = value <= 200;
      user.is_guest = value === 600;
    } else if (key === 'new_email') {
      user.email = value;
    } else if (key === 'custom_profile_field' && isObj(value)) {
      if (!isObj(user.profile_data)) continue;
      const fieldId = String(value.id);
      if (value.value === null || value.value === undefined) delete user.profile_data[fieldId];
      else {
        user.profile_data[fieldId] =
          value.rendered_value === undefined
            ? { value: value.value }
            : { value: value.value, rendered_value: value.rendered_value };
      }
    } else if (key === 'is_active') {
      moveUser(state, targetId, value === true);
    } else if (key === 'delivery_email') {
      // Lists carry real addresses only for who may see them: null means the viewer no longer may.
      if (value === null) delete user.delivery_email;
      else if ('delivery_email' in user || seesDeliveryEmails(state, userId)) user.delivery_email = value;
    } else if (key in user) {
      // Only fields the user object carries (avatar_source, avatar_url_medium are top level).
      user[key] = value;
    }
  }
}

/** Moves a user between realm_users and realm_non_active_users. */
function moveUser(state: Obj, userId: number, active: boolean): void {
  const from = active ? 'realm_non_active_users' : 'realm_users';
  const to = active ? 'realm_users' : 'realm_non_active_users';
  const list = objs(state[from]);
  const user = list.find((u) => u.user_id === userId) ?? objs(state[to]).find((u) => u.user_id === userId);
  if (!user) return;
  user.is_active = active;
  if (Array.isArray(state[from])) state[from] = list.filter((u) => u.user_id !== userId);
  if (Array.isArray(state[to]) && !objs(state[to]).some((u) => u.user_id === userId)) {
    (state[to] as Obj[]).push(user);
  }
}

function applyRealmUser(state: Obj, event: RawEvent, userId: number): void {
  const person = event.person;
  if (!isObj(person) || typeof person.user_id !== 'number') return;
  const target = person.user_id;
  if (event.op === 'add') {
    for (const key of ['realm_users', 'realm_non_active_users'] as const) {
      if (Array.isArray(state[key])) state[key] = objs(state[key]).filter((u) => u.user_id !== target);
    }
    if (Array.isArray(state.realm_users)) (state.realm_users as Obj[]).push(structuredClone(person));
  } else if (event.op === 'remove') {
    // Deactivation: the user moves to the non-active list and leaves subscriber lists and statuses.
    moveUser(state, target, false);
    const drop = new Set([target]);
    for (const list of STREAM_LISTS) {
      for (const stream of objs(state[list])) {
        if (Array.isArray(stream.subscribers)) stream.subscribers = removeIds(stream.subscribers, drop);
      }
    }
    if (isObj(state.user_status)) delete state.user_status[String(target)];
    for (const group of objs(state.realm_user_groups)) group.members = removeIds(group.members, drop);
  } else if (event.op === 'update') {
    applyPersonUpdate(state, person, userId);
  }
}

// ---- subscriptions and streams ----

function streamEntries(state: Obj, streamId: unknown): Obj[] {
  const found: Obj[] = [];
  for (const list of STREAM_LISTS) {
    for (const stream of objs(state[list])) if (stream.stream_id === streamId) found.push(stream);
  }
  return found;
}

function applySubscription(state: Obj, event: RawEvent, userId: number, options: ApplyOptions): void {
  const includeSubscribers = options.includeSubscribers ?? false;
  switch (event.op) {
    case 'add': {
      const added = objs(event.subscriptions).map((s) => structuredClone(s));
      const addedIds = new Set(added.map((s) => s.stream_id));
      for (const list of ['subscriptions', 'unsubscribed', 'never_subscribed'] as const) {
        if (Array.isArray(state[list])) {
          state[list] = objs(state[list]).filter((s) => !addedIds.has(s.stream_id));
        }
      }
      if (!Array.isArray(state.subscriptions)) return;
      for (const sub of added) {
        if (!includeSubscribers) delete sub.subscribers;
        (state.subscriptions as Obj[]).push(sub);
      }
      return;
    }
    case 'remove': {
      const removedIds = new Set(objs(event.subscriptions).map((s) => s.stream_id));
      if (!Array.isArray(state.subscriptions)) return;
      const removed = objs(state.subscriptions).filter((s) => removedIds.has(s.stream_id));
      state.subscriptions = objs(state.subscriptions).filter((s) => !removedIds.has(s.stream_id));
      const admin = ownAdmin(state, userId);
      for (const sub of removed) {
        if (Array.isArray(sub.subscribers)) {
          // Former subscribers of a private stream no longer see its members.
          if (sub.invite_only === true && !admin) delete sub.subscribers;
          else sub.subscribers = removeIds(sub.subscribers, new Set([userId]));
        }
        if (Array.isArray(state.unsubscribed)) (state.unsubscribed as Obj[]).push(sub);
      }
      return;
    }
    case 'update': {
      for (const sub of objs(state.subscriptions)) {
        if (sub.stream_id === event.stream_id && typeof event.property === 'string') {
          sub[event.property] = event.value;
        }
      }
      return;
    }
    case 'peer_add':
    case 'peer_remove': {
      const streamIds = new Set(ids(event.stream_ids));
      const userIds = ids(event.user_ids);
      for (const list of ['subscriptions', 'unsubscribed', 'never_subscribed'] as const) {
        for (const stream of objs(state[list])) {
          if (!streamIds.has(stream.stream_id as number) || !Array.isArray(stream.subscribers)) continue;
          const current = ids(stream.subscribers);
          stream.subscribers =
            event.op === 'peer_add'
              ? [...current, ...userIds.filter((u) => !current.includes(u))]
              : removeIds(current, new Set(userIds));
        }
      }
      return;
    }
  }
}

function applyStream(state: Obj, event: RawEvent, options: ApplyOptions): void {
  switch (event.op) {
    case 'create': {
      const created = objs(event.streams);
      const subscribed = new Set(objs(state.subscriptions).map((s) => s.stream_id));
      for (const stream of created) {
        if (
          Array.isArray(state.streams) &&
          !objs(state.streams).some((s) => s.stream_id === stream.stream_id)
        ) {
          (state.streams as Obj[]).push(structuredClone(stream));
        }
        if (Array.isArray(state.never_subscribed) && !subscribed.has(stream.stream_id)) {
          const entry = structuredClone(stream);
          if (options.includeSubscribers) entry.subscribers = ids(entry.subscribers);
          else delete entry.subscribers;
          state.never_subscribed = objs(state.never_subscribed).filter(
            (s) => s.stream_id !== stream.stream_id,
          );
          (state.never_subscribed as Obj[]).push(entry);
        }
      }
      return;
    }
    case 'delete': {
      const gone = new Set(objs(event.streams).map((s) => s.stream_id));
      for (const list of STREAM_LISTS) {
        if (Array.isArray(state[list])) state[list] = objs(state[list]).filter((s) => !gone.has(s.stream_id));
      }
      return;
    }
    case 'update': {
      if (typeof event.property !== 'string') return;
      for (const stream of streamEntries(state, event.stream_id)) {
        stream[event.property] = event.value;
        if (event.property === 'stream_post_policy') stream.is_announcement_only = event.value === 2;
        // Companion values some updates carry (rendered_description, history_public_to_subscribers...).
        for (const [key, value] of Object.entries(event)) {
          if (!ENVELOPE.has(key) && key in stream) stream[key] = value;
        }
      }
      return;
    }
  }
}

// ---- unread messages ----

interface Unreads {
  count: number;
  pms: Obj[];
  streams: Obj[];
  huddles: Obj[];
  mentions: number[];
  [key: string]: unknown;
}

function recount(unread: Unreads): void {
  const all = new Set<number>();
  for (const list of [unread.pms, unread.streams, unread.huddles]) {
    for (const entry of list) for (const id of ids(entry.unread_message_ids)) all.add(id);
  }
  unread.count = all.size;
}

function dropUnread(unread: Unreads, drop: ReadonlySet<number>): void {
  for (const key of ['pms', 'streams', 'huddles'] as const) {
    unread[key] = unread[key]
      .map((entry) => ({ ...entry, unread_message_ids: removeIds(entry.unread_message_ids, drop) }))
      .filter((entry) => entry.unread_message_ids.length > 0);
  }
  unread.mentions = removeIds(unread.mentions, drop);
  recount(unread);
}

interface UnreadTarget {
  kind: 'stream' | 'pm' | 'huddle';
  streamId?: number;
  topic?: string;
  otherUserId?: number;
  userIdsString?: string;
}

function addUnread(unread: Unreads, messageId: number, target: UnreadTarget, mentioned: boolean): void {
  const push = (list: Obj[], match: (e: Obj) => boolean, fresh: Obj) => {
    const entry = list.find(match);
    if (entry) entry.unread_message_ids = [...ids(entry.unread_message_ids), messageId].sort((a, b) => a - b);
    else list.push({ ...fresh, unread_message_ids: [messageId] });
  };
  if (target.kind === 'stream') {
    const topic = target.topic ?? '';
    push(
      unread.streams,
      (e) => e.stream_id === target.streamId && String(e.topic).toLowerCase() === topic.toLowerCase(),
      { stream_id: target.streamId, topic },
    );
  } else if (target.kind === 'pm') {
    push(unread.pms, (e) => e.other_user_id === target.otherUserId, {
      other_user_id: target.otherUserId,
      sender_id: target.otherUserId,
    });
  } else {
    push(unread.huddles, (e) => e.user_ids_string === target.userIdsString, {
      user_ids_string: target.userIdsString,
    });
  }
  if (mentioned && !unread.mentions.includes(messageId)) unread.mentions.push(messageId);
  recount(unread);
}

function unreadsOf(state: Obj): Unreads | null {
  const u = state.unread_msgs;
  if (!isObj(u)) return null;
  u.pms = objs(u.pms);
  u.streams = objs(u.streams);
  u.huddles = objs(u.huddles);
  u.mentions = ids(u.mentions);
  return u as Unreads;
}

const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned'];

function applyMessage(state: Obj, event: RawEvent, userId: number): void {
  const message = event.message;
  if (!isObj(message) || typeof message.id !== 'number') return;
  const flags = Array.isArray(event.flags) ? (event.flags as string[]) : [];
  if (typeof state.max_message_id === 'number') {
    state.max_message_id = Math.max(state.max_message_id, message.id);
  }
  if (message.type === 'private') updateRecentConversations(state, message, userId);
  const unread = unreadsOf(state);
  if (!unread || flags.includes('read')) return;
  const mentioned = flags.some((f) => MENTION_FLAGS.includes(f));
  if (message.type === 'stream') {
    addUnread(
      unread,
      message.id,
      { kind: 'stream', streamId: message.stream_id as number, topic: String(message.subject ?? '') },
      mentioned,
    );
    return;
  }
  const recipients = objs(message.display_recipient)
    .map((r) => r.id)
    .filter((id): id is number => typeof id === 'number');
  const others = recipients.filter((id) => id !== userId);
  if (others.length <= 1) {
    addUnread(unread, message.id, { kind: 'pm', otherUserId: others[0] ?? userId }, mentioned);
  } else {
    const all = [...new Set([...recipients, userId])].sort((a, b) => a - b);
    addUnread(unread, message.id, { kind: 'huddle', userIdsString: all.join(',') }, mentioned);
  }
}

/** recent_private_conversations: newest first, one entry per set of other users. */
function updateRecentConversations(state: Obj, message: Obj, userId: number): void {
  if (!Array.isArray(state.recent_private_conversations)) return;
  const others = objs(message.display_recipient)
    .map((r) => r.id)
    .filter((id): id is number => typeof id === 'number' && id !== userId)
    .sort((a, b) => a - b);
  const key = others.join(',');
  const list = objs(state.recent_private_conversations);
  const existing = list.find((c) => ids(c.user_ids).join(',') === key);
  const newest = Math.max(Number(existing?.max_message_id ?? -1), message.id as number);
  state.recent_private_conversations = [
    { max_message_id: newest, user_ids: others },
    ...list.filter((c) => c !== existing),
  ].sort((a, b) => Number(b.max_message_id) - Number(a.max_message_id));
}

/** Restores unread entries from the family's message_details (op remove of flag read). */
function markUnread(unread: Unreads, event: RawEvent, userId: number): void {
  const details = isObj(event.message_details) ? event.message_details : {};
  for (const messageId of ids(event.messages)) {
    const d = details[String(messageId)];
    if (!isObj(d)) continue;
    const mentioned = d.mentioned === true;
    if (d.type === 'stream') {
      addUnread(
        unread,
        messageId,
        { kind: 'stream', streamId: d.stream_id as number, topic: String(d.topic ?? '') },
        mentioned,
      );
    } else {
      const others = ids(d.user_ids).filter((id) => id !== userId);
      if (others.length <= 1)
        addUnread(unread, messageId, { kind: 'pm', otherUserId: others[0] ?? userId }, mentioned);
      else {
        const all = [...new Set([...others, userId])].sort((a, b) => a - b);
        addUnread(unread, messageId, { kind: 'huddle', userIdsString: all.join(',') }, mentioned);
      }
    }
  }
}

/** starred_messages after a starred flag change (the family's apply_event). */
function applyStarred(state: Obj, event: RawEvent): void {
  if (event.flag !== 'starred' || !Array.isArray(state.starred_messages)) return;
  const changed = new Set(ids(event.messages));
  const kept = removeIds(state.starred_messages, changed);
  state.starred_messages = event.op === 'add' ? [...kept, ...changed].sort((a, b) => a - b) : kept;
}

/** scheduled_messages: undelivered, by delivery time then id (the family's order). */
function applyScheduledMessages(state: Obj, event: RawEvent): void {
  if (!Array.isArray(state.scheduled_messages)) return;
  const idOf = (m: Obj) => Number(m.scheduled_message_id);
  let list = objs(state.scheduled_messages);
  if (event.op === 'add') list = [...list, ...objs(event.scheduled_messages).map((m) => structuredClone(m))];
  else if (event.op === 'update' && isObj(event.scheduled_message)) {
    const updated = structuredClone(event.scheduled_message);
    list = list.map((m) => (idOf(m) === idOf(updated) ? updated : m));
  } else if (event.op === 'remove') list = list.filter((m) => idOf(m) !== event.scheduled_message_id);
  state.scheduled_messages = list.sort(
    (a, b) =>
      Number(a.scheduled_delivery_timestamp) - Number(b.scheduled_delivery_timestamp) || idOf(a) - idOf(b),
  );
}

function applyMessageFlags(state: Obj, event: RawEvent, userId: number): void {
  applyStarred(state, event);
  // Flagging a message the user had no copy of gives them a (historical) copy.
  if (typeof state.max_message_id === 'number' && event.all !== true) {
    state.max_message_id = Math.max(state.max_message_id, ...ids(event.messages));
  }
  const unread = unreadsOf(state);
  if (!unread) return;
  const messages = new Set(ids(event.messages));
  if (event.flag === 'read') {
    if (event.op === 'add') {
      if (event.all === true) dropUnread(unread, new Set(allUnreadIds(unread)));
      else dropUnread(unread, messages);
    } else if (event.op === 'remove') markUnread(unread, event, userId);
  } else if (MENTION_FLAGS.includes(String(event.flag))) {
    if (event.op === 'remove') unread.mentions = removeIds(unread.mentions, messages);
    else {
      const unreadIds = new Set(allUnreadIds(unread));
      for (const id of messages)
        if (unreadIds.has(id) && !unread.mentions.includes(id)) unread.mentions.push(id);
    }
  }
}

function allUnreadIds(unread: Unreads): number[] {
  return [unread.pms, unread.streams, unread.huddles].flatMap((list) =>
    list.flatMap((e) => ids(e.unread_message_ids)),
  );
}

// ---- the rest ----

function applyUserStatus(state: Obj, event: RawEvent): void {
  if (!isObj(state.user_status) || typeof event.user_id !== 'number') return;
  const key = String(event.user_id);
  const status: Obj = { ...(isObj(state.user_status[key]) ? state.user_status[key] : {}) };
  if ('away' in event) {
    if (event.away === true) status.away = true;
    else delete status.away;
  }
  if ('status_text' in event) {
    if (event.status_text) status.status_text = event.status_text;
    else delete status.status_text;
  }
  if ('emoji_name' in event) {
    if (event.emoji_name) {
      status.emoji_name = event.emoji_name;
      status.emoji_code = event.emoji_code;
      status.reaction_type = event.reaction_type;
    } else {
      delete status.emoji_name;
      delete status.emoji_code;
      delete status.reaction_type;
    }
  }
  if (Object.keys(status).length > 0) state.user_status[key] = status;
  else delete state.user_status[key];
}

/** The whole list of fields; users' values of fields that are gone go too (the family's apply_event). */
function applyCustomProfileFields(state: Obj, event: RawEvent): void {
  if ('custom_profile_fields' in state) state.custom_profile_fields = structuredClone(event.fields);
  const fieldIds = new Set(objs(event.fields).map((f) => String(f.id)));
  for (const key of ['realm_users', 'realm_non_active_users'] as const) {
    for (const user of objs(state[key])) {
      if (!isObj(user.profile_data)) continue;
      for (const id of Object.keys(user.profile_data)) if (!fieldIds.has(id)) delete user.profile_data[id];
    }
  }
}

/** realm_bots: add (or replace), update of some fields, remove (deactivation), delete. */
function applyRealmBot(state: Obj, event: RawEvent): void {
  if (!Array.isArray(state.realm_bots) || !isObj(event.bot)) return;
  const botId = event.bot.user_id;
  const bots = objs(state.realm_bots);
  const bot = bots.find((b) => b.user_id === botId);
  if (event.op === 'add') {
    state.realm_bots = [...bots.filter((b) => b.user_id !== botId), structuredClone(event.bot)];
  } else if (event.op === 'update' && bot) Object.assign(bot, structuredClone(event.bot));
  else if (event.op === 'remove' && bot) bot.is_active = false;
  else if (event.op === 'delete') state.realm_bots = bots.filter((b) => b.user_id !== botId);
}

function applyUserGroup(state: Obj, event: RawEvent): void {
  if (!Array.isArray(state.realm_user_groups)) return;
  const groups = objs(state.realm_user_groups);
  const group = groups.find((g) => g.id === event.group_id);
  switch (event.op) {
    case 'add':
      if (isObj(event.group)) {
        const added = structuredClone(event.group);
        state.realm_user_groups = [...groups.filter((g) => g.id !== added.id), added];
      }
      return;
    case 'remove':
      state.realm_user_groups = groups.filter((g) => g.id !== event.group_id);
      return;
    case 'update':
      if (group && isObj(event.data)) Object.assign(group, event.data);
      return;
    case 'add_members':
      if (group) group.members = [...new Set([...ids(group.members), ...ids(event.user_ids)])];
      return;
    case 'remove_members':
      if (group) group.members = removeIds(group.members, new Set(ids(event.user_ids)));
      return;
  }
}

function applyUserTopic(state: Obj, event: RawEvent): void {
  if (!Array.isArray(state.user_topics)) return;
  const topic = String(event.topic_name).toLowerCase();
  const rest = objs(state.user_topics).filter(
    (t) => !(t.stream_id === event.stream_id && String(t.topic_name).toLowerCase() === topic),
  );
  if (event.visibility_policy !== 0) {
    rest.push({
      stream_id: event.stream_id,
      topic_name: event.topic_name,
      last_updated: event.last_updated,
      visibility_policy: event.visibility_policy,
    });
  }
  state.user_topics = rest;
}

function applyDrafts(state: Obj, event: RawEvent): void {
  if (!Array.isArray(state.drafts)) return;
  const drafts = objs(state.drafts);
  if (event.op === 'add') {
    const added = objs(event.drafts);
    const addedIds = new Set(added.map((d) => d.id));
    state.drafts = [...drafts.filter((d) => !addedIds.has(d.id)), ...structuredClone(added)];
  } else if (event.op === 'update' && isObj(event.draft)) {
    const draft = structuredClone(event.draft);
    state.drafts = drafts.some((d) => d.id === draft.id)
      ? drafts.map((d) => (d.id === draft.id ? draft : d))
      : [...drafts, draft];
  } else if (event.op === 'remove') {
    state.drafts = drafts.filter((d) => d.id !== event.draft_id);
  }
}

function applyUserSettings(state: Obj, event: RawEvent): void {
  const property = event.property;
  if (typeof property !== 'string') return;
  if (isObj(state.user_settings)) state.user_settings[property] = event.value;
  // Turning synchronization off deletes the server's drafts without an event (spec).
  if (property === 'enable_drafts_synchronization' && event.value === false && Array.isArray(state.drafts)) {
    state.drafts = [];
  }
}

/**
 * presence: the legacy form keyed by email (what verify-action registers); a snapshot keyed
 * by user id (slim_presence) gets the modern form as far as the event tells it.
 */
function applyPresence(state: Obj, event: RawEvent): void {
  if (!isObj(state.presences) || !isObj(event.presence)) return;
  const website = event.presence.website;
  if (!isObj(website)) return;
  const slim = Object.keys(state.presences).some((key) => /^\d+$/.test(key));
  if (slim) {
    const key = String(event.user_id);
    const before = isObj(state.presences[key]) ? state.presences[key] : {};
    state.presences[key] =
      website.status === 'active'
        ? { active_timestamp: website.timestamp, idle_timestamp: website.timestamp }
        : { ...before, idle_timestamp: website.timestamp };
    return;
  }
  const { pushable: _, ...aggregated } = website;
  state.presences[String(event.email)] = { website: { ...website }, aggregated };
}

function applyMutedUsers(state: Obj, event: RawEvent): void {
  if ('muted_users' in state) state.muted_users = structuredClone(event.muted_users);
}

function applyDeleteMessage(state: Obj, event: RawEvent): void {
  const deleted = new Set(typeof event.message_id === 'number' ? [event.message_id] : ids(event.message_ids));
  const unread = unreadsOf(state);
  if (unread) dropUnread(unread, deleted);
  if (Array.isArray(state.starred_messages))
    state.starred_messages = removeIds(state.starred_messages, deleted);
}

/**
 * update_message: messages moved to another topic or stream move in unread_msgs (keeping
 * their mentions), and a stream move may give the user copies (max_message_id); a content
 * edit may add or remove a mention of the target message.
 */
function applyUpdateMessage(state: Obj, event: RawEvent): void {
  // A stream move gives the new stream's subscribers copies: the event goes only to holders.
  if (typeof event.new_stream_id === 'number' && typeof state.max_message_id === 'number')
    state.max_message_id = Math.max(state.max_message_id, ...ids(event.message_ids));
  const unread = unreadsOf(state);
  if (!unread) return;
  if ('orig_subject' in event) {
    const moved = new Set(ids(event.message_ids));
    const unreadMoved = unread.streams.flatMap((e) =>
      ids(e.unread_message_ids).filter((id) => moved.has(id)),
    );
    const mentioned = new Set(unread.mentions);
    dropUnread(unread, new Set(unreadMoved));
    const target = {
      kind: 'stream' as const,
      streamId: (event.new_stream_id ?? event.stream_id) as number,
      topic: String(event.subject ?? event.orig_subject),
    };
    for (const id of unreadMoved) addUnread(unread, id, target, mentioned.has(id));
  }
  if ('content' in event && typeof event.message_id === 'number') {
    const id = event.message_id;
    const flags = Array.isArray(event.flags) ? (event.flags as string[]) : [];
    unread.mentions = removeIds(unread.mentions, new Set([id]));
    if (allUnreadIds(unread).includes(id) && flags.some((f) => MENTION_FLAGS.includes(f)))
      unread.mentions.push(id);
    recount(unread);
  }
}

function applyOne(state: Obj, event: RawEvent, userId: number, options: ApplyOptions): void {
  switch (event.type) {
    case 'user_settings':
      applyUserSettings(state, event);
      return;
    case 'update_display_settings':
      // Legacy clients keep these settings at the top level of the snapshot.
      if (typeof event.setting_name === 'string' && event.setting_name in state) {
        state[event.setting_name] = event.setting;
      }
      return;
    case 'update_global_notifications':
      if (typeof event.notification_name === 'string' && event.notification_name in state) {
        state[event.notification_name] = event.setting;
      }
      return;
    case 'realm_user':
      applyRealmUser(state, event, userId);
      return;
    case 'subscription':
      applySubscription(state, event, userId, options);
      return;
    case 'stream':
      applyStream(state, event, options);
      return;
    case 'drafts':
      applyDrafts(state, event);
      return;
    case 'user_status':
      applyUserStatus(state, event);
      return;
    case 'custom_profile_fields':
      applyCustomProfileFields(state, event);
      return;
    case 'user_group':
      applyUserGroup(state, event);
      return;
    case 'realm_bot':
      applyRealmBot(state, event);
      return;
    case 'realm_playgrounds':
      if ('realm_playgrounds' in state) state.realm_playgrounds = structuredClone(event.realm_playgrounds);
      return;
    case 'default_streams':
      if ('realm_default_streams' in state)
        state.realm_default_streams = structuredClone(event.default_streams);
      return;
    case 'realm_linkifiers':
      if ('realm_linkifiers' in state) state.realm_linkifiers = structuredClone(event.realm_linkifiers);
      return;
    case 'realm_emoji':
      if ('realm_emoji' in state) state.realm_emoji = structuredClone(event.realm_emoji);
      return;
    case 'alert_words':
      if ('alert_words' in state) state.alert_words = structuredClone(event.alert_words);
      return;
    case 'user_topic':
      applyUserTopic(state, event);
      return;
    case 'update_message_flags':
      applyMessageFlags(state, event, userId);
      return;
    case 'scheduled_messages':
      applyScheduledMessages(state, event);
      return;
    case 'reaction':
      // Reactions live on Message objects, which the snapshot does not hold; reacting gives
      // the user a (historical) copy of the message.
      if (event.op === 'add' && event.user_id === userId && typeof state.max_message_id === 'number') {
        state.max_message_id = Math.max(state.max_message_id, Number(event.message_id));
      }
      return;
    case 'message':
      applyMessage(state, event, userId);
      return;
    case 'delete_message':
      applyDeleteMessage(state, event);
      return;
    case 'presence':
      applyPresence(state, event);
      return;
    case 'muted_users':
      applyMutedUsers(state, event);
      return;
    case 'update_message':
      applyUpdateMessage(state, event);
      return;
    case 'realm_user_settings_defaults':
      if (isObj(state.realm_user_settings_defaults) && typeof event.property === 'string') {
        state.realm_user_settings_defaults[event.property] = event.value;
      }
      return;
    case 'realm':
      if (event.op === 'update' && typeof event.property === 'string') {
        const key = `realm_${event.property}`;
        if (key in state) state[key] = event.value;
      }
      if (event.op === 'update_dict' && isObj(event.data)) {
        for (const [name, value] of Object.entries(event.data)) {
          if (`realm_${name}` in state) state[`realm_${name}`] = value;
        }
      }
      return;
    default:
      // heartbeat, restart, and types this reducer does not know change no snapshot field.
      return;
  }
}

/**
 * The snapshot after these events, for the user `userId` who registered it. Does not change
 * its arguments.
 */
export function applyEventsToState(
  state: Record<string, unknown>,
  events: readonly RawEvent[],
  userId: number,
  options: ApplyOptions = {},
): Record<string, unknown> {
  const next = structuredClone(state);
  for (const event of events) applyOne(next, event, userId, options);
  return next;
}
