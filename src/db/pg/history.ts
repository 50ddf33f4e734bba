// The history of dossiers and their stays in stages on PostgreSQL: src/db/history.ts's statements,
// the same answers. The stays are kept by triggers here too (drizzle-pg/0001).
import type { HistoryRow, StageStay } from "../history";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

/** Key names remembered at most (a bound on memory; the oldest goes first). */
const KEY_NAMES_REMEMBERED = 1_000;

export function pgHistoryQueries(db: Db): EngineQueries<"history"> {
  // A key's name never changes (keys are made and revoked, never renamed): remembered once read,
  // it spares every change made with the key a round trip inside its unit, under its organization's
  // lock. No key found: nothing kept.
  const keyNames = new Map<string, string | null>();
  return {
    async insert(organizationId: string, dossierId: string, row: HistoryRow) {
      await db()`INSERT INTO dossier_history (organization_id, dossier_id, at, kind, actor_type, actor_id, actor_name, changes)
        VALUES (${organizationId}, ${dossierId}, ${row.at}, ${row.kind}, ${row.actor_type}, ${row.actor_id}, ${row.actor_name}, ${row.changes})`;
    },

    /** Oldest first, in the order written: seq is an identity, numbered as the rows are inserted.
     * Two units writing one dossier's history at once would be in the order they took their numbers,
     * not the order they committed; the units' per-organization lock (pg_advisory_xact_lock, left
     * for the next steps in docs/decisions.md) makes the two the same. */
    async ofDossier(organizationId: string, dossierId: string) {
      return [
        ...(await db()<HistoryRow[]>`SELECT at, kind, actor_type, actor_id, actor_name, changes FROM dossier_history
          WHERE organization_id = ${organizationId} AND dossier_id = ${dossierId} ORDER BY seq`),
      ];
    },

    /** The dossier's stays, by entered_at (then the order they began in). */
    async staysOfDossier(organizationId: string, dossierId: string) {
      return [
        ...(await db()<StageStay[]>`SELECT stage_id, entered_at, left_at FROM stage_visits
          WHERE dossier_id = ${dossierId} AND organization_id = ${organizationId} ORDER BY entered_at, id`),
      ];
    },

    /** The link of a contact to a dossier as it is, or null when there is none. */
    async link(organizationId: string, dossierId: string, contactId: string) {
      const [row] = await db()<{ role_on_dossier: string; is_primary: boolean }[]>`SELECT role_on_dossier, is_primary FROM dossier_contacts
        WHERE dossier_id = ${dossierId} AND contact_id = ${contactId} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    /** The links of a contact (to record their end when it goes). */
    async linksOfContact(organizationId: string, contactId: string) {
      return [
        ...(await db()<{ dossier_id: string; role_on_dossier: string; is_primary: boolean }[]>`SELECT dossier_id, role_on_dossier, is_primary
          FROM dossier_contacts WHERE contact_id = ${contactId} AND organization_id = ${organizationId} ORDER BY dossier_id`),
      ];
    },

    /** A key's name, the actor's name of what it changes. */
    async keyName(organizationId: string, keyId: string) {
      const remembered = `${organizationId}\n${keyId}`;
      if (keyNames.has(remembered)) return keyNames.get(remembered)!;
      const [row] = await db()<{ name: string | null }[]>`SELECT name FROM api_keys WHERE id = ${keyId} AND organization_id = ${organizationId}`;
      if (!row) return null;
      if (keyNames.size >= KEY_NAMES_REMEMBERED) keyNames.delete(keyNames.keys().next().value!);
      keyNames.set(remembered, row.name);
      return row.name;
    },

    /** A member's name, the same for a signed-in member. */
    async memberName(organizationId: string, memberId: string) {
      const [row] = await db()<{ name: string }[]>`SELECT name FROM members WHERE id = ${memberId} AND organization_id = ${organizationId}`;
      return row?.name ?? null;
    },
  };
}
