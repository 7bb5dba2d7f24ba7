/**
 * Messages' topic_links from the organization's linkifiers and from bare URLs: GET /messages,
 * GET /messages/{id}, message and update_message events; patterns on RE2 (a pathological
 * pattern answers at once); linkifier changes apply to messages fetched afterwards. The
 * matching rules themselves (formats/topic-links.ts) are tested directly at the end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { expandUrlTemplate, TopicLinker } from '../formats/topic-links';
import { messageHelpers } from './support/message-edit';
import { serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, admin, alice, bob } = await serviceWith(['admin', 'alice', 'bob'], {
  rateLimits: { user: 0, ip: 0 },
});
const { as, send } = messageHelpers(svc);

const issue = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };
const issueLink = (id: number) => ({ text: `#${id}`, url: `https://github.com/zulip/zulip/issues/${id}` });

async function addLinkifier(linkifier: { pattern: string; url_template: string }): Promise<number> {
  const r = await as(admin, 'POST', '/realm/filters', linkifier);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id as number;
}

/** The message as GET /messages answers it (anchored at its id). */
async function fetched(client: ApiClient, id: number): Promise<Record<string, unknown>> {
  const r = await as(client, 'GET', '/messages', { anchor: String(id), num_before: 0, num_after: 0 });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const [message] = r.body.messages as Record<string, unknown>[];
  expect(message?.id).toBe(id);
  return message as Record<string, unknown>;
}

