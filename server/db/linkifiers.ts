/** The organization's linkifiers (realm_linkifiers), in the order clients apply them: by id. */
import type { Db } from './index';

export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export function listLinkifiers(db: Db, realmId: number): Linkifier[] {
  return db
    .prepare('SELECT id, pattern, url_template FROM realm_linkifiers WHERE realm_id = ? ORDER BY id')
    .all(realmId) as Linkifier[];
}

export function linkifierExists(db: Db, realmId: number, id: number): boolean {
  return (
    db.prepare('SELECT 1 FROM realm_linkifiers WHERE realm_id = ? AND id = ?').get(realmId, id) !== undefined
  );
}

/** Whether another linkifier (not `exceptId`) already has this pattern. */
export function linkifierPatternTaken(db: Db, realmId: number, pattern: string, exceptId = 0): boolean {
  return (
    db
      .prepare('SELECT 1 FROM realm_linkifiers WHERE realm_id = ? AND pattern = ? AND id != ?')
      .get(realmId, pattern, exceptId) !== undefined
  );
}

export function insertLinkifier(db: Db, realmId: number, pattern: string, urlTemplate: string): number {
  const info = db
    .prepare('INSERT INTO realm_linkifiers (realm_id, pattern, url_template) VALUES (?, ?, ?)')
    .run(realmId, pattern, urlTemplate);
  return Number(info.lastInsertRowid);
}

export function updateLinkifier(db: Db, id: number, pattern: string, urlTemplate: string): void {
  db.prepare('UPDATE realm_linkifiers SET pattern = ?, url_template = ? WHERE id = ?').run(
    pattern,
    urlTemplate,
    id,
  );
}

export function deleteLinkifier(db: Db, id: number): void {
  db.prepare('DELETE FROM realm_linkifiers WHERE id = ?').run(id);
}
