import { describe, expect, it } from 'vitest';
import {
  addSubscribersReason,
  changePrivacyReason,
  createPrivacyReason,
  filterStreams,
  flagsOf,
  normalizeHex,
  overrideChoiceOf,
  overrideOptions,
  POLICY,
  type PrivacyContext,
  parseRetentionDays,
  policyAllows,
  privacyOf,
  ROLE,
  readProgress,
  realmRetentionText,
  removeSubscriberReason,
  retentionChoiceOf,
  type StreamListItem,
  sortTopics,
  subscriberText,
  trafficDescription,
  trafficText,
} from './streamsModel';

const item = (name: string, description = ''): StreamListItem => ({
  stream_id: name.length,
  name,
  description,
  invite_only: false,
  is_web_public: false,
  subscribed: true,
  subscriberCount: null,
  weeklyTraffic: null,
});

const ctx = (over: Partial<PrivacyContext> = {}): PrivacyContext => ({
  role: ROLE.admin,
  spectatorAccess: false,
  webPublicPolicy: POLICY.admins,
  publicPolicy: POLICY.members,
  privatePolicy: POLICY.members,
  ...over,
});

describe('filterStreams', () => {
  it('matches name or description in any case, sorted by name', () => {
    const list = [item('Zeta', 'about Cats'), item('alpha'), item('Beta', 'dogs')];
    expect(filterStreams(list, '').map((s) => s.name)).toEqual(['alpha', 'Beta', 'Zeta']);
    expect(filterStreams(list, 'cat').map((s) => s.name)).toEqual(['Zeta']);
    expect(filterStreams(list, ' BET ').map((s) => s.name)).toEqual(['Beta']);
    expect(filterStreams(list, 'none')).toEqual([]);
  });
});

describe('policies', () => {
  it('lets roles in per policy; guests never', () => {
    expect(policyAllows(ROLE.member, POLICY.members)).toBe(true);
    expect(policyAllows(ROLE.guest, POLICY.members)).toBe(false);
    expect(policyAllows(ROLE.member, POLICY.admins)).toBe(false);
    expect(policyAllows(ROLE.admin, POLICY.admins)).toBe(true);
    expect(policyAllows(ROLE.moderator, POLICY.moderators)).toBe(true);
    expect(policyAllows(ROLE.admin, POLICY.owners)).toBe(false);
    expect(policyAllows(ROLE.owner, POLICY.nobody)).toBe(false);
    expect(policyAllows(undefined, POLICY.members)).toBe(false);
  });
});

describe('privacy', () => {
  it('round-trips the four states', () => {
    for (const p of ['web-public', 'public', 'private-shared', 'private-protected'] as const) {
      expect(privacyOf(flagsOf(p))).toBe(p);
    }
  });

  it('web-public on creation needs spectator access, then the policy', () => {
    expect(createPrivacyReason('web-public', ctx())).toMatch(/not enabled/);
    expect(createPrivacyReason('web-public', ctx({ spectatorAccess: true }))).toBeNull();
    expect(createPrivacyReason('web-public', ctx({ spectatorAccess: true, role: ROLE.member }))).toMatch(
      /Only administrators/,
    );
    expect(
      createPrivacyReason('private-shared', ctx({ role: ROLE.member, privatePolicy: POLICY.admins })),
    ).toMatch(/create private streams/);
    expect(createPrivacyReason('public', ctx({ role: ROLE.member }))).toBeNull();
  });

  it('a default stream cannot become private; staying put is always allowed', () => {
    const pub = flagsOf('public');
    const c = { ...ctx(), isDefaultStream: true };
    expect(changePrivacyReason(pub, 'private-shared', c)).toMatch(/Default streams/);
    expect(changePrivacyReason(pub, 'public', c)).toBeNull();
    expect(changePrivacyReason(pub, 'private-protected', { ...c, isDefaultStream: false })).toBeNull();
    expect(changePrivacyReason(pub, 'web-public', c)).toMatch(/not enabled/);
    expect(changePrivacyReason(flagsOf('web-public'), 'web-public', c)).toBeNull();
  });
});

