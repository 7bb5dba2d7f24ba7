/**
 * Presence and muted users (issue 8): the last time each user was active and connected (the
 * in-memory presence store writes through to it, so a restart keeps who was last seen when),
 * with the organization-wide update counter the family's `last_update_id` protocol reads; and
 * the users each user has muted.
 */
export const sql = /* sql */ `
CREATE TABLE user_presence (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  -- Unix seconds: the last "active" report (NULL: never active), and the last report of any status.
  last_active_time INTEGER,
  last_connected_time INTEGER NOT NULL,
  -- Increases with every change of any user's presence in the organization.
  last_update_id INTEGER NOT NULL
);
CREATE INDEX user_presence_update ON user_presence(realm_id, last_update_id);

CREATE TABLE muted_users (
  user_id INTEGER NOT NULL REFERENCES users(id),
  muted_user_id INTEGER NOT NULL REFERENCES users(id),
  date_muted INTEGER NOT NULL,
  PRIMARY KEY (user_id, muted_user_id)
) WITHOUT ROWID;
`;
