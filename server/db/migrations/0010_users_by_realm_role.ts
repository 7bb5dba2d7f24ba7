/**
 * Active users by organization, with their role: who may see a stream, who gets a stream's
 * events and the organization's active ids are read from this index alone. Without it each
 * of those reads walked the users table, whose rows carry every setting (about 1.3 KB), about
 * 14 ms at 10 000 users, twice per stream update.
 */
export const sql = /* sql */ `
CREATE INDEX users_realm_active_role ON users(realm_id, is_active, id, role);
`;
