/** The service's release and interface revision, reported by POST /register and restart events. */

export const SERVICE_VERSION = '0.1.0';

/**
 * The interface revision (spec "Versioning"): the highest level of the spec's table whose
 * every change, and every change below it, is implemented, since clients switch behaviour on
 * it. 151 (custom profile field type 8, pronouns) is the last row of the table; each row is
 * in place and tested:
 *   1 stream_post_policy (subscribe, PATCH /streams) · 17 message_retention_days · 30 stream
 *   date_created · 63/64 bare string parameters · 78 ignored_parameters_unsupported · 80 the
 *   /settings/display and /settings/notifications aliases · 81 enter_sends · 82 the email
 *   batching period · 86 status emoji · 87 enable_drafts_synchronization · 89 user_settings
 *   events and user_settings_object · 91 `unlimited` retention · 92 client_extavatar default
 *   true · 96 realm user-settings defaults · 98 is_web_public · 105 typing and read-receipt
 *   settings · 111 ignored_parameters_unsupported for subscription properties · 120 GET
 *   /messages/{id} message object · 125 display_emoji_reaction_users · 133 no role in
 *   subscriptions · 134 user_topics · 136 history_public_to_subscribers alone · 139 two events
 *   for is_muted/in_home_view · 141 user_list_style · 142 can_remove_subscribers_group_id ·
 *   146 display_in_profile_summary · 147/153/154 batches with partially_completed · 148 away
 *   as the inverse of presence_enabled · 149 unauthenticated register errors · 151 pronouns.
 */
export const SERVICE_FEATURE_LEVEL = 151;

/** The upstream commit this build is based on; empty when unknown (spec). */
export const SERVICE_MERGE_BASE = '';
