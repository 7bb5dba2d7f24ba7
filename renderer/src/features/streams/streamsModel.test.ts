import { describe, expect, it } from 'vitest';
import {
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
  repeatUntilDone,
  retentionChoiceOf,
  type StreamListItem,
  sortTopics,
  subscriberText,
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
    expect(trafficText(0)).toBe('No messages this week');
    expect(trafficText(1)).toBe('1 message a week');
    expect(trafficText(12)).toBe('12 messages a week');
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

describe('repeatUntilDone', () => {
  it('repeats partial answers until one is complete, counting rounds', async () => {
    const answers = [{ partial: true }, { partial: true }, { partial: false }];
    const rounds: number[] = [];
    let sent = 0;
    const n = await repeatUntilDone(
      async () => answers[sent++] as { partial: boolean },
      (a) => a.partial,
      (r) => rounds.push(r),
    );
    expect([n, sent, rounds]).toEqual([3, 3, [1, 2, 3]]);
  });

  it('gives up after the limit, and passes errors on', async () => {
    await expect(
      repeatUntilDone(
        async () => 1,
        () => true,
        undefined,
        3,
      ),
    ).rejects.toThrow(/not finished/);
    await expect(
      repeatUntilDone(
        async () => {
          throw new Error('Invalid stream ID');
        },
        () => false,
      ),
    ).rejects.toThrow('Invalid stream ID');
  });
});
