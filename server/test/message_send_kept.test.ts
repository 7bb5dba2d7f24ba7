/**
 * What sending keeps between messages (actions/messages.ts, db/alert-words.ts): the alert words
 * of the organization and the senders' rows. A change of either shows on the very next
 * message, whoever made it (this service or another connection to its database); the message
 * event is the Message object GET /messages/{id} answers, text for text.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { DB_FILE_NAME } from '../db';
import { demoIds, eventsAfter, serviceWith } from './support/service';

const { svc, alice, bob } = await serviceWith(['alice', 'bob']);
afterAll(() => svc.close());
const ids = demoIds(svc);

/** Bob posts to general; alice's flags on the message, as stored. */
async function aliceFlags(content: string): Promise<string[]> {
  const sent = await bob.request('POST', '/messages', {
    type: 'stream',
    to: 'general',
    topic: 'kept',
    content,
  });
  const fetched = await alice.request('GET', `/messages/${sent.id as number}`);
  return (fetched.message as { flags: string[] }).flags;
}

/** Runs SQL through a connection of its own, as a command-line tool would. */
function writeElsewhere(sql: string, ...params: unknown[]): void {
  const db = new Database(join(svc.dataDir, DB_FILE_NAME));
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

describe('kept alert words', () => {
  it('take an added word on the very next message, and a removed one off', async () => {
    expect(await aliceFlags('the kettle is on')).toEqual([]);
    await alice.request('POST', '/users/me/alert_words', { alert_words: ['Kettle'] });
    expect(await aliceFlags('the kettle is on')).toEqual(['has_alert_word']);
    await alice.request('DELETE', '/users/me/alert_words', { alert_words: ['kettle'] });
    expect(await aliceFlags('the kettle is on')).toEqual([]);
    await alice.request('POST', '/users/me/alert_words', { alert_words: ['KETTLE'] });
    expect(await aliceFlags('the kettle is on')).toEqual(['has_alert_word']);
    await alice.request('DELETE', '/users/me/alert_words', { alert_words: ['kettle'] });
  });

  it('see words another connection adds or removes', async () => {
    expect(await aliceFlags('teapot time')).toEqual([]);
    writeElsewhere('INSERT INTO alert_words (user_id, word) VALUES (?, ?)', ids.users.alice, 'teapot');
    expect(await aliceFlags('teapot time')).toEqual(['has_alert_word']);
    writeElsewhere('DELETE FROM alert_words WHERE user_id = ? AND word = ?', ids.users.alice, 'teapot');
    expect(await aliceFlags('teapot time')).toEqual([]);
  });

  it('are per user: a word of one user flags only that user', async () => {
    await bob.request('POST', '/users/me/alert_words', { alert_words: ['saucer'] });
    const sent = await alice.request('POST', '/messages', {
      type: 'stream',
      to: 'general',
      topic: 'kept',
      content: 'a saucer',
    });
    const forBob = await bob.request('GET', `/messages/${sent.id as number}`);
    const forAlice = await alice.request('GET', `/messages/${sent.id as number}`);
    expect((forBob.message as { flags: string[] }).flags).toEqual(['has_alert_word']);
    expect((forAlice.message as { flags: string[] }).flags).toEqual(['read']);
    await bob.request('DELETE', '/users/me/alert_words', { alert_words: ['saucer'] });
    expect(await aliceFlags('a saucer')).toEqual([]);
  });
});

/** Alice's message events after a queue registered now, for `send`; and the message's id. */
async function messageEvent(
  viewer: ApiClient,
  send: () => Promise<Record<string, unknown>>,
): Promise<{ event: Record<string, unknown>; id: number }> {
  const queue = await viewer.registerQueue({
    event_types: ['message'],
    apply_markdown: true,
    client_extavatar: false,
  });
  const sent = await send();
  const events = await eventsAfter(viewer, queue.queue_id as string, -1);
  const event = events.find((e) => e.type === 'message');
  if (!event) throw new Error('no message event');
  return { event, id: sent.id as number };
}

/** The message as GET /messages/{id} answers it, without its flags (events carry them beside it). */
async function fetchedWithoutFlags(viewer: ApiClient, id: number): Promise<Record<string, unknown>> {
  const { flags: _flags, ...message } = (await viewer.request('GET', `/messages/${id}`)).message as Record<
    string,
    unknown
  >;
  return message;
}

describe('the message event of a send', () => {
  it('is the stored stream message, text for text, with no reactions', async () => {
    const { event, id } = await messageEvent(alice, () =>
      bob.request('POST', '/messages', { type: 'stream', to: 'general', topic: 'shape', content: '**hi**' }),
    );
    const message = event.message as Record<string, unknown>;
    expect(JSON.stringify(message)).toBe(JSON.stringify(await fetchedWithoutFlags(alice, id)));
    expect(message.display_recipient).toBe('general');
    expect(message.reactions).toEqual([]);
    expect(event.flags).toEqual([]);
  });

  it('is the stored direct message, text for text', async () => {
    const { event, id } = await messageEvent(alice, () =>
      bob.request('POST', '/messages', {
        type: 'private',
        to: JSON.stringify([ids.users.alice]),
        content: 'psst',
      }),
    );
    expect(JSON.stringify(event.message)).toBe(JSON.stringify(await fetchedWithoutFlags(alice, id)));
  });

  it("shows the sender's new name on the very next message", async () => {
    await bob.request('PATCH', '/settings', { full_name: 'Robert Kept' });
    const { event, id } = await messageEvent(alice, () =>
      bob.request('POST', '/messages', { type: 'stream', to: 'general', topic: 'shape', content: 'renamed' }),
    );
    const message = event.message as Record<string, unknown>;
    expect(message.sender_full_name).toBe('Robert Kept');
    expect(JSON.stringify(message)).toBe(JSON.stringify(await fetchedWithoutFlags(alice, id)));
  });

  it('shows a name another connection wrote on the very next message', async () => {
    writeElsewhere('UPDATE users SET full_name = ? WHERE id = ?', 'Bobby Elsewhere', ids.users.bob);
    const { event } = await messageEvent(alice, () =>
      bob.request('POST', '/messages', { type: 'stream', to: 'general', topic: 'shape', content: 'again' }),
    );
    expect((event.message as Record<string, unknown>).sender_full_name).toBe('Bobby Elsewhere');
  });
});
