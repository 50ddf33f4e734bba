// The history of dossiers (C18): its items and each dossier's stays in stages. The stays are kept
// by triggers (migration 0008); the items are written by the services.
import type { Actor } from "../actor";
import type { QueryDeps } from "./queries";

export interface HistoryRow {
  at: string;
  kind: string;
  actor_type: Actor["type"] | null;
  actor_id: string | null;
  actor_name: string | null;
  /** JSON: field → [old, new]. */
  changes: string;
}

export interface StageStay {
  stage_id: string;
  entered_at: string;
  left_at: string | null;
}

export function historyQueries({ sqlite }: QueryDeps) {
  return {
    insert(organizationId: string, dossierId: string, row: HistoryRow) {
      sqlite
        .query(
          `INSERT INTO dossier_history (organization_id, dossier_id, at, kind, actor_type, actor_id, actor_name, changes)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(organizationId, dossierId, row.at, row.kind, row.actor_type, row.actor_id, row.actor_name, row.changes);
    },

    /** Oldest first, in the order written. */
    ofDossier(organizationId: string, dossierId: string): HistoryRow[] {
      return sqlite
        .query<HistoryRow, [string, string]>(
          `SELECT at, kind, actor_type, actor_id, actor_name, changes FROM dossier_history
           WHERE organization_id = ? AND dossier_id = ? ORDER BY seq`,
        )
        .all(organizationId, dossierId);
    },

    /** The dossier's stays, by entered_at (then the order they began in). */
    staysOfDossier(organizationId: string, dossierId: string): StageStay[] {
      return sqlite
        .query<StageStay, [string, string]>(
          `SELECT stage_id, entered_at, left_at FROM stage_visits
           WHERE dossier_id = ? AND organization_id = ? ORDER BY entered_at, id`,
        )
        .all(dossierId, organizationId);
    },

    /** The link of a contact to a dossier as it is, or null when there is none. */
    link(organizationId: string, dossierId: string, contactId: string): { role_on_dossier: string; is_primary: boolean } | null {
      const row = sqlite
        .query<{ role_on_dossier: string; is_primary: number }, [string, string, string]>(
          `SELECT role_on_dossier, is_primary FROM dossier_contacts WHERE dossier_id = ? AND contact_id = ? AND organization_id = ?`,
        )
        .get(dossierId, contactId, organizationId);
      return row ? { role_on_dossier: row.role_on_dossier, is_primary: row.is_primary === 1 } : null;
    },

    /** The links of a contact (to record their end when it goes). */
    linksOfContact(organizationId: string, contactId: string): { dossier_id: string; role_on_dossier: string; is_primary: boolean }[] {
      return sqlite
        .query<{ dossier_id: string; role_on_dossier: string; is_primary: number }, [string, string]>(
          `SELECT dossier_id, role_on_dossier, is_primary FROM dossier_contacts WHERE contact_id = ? AND organization_id = ? ORDER BY dossier_id`,
        )
        .all(contactId, organizationId)
        .map((row) => ({ ...row, is_primary: row.is_primary === 1 }));
    },

    /** A key's name, the actor's name of what it changes. */
    keyName(organizationId: string, keyId: string): string | null {
      return sqlite
        .query<{ name: string | null }, [string, string]>(`SELECT name FROM api_keys WHERE id = ? AND organization_id = ?`)
        .get(keyId, organizationId)?.name ?? null;
    },

    /** A member's name, the same for a signed-in member. */
    memberName(organizationId: string, memberId: string): string | null {
      return sqlite
        .query<{ name: string }, [string, string]>(`SELECT name FROM members WHERE id = ? AND organization_id = ?`)
        .get(memberId, organizationId)?.name ?? null;
    },
  };
}
