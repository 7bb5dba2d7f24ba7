/** Incoming webhooks: POST /api/v1/external/{integration_name}, the helloworld integration. */

import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../shared/client';
import { authenticateWebhook } from '../auth';
import { DB_FILE_NAME } from '../db';
import { RequestParams } from '../params';
import { resolveConfig } from '../webhooks/post';
import { INTEGRATIONS } from '../webhooks/registry';
import type { Integration } from '../webhooks/types';
import { authOf, type RawResponse, serviceWith } from './support/service';
import { DEFAULT_REGISTER_PARAMS, verifyAction } from './support/verify-action';

// Demo ids: admin 2 (the webhook bot's owner), alice 4, webhook bot 7; general is stream 1.
const ADMIN = 2;
const BOT = 7;
const GENERAL = 1;

const { svc, admin, alice } = await serviceWith(['admin', 'alice']);
const bot = svc.demo.webhook_bot;

const hello = {
  featured_title: 'Marilyn Monroe',
  featured_url: 'https://en.wikipedia.org/wiki/Marilyn_Monroe',
};
const helloText =
  'Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Marilyn Monroe](https://en.wikipedia.org/wiki/Marilyn_Monroe)**';

/** Raw content in events, so the exact Markdown can be compared. */
const raw = { ...DEFAULT_REGISTER_PARAMS, apply_markdown: false };

