/**
 * The organization's linkifiers (realm_linkifiers) and uploaded files (attachments). Files
 * live on disk under <dataDir>/uploads/<path_id>; the row says who uploaded what, its real
 * type (sniffed from the content) and its size.
 */
export const sql = /* sql */ `
CREATE TABLE realm_linkifiers (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  -- A regular expression with named groups, as the interface family writes it: (?P<name>...).
  pattern TEXT NOT NULL,
  -- An RFC 6570 URL template naming the pattern's groups: https://example.com/{id}.
  url_template TEXT NOT NULL,
  UNIQUE (realm_id, pattern)
);

CREATE TABLE attachments (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  owner_id INTEGER NOT NULL REFERENCES users(id),
  -- "<realm_id>/<2 hex>/<random>/<file name>": the path after /user_uploads/.
  path_id TEXT NOT NULL UNIQUE,
  file_name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  create_time_ms INTEGER NOT NULL
);
CREATE INDEX attachments_owner ON attachments(owner_id, id);
`;
