// The SQL of signed-in sessions (C12). A session is found by its token's hash, which is unique in
// the installation; every other statement names the session's organization.
import type { QueryDeps } from "./queries";
import type { MemberRow, SessionRow } from "./schema";

/** A session with what a request needs of its member and organization. */
export interface SessionLookup {
  id: string;
  organizationId: string;
  memberId: string;
  csrfToken: string;
  createdAt: string;
  lastUsedAt: string;
  role: MemberRow["role"];
  disabledAt: string | null;
  plan: "free" | "pro" | "growth";
  rateLimit: number;
}

export function sessionQueries({ sqlite }: QueryDeps) {
  const insert = sqlite.query<unknown, [string, string, string, string, string, string, string]>(
    `INSERT INTO sessions (id, organization_id, member_id, token_hash, csrf_token, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const byHash = sqlite.query<SessionLookup, [string]>(
    `SELECT s.id, s.organization_id AS organizationId, s.member_id AS memberId, s.csrf_token AS csrfToken,
       s.created_at AS createdAt, s.last_used_at AS lastUsedAt, m.role, m.disabled_at AS disabledAt,
       o.plan, o.rate_limit AS rateLimit
     FROM sessions s JOIN members m ON m.id = s.member_id JOIN organizations o ON o.id = s.organization_id
     WHERE s.token_hash = ?`,
  );
  const touch = sqlite.query<unknown, [string, string, string]>(`UPDATE sessions SET last_used_at = ? WHERE organization_id = ? AND id = ?`);
  const deleteByHash = sqlite.query<unknown, [string]>(`DELETE FROM sessions WHERE token_hash = ?`);
  const deleteOfMember = sqlite.query<unknown, [string, string]>(`DELETE FROM sessions WHERE organization_id = ? AND member_id = ?`);
  const deleteEnded = sqlite.query<unknown, [string, string, string, string]>(
    `DELETE FROM sessions WHERE organization_id = ? AND member_id = ? AND (last_used_at <= ? OR created_at <= ?)`,
  );

  return {
    insert(row: SessionRow) {
      insert.run(row.id, row.organizationId, row.memberId, row.tokenHash, row.csrfToken, row.createdAt, row.lastUsedAt);
    },
    byTokenHash: (tokenHash: string): SessionLookup | null => byHash.get(tokenHash),
    touch: (organizationId: string, id: string, at: string) => void touch.run(at, organizationId, id),
    /** True when there was such a session. */
    deleteByTokenHash: (tokenHash: string): boolean => deleteByHash.run(tokenHash).changes > 0,
    deleteOfMember: (organizationId: string, memberId: string) => void deleteOfMember.run(organizationId, memberId),
    /** Deletes the member's sessions last used at or before `idleSince` or made at or before `madeSince`. */
    deleteEnded: (organizationId: string, memberId: string, idleSince: string, madeSince: string) =>
      void deleteEnded.run(organizationId, memberId, idleSince, madeSince),
  };
}
