/**
 * User groups can be deactivated (POST /user_groups/{id}/deactivate): the row, its name and
 * its members stay (the family keeps them for audit logs and reactivation), but lists,
 * register and mentions leave it out.
 */
export const sql = /* sql */ `
ALTER TABLE user_groups ADD COLUMN deactivated INTEGER NOT NULL DEFAULT 0;
`;
