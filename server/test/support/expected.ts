/**
 * Expected wire objects that several server tests compare against, written out field by
 * field as the spec shows them (not built from the code under test).
 */

/** The spec's User object of an active human member (role 400), with the fields that differ. */
export function memberUser(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    is_admin: false,
    is_owner: false,
    is_billing_admin: false,
    role: 400,
    is_guest: false,
    is_bot: false,
    is_active: true,
    avatar_url: null,
    avatar_version: 1,
    bot_type: null,
    ...fields,
  };
}
