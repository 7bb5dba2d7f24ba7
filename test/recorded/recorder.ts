/**
 * Records a real event stream: registers queues as alice, performs a scripted series of real
 * actions through the API as several users, and collects every event alice's queues get,
 * then registers again. The result is what the replay test compares: the old snapshot plus
 * the events must equal the fresh snapshot.
 */
import type { ApiClient, Params } from '../../shared/client';
import { parseEvent, type RegisterParams, type RegisterState, type ServerEvent } from '../../shared/protocol';
import { loginAs, type StartedServer } from '../support/server';

export interface Recording {
  params: RegisterParams;
  before: RegisterState;
  events: ServerEvent[];
  after: RegisterState;
}

type Clients = Record<'alice' | 'bob' | 'admin' | 'owner', ApiClient>;

const stateOf = (response: Record<string, unknown>): RegisterState => {
  const { queue_id: _q, result: _r, msg: _m, ...state } = response;
  return state as RegisterState;
};

async function userId(client: ApiClient): Promise<number> {
  return (await client.request('GET', '/users/me')).user_id as number;
}

async function streamId(client: ApiClient, name: string): Promise<number> {
  const r = await client.request('GET', '/streams', { include_all_active: true });
  const found = (r.streams as { name: string; stream_id: number }[]).find((s) => s.name === name);
  if (!found) throw new Error(`no stream ${name}`);
  return found.stream_id;
}