async function fetchedOne(client: ApiClient, id: number): Promise<Record<string, unknown>> {
  const r = await as(client, 'GET', `/messages/${id}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.message as Record<string, unknown>;
}

afterEach(() => svc.sql('DELETE FROM realm_linkifiers'));

describe('topic_links from linkifiers', () => {
  it('links every match in GET /messages, GET /messages/{id} and the message event', async () => {
    await addLinkifier(issue);
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        alice.request('POST', '/messages', {
          type: 'stream',
          to: 'general',
          topic: 'fix #123 and #456',
          content: 'Both fixed.',
        }),
    });
    const id = result.id as number;
    const links = [issueLink(123), issueLink(456)];
    const message = expect.objectContaining({ id, subject: 'fix #123 and #456', topic_links: links });
    for (const got of events) expect(got).toEqual([expect.objectContaining({ type: 'message', message })]);
    expect((await fetched(bob, id)).topic_links).toEqual(links);
    expect((await fetchedOne(bob, id)).topic_links).toEqual(links);
  });

  it('applies to every message of a GET /messages page', async () => {
    await addLinkifier(issue);
    const first = await send(alice, 'general', 'one', 'bug #1');
    const second = await send(alice, 'general', 'two', 'no links');
    const third = await send(alice, 'general', 'three', '#3');
    const r = await as(bob, 'GET', '/messages', { anchor: String(first), num_before: 0, num_after: 2 });
    const messages = r.body.messages as { id: number; topic_links: unknown }[];
    expect(messages.map((m) => [m.id, m.topic_links])).toEqual([
      [first, [issueLink(1)]],
      [second, []],
      [third, [issueLink(3)]],
    ]);
  });

  it('direct messages have no topic, so no links', async () => {
    await addLinkifier(issue);
    const me = (await alice.getOwnUser()).user_id;
    const dm = await send(alice, [me], 'a note about #12');
    expect((await fetchedOne(alice, dm)).topic_links).toEqual([]);
  });

  it('editing the topic sends update_message with the new topic_links', async () => {
    await addLinkifier(issue);
    const id = await send(alice, 'general', 'first', 'triage');
    expect((await fetched(bob, id)).topic_links).toEqual([]);
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.request('PATCH', `/messages/${id}`, { topic: 'triage #789' }),
    });
    for (const got of events)
      expect(got[0]).toMatchObject({
        type: 'update_message',
        message_id: id,
        orig_subject: 'triage',
        subject: 'triage #789',
        topic_links: [issueLink(789)],
      });
    expect((await fetched(bob, id)).topic_links).toEqual([issueLink(789)]);
  });

  it('a content-only edit carries no topic_links', async () => {
    await addLinkifier(issue);
    const id = await send(alice, 'general', 'before', 'about #5');
    const { events } = await verifyAction({
      clients: [alice],
      action: () => alice.request('PATCH', `/messages/${id}`, { content: 'after' }),
    });
    expect(events[0]?.[0]).toMatchObject({ type: 'update_message', message_id: id });
    expect(events[0]?.[0]).not.toHaveProperty('topic_links');
    expect(events[0]?.[0]).not.toHaveProperty('subject');
  });

  it('a pathological pattern answers at once (RE2, no backtracking)', async () => {
    await addLinkifier({ pattern: '(a+)+$', url_template: 'https://example.com/a' });
    // 59 a's then a character that fails `$`: exponential for a backtracking engine.
    const topic = `${'a'.repeat(59)}!`;
    const r = await as(alice, 'POST', '/messages', { type: 'stream', to: 'general', topic, content: 'x' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.id as number;
    const message = await fetched(alice, id);
    expect(message.subject).toBe(topic);
    expect(message.topic_links).toEqual([]);
    const edit = await as(alice, 'PATCH', `/messages/${id}`, { topic: `${'a'.repeat(58)}!a` });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
  });

  it('linkifier changes apply to messages fetched afterwards', async () => {
    const id = await send(alice, 'general', 'x', 'fix #42');
    expect((await fetched(bob, id)).topic_links).toEqual([]);
    const linkifier = await addLinkifier(issue);
    expect((await fetched(bob, id)).topic_links).toEqual([issueLink(42)]);
    const patched = await as(admin, 'PATCH', `/realm/filters/${linkifier}`, {
      pattern: issue.pattern,
      url_template: 'https://tracker.example/{id}',
    });
    expect(patched.status).toBe(200);
    expect((await fetchedOne(bob, id)).topic_links).toEqual([
      { text: '#42', url: 'https://tracker.example/42' },
    ]);
    expect((await as(admin, 'DELETE', `/realm/filters/${linkifier}`)).status).toBe(200);
    expect((await fetched(bob, id)).topic_links).toEqual([]);
  });
});

describe('bare URLs in topics', () => {
  it('are links too, after and beside linkifier matches, in topic order', async () => {
    await addLinkifier(issue);
    const topic = 'see example.com/x, #12 and https://a.example/b';
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        alice.request('POST', '/messages', { type: 'stream', to: 'general', topic, content: 'links' }),
    });
    const id = result.id as number;
    const links = [
      { text: 'example.com/x', url: 'https://example.com/x' },
      issueLink(12),
      { text: 'https://a.example/b', url: 'https://a.example/b' },
    ];
    const message = expect.objectContaining({ id, subject: topic, topic_links: links });
    for (const got of events) expect(got).toEqual([expect.objectContaining({ type: 'message', message })]);
    expect((await fetched(bob, id)).topic_links).toEqual(links);
    expect((await fetchedOne(bob, id)).topic_links).toEqual(links);
  });

  it('need no linkifier, and follow a topic edit', async () => {
    const id = await send(alice, 'general', 'plain', 'text');
    expect((await fetched(bob, id)).topic_links).toEqual([]);
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        alice.request('PATCH', `/messages/${id}`, { topic: 'moved to https://tracker.example/1' }),
    });
    const links = [{ text: 'https://tracker.example/1', url: 'https://tracker.example/1' }];
    for (const got of events)
      expect(got[0]).toMatchObject({ type: 'update_message', message_id: id, topic_links: links });
    expect((await fetched(bob, id)).topic_links).toEqual(links);
  });
});

describe('TopicLinker', () => {
  const linker = (...list: [string, string][]) =>
    new TopicLinker(list.map(([pattern, url_template], i) => ({ id: i + 1, pattern, url_template })));

  it('matches only at word boundaries the family allows', () => {
    const issues = linker([issue.pattern, issue.url_template]);
    expect(issues.links('#1')).toEqual([issueLink(1)]);
    expect(issues.links('(#2), "#3": <#4')).toEqual([issueLink(2), issueLink(3), issueLink(4)]);
    expect(issues.links('x#5 #6y #7_ #8é')).toEqual([issueLink(7)]);
    expect(issues.links('#9\u00a0#10\u2003#11')).toEqual([issueLink(9), issueLink(10), issueLink(11)]);
    expect(issues.links('#1#2')).toEqual([issueLink(1)]);
    expect(issues.links('')).toEqual([]);
  });

  it('an earlier linkifier wins an overlap; links come in topic order', () => {
    const both = linker(
      ['(?P<org>[a-z]+)#(?P<id>[0-9]+)', 'https://git.example/{org}/{id}'],
      [issue.pattern, issue.url_template],
    );
    expect(both.links('#1 then zulip#2')).toEqual([
      issueLink(1),
      { text: 'zulip#2', url: 'https://git.example/zulip/2' },
    ]);
    // The later, shorter match inside the earlier one is dropped.
    const reversed = linker(
      ['zulip#(?P<id>[0-9]+)', 'https://z.example/{id}'],
      ['zulip', 'https://z.example/'],
    );
    expect(reversed.links('zulip#7 and zulip')).toEqual([
      { text: 'zulip#7', url: 'https://z.example/7' },
      { text: 'zulip', url: 'https://z.example/' },
    ]);
  });

  it('skips patterns RE2 cannot compile and empty matches', () => {
    const odd = linker(
      ['(?=x)x', 'https://x.example/'],
      ['(?P<n>b*)', 'https://b.example/{n}'],
      [issue.pattern, issue.url_template],
    );
    expect(odd.links('a #1 bb')).toEqual([issueLink(1), { text: 'bb', url: 'https://b.example/bb' }]);
  });

  it('links bare URLs as the family does', () => {
    const none = linker();
    const bare = (text: string, url = text) => ({ text, url });
    expect(none.links('see https://example.com/a?b=1.')).toEqual([bare('https://example.com/a?b=1')]);
    expect(none.links('http://localhost:8080/x')).toEqual([bare('http://localhost:8080/x')]);
    expect(none.links('(https://x.org/y), <http://y.org>')).toEqual([
      bare('https://x.org/y'),
      bare('http://y.org'),
    ]);
    // A domain needs a known top-level domain, in lower case; a few file extensions are none.
    expect(none.links('docs: zulip.readthedocs.io/en/latest!')).toEqual([
      bare('zulip.readthedocs.io/en/latest', 'https://zulip.readthedocs.io/en/latest'),
    ]);
    expect(none.links('a.b.community')).toEqual([bare('a.b.community', 'https://a.b.community')]);
    expect(none.links('Example.COM notes.txt main.py x.zip v1.0')).toEqual([]);
    expect(none.links('ünï.com/päth')).toEqual([bare('ünï.com/päth', 'https://ünï.com/päth')]);
    expect(none.links('example.com/a?#f')).toEqual([bare('example.com/a?#f', 'https://example.com/a#f')]);
    // Email and bitcoin addresses, as the family links them.
    expect(none.links('ask foo@example.com')).toEqual([bare('foo@example.com', 'https://foo@example.com')]);
    expect(none.links('pay bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual([
      bare('bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'),
    ]);
    // Only after the start, whitespace or an opening delimiter, and before punctuation and the end.
    expect(none.links('xhttps://a.com https://b.com/c(d a.com/b)')).toEqual([
      bare('a.com/b', 'https://a.com/b'),
    ]);
    expect(none.links('one https://a.com/x two https://b.com')).toEqual([
      bare('https://a.com/x'),
      bare('https://b.com'),
    ]);
  });

  it('a linkifier match wins over a bare URL it overlaps', () => {
    const hosts = linker(
      ['(?P<host>[a-z]+)\\.com', 'https://hosts.example/{host}'],
      [issue.pattern, issue.url_template],
    );
    expect(hosts.links('#1 a.com/x b.org #2')).toEqual([
      issueLink(1),
      { text: 'a.com', url: 'https://hosts.example/a' },
      { text: 'b.org', url: 'https://b.org' },
      issueLink(2),
    ]);
  });

  it('expands RFC 6570 templates', () => {
    const vars = { id: 'a b/ü', empty: '', none: null, n: '42' };
    expect(expandUrlTemplate('https://x.example/{id}', vars)).toBe('https://x.example/a%20b%2F%C3%BC');
    expect(expandUrlTemplate('https://x.example/{+id}', vars)).toBe('https://x.example/a%20b/%C3%BC');
    expect(expandUrlTemplate('https://x.example/{#n}', vars)).toBe('https://x.example/#42');
    expect(expandUrlTemplate('https://x.example{/n,id}', vars)).toBe('https://x.example/42/a%20b%2F%C3%BC');
    expect(expandUrlTemplate('https://x.example/s{.n}', vars)).toBe('https://x.example/s.42');
    expect(expandUrlTemplate('https://x.example/p{;n,empty}', vars)).toBe('https://x.example/p;n=42;empty');
    expect(expandUrlTemplate('https://x.example/q{?n,empty,none}', vars)).toBe(
      'https://x.example/q?n=42&empty=',
    );
    expect(expandUrlTemplate('https://x.example/q?a=1{&n}', vars)).toBe('https://x.example/q?a=1&n=42');
    expect(expandUrlTemplate('https://x.example/{none}{n:1}', vars)).toBe('https://x.example/4');
    expect(expandUrlTemplate('https://x.example/{+id}', { id: "%41!'()*" })).toBe(
      "https://x.example/%41!'()*",
    );
    expect(expandUrlTemplate('https://x.example/{id}', { id: "%41!'()*" })).toBe(
      'https://x.example/%2541%21%27%28%29%2A',
    );
  });
});
