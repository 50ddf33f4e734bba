// Signed-in sessions on PostgreSQL: src/db/sessions.ts's statements, the same answers. The
// camelCase names are quoted aliases: PostgreSQL folds unquoted ones to lower case.
import type { SessionRow } from "../schema";
import type { SessionLookup } from "../sessions";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

export function pgSessionQueries(db: Db): EngineQueries<"sessions"> {
  return {
    async insert(row: SessionRow) {
      await db()`INSERT INTO sessions (id, organization_id, member_id, token_hash, csrf_token, created_at, last_used_at)
        VALUES (${row.id}, ${row.organizationId}, ${row.memberId}, ${row.tokenHash}, ${row.csrfToken}, ${row.createdAt}, ${row.lastUsedAt})`;
    },

    async byTokenHash(tokenHash: string) {
      const [row] = await db()<SessionLookup[]>`SELECT s.id, s.organization_id AS "organizationId", s.member_id AS "memberId", s.csrf_token AS "csrfToken",
          s.created_at AS "createdAt", s.last_used_at AS "lastUsedAt", m.role, m.disabled_at AS "disabledAt",
          o.plan, o.rate_limit AS "rateLimit"
        FROM sessions s JOIN members m ON m.id = s.member_id JOIN organizations o ON o.id = s.organization_id
        WHERE s.token_hash = ${tokenHash}`;
      return row ?? null;
    },

    async touch(organizationId: string, id: string, at: string) {
      await db()`UPDATE sessions SET last_used_at = ${at} WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    /** True when there was such a session. */
    async deleteByTokenHash(tokenHash: string) {
      const done = await db()`DELETE FROM sessions WHERE token_hash = ${tokenHash}`;
      return done.count > 0;
    },

    async deleteOfMember(organizationId: string, memberId: string) {
      await db()`DELETE FROM sessions WHERE organization_id = ${organizationId} AND member_id = ${memberId}`;
    },

    /** Deletes the member's sessions last used at or before `idleSince` or made at or before `madeSince`. */
    async deleteEnded(organizationId: string, memberId: string, idleSince: string, madeSince: string) {
      await db()`DELETE FROM sessions WHERE organization_id = ${organizationId} AND member_id = ${memberId}
        AND (last_used_at <= ${idleSince} OR created_at <= ${madeSince})`;
    },
  };
}
