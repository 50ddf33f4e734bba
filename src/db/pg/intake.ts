// Intake addresses and the messages they took in, on PostgreSQL: src/db/intake.ts's statements, the
// same answers.
import type { IntakeAddressRow, IntakeTarget } from "../intake";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";
import { INTAKE_MESSAGE_LOCK } from "./lock-classes";


export function pgIntakeQueries(db: Db): EngineQueries<"intake"> {
  return {
    /** The organization of a flow, for the operator's CLI, which names a flow by id alone. */
    async flowOrganization(flowId: string) {
      const [row] = await db()<{ organization_id: string }[]>`SELECT organization_id FROM flows WHERE id = ${flowId}`;
      return row?.organization_id ?? null;
    },

    /** Flows with no intake address, of every organization (installation-wide upkeep at start). In
     * no particular order, as on SQLite. */
    async flowsWithoutAddress() {
      return [
        ...(await db()<{ id: string; organization_id: string }[]>`SELECT f.id, f.organization_id FROM flows f
          WHERE NOT EXISTS (SELECT 1 FROM intake_addresses a WHERE a.flow_id = f.id)`),
      ];
    },

    /** The flow's address, or null when it has none yet. */
    async address(organizationId: string, flowId: string) {
      const [row] = await db()<IntakeAddressRow[]>`SELECT flow_id, organization_id, token_sealed FROM intake_addresses
        WHERE flow_id = ${flowId} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    /** Sets the flow's address (a new one replaces the old, which stops working at once). */
    async setAddress(row: { organization_id: string; flow_id: string; token_hash: string; token_sealed: string; created_at: string }) {
      await db()`INSERT INTO intake_addresses (flow_id, organization_id, token_hash, token_sealed, created_at)
        VALUES (${row.flow_id}, ${row.organization_id}, ${row.token_hash}, ${row.token_sealed}, ${row.created_at})
        ON CONFLICT (flow_id) DO UPDATE SET token_hash = excluded.token_hash, token_sealed = excluded.token_sealed, created_at = excluded.created_at`;
    },

    /** Where mail to the token goes: the flow, its type and the organization's plan. The one
     * look-up not scoped by organization: the token is what names it. */
    async target(tokenHash: string) {
      const [row] = await db()<IntakeTarget[]>`SELECT a.organization_id, a.flow_id, f.type AS flow_type, o.plan
        FROM intake_addresses a JOIN flows f ON f.id = a.flow_id JOIN organizations o ON o.id = a.organization_id
        WHERE a.token_hash = ${tokenHash}`;
      return row ?? null;
    },

    /** The dossier the flow made of this message since `since`, or null. An older record of the
     * message is dropped (C15 dedupes within 7 days). */
    async previous(organizationId: string, flowId: string, messageId: string, since: string) {
      await db()`DELETE FROM intake_messages WHERE flow_id = ${flowId} AND message_id = ${messageId}
        AND organization_id = ${organizationId} AND received_at < ${since}`;
      const [row] = await db()<{ dossier_id: string }[]>`SELECT dossier_id FROM intake_messages
        WHERE flow_id = ${flowId} AND message_id = ${messageId} AND organization_id = ${organizationId}`;
      return row?.dossier_id ?? null;
    },

    /** Waits until no other unit is taking in this message, and keeps it from starting until this
     * unit ends: the same message delivered to two nodes at once (C19) is looked for (previous)
     * by the second only after the first committed its dossier, so it makes none, and neither
     * refuses the other (with a duplicate contact, a duplicate record). The lock is the one
     * organization's message's: hashtext may give two messages one lock, which makes them wait
     * for each other, nothing worse. */
    async holdMessage(organizationId: string, flowId: string, messageId: string) {
      await db()`SELECT pg_advisory_xact_lock(${INTAKE_MESSAGE_LOCK}::integer, hashtext(${`${organizationId}\n${flowId}\n${messageId}`}))`;
    },

    /** Records the message (its primary key refuses a second record of one message). */
    async record(row: { organization_id: string; flow_id: string; message_id: string; dossier_id: string; received_at: string }) {
      await db()`INSERT INTO intake_messages (flow_id, message_id, organization_id, dossier_id, received_at)
        VALUES (${row.flow_id}, ${row.message_id}, ${row.organization_id}, ${row.dossier_id}, ${row.received_at})`;
    },
  };
}
