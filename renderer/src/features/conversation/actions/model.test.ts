/**
 * The message actions' rules: permissions with the organization's policies and time limits,
 * reactions grouped by emoji, the family's links and quote blocks, and the batches of "mark as
 * unread from here".
 */
import { describe, expect, it } from 'vitest';
import type { MessageReaction } from '../../../../../shared/protocol/messages';
import {
  type Actor,
  deleteDecision,
  describeVersion,
  editDecision,
  encodeHashComponent,
  groupReactions,
  historyDecision,
  joinNames,
  markUnreadFrom,
  messageLink,
  moveDecision,
  POLICY,
  policyAllows,
  quoteBlock,
  ROLE,
  reactionTitle,
  reactionToggle,
  reactorNames,
  showReactionNames,
  unusedFence,
} from './model';

const NOW = 1_700_000_000;
const me = (role: number = ROLE.member): Actor => ({ userId: 10, role, now: NOW });
const sent = (ageSeconds: number, senderId = 10) => ({ sender_id: senderId, timestamp: NOW - ageSeconds });

describe('policyAllows', () => {
  it('maps each policy to the roles it lets act', () => {
    const roles = [ROLE.owner, ROLE.admin, ROLE.moderator, ROLE.member, ROLE.guest];
    const allowed = (policy: number) => roles.filter((r) => policyAllows(r, policy));
    expect(allowed(POLICY.everyone)).toEqual([100, 200, 300, 400, 600]);
    expect(allowed(POLICY.members)).toEqual([100, 200, 300, 400]);
    expect(allowed(POLICY.fullMembers)).toEqual([100, 200, 300, 400]);
    expect(allowed(POLICY.moderators)).toEqual([100, 200, 300]);
    expect(allowed(POLICY.admins)).toEqual([100, 200]);
    expect(allowed(99)).toEqual([100, 200]);
  });
});

describe('editDecision', () => {
  const limit = { allow_message_editing: true, message_content_edit_limit_seconds: 600 };
  it('lets the sender edit within the limit', () => {
    expect(editDecision(sent(600), limit, me())).toEqual({ allowed: true });
  });
  it('refuses past the limit, and never when the limit is null', () => {
    expect(editDecision(sent(601), limit, me())).toEqual({
      allowed: false,
      reason: 'The time limit for editing this message has passed.',
    });
    expect(editDecision(sent(10 ** 8), { ...limit, message_content_edit_limit_seconds: null }, me())).toEqual(
      { allowed: true },
    );
  });
  it('uses the default of 600 seconds when the server sent no limit', () => {
    expect(editDecision(sent(601), {}, me()).allowed).toBe(false);
    expect(editDecision(sent(599), {}, me()).allowed).toBe(true);
  });
  it("refuses others' messages, even to administrators", () => {
    expect(editDecision(sent(1, 11), limit, me(ROLE.owner))).toEqual({
      allowed: false,
      reason: 'You can only edit your own messages.',
    });
  });
  it('refuses everything when the organization turned editing off', () => {
    expect(editDecision(sent(1), { ...limit, allow_message_editing: false }, me())).toEqual({
      allowed: false,
      reason: 'Your organization has turned off message editing.',
    });
  });
});

