// What the CV files on disk (src/files/cv.ts, C5) ask of the database to tell a committed file from
// one a failed or crashed request left behind.
import type { QueryDeps } from "./queries";
import { inWriteTransaction } from "./snapshot";

export function cvFileQueries({ sqlite }: QueryDeps) {
  const recorded = sqlite.query<{ ok: number }, [string, string]>(`SELECT 1 AS ok FROM events WHERE id = ? AND organization_id = ?`);
  const pointed = sqlite.query<{ ok: number }, [string, string, string]>(
    `SELECT 1 AS ok FROM dossiers WHERE id = ? AND organization_id = ? AND cv_url = ?`,
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
  };
}
