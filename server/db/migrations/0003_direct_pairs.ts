/**
 * One-to-one direct messages get a recipient of their own: a direct_groups row keyed by the
 * sorted pair ("a,b"), as group DMs have. Before this, such a message was stored under the
 * personal recipient of the member with the higher id, so DMs 1↔6 and 2↔6 shared one
 * recipient. Existing one-to-one messages move to their pair's recipient (message ids are
 * kept); a message to oneself keeps the personal recipient (as the interface family does).
 */
export const sql = /* sql */ `
CREATE TEMP TABLE dm_pairs AS
SELECT u.message_id AS message_id, MIN(u.user_id) || ',' || MAX(u.user_id) AS group_key,
       MIN(u.user_id) AS a, MAX(u.user_id) AS b
FROM (
  SELECT um.message_id, um.user_id FROM user_messages um
    JOIN messages m ON m.id = um.message_id
    JOIN recipients r ON r.id = m.recipient_id AND r.type = 1
    WHERE m.stream_id IS NULL
  UNION
  SELECT m.id, m.sender_id FROM messages m
    JOIN recipients r ON r.id = m.recipient_id AND r.type = 1
    WHERE m.stream_id IS NULL
) u
GROUP BY u.message_id
HAVING COUNT(DISTINCT u.user_id) = 2;

INSERT OR IGNORE INTO direct_groups (group_key) SELECT DISTINCT group_key FROM dm_pairs;
INSERT OR IGNORE INTO direct_group_members (group_id, user_id)
  SELECT DISTINCT g.id, p.a FROM dm_pairs p JOIN direct_groups g ON g.group_key = p.group_key
  UNION SELECT DISTINCT g.id, p.b FROM dm_pairs p JOIN direct_groups g ON g.group_key = p.group_key;
INSERT OR IGNORE INTO recipients (type, type_id)
  SELECT DISTINCT 3, g.id FROM dm_pairs p JOIN direct_groups g ON g.group_key = p.group_key;

UPDATE messages SET recipient_id = (
  SELECT r.id FROM dm_pairs p
    JOIN direct_groups g ON g.group_key = p.group_key
    JOIN recipients r ON r.type = 3 AND r.type_id = g.id
  WHERE p.message_id = messages.id
) WHERE id IN (SELECT message_id FROM dm_pairs);

DROP TABLE dm_pairs;
`;