describe('moveDecision', () => {
  const stream = (age: number, senderId = 10) => ({ ...sent(age, senderId), type: 'stream' as const });
  it('never moves private messages', () => {
    expect(moveDecision({ ...sent(1), type: 'private' }, {}, me(ROLE.owner))).toEqual({
      allowed: false,
      reason: 'Private messages cannot be moved.',
      rights: { topic: false, stream: false },
    });
  });
  it('follows the two policies, for anyone’s message', () => {
    const policies = {
      edit_topic_policy: POLICY.everyone,
      move_messages_between_streams_policy: POLICY.admins,
      move_messages_within_stream_limit_seconds: null,
    };
    expect(moveDecision(stream(1, 11), policies, me())).toEqual({
      allowed: true,
      rights: { topic: true, stream: false },
    });
    expect(moveDecision(stream(1, 11), policies, me(ROLE.admin)).rights).toEqual({
      topic: true,
      stream: true,
    });
    expect(
      moveDecision(stream(1), { ...policies, edit_topic_policy: POLICY.moderators }, me(ROLE.member)),
    ).toEqual({
      allowed: false,
      reason: 'Your organization does not let you move messages.',
      rights: { topic: false, stream: false },
    });
  });
  it('applies the time limits below moderators only (default: 3 days within a stream)', () => {
    const policies = {
      edit_topic_policy: POLICY.everyone,
      move_messages_between_streams_policy: POLICY.admins,
    };
    expect(moveDecision(stream(259_201), policies, me())).toEqual({
      allowed: false,
      reason: 'The time limit for moving this message has passed.',
      rights: { topic: false, stream: false },
    });
    expect(moveDecision(stream(259_200), policies, me()).allowed).toBe(true);
    expect(moveDecision(stream(10 ** 8), policies, me(ROLE.moderator)).rights).toEqual({
      topic: true,
      stream: false,
    });
  });
});

describe('deleteDecision', () => {
  const policies = {
    delete_own_message_policy: POLICY.everyone,
    message_content_delete_limit_seconds: 600,
  };
  it('lets administrators delete any message, however old', () => {
    expect(deleteDecision(sent(10 ** 8, 11), policies, me(ROLE.admin))).toEqual({ allowed: true });
  });
  it('lets a sender delete their own within the policy and the limit', () => {
    expect(deleteDecision(sent(600), policies, me())).toEqual({ allowed: true });
    expect(deleteDecision(sent(601), policies, me())).toEqual({
      allowed: false,
      reason: 'The time limit for deleting this message has passed.',
    });
    expect(
      deleteDecision(sent(10 ** 8), { ...policies, message_content_delete_limit_seconds: null }, me()),
    ).toEqual({ allowed: true });
  });
  it("refuses others' messages and senders the policy leaves out", () => {
    expect(deleteDecision(sent(1, 11), policies, me(ROLE.moderator))).toEqual({
      allowed: false,
      reason: 'You can only delete your own messages.',
    });
    expect(
      deleteDecision(sent(1), { ...policies, delete_own_message_policy: POLICY.moderators }, me()),
    ).toEqual({ allowed: false, reason: 'Your organization does not let you delete your messages.' });
    // The service's default policy: administrators only.
    expect(deleteDecision(sent(1), {}, me()).allowed).toBe(false);
  });
});

describe('historyDecision', () => {
  it('follows allow_edit_history', () => {
    expect(historyDecision({ allow_edit_history: true })).toEqual({ allowed: true });
    expect(historyDecision({})).toEqual({ allowed: true });
    expect(historyDecision({ allow_edit_history: false })).toEqual({
      allowed: false,
      reason: 'Your organization has turned off viewing edit history.',
    });
  });
});