describe('retention, traffic, colors, overrides, topics', () => {
  it('reads retention', () => {
    expect(realmRetentionText(-1)).toBe('forever');
    expect(realmRetentionText(null)).toBe('forever');
    expect(realmRetentionText(1)).toBe('1 day');
    expect(realmRetentionText(30)).toBe('30 days');
    expect([retentionChoiceOf(null), retentionChoiceOf(-1), retentionChoiceOf(7)]).toEqual([
      'realm_default',
      'unlimited',
      'days',
    ]);
    expect(parseRetentionDays(' 14 ')).toEqual({ days: 14 });
    expect(parseRetentionDays('0')).toHaveProperty('error');
    expect(parseRetentionDays('1.5')).toHaveProperty('error');
  });

  it('reads traffic and subscribers', () => {
    expect(trafficText(null)).toBe('New stream');
    expect(trafficText(0)).toBe('No recent messages');
    expect(trafficText(1)).toBe('About 1 message a week');
    expect(trafficText(12)).toBe('About 12 messages a week');
    expect(trafficText(1200)).toBe('About 1,200 messages a week');
    expect(trafficDescription(null)).toMatch(/less than a week/);
    expect(trafficDescription(0)).toBe('No messages in the last four weeks.');
    expect(trafficDescription(12)).toMatch(/^Average number of messages a week/);
    expect(subscriberText(null)).toBeNull();
    expect(subscriberText(1)).toBe('1 subscriber');
  });

  it('normalizes hex colors', () => {
    expect(normalizeHex('#ABCDEF')).toBe('#abcdef');
    expect(normalizeHex('abc')).toBe('#aabbcc');
    expect(normalizeHex('#12345')).toBeNull();
    expect(normalizeHex('red')).toBeNull();
  });

  it('shows notification overrides with the default they fall back to', () => {
    expect([overrideChoiceOf(null), overrideChoiceOf(true), overrideChoiceOf(false)]).toEqual([
      'default',
      'on',
      'off',
    ]);
    expect(overrideOptions(true)[0]?.label).toBe('Default (on)');
    expect(overrideOptions(false)[0]?.label).toBe('Default (off)');
  });

  it('sorts topics newest first and measures read progress', () => {
    expect(
      sortTopics([
        { name: 'a', max_id: 3 },
        { name: 'b', max_id: 9 },
      ]).map((t) => t.name),
    ).toEqual(['b', 'a']);
    expect(readProgress(0, 0)).toBeUndefined();
    expect(readProgress(10, 5)).toBe(50);
    expect(readProgress(4, 0)).toBe(100);
    expect(readProgress(4, 9)).toBe(0);
  });
});

describe('who may add and remove subscribers (the server’s rules)', () => {
  const publicStream = { invite_only: false, is_web_public: false, subscribed: false };
  const privateStream = { invite_only: true, is_web_public: false, subscribed: false };

  it('adding follows invite_to_stream_policy, then access to the stream', () => {
    expect(addSubscribersReason(ROLE.member, POLICY.members, publicStream)).toBeNull();
    expect(addSubscribersReason(ROLE.member, POLICY.fullMembers, publicStream)).toBeNull();
    expect(addSubscribersReason(ROLE.member, POLICY.admins, publicStream)).toBe(
      'Only administrators may add other people to streams in this organization.',
    );
    expect(addSubscribersReason(ROLE.moderator, POLICY.moderators, publicStream)).toBeNull();
    expect(addSubscribersReason(ROLE.member, POLICY.moderators, publicStream)).toBe(
      'Only moderators may add other people to streams in this organization.',
    );
    expect(addSubscribersReason(ROLE.guest, POLICY.members, { ...publicStream, subscribed: true })).toBe(
      'Only members may add other people to streams in this organization.',
    );
    // A private stream needs a subscription, for administrators too.
    expect(addSubscribersReason(ROLE.admin, POLICY.members, privateStream)).toBe(
      'Subscribe to this private stream to add other people to it.',
    );
    expect(
      addSubscribersReason(ROLE.member, POLICY.members, { ...privateStream, subscribed: true }),
    ).toBeNull();
    expect(
      addSubscribersReason(ROLE.member, POLICY.members, { ...publicStream, is_web_public: true }),
    ).toBeNull();
  });

  it('removing: oneself and one’s bots always; others as an administrator or a member of the group', () => {
    const admins = { name: 'role:administrators', is_system_group: true, members: [1, 2] };
    const member = { role: ROLE.member, userId: 7 };
    expect(removeSubscriberReason(member, { user_id: 7 }, admins)).toBeNull();
    expect(removeSubscriberReason(member, { user_id: 9, bot_owner_id: 7 }, admins)).toBeNull();
    expect(removeSubscriberReason(member, { user_id: 9 }, admins)).toBe(
      'Only administrators can remove other subscribers from this stream.',
    );
    expect(removeSubscriberReason({ role: ROLE.admin, userId: 1 }, { user_id: 9 }, admins)).toBeNull();
    expect(removeSubscriberReason({ role: ROLE.owner, userId: 3 }, { user_id: 9 }, undefined)).toBeNull();

    const moderators = { name: 'role:moderators', is_system_group: true, members: [5] };
    expect(
      removeSubscriberReason({ role: ROLE.moderator, userId: 5 }, { user_id: 9 }, moderators),
    ).toBeNull();
    expect(removeSubscriberReason(member, { user_id: 9 }, moderators)).toBe(
      'Only administrators and moderators can remove other subscribers from this stream.',
    );
    const team = { name: 'Support', members: [7] };
    expect(removeSubscriberReason(member, { user_id: 9 }, team)).toBeNull();
    expect(removeSubscriberReason({ role: ROLE.member, userId: 8 }, { user_id: 9 }, team)).toBe(
      'Only administrators and members of the group “Support” can remove other subscribers from this stream.',
    );
    expect(removeSubscriberReason({ role: ROLE.guest, userId: 8 }, { user_id: 9 }, undefined)).toBe(
      'Only administrators can remove other subscribers from this stream.',
    );
  });
});
