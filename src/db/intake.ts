// Intake addresses and the messages they took in (C15). Called inside the service's units.
import type { QueryDeps } from "./queries";

export interface IntakeAddressRow {
  flow_id: string;
  organization_id: string;
  token_sealed: string;
}

export interface IntakeTarget {
  organization_id: string;
  flow_id: string;
  flow_type: "candidate" | "sales";
  plan: "free" | "pro" | "growth";
}

export function intakeQueries({ sqlite }: QueryDeps) {
  return {
    /** The organization of a flow, for the operator's CLI, which names a flow by id alone. */
    flowOrganization(flowId: string): string | null {
      return sqlite.query<{ organization_id: string }, [string]>(`SELECT organization_id FROM flows WHERE id = ?`).get(flowId)?.organization_id ?? null;
    },

    /** Flows with no intake address, of every organization: the server's start gives each one
     * (installation-wide upkeep, like the CV sweep). */
    flowsWithoutAddress(): { id: string; organization_id: string }[] {
      return sqlite
        .query<{ id: string; organization_id: string }, []>(
          `SELECT f.id, f.organization_id FROM flows f WHERE NOT EXISTS (SELECT 1 FROM intake_addresses a WHERE a.flow_id = f.id)`,
        )
        .all();
    },

    /** The flow's address, or null when it has none yet. */
    address(organizationId: string, flowId: string): IntakeAddressRow | null {
      return sqlite
        .query<IntakeAddressRow, [string, string]>(`SELECT flow_id, organization_id, token_sealed FROM intake_addresses WHERE flow_id = ? AND organization_id = ?`)
        .get(flowId, organizationId);
    },

    /** Sets the flow's address (a new one replaces the old, which stops working at once). */
    setAddress(row: { organization_id: string; flow_id: string; token_hash: string; token_sealed: string; created_at: string }) {
      sqlite
        .query(
          `INSERT INTO intake_addresses (flow_id, organization_id, token_hash, token_sealed, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (flow_id) DO UPDATE SET token_hash = excluded.token_hash, token_sealed = excluded.token_sealed, created_at = excluded.created_at`,
        )
        .run(row.flow_id, row.organization_id, row.token_hash, row.token_sealed, row.created_at);
    },

    /** Where mail to the token goes: the flow, its type and the organization's plan. The one
     * look-up not scoped by organization: the token is what names it. */
    target(tokenHash: string): IntakeTarget | null {
      return sqlite
        .query<IntakeTarget, [string]>(
          `SELECT a.organization_id, a.flow_id, f.type AS flow_type, o.plan
             FROM intake_addresses a JOIN flows f ON f.id = a.flow_id JOIN organizations o ON o.id = a.organization_id
            WHERE a.token_hash = ?`,
        )
        .get(tokenHash);
    },

    /** The dossier the flow made of this message since `since`, or null. An older record of the
     * message is dropped (C15 dedupes within 7 days). */
    previous(organizationId: string, flowId: string, messageId: string, since: string): string | null {
      sqlite
        .query(`DELETE FROM intake_messages WHERE flow_id = ? AND message_id = ? AND organization_id = ? AND received_at < ?`)
        .run(flowId, messageId, organizationId, since);
      return (
        sqlite
          .query<{ dossier_id: string }, [string, string, string]>(`SELECT dossier_id FROM intake_messages WHERE flow_id = ? AND message_id = ? AND organization_id = ?`)
          .get(flowId, messageId, organizationId)?.dossier_id ?? null
      );
    },

    /** Nothing to wait for on SQLite: one writer, so no other unit takes the message in between
     * this unit's look (previous) and its record. */
    holdMessage(_organizationId: string, _flowId: string, _messageId: string) {},

    /** Records the message (its primary key refuses a second record of one message). */
    record(row: { organization_id: string; flow_id: string; message_id: string; dossier_id: string; received_at: string }) {
      sqlite
        .query(`INSERT INTO intake_messages (flow_id, message_id, organization_id, dossier_id, received_at) VALUES (?, ?, ?, ?, ?)`)
        .run(row.flow_id, row.message_id, row.organization_id, row.dossier_id, row.received_at);
    },
  };
}