describe('reactions', () => {
  const r = (user_id: number, emoji_name: string, emoji_code: string, reaction_type = 'unicode_emoji') =>
    ({ user_id, emoji_name, emoji_code, reaction_type }) satisfies MessageReaction;
  const reactions = [
    r(11, 'tada', '1f389'),
    r(10, 'smile', '1f604'),
    r(10, 'tada', '1f389'),
    r(12, 'party', '42', 'realm_emoji'),
  ];

  it('groups by emoji in order of first use, marking the user’s', () => {
    expect(groupReactions(reactions, 10)).toEqual([
      {
        key: 'unicode_emoji:1f389',
        emojiName: 'tada',
        emojiCode: '1f389',
        reactionType: 'unicode_emoji',
        userIds: [11, 10],
        reacted: true,
      },
      {
        key: 'unicode_emoji:1f604',
        emojiName: 'smile',
        emojiCode: '1f604',
        reactionType: 'unicode_emoji',
        userIds: [10],
        reacted: true,
      },
      {
        key: 'realm_emoji:42',
        emojiName: 'party',
        emojiCode: '42',
        reactionType: 'realm_emoji',
        userIds: [12],
        reacted: false,
      },
    ]);
  });

  it('shows names only with display_emoji_reaction_users and at most 3 reactions', () => {
    const three = groupReactions(reactions.slice(0, 3), 10);
    expect(showReactionNames(three, true)).toBe(true);
    expect(showReactionNames(three, false)).toBe(false);
    expect(showReactionNames(groupReactions(reactions, 10), true)).toBe(false);
  });

  it('names the people, the user first as "You"', () => {
    const [tada] = groupReactions(reactions, 10);
    const names = reactorNames(tada as never, 10, (id) => (id === 11 ? 'Alice Doe' : 'Someone'));
    expect(names).toEqual(['You', 'Alice Doe']);
    expect(reactionTitle(names, 'tada')).toBe('You and Alice Doe reacted with :tada:');
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B and C');
    expect(joinNames(['A'])).toBe('A');
  });

  it('toggles with POST to add and DELETE to remove', () => {
    const emoji = { emojiName: 'tada', emojiCode: '1f389', reactionType: 'unicode_emoji' };
    const params = { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' };
    expect(reactionToggle(7, emoji, false)).toEqual({
      method: 'POST',
      path: '/messages/7/reactions',
      params,
    });
    expect(reactionToggle(7, emoji, true)).toEqual({
      method: 'DELETE',
      path: '/messages/7/reactions',
      params,
    });
  });
});

describe('links', () => {
  const streamMessage = {
    id: 45,
    type: 'stream' as const,
    stream_id: 3,
    subject: 'lunch (today). 100%',
    display_recipient: 'social club',
    sender_id: 11,
  };
  it('encodes hash components as the family does', () => {
    expect(encodeHashComponent('a b.c(d)%')).toBe('a.20b.2Ec.28d.29.25');
  });
  it('links a stream message by stream id and name, topic and id', () => {
    expect(messageLink(streamMessage, { serverUrl: 'https://chat.example.com/' })).toBe(
      'https://chat.example.com/#narrow/stream/3-social-club/topic/lunch.20.28today.29.2E.20100.25/near/45',
    );
    expect(
      messageLink(streamMessage, {
        serverUrl: 'https://chat.example.com',
        streamName: 'renamed',
      }),
    ).toBe('https://chat.example.com/#narrow/stream/3-renamed/topic/lunch.20.28today.29.2E.20100.25/near/45');
  });
  it('links private messages by everyone in them (-dm, -group from three on)', () => {
    const people = (...ids: number[]) => ids.map((id) => ({ id, email: `${id}@x`, full_name: `U${id}` }));
    const dm = {
      id: 9,
      type: 'private' as const,
      subject: '',
      sender_id: 10,
      display_recipient: people(10, 11),
    };
    expect(messageLink(dm, { serverUrl: 'http://h' })).toBe('http://h/#narrow/dm/10,11-dm/near/9');
    const group = { ...dm, display_recipient: people(10, 12, 11) };
    expect(messageLink(group, { serverUrl: 'http://h' })).toBe('http://h/#narrow/dm/10,11,12-group/near/9');
    const four = { ...dm, display_recipient: people(10, 12, 11, 13) };
    expect(messageLink(four, { serverUrl: 'http://h' })).toBe('http://h/#narrow/dm/10,11,12,13-group/near/9');
    const self = { ...dm, display_recipient: people(10) };
    expect(messageLink(self, { serverUrl: 'http://h' })).toBe('http://h/#narrow/dm/10-dm/near/9');
  });
});

describe('quotes', () => {
  it('picks a fence longer than any in the content', () => {
    expect(unusedFence('plain')).toBe('```');
    expect(unusedFence('```py\ncode\n```')).toBe('````');
    expect(unusedFence('text\n   `````\nx')).toBe('``````');
    // Four spaces make it code, not a fence.
    expect(unusedFence('    ````')).toBe('```');
  });
  it('builds the family’s block', () => {
    expect(
      quoteBlock({ sender_full_name: 'Alice Doe', sender_id: 11 }, 'http://h/#narrow/x', 'hi\nthere'),
    ).toBe('@_**Alice Doe|11** [said](http://h/#narrow/x):\n```quote\nhi\nthere\n```\n');
  });
});

describe('edit history', () => {
  const nameOf = (id: number) => (id === 11 ? 'Alice Doe' : 'Bob Smith');
  it('says what made each version', () => {
    expect(describeVersion({ user_id: 11 }, true, nameOf)).toBe('Sent by Alice Doe');
    expect(describeVersion({ user_id: 12, prev_content: 'a' }, false, nameOf)).toBe('Edited by Bob Smith');
    expect(describeVersion({ user_id: 12, prev_topic: 't' }, false, nameOf)).toBe('Moved by Bob Smith');
    expect(describeVersion({ user_id: 12, prev_content: 'a', prev_stream: 1 }, false, nameOf)).toBe(
      'Edited and moved by Bob Smith',
    );
    expect(describeVersion({ user_id: null, prev_content: 'a' }, false, nameOf)).toBe(
      'Edited by an unknown user',
    );
  });
});

describe('markUnreadFrom', () => {
  /**
   * Answers as POST /messages/flags/narrow does (server/actions/flags.ts) over a narrow holding
   * these ids, all read at first: the window after the anchor, the anchor itself when included.
   */
  const narrowOf = (ids: number[]) => {
    const unread = new Set<number>();
    const calls: Record<string, unknown>[] = [];
    const send = async (params: Record<string, unknown>) => {
      calls.push(params);
      const anchor = Number(params.anchor);
      const after = ids.filter((id) => id > anchor);
      const taken = [
        ...(params.include_anchor && ids.includes(anchor) ? [anchor] : []),
        ...after.slice(0, params.num_after as number),
      ];
      const updated = taken.filter((id) => !unread.has(id));
      for (const id of taken) unread.add(id);
      return {
        processed_count: taken.length,
        updated_count: updated.length,
        last_processed_id: taken.at(-1) ?? null,
        found_newest: after.length <= (params.num_after as number),
      };
    };
    return { unread, calls, send };
  };

  it('marks unread from the message to the newest, batch after batch', async () => {
    const server = narrowOf([3, 5, 8, 13, 21, 34]);
    expect(await markUnreadFrom(5, [{ operator: 'is', operand: 'starred' }], server.send, 2)).toBe(5);
    expect([...server.unread].sort((a, b) => a - b)).toEqual([5, 8, 13, 21, 34]);
    expect(server.calls).toEqual([
      {
        anchor: '5',
        include_anchor: true,
        num_before: 0,
        num_after: 2,
        narrow: [{ operator: 'is', operand: 'starred' }],
        op: 'remove',
        flag: 'read',
      },
      {
        anchor: '13',
        include_anchor: false,
        num_before: 0,
        num_after: 2,
        narrow: [{ operator: 'is', operand: 'starred' }],
        op: 'remove',
        flag: 'read',
      },
    ]);
  });

  it('sends one request of 5000 when the narrow ends within it', async () => {
    const server = narrowOf([1, 2, 3]);
    expect(await markUnreadFrom(2, [], server.send)).toBe(2);
    expect(server.calls.map((c) => [c.anchor, c.include_anchor, c.num_after])).toEqual([['2', true, 5000]]);
  });

  it('stops at a failed round with its error', async () => {
    await expect(
      markUnreadFrom(1, [], async () => {
        throw new Error('Invalid narrow operator: unknown');
      }),
    ).rejects.toThrow('Invalid narrow operator: unknown');
  });
});
