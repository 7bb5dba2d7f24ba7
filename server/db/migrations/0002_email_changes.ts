/** Pending email address changes (PATCH /settings `email`), confirmed through a link. */
export const sql = /* sql */ `
CREATE TABLE email_changes (
  -- SHA-256 of the link's key (hex): a copy of the database does not hold usable links.
  key_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  new_email TEXT NOT NULL COLLATE NOCASE,
  created_at INTEGER NOT NULL
);
CREATE INDEX email_changes_user ON email_changes(user_id);
`;
