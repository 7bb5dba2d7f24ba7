/**
 * The notification rules both sides use: sounds, muted people, the conversation a notification
 * opens, its text, and the summary of a burst. (shouldNotify's stream and mention rules are
 * tested through the main process's re-export, electron/core/desktop/attention.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { BOB, CAROL, ME, snapshotFixture, subscription } from '../../test/fixtures/domain';
import {
  accountStateFromSnapshot,
  BURST_SIZE,
  burstSummary,
  conversationLabel,
  conversationNarrowOf,
  type MessageEvent,
  notificationContent,
  notificationSoundOf,
  planNotifications,
  shouldNotify,
  shouldPlaySound,
} from './index';

function state(settings: Record<string, unknown> = {}, rest: Record<string, unknown> = {}) {
  return accountStateFromSnapshot(
    snapshotFixture({
      user_settings: {
        enable_desktop_notifications: true,
        enable_stream_desktop_notifications: false,
        enable_stream_audible_notifications: false,
        enable_sounds: true,
        notification_sound: 'chime',
        pm_content_in_desktop_notifications: true,
        ...settings,
      },
      subscriptions: [
        subscription(1, 'general'),
        subscription(2, 'design', { audible_notifications: true, is_muted: true }),
      ],
      ...rest,
    }),
  );
}

function streamMessage(id: number, streamId: number, topic: string, flags: string[] = []): MessageEvent {
  return {
    id: 0,
    type: 'message',
    message: {
      id,
      type: 'stream',
      stream_id: streamId,
      subject: topic,
      sender_id: BOB,
      sender_full_name: 'Bob',
      display_recipient: streamId === 1 ? 'general' : 'design',
      content: '<p>Lunch <em>now</em></p>',
    },
    flags,
  };
}

function privateMessage(id: number, people = [BOB, ME], sender = BOB, flags: string[] = []): MessageEvent {
  return {
    id: 0,
    type: 'message',
    message: {
      id,
      type: 'private',
      subject: '',
      sender_id: sender,
      sender_full_name: sender === BOB ? 'Bob' : 'Carol',
      display_recipient: people.map((p) => ({
        id: p,
        email: `${p}@x`,
        full_name: { [ME]: 'Me', [BOB]: 'Bob', [CAROL]: 'Carol' }[p],
      })),
      content: '<p>the plan</p>',
    },
    flags,
  };
}

/** A stand-in for the callers' HTML-to-text (the main process sanitizes, the renderer parses). */
const toText = (html: string) => html.replace(/<[^>]*>/g, '').trim();

describe('shouldPlaySound', () => {
  it('sounds for private messages and mentions with enable_sounds, not for plain stream messages', () => {
    const s = state();
    expect(shouldPlaySound(s, privateMessage(1))).toBe(true);
    expect(shouldPlaySound(s, streamMessage(2, 1, 't', ['mentioned']))).toBe(true);
    expect(shouldPlaySound(s, streamMessage(3, 1, 't', ['has_alert_word']))).toBe(true);
    expect(shouldPlaySound(s, streamMessage(4, 1, 't'))).toBe(false);
  });

  it('enable_sounds off and the sound "none" silence them', () => {
    expect(shouldPlaySound(state({ enable_sounds: false }), privateMessage(1))).toBe(false);
    expect(shouldPlaySound(state({ notification_sound: 'none' }), privateMessage(1))).toBe(false);
    expect(notificationSoundOf(state({ notification_sound: 'none' }))).toBeNull();
    expect(notificationSoundOf(state({ notification_sound: 'ding' }))).toBe('ding');
    expect(notificationSoundOf(state({ notification_sound: undefined }))).toBe('chime');
  });

  it("stream messages follow the stream's audible_notifications, null inheriting the user's", () => {
    // design (2) says true; it is muted in the fixture, so unmute it for this.
    const s = state(
      {},
      { user_topics: [{ stream_id: 2, topic_name: 't', last_updated: 1, visibility_policy: 2 }] },
    );
    expect(shouldPlaySound(s, streamMessage(1, 2, 't'))).toBe(true);
    expect(shouldPlaySound(s, streamMessage(2, 1, 't'))).toBe(false);
    expect(
      shouldPlaySound(state({ enable_stream_audible_notifications: true }), streamMessage(3, 1, 't')),
    ).toBe(true);
    // Independent of enable_sounds, which is about private messages and mentions.
    expect(shouldPlaySound(state({ enable_sounds: false }), streamMessage(4, 2, 't'))).toBe(false);
    expect(
      shouldPlaySound(
        state(
          { enable_sounds: false },
          { user_topics: [{ stream_id: 2, topic_name: 't', last_updated: 1, visibility_policy: 2 }] },
        ),
        streamMessage(5, 2, 't'),
      ),
    ).toBe(true);
  });

  it("never sounds for read messages, one's own, or in muted streams", () => {
    const s = state({ enable_stream_audible_notifications: true });
    expect(shouldPlaySound(s, privateMessage(1, [BOB, ME], BOB, ['read']))).toBe(false);
    expect(shouldPlaySound(s, privateMessage(2, [BOB, ME], ME))).toBe(false);
    expect(shouldPlaySound(s, streamMessage(3, 2, 'muted stream'))).toBe(false);
  });
});