/** The scripted actions: at least one of every event form the server can produce for alice. */
async function script({ alice, bob, admin, owner }: Clients): Promise<void> {
  const [aliceId, bobId, ownerId] = await Promise.all([userId(alice), userId(bob), userId(owner)]);
  const props = (data: Params[]) =>
    alice.request('POST', '/users/me/subscriptions/properties', { subscription_data: data });

  // user_settings
  await alice.updateSettings({ twenty_four_hour_time: true, color_scheme: 2, emojiset: 'text' });
  // realm_user update: full_name
  await alice.updateSettings({ full_name: 'Alice Recorded' });

  // stream create + subscription add, then peer_add, properties, peer_remove
  await alice.request('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'recorded' }] });
  const recorded = await streamId(admin, 'recorded');
  await bob.request('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'recorded' }] });
  await props([
    { stream_id: recorded, property: 'is_muted', value: true },
    { stream_id: recorded, property: 'color', value: '#123456' },
    { stream_id: recorded, property: 'pin_to_top', value: true },
    { stream_id: recorded, property: 'desktop_notifications', value: true },
    { stream_id: recorded, property: 'audible_notifications', value: false },
  ]);
  await bob.request('DELETE', '/users/me/subscriptions', { subscriptions: ['recorded'] });

  // stream update as admin (description carries rendered_description; post policy its legacy flag)
  const general = await streamId(admin, 'general');
  await admin.request('PATCH', `/streams/${general}`, { description: 'Recorded **news**' });
  await admin.request('PATCH', `/streams/${recorded}`, { new_name: 'recorded-renamed' });

  // a private stream alice never joined: create by an admin for bob (alice is not told),
  // a public one she never joined (stream create -> never_subscribed)
  await admin.request('POST', '/users/me/subscriptions', {
    subscriptions: [{ name: 'elsewhere' }],
    principals: [bobId],
  });

  // subscription remove, then the unsubscribed stream gets updated
  await alice.request('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'leaving' }] });
  const leaving = await streamId(admin, 'leaving');
  await alice.request('DELETE', '/users/me/subscriptions', { subscriptions: ['leaving'] });
  await admin.request('PATCH', `/streams/${leaving}`, { description: 'Gone quiet' });

  // realm_user add
  await admin.request('POST', '/users', {
    email: 'recorded@demo.confab.example',
    password: 'a long recorded password',
    full_name: 'Rita Recorded',
  });

  // user_status: set, then clear the emoji
  await alice.request('POST', '/users/me/status', {
    status_text: 'Recording',
    emoji_name: 'octopus',
  });
  await bob.request('POST', '/users/me/status', { away: true, status_text: 'Out' });
  await alice.request('POST', '/users/me/status', { emoji_name: '' });

  // custom_profile_fields, then alice's own profile data (realm_user update custom_profile_field)
  const field = await admin.request('POST', '/realm/profile_fields', {
    name: 'Phone',
    hint: 'Work phone',
    field_type: 1,
  });
  await alice.request('PATCH', '/users/me/profile_data', { data: [{ id: field.id, value: '**+1** 555' }] });

  // drafts add / update / remove
  const drafts = await alice.request('POST', '/drafts', {
    drafts: [
      { type: 'stream', to: [general], topic: 'kept', content: 'first', timestamp: 1_700_000_000 },
      { type: '', to: [], topic: '', content: 'dropped', timestamp: 1_700_000_001 },
    ],
  });
  const [kept, dropped] = drafts.ids as number[];
  await alice.request('PATCH', `/drafts/${kept}`, {
    draft: { type: 'stream', to: [general], topic: 'kept', content: 'edited', timestamp: 1_700_000_100 },
  });
  await alice.request('DELETE', `/drafts/${dropped}`);

  // user_group add
  await alice.request('POST', '/user_groups/create', {
    name: 'recorders',
    description: 'People who record',
    members: [aliceId, bobId],
  });

  // realm_playgrounds
  const playground = await admin.request('POST', '/realm/playgrounds', {
    name: 'Python playground',
    highlighter_language: 'Python',
    url_prefix: 'https://python.example/?code=',
  });
  await admin.request('DELETE', `/realm/playgrounds/${playground.id}`);
  await admin.request('POST', '/realm/playgrounds', {
    name: 'Go playground',
    highlighter_language: 'Go',
    url_prefix: 'https://go.example/?code=',
  });

  // messages: unread for alice (private, group, stream with a mention), not her own
  await bob.request('POST', '/messages', { type: 'private', to: [aliceId], content: 'psst' });
  await bob.request('POST', '/messages', { type: 'private', to: [aliceId, ownerId], content: 'all three' });
  await bob.request('POST', '/messages', {
    type: 'stream',
    to: 'general',
    topic: 'recorded topic',
    content: 'hello @**Alice Recorded**',
  });
  const doomed = await bob.request('POST', '/messages', {
    type: 'stream',
    to: 'general',
    topic: 'doomed',
    content: 'soon gone',
  });
  await bob.request('POST', '/messages', {
    type: 'stream',
    to: 'general',
    topic: 'doomed',
    content: 'also gone',
  });
  await bob.request('POST', '/messages', {
    type: 'stream',
    to: 'recorded-renamed',
    topic: 'muted talk',
    content: 'in a muted stream',
  });
  const mine = await alice.request('POST', '/messages', {
    type: 'stream',
    to: 'general',
    topic: 'mine',
    content: 'my own',
  });

  // update_message_flags (starred): two stars, one taken back; the doomed one goes with its topic
  await alice.request('POST', '/messages/flags', {
    messages: [doomed.id, mine.id],
    op: 'add',
    flag: 'starred',
  });
  await alice.request('POST', '/messages/flags', { messages: [mine.id], op: 'remove', flag: 'starred' });
  await alice.request('POST', '/messages/flags', { messages: [mine.id], op: 'add', flag: 'starred' });

  // update_message_flags: one topic read; delete_message: a topic deleted by an admin
  await alice.request('POST', '/mark_topic_as_read', { stream_id: general, topic_name: 'recorded topic' });
  await admin.request('POST', `/streams/${general}/delete_topic`, { topic_name: 'doomed' });

  // realm_user_settings_defaults
  await admin.request('PATCH', '/realm/user_settings_defaults', { twenty_four_hour_time: true });

  // mark everything read, then one more unread message after it
  await alice.request('POST', '/mark_all_as_read');
  await bob.request('POST', '/messages', { type: 'private', to: [aliceId], content: 'after all' });

  // only admins may post from now on (and the legacy is_announcement_only follows)
  await admin.request('PATCH', `/streams/${general}`, { stream_post_policy: 2 });

  // turning draft synchronization off drops the server's drafts (without a drafts event)
  await alice.updateSettings({ enable_drafts_synchronization: false });
}

/** The marker: the last action's event; once it arrived, every earlier event has too. */
const MARKER = { property: 'dense_mode', value: false } as const;

async function drain(client: ApiClient, queueId: string): Promise<ServerEvent[]> {
  const events: ServerEvent[] = [];
  let last = -1;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await client.getEvents({ queue_id: queueId, last_event_id: last, dont_block: true });
    for (const raw of r.events) {
      last = Math.max(last, raw.id);
      const event = parseEvent(raw);
      if (event && event.type !== 'heartbeat') events.push(event);
    }
    const done = events.some(
      (e) => e.type === 'user_settings' && e.property === MARKER.property && e.value === MARKER.value,
    );
    if (done) return events;
    if (Date.now() > deadline) throw new Error('the marker event never arrived');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs the script once, recording it through one queue per set of register parameters. */
export async function record(
  server: StartedServer,
  paramSets: readonly RegisterParams[],
): Promise<Recording[]> {
  const [alice, bob, admin, owner] = await Promise.all([
    loginAs(server, 'alice'),
    loginAs(server, 'bob'),
    loginAs(server, 'admin'),
    loginAs(server, 'owner'),
  ]);
  const queues = [];
  for (const params of paramSets) {
    const response = await alice.request('POST', '/register', { ...params });
    queues.push({ params, queueId: response.queue_id as string, before: stateOf(response) });
  }
  await script({ alice, bob, admin, owner });
  await alice.updateSettings({ [MARKER.property]: MARKER.value });
  const recordings: Recording[] = [];
  for (const queue of queues) {
    const events = await drain(alice, queue.queueId);
    const response = await alice.request('POST', '/register', { ...queue.params });
    await alice.deleteQueue(response.queue_id as string);
    await alice.deleteQueue(queue.queueId);
    recordings.push({ params: queue.params, before: queue.before, events, after: stateOf(response) });
  }
  return recordings;
}
