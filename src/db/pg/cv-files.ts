// What the CV files ask of the database, on PostgreSQL: src/db/cv-files.ts's questions, the same
// answers.
import type { Db } from "./client";
import { EVENT_NUMBERING_LOCK } from "./lock-classes";
import type { EngineQueries } from "./queries";

/** `inUnit`: whether the work in progress is a unit of work (a transaction that may write). */
export function pgCvFileQueries(db: Db, inUnit: () => boolean): EngineQueries<"cvFiles"> {
  const recorded = async (organizationId: string, eventId: string) =>
    (await db()`SELECT 1 AS ok FROM events WHERE id = ${eventId} AND organization_id = ${organizationId}`).length > 0;
  return {
    /** Whether the event is in the database. */
    eventRecorded: recorded,

    /** Whether the event's transaction committed: false inside a unit of work, since what it would
     * read there may still roll back (as on SQLite). Outside one, a read sees committed rows only. */
    async eventCommitted(organizationId: string, eventId: string) {
      return !inUnit() && (await recorded(organizationId, eventId));
    },

    /** Whether the dossier's cv_url is `url`. */
    async dossierHasCv(organizationId: string, dossierId: string, url: string) {
      return (await db()`SELECT 1 AS ok FROM dossiers WHERE id = ${dossierId} AND organization_id = ${organizationId} AND cv_url = ${url}`).length > 0;
    },

    /** Which of the dossiers `ids` name their CV (`cv_url` is `<org>/dossiers/<id>/cv.pdf`). */
    async namingTheirCv(organizationId: string, ids: string[]) {
      const rows = await db()<{ id: string }[]>`SELECT id FROM dossiers WHERE organization_id = ${organizationId}
        AND id = ANY(${ids}::text[]) AND cv_url = organization_id || '/dossiers/' || id || '/cv.pdf'`;
      return rows.map((row) => row.id);
    },

    /** Inside a unit: the organization's numbering lock (src/db/pg/events.ts) to its end, so that no
     * unit of the organization that records events (a CV replacement among them) is in flight. */
    async holdOrganization(organizationId: string) {
      await db()`SELECT pg_advisory_xact_lock(${EVENT_NUMBERING_LOCK}::integer, hashtext(${organizationId}))`;
    },
  };
}