describe('muted users', () => {
  it('neither notify nor sound', () => {
    const s = state({}, { muted_users: [{ id: BOB, timestamp: 1 }] });
    expect(shouldNotify(s, privateMessage(1))).toBe(false);
    expect(shouldPlaySound(s, privateMessage(1))).toBe(false);
    expect(shouldNotify(s, privateMessage(2, [CAROL, ME], CAROL))).toBe(true);
  });
});

describe('conversations', () => {
  it('a stream message opens its topic, a private one its conversation by the other people', () => {
    expect(conversationNarrowOf(streamMessage(1, 1, 'lunch').message, ME)).toEqual({
      kind: 'topic',
      streamId: 1,
      topic: 'lunch',
    });
    expect(conversationNarrowOf(privateMessage(2, [ME, CAROL, BOB]).message, ME)).toEqual({
      kind: 'dm',
      userIds: [BOB, CAROL],
    });
    expect(conversationNarrowOf(privateMessage(3, [ME], ME).message, ME)).toEqual({
      kind: 'dm',
      userIds: [ME],
    });
  });

  it('names a conversation by its stream and topic, or the other people', () => {
    const s = state();
    expect(conversationLabel(s, streamMessage(1, 1, 'lunch'))).toBe('#general > lunch');
    expect(conversationLabel(s, privateMessage(2, [ME, BOB, CAROL]))).toBe('Bob, Carol');
    expect(conversationLabel(s, privateMessage(3, [ME], ME))).toBe('Carol');
  });
});

describe('notificationContent', () => {
  it('uses the caller’s HTML to text, and hides private content per pm_content_in_desktop_notifications', () => {
    expect(notificationContent(state(), streamMessage(1, 1, 'lunch'), toText)).toEqual({
      title: 'Bob (to general > lunch)',
      body: 'Lunch now',
    });
    expect(notificationContent(state(), privateMessage(2, [ME, BOB, CAROL]), toText)).toEqual({
      title: 'Bob (to you and 1 other)',
      body: 'the plan',
    });
    expect(
      notificationContent(state({ pm_content_in_desktop_notifications: false }), privateMessage(3), toText),
    ).toEqual({ title: 'Bob', body: 'New private message from Bob' });
  });
});

describe('bursts', () => {
  const item = (messageId: number, conversation: string, silent = false) => ({
    messageId,
    conversation,
    silent,
    narrow: { kind: 'topic' as const, streamId: 1, topic: conversation },
  });

  it(`up to ${BURST_SIZE} notifications are not a burst`, () => {
    expect(burstSummary([1, 2, 3, 4, 5].map((id) => item(id, 'a')))).toBeNull();
  });

  it('names up to three conversations newest first; silent only when all are', () => {
    expect(burstSummary([1, 2, 3, 4, 5, 6].map((id) => item(id, id < 4 ? 'a' : 'b', id !== 2)))).toEqual({
      title: '6 new messages',
      body: 'b, a',
      messageId: 6,
      narrow: { kind: 'topic', streamId: 1, topic: 'b' },
      silent: false,
    });
    const many = ['a', 'b', 'c', 'd', 'e', 'f', 'a'].map((c, i) => item(i + 1, c, true));
    expect(burstSummary(many)).toMatchObject({
      title: '7 new messages',
      body: 'a, f, e and 3 more conversations',
      messageId: 7,
      silent: true,
    });
  });

  it('planNotifications: one per notifying message, or one summary for a burst', () => {
    const s = state();
    expect(
      planNotifications(
        s,
        [privateMessage(1), streamMessage(2, 1, 'plain'), { id: 0, type: 'heartbeat' }],
        toText,
      ),
    ).toEqual([
      {
        title: 'Bob',
        body: 'the plan',
        messageId: 1,
        narrow: { kind: 'dm', userIds: [BOB] },
        silent: false,
        sound: 'chime',
      },
    ]);
    const burst = [1, 2, 3, 4, 5, 6].map((id) => privateMessage(id));
    expect(planNotifications(state({ enable_sounds: false }), burst, toText)).toEqual([
      {
        title: '6 new messages',
        body: 'Bob',
        messageId: 6,
        narrow: { kind: 'dm', userIds: [BOB] },
        silent: true,
        sound: 'chime',
      },
    ]);
  });
});
