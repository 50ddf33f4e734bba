// What the CV files on disk or on S3 (src/files/cv.ts, src/files/s3.ts; C5, C19) ask of the
// database to tell a committed file from one a failed or crashed request left behind.
import type { QueryDeps } from "./queries";
import { inWriteTransaction } from "./snapshot";

export function cvFileQueries({ sqlite }: QueryDeps) {
  const recorded = sqlite.query<{ ok: number }, [string, string]>(`SELECT 1 AS ok FROM events WHERE id = ? AND organization_id = ?`);
  const pointed = sqlite.query<{ ok: number }, [string, string, string]>(
    `SELECT 1 AS ok FROM dossiers WHERE id = ? AND organization_id = ? AND cv_url = ?`,
  );
  const named = sqlite.query<{ id: string }, [string, string]>(
    `SELECT id FROM dossiers WHERE organization_id = ?1 AND id IN (SELECT value FROM json_each(?2))
       AND cv_url = organization_id || '/dossiers/' || id || '/cv.pdf'`,
  );
  return {
    /** Whether the event is in the database. */
    eventRecorded: (organizationId: string, eventId: string): boolean => recorded.get(eventId, organizationId) !== null,
    /** Whether the event's transaction committed: false while a transaction is open on this
     * connection, since what it would read there may still roll back. */
    eventCommitted: (organizationId: string, eventId: string): boolean =>
      !inWriteTransaction(sqlite) && recorded.get(eventId, organizationId) !== null,
    /** Whether the dossier's cv_url is `url`. */
    dossierHasCv: (organizationId: string, dossierId: string, url: string): boolean =>
      pointed.get(dossierId, organizationId, url) !== null,
    /** Which of the dossiers `ids` name their CV (`cv_url` is `<org>/dossiers/<id>/cv.pdf`). */
    namingTheirCv: (organizationId: string, ids: string[]): string[] => named.all(organizationId, JSON.stringify(ids)).map((row) => row.id),
    /** Inside a unit: holds, to its end, what a unit that records the organization's events holds
     * (PostgreSQL: its numbering lock). On SQLite the unit holds the writer already: nothing to add. */
    holdOrganization: (_organizationId: string): void => {},
  };
}