async function hook(
  query: Record<string, string>,
  body: string = JSON.stringify(hello),
  options: { contentType?: string; integration?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const url = `${svc.url}/api/v1/external/${options.integration ?? 'helloworld'}?${new URLSearchParams(query)}`;
  const headers: Record<string, string> = { ...options.headers };
  if (options.contentType !== '') headers['Content-Type'] = options.contentType ?? 'application/json';
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

function messagesIn(events: Record<string, unknown>[]): Record<string, unknown>[] {
  return events.filter((e) => e.type === 'message').map((e) => e.message as Record<string, unknown>);
}

describe('POST /external/helloworld', () => {
  it('posts the greeting to a stream named by `stream`, under topic "Hello World"', async () => {
    const { events, result } = await verifyAction({
      clients: [alice, admin],
      registerParams: raw,
      action: () => hook({ api_key: bot.api_key, stream: 'general' }),
    });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 200,
      body: { result: 'success', msg: '' },
    });
    for (const got of events) {
      expect(got).toHaveLength(1);
      expect(messagesIn(got)).toEqual([
        expect.objectContaining({
          type: 'stream',
          stream_id: GENERAL,
          display_recipient: 'general',
          subject: 'Hello World',
          content: helloText,
          sender_id: BOT,
          sender_email: bot.email,
          client: 'ConfabHelloWorldWebhook',
        }),
      ]);
    }
  });

  it('takes the stream by id, and the topic from `topic`', async () => {
    const { events } = await verifyAction({
      clients: [alice],
      registerParams: raw,
      action: () => hook({ api_key: bot.api_key, stream: String(GENERAL), topic: 'Daily article' }),
    });
    expect(messagesIn(events[0] ?? [])).toEqual([
      expect.objectContaining({ stream_id: GENERAL, subject: 'Daily article', content: helloText }),
    ]);
  });

  it('reads a JSON body whatever its Content-Type says', async () => {
    for (const contentType of ['application/x-www-form-urlencoded', 'text/plain', '']) {
      const { events, result } = await verifyAction({
        clients: [alice],
        registerParams: raw,
        action: () =>
          hook({ api_key: bot.api_key, stream: 'general' }, JSON.stringify(hello), { contentType }),
      });
      expect(result.body).toEqual({ result: 'success', msg: '' });
      expect(messagesIn(events[0] ?? [])).toEqual([expect.objectContaining({ content: helloText })]);
    }
  });

  it('without a stream, sends the message privately to the bot owner', async () => {
    const { events, result } = await verifyAction({
      clients: [admin, alice],
      registerParams: raw,
      action: () => hook({ api_key: bot.api_key }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    expect(messagesIn(events[0] ?? [])).toEqual([
      expect.objectContaining({
        type: 'private',
        content: helloText,
        sender_id: BOT,
        display_recipient: [expect.objectContaining({ id: ADMIN }), expect.objectContaining({ id: BOT })],
      }),
    ]);
    expect(events[1]).toEqual([]);
  });

  it('for a stream that does not exist, succeeds and tells the bot owner instead', async () => {
    const { events, result } = await verifyAction({
      clients: [admin, alice],
      registerParams: raw,
      action: () => hook({ api_key: bot.api_key, stream: 'no such stream' }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    expect(messagesIn(events[0] ?? [])).toEqual([
      expect.objectContaining({
        type: 'private',
        sender_id: BOT,
        content: `Your bot \`${bot.email}\` tried to send a message to stream #**no such stream**, but that stream does not exist. Click [here](#streams/new) to create it.`,
      }),
    ]);
    expect(events[1]).toEqual([]);

    const byId = await verifyAction({
      clients: [admin],
      registerParams: raw,
      action: () => hook({ api_key: bot.api_key, stream: '9999' }),
    });
    expect(messagesIn(byId.events[0] ?? [])).toEqual([
      expect.objectContaining({
        content: `Your bot \`${bot.email}\` tried to send a message to stream ID 9999, but there is no stream with that ID.`,
      }),
    ]);
  });

  it('for a stream without subscribers, posts and tells the bot owner', async () => {
    svc.sql(
      `INSERT INTO streams (id, realm_id, name, date_created, can_remove_subscribers_group_id)
       VALUES (50, 1, 'empty', 0, (SELECT id FROM user_groups WHERE name = 'role:administrators'))`,
    );
    svc.sql('INSERT INTO recipients (type, type_id) VALUES (2, 50)');
    const { events, result } = await verifyAction({
      clients: [admin],
      registerParams: raw,
      // The first message of a stream sets its first_message_id, for which sendMessage sends no
      // `stream` update event yet (messages area): left out of the comparison here.
      ignoreKeys: ['never_subscribed', 'streams'],
      action: () => hook({ api_key: bot.api_key, stream: 'empty' }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    expect(messagesIn(events[0] ?? [])).toEqual([
      expect.objectContaining({
        type: 'private',
        content: `Your bot \`${bot.email}\` tried to send a message to stream #**empty**. The stream exists but does not have any subscribers.`,
      }),
    ]);
  });

  // [label, body, msg]: 400 BAD_REQUEST and nothing posted.
  const bad: [string, string, string][] = [
    ['a missing key', JSON.stringify({ featured_title: 'T' }), "payload['featured_url'] is missing"],
    [
      'a key of the wrong type',
      JSON.stringify({ ...hello, featured_title: 5 }),
      "payload['featured_title'] is not a string",
    ],
    ['a body that is no JSON', 'featured_title=T', 'Malformed JSON'],
    ['an empty body', '', 'Malformed JSON'],
    ['a JSON list', JSON.stringify([hello]), 'payload is not a dict'],
  ];
  it.each(bad)('refuses %s with a clear 400 and posts nothing', async (_label, body, msg) => {
    const { events, result } = await verifyAction({
      clients: [admin, alice],
      action: () => hook({ api_key: bot.api_key, stream: 'general' }, body),
    });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 400,
      body: { result: 'error', msg, code: 'BAD_REQUEST' },
    });
    expect(events).toEqual([[], []]);
  });
});

describe('webhook authentication', () => {
  it('requires the api_key parameter', async () => {
    const r = await hook({ stream: 'general' });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: "Missing 'api_key' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'api_key',
      },
    });
  });

  it('answers 401 INVALID_API_KEY for an unknown key', async () => {
    const r = await hook({ api_key: 'x'.repeat(32), stream: 'general' });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' },
    });
  });

  it('is for incoming-webhook bots only', async () => {
    const r = await hook({ api_key: authOf(alice)[1], stream: 'general' });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: 'This API is only available to incoming webhook bots.',
        code: 'BAD_REQUEST',
      },
    });
  });

  it('does not take HTTP Basic for an integration that did not declare it', async () => {
    const r = await hook({ stream: 'general' }, JSON.stringify(hello), {
      headers: { Authorization: basicAuthHeader(bot.email, bot.api_key) },
    });
    expect(r.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'api_key' });
  });

  it('answers 404 for an unknown integration and 405 for another method', async () => {
    const r = await hook({ api_key: bot.api_key }, '{}', { integration: 'nosuch' });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 404,
      body: { result: 'error', msg: 'Endpoint not found', code: 'NOT_FOUND' },
    });
    const get = await fetch(`${svc.url}/api/v1/external/helloworld?api_key=${bot.api_key}`);
    expect(get.status).toBe(405);
  });

  it('answers 401 USER_DEACTIVATED for a deactivated bot', async () => {
    svc.sql('UPDATE users SET is_active = 0 WHERE id = ?', BOT);
    try {
      const r = await hook({ api_key: bot.api_key, stream: 'general' });
      expect({ status: r.status, body: r.body }).toEqual({
        status: 401,
        body: { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' },
      });
    } finally {
      svc.sql('UPDATE users SET is_active = 1 WHERE id = ?', BOT);
    }
  });

  it('accepts HTTP Basic (bot email and key) where an integration declares it', () => {
    const db = new Database(join(svc.dataDir, DB_FILE_NAME), { readonly: true });
    try {
      const request = (authorization: string) => ({ apiKey: undefined, authorization, allowBasic: true });
      expect(authenticateWebhook(db, 1, request(basicAuthHeader(bot.email, bot.api_key))).id).toBe(BOT);
      expect(() => authenticateWebhook(db, 1, request(basicAuthHeader(bot.email, 'wrong')))).toThrow(
        'Invalid API key',
      );
      expect(() => authenticateWebhook(db, 1, request(basicAuthHeader(...authOf(alice))))).toThrow(
        'This API is only available to incoming webhook bots.',
      );
    } finally {
      db.close();
    }
  });
});

describe('the integration registry', () => {
  it('has helloworld under its URL name', () => {
    expect(INTEGRATIONS.get('helloworld')?.name).toBe('helloworld');
  });

  it('validates declared config options and passes them by name', () => {
    const integration: Integration = {
      name: 'example',
      displayName: 'Example',
      config: [
        {
          key: 'branches',
          description: 'Branches to report',
          validate: (v) => (/^[\w,-]+$/.test(v) ? { value: v } : { error: 'Invalid branches' }),
        },
        { key: 'team', description: 'Team', required: true, validate: (v) => ({ value: v.trim() }) },
      ],
      handle: () => null,
    };
    const params = (entries: [string, string][]) => new RequestParams(entries);
    expect(
      resolveConfig(
        integration,
        params([
          ['team', ' core '],
          ['branches', 'main,dev'],
          ['x', '1'],
        ]),
      ),
    ).toEqual({
      team: 'core',
      branches: 'main,dev',
    });
    expect(() =>
      resolveConfig(
        integration,
        params([
          ['team', 'a'],
          ['branches', 'a b'],
        ]),
      ),
    ).toThrow('Invalid branches');
    expect(() => resolveConfig(integration, params([]))).toThrow("Missing 'team' argument");
  });
});
