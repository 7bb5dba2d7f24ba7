/**
 * A third-party client against our real server: zulip-js (the interface family's JavaScript
 * library) signs in with a password, registers a queue, long-polls, sends, subscribes,
 * creates a user, edits a message and reacts, each through its own methods, so its request
 * forms (multipart POST bodies, PATCH and DELETE parameters in the query) are what we serve.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { serviceWith } from './support/service';

/** The parts of zulip-js this suite calls (the library ships no types). */
type Params = Record<string, unknown>;
type Answer = Promise<Record<string, unknown>>;
type Call = (p?: Params) => Answer;
interface ZulipClient {
  [resource: string]: unknown;
  config: { apiKey: string };
  queues: { register(p: Params): Answer; deregister(p: Params): Answer };
  events: { retrieve(p: Params): Answer };
  messages: {
    send(p: Params): Answer;
    retrieve(p: Params): Answer;
    update(p: Params): Answer;
    getById: Call;
    getHistoryById: Call;
    render: Call;
    deleteById: Call;
    flags: { add: Call; remove: Call };
  };
  users: {
    create(p: Params): Answer;
    retrieve(p?: Params): Answer;
    me: { getProfile(): Answer; subscriptions: { add: Call; remove: Call }; alertWords: { retrieve: Call } };
  };
  streams: {
    retrieve: Call;
    getStreamId(name: string): Answer;
    subscriptions: { retrieve: Call };
    topics: { retrieve: Call };
  };
  typing: { send: Call };
  server: { settings: Call };
  emojis: { retrieve: Call };
  filters: { retrieve: Call };
  reactions: { add(p: Params): Answer; remove(p: Params): Answer };
}
const zulip = createRequire(import.meta.url)('zulip-js') as (config: Params) => Promise<ZulipClient>;

const { svc } = await serviceWith([]);
const signIn = (who: 'owner' | 'alice' | 'bob') =>
  zulip({ username: svc.demo.users[who], password: svc.demo.password, realm: svc.url });

const alice = await signIn('alice');
const bob = await signIn('bob');
const owner = await signIn('owner');

/** Alice posts to general > zulip-js through the library. */
const say = (content: string) =>
  alice.messages.send({ type: 'stream', to: 'general', topic: 'zulip-js', content });

const ok = (answer: Record<string, unknown>) => expect(answer).toMatchObject({ result: 'success' });

describe('zulip-js against our server', () => {
  it('signs in with a password: the library fetched a key', async () => {
    expect(alice.config.apiKey).toMatch(/^[A-Za-z0-9]{20,}$/);
    const me = await alice.users.me.getProfile();
    ok(me);
    expect(me.email).toBe(svc.demo.users.alice);
  });

  it('registers a queue, long-polls it and receives the message sent meanwhile', async () => {
    const queue = await bob.queues.register({ event_types: ['message'] });
    ok(queue);
    const poll = bob.events.retrieve({ queue_id: queue.queue_id, last_event_id: queue.last_event_id });
    await svc.service.events.whenWaiting(queue.queue_id as string);
    const sent = await say('from zulip-js');
    ok(sent);
    const events = (await poll).events as Record<string, unknown>[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'message', message: { id: sent.id, content: 'from zulip-js' } });
    ok(await bob.queues.deregister({ queue_id: queue.queue_id }));
  });

  it('reads messages with a narrow', async () => {
    const r = await alice.messages.retrieve({
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      // zulip-js writes the narrow as JSON itself.
      narrow: [{ operator: 'topic', operand: 'zulip-js' }],
    });
    ok(r);
    expect((r.messages as unknown[]).length).toBeGreaterThan(0);
  });

  it('subscribes to a new stream and finds it', async () => {
    const r = await alice.users.me.subscriptions.add({ subscriptions: [{ name: 'zulip-js stream' }] });
    ok(r);
    const subs = await alice.streams.subscriptions.retrieve();
    ok(subs);
    expect((subs.subscriptions as { name: string }[]).map((s) => s.name)).toContain('zulip-js stream');
  });

  it('creates a user', async () => {
    const r = await owner.users.create({
      email: 'zulipjs@example.com',
      password: 'a long enough password',
      full_name: 'Zulip Js',
    });
    ok(r);
    expect(r.user_id).toEqual(expect.any(Number));
  });

  it('edits a message (PATCH with its parameters in the query)', async () => {
    const sent = await say('typo');
    ok(sent);
    ok(await alice.messages.update({ message_id: sent.id, content: 'fixed' }));
    const r = await alice.messages.retrieve({
      anchor: sent.id,
      num_before: 0,
      num_after: 0,
      apply_markdown: false,
    });
    expect((r.messages as { content: string }[])[0]?.content).toBe('fixed');
  });

  it('reacts and takes the reaction back', async () => {
    const sent = await say('react');
    ok(await bob.reactions.add({ message_id: sent.id, emoji_name: 'octopus' }));
    ok(await bob.reactions.remove({ message_id: sent.id, emoji_name: 'octopus' }));
  });

  it('serves the rest of its methods: lists, lookups, flags, typing, settings, deletion', async () => {
    const sent = await say('**x**');
    const general = await alice.streams.getStreamId('general');
    ok(general);
    const bobId = ((await alice.users.retrieve()).members as { email: string; user_id: number }[]).find(
      (u) => u.email === svc.demo.users.bob,
    )?.user_id;
    const calls: [string, () => Answer][] = [
      ['streams.retrieve', () => alice.streams.retrieve()],
      ['streams.topics.retrieve', () => alice.streams.topics.retrieve({ stream_id: general.stream_id })],
      ['messages.getById', () => alice.messages.getById({ message_id: sent.id })],
      ['messages.getHistoryById', () => alice.messages.getHistoryById({ message_id: sent.id })],
      ['messages.render', () => alice.messages.render({ content: '**x**' })],
      ['messages.flags.add', () => alice.messages.flags.add({ flag: 'starred', messages: [sent.id] })],
      ['messages.flags.remove', () => alice.messages.flags.remove({ flag: 'starred', messages: [sent.id] })],
      ['typing.send', () => alice.typing.send({ to: [bobId], op: 'start' })],
      ['server.settings', () => alice.server.settings()],
      ['emojis.retrieve', () => alice.emojis.retrieve()],
      ['filters.retrieve', () => alice.filters.retrieve()],
      ['users.me.alertWords.retrieve', () => alice.users.me.alertWords.retrieve()],
      [
        'users.me.subscriptions.add',
        () => alice.users.me.subscriptions.add({ subscriptions: [{ name: 'leaving' }] }),
      ],
      // DELETE parameters travel in the query, where zulip-js leaves JSON to the caller.
      [
        'users.me.subscriptions.remove',
        () => alice.users.me.subscriptions.remove({ subscriptions: '["leaving"]' }),
      ],
      ['messages.deleteById', () => owner.messages.deleteById({ message_id: sent.id })],
    ];
    for (const [name, call] of calls)
      expect({ name, ...(await call()) }).toMatchObject({ name, result: 'success' });
  });

  it('passes our errors through as the family words them', async () => {
    const r = await alice.messages.send({ type: 'stream', to: 'no such stream', topic: 't', content: 'x' });
    expect(r).toMatchObject({ result: 'error', code: 'STREAM_DOES_NOT_EXIST' });
  });
});
