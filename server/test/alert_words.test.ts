/** Alert words: GET/POST/DELETE /users/me/alert_words, alert_words events and register state, has_alert_word on new messages. */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { containsAlertWord } from '../actions/alert-words';
import { authOf, call, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob } = await serviceWith(['alice', 'bob']);

function words(client: ApiClient, method: 'POST' | 'DELETE', list: unknown): Promise<RawResponse> {
  return call(svc.url, method, '/users/me/alert_words', {
    auth: authOf(client),
    params: { alert_words: list as never },
  });
}

describe('alert words', () => {
  it('starts empty', async () => {
    expect(await alice.request('GET', '/users/me/alert_words')).toEqual({
      result: 'success',
      msg: '',
      alert_words: [],
    });
  });

  it('adds words trimmed, without empty ones, answering and sending the whole list', async () => {
    const { events, result, states } = await verifyAction({
      clients: [alice, bob],
      action: () => words(alice, 'POST', ['  Lunch ', '', 'deploy']),
    });
    expect(result.body).toEqual({ result: 'success', msg: '', alert_words: ['deploy', 'Lunch'] });
    expect(events).toEqual([
      [{ type: 'alert_words', alert_words: ['deploy', 'Lunch'], id: expect.any(Number) }],
      [],
    ]);
    expect(states[0]?.alert_words).toEqual(['deploy', 'Lunch']);
    expect(states[1]?.alert_words).toEqual([]);
  });

  it('keeps one word per spelling', async () => {
    const r = await words(alice, 'POST', ['LUNCH', 'deploy']);
    expect(r.body.alert_words).toEqual(['deploy', 'Lunch']);
  });

  it('removes words whatever their case', async () => {
    await words(alice, 'POST', ['coffee']);
    const { events, result } = await verifyAction({
      clients: [alice],
      action: () => words(alice, 'DELETE', ['COFFEE', 'never added']),
    });
    expect(result.body).toEqual({ result: 'success', msg: '', alert_words: ['deploy', 'Lunch'] });
    expect(events[0]).toEqual([
      { type: 'alert_words', alert_words: ['deploy', 'Lunch'], id: expect.any(Number) },
    ]);
  });

  it('refuses a word over 100 characters, and changes nothing', async () => {
    const r = await words(alice, 'POST', ['fine', 'x'.repeat(101)]);
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: 'alert_words[1] is too long (limit: 100 characters)',
        code: 'BAD_REQUEST',
      },
    });
    expect((await alice.request('GET', '/users/me/alert_words')).alert_words).toEqual(['deploy', 'Lunch']);
  });

  it.each([
    ['"lunch"', 'alert_words is not a list'],
    ['[1]', 'alert_words[0] is not a string'],
  ])('refuses %s', async (bad, msg) => {
    const r = await call(svc.url, 'POST', '/users/me/alert_words', {
      auth: authOf(alice),
      body: `alert_words=${encodeURIComponent(bad)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { result: 'error', msg, code: 'BAD_REQUEST' },
    });
  });
});

describe('has_alert_word', () => {
  it('flags a new message for each user with one of their words in it', async () => {
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        bob.request('POST', '/messages', {
          type: 'stream',
          to: 'general',
          topic: 'ops',
          content: 'Who can (deploy) today?',
        }),
    });
    const id = result.id as number;
    const flagsOf = (list: (typeof events)[number]) => list.find((e) => e.type === 'message')?.flags;
    expect(flagsOf(events[0] ?? [])).toContain('has_alert_word');
    expect(flagsOf(events[1] ?? [])).not.toContain('has_alert_word');
    const fetched = await alice.request('GET', `/messages/${id}`);
    expect((fetched.message as { flags?: string[] }).flags ?? fetched.flags).toContain('has_alert_word');
  });

  it('does not flag a word inside another word', async () => {
    const { events } = await verifyAction({
      clients: [alice],
      action: () =>
        bob.request('POST', '/messages', {
          type: 'stream',
          to: 'general',
          topic: 'ops',
          content: 'redeploying lunchtime',
        }),
    });
    expect(events[0]?.find((e) => e.type === 'message')?.flags).not.toContain('has_alert_word');
  });

  it('matches whole words between spaces and punctuation, in any case', () => {
    expect(containsAlertWord('lunch?', 'lunch')).toBe(true);
    expect(containsAlertWord('about "lunch", then', 'lunch')).toBe(true);
    expect(containsAlertWord('*lunch*', 'lunch')).toBe(true);
    expect(containsAlertWord('lunches', 'lunch')).toBe(false);
    expect(containsAlertWord('prelunch lunch', 'lunch')).toBe(true);
    expect(containsAlertWord('release v2', 'v2')).toBe(true);
  });
});
