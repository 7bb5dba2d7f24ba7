/** GET /server_settings: what a client learns about the service before anyone signs in. */
import { describe, expect, it } from 'vitest';
import { SERVICE_FEATURE_LEVEL, SERVICE_VERSION } from '../version';
import { call, serviceWith } from './support/service';

const { svc, admin } = await serviceWith(['admin']);

describe('GET /server_settings', () => {
  it('answers without credentials: version, sign-in methods and the organization', async () => {
    const r = await call(svc.url, 'GET', '/server_settings');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      result: 'success',
      msg: '',
      service_feature_level: SERVICE_FEATURE_LEVEL,
      service_version: SERVICE_VERSION,
      service_merge_base: '',
      authentication_methods: expect.objectContaining({ password: true, email: true, ldap: false }),
      external_authentication_methods: [],
      email_auth_enabled: true,
      require_email_format_usernames: true,
      push_notifications_enabled: false,
      is_incompatible: false,
      realm_uri: svc.url,
      realm_url: svc.url,
      realm_icon: expect.stringMatching(/^https:\/\/.+\?d=identicon$/),
      realm_web_public_access_enabled: false,
    });
    const register = await admin.registerQueue({ fetch_event_types: ['realm'] });
    expect(r.body.realm_name).toBe(register.realm_name);
  });

  it('ignores credentials, even wrong ones', async () => {
    const r = await call(svc.url, 'GET', '/server_settings', { auth: ['nobody@example.com', 'x'] });
    expect(r.status).toBe(200);
    expect(r.body.result).toBe('success');
  });

  it('reports public access once a web-public stream exists in an organization allowing it', async () => {
    svc.sql('UPDATE realm SET enable_spectator_access = 1');
    svc.sql("UPDATE streams SET is_web_public = 1 WHERE name = 'general'");
    try {
      const r = await call(svc.url, 'GET', '/server_settings');
      expect(r.body.realm_web_public_access_enabled).toBe(true);
    } finally {
      svc.sql("UPDATE streams SET is_web_public = 0 WHERE name = 'general'");
      svc.sql('UPDATE realm SET enable_spectator_access = 0');
    }
  });
});
