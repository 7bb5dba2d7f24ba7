/** The service's release and interface revision, reported by POST /register and restart events. */

export const SERVICE_VERSION = '0.1.0';

/**
 * The interface revision (spec "Versioning"). 89 is where user_settings events and the
 * user_settings_object capability arrived, which is what the foundation implements fully.
 * Raise it only to the highest level whose every change is implemented, since clients
 * switch behaviour on it.
 */
export const SERVICE_FEATURE_LEVEL = 89;

/** The upstream commit this build is based on; empty when unknown (spec). */
export const SERVICE_MERGE_BASE = '';
