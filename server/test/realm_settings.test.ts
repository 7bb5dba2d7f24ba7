/** PATCH /realm: organization settings, owner-only ones, the family's errors, `realm` events. */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, owner, admin, alice, guest } = await serviceWith(['owner', 'admin', 'alice', 'guest']);

function patch(client: ApiClient, params: Record<string, string>): Promise<RawResponse> {
  return call(svc.url, 'PATCH', '/realm', { auth: authOf(client), params });
}

async function realmState(): Promise<Record<string, unknown>> {
  const r = await alice.registerQueue({ fetch_event_types: ['realm'] });
  if (r.queue_id) await alice.deleteQueue(r.queue_id);
  return r as Record<string, unknown>;
}

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

describe('PATCH /realm', () => {
  it('changes settings, answers the changed values, and tells every user (catalogue order)', async () => {
    const { events, result } = await verifyAction({
      clients: [admin, alice, guest],
      action: () =>
        patch(admin, {
          name: 'Tea Club',
          description: 'We **drink** tea',
          create_web_public_stream_policy: '7',
          enable_spectator_access: 'true',
          mandatory_topics: 'true',
        }),
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      result: 'success',
      msg: '',
      name: 'Tea Club',
      description: 'We **drink** tea',
      create_web_public_stream_policy: 7,
      enable_spectator_access: true,
      mandatory_topics: true,
    });
    for (const got of events) {
      expect(got.map((e) => [e.property, e.value])).toEqual([
        ['name', 'Tea Club'],
        ['description', 'We **drink** tea'],
        ['enable_spectator_access', true],
        ['mandatory_topics', true],
        ['create_web_public_stream_policy', 7],
      ]);
      for (const e of got) expect(e).toMatchObject({ type: 'realm', op: 'update' });
    }
    const state = await realmState();
    expect(state).toMatchObject({
      realm_name: 'Tea Club',
      realm_create_web_public_stream_policy: 7,
      realm_enable_spectator_access: true,
      realm_mandatory_topics: true,
    });
    const settings = await call(svc.url, 'GET', '/server_settings');
    expect(settings.body.realm_name).toBe('Tea Club');
    expect(settings.body.realm_description).toContain('<strong>drink</strong>');
  });

  it('sends the message-editing settings as one update_dict event', async () => {
    const { events, result } = await verifyAction({
      clients: [owner, alice],
      action: () =>
        patch(admin, {
          allow_message_editing: 'false',
          message_content_edit_limit_seconds: '"unlimited"',
          message_content_delete_limit_seconds: '120',
        }),
    });
    expect(result.body).toMatchObject({
      allow_message_editing: false,
      message_content_edit_limit_seconds: null,
      message_content_delete_limit_seconds: 120,
    });
    for (const got of events) {
      expect(got).toEqual([
        { type: 'realm', op: 'update', property: 'message_content_delete_limit_seconds', value: 120, id: 0 },
        {
          type: 'realm',
          op: 'update_dict',
          property: 'default',
          data: {
            allow_message_editing: false,
            message_content_edit_limit_seconds: null,
            edit_topic_policy: 5,
          },
          id: 1,
        },
      ]);
    }
    expect(await realmState()).toMatchObject({
      realm_allow_message_editing: false,
      realm_message_content_edit_limit_seconds: null,
      realm_message_content_delete_limit_seconds: 120,
    });
  });

  it('lets owners set message retention, unlimited as -1', async () => {
    const days = await verifyAction({
      clients: [owner, alice],
      action: () => patch(owner, { message_retention_days: '30' }),
    });
    expect(days.result.body).toMatchObject({ message_retention_days: 30 });
    expect(days.events[1]).toEqual([
      { type: 'realm', op: 'update', property: 'message_retention_days', value: 30, id: 0 },
    ]);
    const forever = await verifyAction({
      clients: [alice],
      action: () => patch(owner, { message_retention_days: '"unlimited"' }),
    });
    expect(forever.events[0]).toEqual([
      { type: 'realm', op: 'update', property: 'message_retention_days', value: -1, id: 0 },
    ]);
    expect((await realmState()).realm_message_retention_days).toBe(-1);
  });

  it('answers an unchanged value with no change and no event', async () => {
    const current = (await realmState()).realm_name as string;
    const { events, result } = await verifyAction({
      clients: [alice],
      action: () => patch(admin, { name: current }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    expect(events).toEqual([[]]);
  });

  // [who, params, status, body]: refused, nothing changed.
  const refused: [string, () => ApiClient, Record<string, string>, Record<string, unknown>][] = [
    [
      'a member',
      () => alice,
      { name: 'x' },
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    ],
    [
      'a guest',
      () => guest,
      { name: 'x' },
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    ],
    [
      'an administrator setting retention',
      () => admin,
      { message_retention_days: '10' },
      error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'),
    ],
    [
      'an administrator setting the waiting period',
      () => admin,
      { waiting_period_threshold: '3' },
      error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'),
    ],
    ['a long name', () => admin, { name: 'n'.repeat(41) }, error('name is too long (limit: 40 characters)')],
    [
      'a long description',
      () => admin,
      { description: 'd'.repeat(1001) },
      error('description is too long (limit: 1000 characters)'),
    ],
    ['an unknown language', () => admin, { default_language: 'xx' }, error("Invalid language 'xx'")],
    [
      'a zero edit limit',
      () => admin,
      { message_content_edit_limit_seconds: '0' },
      error("Bad value for 'message_content_edit_limit_seconds': 0"),
    ],
    [
      'a word for the delete limit',
      () => admin,
      { message_content_delete_limit_seconds: '"sometimes"' },
      error("Bad value for 'message_content_delete_limit_seconds': sometimes"),
    ],
    [
      'realm_default retention',
      () => owner,
      { message_retention_days: '"realm_default"' },
      error("Bad value for 'message_retention_days': realm_default"),
    ],
    [
      'a policy outside its values',
      () => admin,
      { create_web_public_stream_policy: '1' },
      error('Invalid create_web_public_stream_policy'),
    ],
    [
      'a policy of the wrong type',
      () => admin,
      { edit_topic_policy: '"5"' },
      error('edit_topic_policy is not an integer'),
    ],
  ];
  it.each(refused)('refuses %s', async (_label, who, params, body) => {
    const before = await realmState();
    const r = await patch(who(), params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(body);
    const after = await realmState();
    delete before.queue_id;
    delete after.queue_id;
    expect(after).toEqual(before);
  });
});

describe('PATCH /realm email_address_visibility', () => {
  it('tells each user who gains or loses access to real addresses', async () => {
    const moderator = await svc.login('moderator');
    const users = await owner.request('GET', '/users');
    const count = (users.members as unknown[]).length;
    // everyone (1) -> moderators (5): owner, admin and moderator gain access.
    const gained = await verifyAction({
      clients: [owner, moderator, alice],
      action: () => patch(admin, { email_address_visibility: '5' }),
    });
    expect(gained.result.body).toMatchObject({ email_address_visibility: 5 });
    const personUpdates = (events: Record<string, unknown>[]) =>
      events.filter((e) => e.type === 'realm_user');
    expect(personUpdates(gained.events[0] ?? [])).toHaveLength(count);
    expect(personUpdates(gained.events[1] ?? [])).toHaveLength(count);
    expect(personUpdates(gained.events[2] ?? [])).toHaveLength(0);
    const moderatorState = gained.states[1]?.realm_users as { email: string; delivery_email?: string }[];
    expect(moderatorState.every((u) => typeof u.delivery_email === 'string')).toBe(true);
    // moderators (5) -> admins (3): the moderator loses access again.
    const lost = await verifyAction({
      clients: [owner, moderator, alice],
      action: () => patch(admin, { email_address_visibility: '3' }),
    });
    expect(personUpdates(lost.events[0] ?? [])).toHaveLength(0);
    expect(personUpdates(lost.events[1] ?? [])).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ person: expect.objectContaining({ delivery_email: null }) }),
      ]),
    );
    await patch(admin, { email_address_visibility: '1' });
  });
});
