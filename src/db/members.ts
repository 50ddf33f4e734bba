// The SQL of members and their setup links (C12). Every read of one organization's members names
// the organization; the two look-ups that find the organization (an email at sign-in, a setup
// link's token) are by a value unique in the whole installation.
import type { QueryDeps } from "./queries";
import type { MemberRow, SetupLinkRow } from "./schema";

export type Role = MemberRow["role"];

const MEMBER = `id, organization_id AS organizationId, email, email_folded AS emailFolded, name, role,
  password_hash AS passwordHash, created_at AS createdAt, last_sign_in_at AS lastSignInAt, disabled_at AS disabledAt,
  time_zone AS timeZone, digest = 1 AS digest, last_digest_date AS lastDigestDate, calendar_token_hash AS calendarTokenHash`;
const LINK = `id, organization_id AS organizationId, member_id AS memberId, role, token_hash AS tokenHash,
  created_at AS createdAt, expires_at AS expiresAt, used_at AS usedAt`;

export function memberQueries({ sqlite }: QueryDeps) {
  const byId = sqlite.query<MemberRow, [string, string]>(`SELECT ${MEMBER} FROM members WHERE organization_id = ? AND id = ?`);
  const byEmail = sqlite.query<MemberRow, [string]>(`SELECT ${MEMBER} FROM members WHERE email_folded = ?`);
  const list = sqlite.query<MemberRow, [string]>(`SELECT ${MEMBER} FROM members WHERE organization_id = ? ORDER BY created_at, id`);
  const insert = sqlite.query<unknown, [string, string, string, string, string, Role, string | null, string, string | null, string | null]>(
    `INSERT INTO members (id, organization_id, email, email_folded, name, role, password_hash, created_at, last_sign_in_at, disabled_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = sqlite.query<unknown, [string, Role, string, string]>(`UPDATE members SET name = ?, role = ? WHERE organization_id = ? AND id = ?`);
  const setPassword = sqlite.query<unknown, [string, string, string]>(`UPDATE members SET password_hash = ? WHERE organization_id = ? AND id = ?`);
  const signedIn = sqlite.query<unknown, [string, string, string]>(`UPDATE members SET last_sign_in_at = ? WHERE organization_id = ? AND id = ?`);
  const disable = sqlite.query<unknown, [string, string, string]>(
    `UPDATE members SET disabled_at = ? WHERE organization_id = ? AND id = ? AND disabled_at IS NULL`,
  );
  const activeOwners = sqlite.query<{ n: number }, [string]>(
    `SELECT count(*) AS n FROM members WHERE organization_id = ? AND role = 'owner' AND disabled_at IS NULL`,
  );
  const insertLink = sqlite.query<unknown, [string, string, string | null, Role | null, string, string, string]>(
    `INSERT INTO setup_links (id, organization_id, member_id, role, token_hash, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
  );
  const linkByHash = sqlite.query<SetupLinkRow, [string]>(`SELECT ${LINK} FROM setup_links WHERE token_hash = ?`);
  const useLink = sqlite.query<unknown, [string, string, string]>(
    `UPDATE setup_links SET used_at = ? WHERE organization_id = ? AND id = ? AND used_at IS NULL`,
  );
  const voidLinks = sqlite.query<unknown, [string, string]>(
    `DELETE FROM setup_links WHERE organization_id = ? AND member_id = ? AND used_at IS NULL`,
  );

  const byCalendar = sqlite.query<MemberRow, [string]>(`SELECT ${MEMBER} FROM members WHERE calendar_token_hash = ?`);
  return {
    byId: (organizationId: string, id: string): MemberRow | null => byId.get(organizationId, id),
    /** C22: the member a calendar feed's token hash belongs to, in the whole installation (the hash
     * is unique there, as an email is). */
    byCalendarTokenHash: (hash: string): MemberRow | null => byCalendar.get(hash),
    /** C22: a member by id alone, for a digest's unsubscribe link, whose token (an HMAC of the id
     * under the server's key) names no organization; ids are unique in the installation. */
    byIdInAnyOrganization: (id: string): MemberRow | null => sqlite.query<MemberRow, [string]>(`SELECT ${MEMBER} FROM members WHERE id = ?`).get(id),
    /** C22: the member's time zone (null: the server's) and digest switch. */
    setSettings(organizationId: string, id: string, timeZone: string | null, digest: boolean) {
      sqlite.query(`UPDATE members SET time_zone = ?, digest = ? WHERE organization_id = ? AND id = ?`).run(timeZone, digest ? 1 : 0, organizationId, id);
    },
    /** C22: a new calendar link replaces the old one (only its hash is kept). */
    setCalendarTokenHash(organizationId: string, id: string, hash: string) {
      sqlite.query(`UPDATE members SET calendar_token_hash = ? WHERE organization_id = ? AND id = ?`).run(hash, organizationId, id);
    },
    /** By the folded email, in the whole installation (emails are unique there, C20). */
    byFoldedEmail: (emailFolded: string): MemberRow | null => byEmail.get(emailFolded),
    /** Every member of the organization, disabled ones too, oldest first. */
    list: (organizationId: string): MemberRow[] => list.all(organizationId),
    insert(row: MemberRow) {
      insert.run(row.id, row.organizationId, row.email, row.emailFolded, row.name, row.role, row.passwordHash, row.createdAt, row.lastSignInAt, row.disabledAt);
    },
    update: (organizationId: string, id: string, name: string, role: Role) => void update.run(name, role, organizationId, id),
    setPassword: (organizationId: string, id: string, passwordHash: string) => void setPassword.run(passwordHash, organizationId, id),
    recordSignIn: (organizationId: string, id: string, at: string) => void signedIn.run(at, organizationId, id),
    /** Sets disabled_at unless it is set already; true when it did. */
    disable: (organizationId: string, id: string, at: string): boolean => disable.run(at, organizationId, id).changes > 0,
    /** Owners that are not disabled. */
    activeOwners: (organizationId: string): number => activeOwners.get(organizationId)!.n,

    insertSetupLink(row: Omit<SetupLinkRow, "usedAt">) {
      insertLink.run(row.id, row.organizationId, row.memberId, row.role, row.tokenHash, row.createdAt, row.expiresAt);
    },
    /** By the token's hash, in the whole installation (the hash is unique there). */
    setupLinkByHash: (tokenHash: string): SetupLinkRow | null => linkByHash.get(tokenHash),
    /** Marks the link used unless it is already; true when it did. */
    useSetupLink: (organizationId: string, id: string, at: string): boolean => useLink.run(at, organizationId, id).changes > 0,
    /** Deletes the member's links not yet used. */
    voidSetupLinks: (organizationId: string, memberId: string) => void voidLinks.run(organizationId, memberId),
  };
}
