/** Interface versioning shared by client and service. */

/** The lowest service feature level the app works with: 89 brought user_settings events. */
export const MIN_SUPPORTED_FEATURE_LEVEL = 89;

export const API_PREFIX = '/api/v1';
