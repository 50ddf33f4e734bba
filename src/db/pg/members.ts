// Members and their setup links on PostgreSQL: src/db/members.ts's statements, the same answers.
// The camelCase names are quoted aliases: PostgreSQL folds unquoted ones to lower case.
import type { SQL } from "bun";
import type { Role } from "../members";
import type { MemberRow, SetupLinkRow } from "../schema";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";
import { MEMBER_EMAIL_LOCK } from "./lock-classes";

/** MemberRow's columns under its names; digest as 1 or 0, as SQLite reads it. */
const columns = (sql: SQL) => sql`id, organization_id AS "organizationId", email, email_folded AS "emailFolded", name, role,
  password_hash AS "passwordHash", created_at AS "createdAt", last_sign_in_at AS "lastSignInAt", disabled_at AS "disabledAt",
  time_zone AS "timeZone", digest::integer AS digest, last_digest_date AS "lastDigestDate", calendar_token_hash AS "calendarTokenHash"`;


export function pgMemberQueries(db: Db, inUnit: () => boolean): EngineQueries<"members"> {
  return {
    async byId(organizationId: string, id: string) {
      const sql = db();
      const [row] = await sql<MemberRow[]>`SELECT ${columns(sql)}
        FROM members WHERE organization_id = ${organizationId} AND id = ${id}`;
      return row ?? null;
    },

    /** C22: the member a calendar feed's token hash belongs to, in the whole installation. */
    async byCalendarTokenHash(hash: string) {
      const sql = db();
      const [row] = await sql<MemberRow[]>`SELECT ${columns(sql)}
        FROM members WHERE calendar_token_hash = ${hash}`;
      return row ?? null;
    },

    /** C22: a member by id alone (a digest's unsubscribe link names no organization). */
    async byIdInAnyOrganization(id: string) {
      const sql = db();
      const [row] = await sql<MemberRow[]>`SELECT ${columns(sql)}
        FROM members WHERE id = ${id}`;
      return row ?? null;
    },

    /** C22: the member's time zone (null: the server's) and digest switch. */
    async setSettings(organizationId: string, id: string, timeZone: string | null, digest: boolean) {
      await db()`UPDATE members SET time_zone = ${timeZone}, digest = ${digest} WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    /** C22: a new calendar link replaces the old one (only its hash is kept). */
    async setCalendarTokenHash(organizationId: string, id: string, hash: string) {
      await db()`UPDATE members SET calendar_token_hash = ${hash} WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    /** By the folded email, in the whole installation (emails are unique there, C20). Inside a unit
     * (one that adds a member when the email is free), the email's lock first, to the commit: two
     * units adding one email at once then look one after the other, and the second finds the
     * first's member (409 duplicate_member, as under SQLite's one writer, not a 500 from
     * members_email). Only such units take it, each before any other lock: no deadlock. */
    async byFoldedEmail(emailFolded: string) {
      const sql = db();
      if (inUnit()) await sql`SELECT pg_advisory_xact_lock(${MEMBER_EMAIL_LOCK}::integer, hashtext(${emailFolded}))`;
      const [row] = await sql<MemberRow[]>`SELECT ${columns(sql)}
        FROM members WHERE email_folded = ${emailFolded}`;
      return row ?? null;
    },

    /** Every member of the organization, disabled ones too, oldest first. */
    async list(organizationId: string) {
      const sql = db();
      return [...(await sql<MemberRow[]>`SELECT ${columns(sql)} FROM members WHERE organization_id = ${organizationId} ORDER BY created_at, id`)];
    },

    async insert(row: MemberRow) {
      await db()`INSERT INTO members (id, organization_id, email, email_folded, name, role, password_hash, created_at, last_sign_in_at, disabled_at)
        VALUES (${row.id}, ${row.organizationId}, ${row.email}, ${row.emailFolded}, ${row.name}, ${row.role}, ${row.passwordHash}, ${row.createdAt},
          ${row.lastSignInAt}, ${row.disabledAt})`;
    },

    async update(organizationId: string, id: string, name: string, role: Role) {
      await db()`UPDATE members SET name = ${name}, role = ${role} WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    async setPassword(organizationId: string, id: string, passwordHash: string) {
      await db()`UPDATE members SET password_hash = ${passwordHash} WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    async recordSignIn(organizationId: string, id: string, at: string) {
      await db()`UPDATE members SET last_sign_in_at = ${at} WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    /** Sets disabled_at unless it is set already; true when it did. */
    async disable(organizationId: string, id: string, at: string) {
      const done = await db()`UPDATE members SET disabled_at = ${at} WHERE organization_id = ${organizationId} AND id = ${id} AND disabled_at IS NULL`;
      return done.count > 0;
    },

    /** Owners that are not disabled. */
    async activeOwners(organizationId: string) {
      const [row] = await db()<{ n: number }[]>`SELECT count(*)::integer AS n FROM members
        WHERE organization_id = ${organizationId} AND role = 'owner' AND disabled_at IS NULL`;
      return row.n;
    },

    async insertSetupLink(row: Omit<SetupLinkRow, "usedAt">) {
      await db()`INSERT INTO setup_links (id, organization_id, member_id, role, token_hash, created_at, expires_at, used_at)
        VALUES (${row.id}, ${row.organizationId}, ${row.memberId}, ${row.role}, ${row.tokenHash}, ${row.createdAt}, ${row.expiresAt}, NULL)`;
    },

    /** By the token's hash, in the whole installation (the hash is unique there). */
    async setupLinkByHash(tokenHash: string) {
      const [row] = await db()<SetupLinkRow[]>`SELECT id, organization_id AS "organizationId", member_id AS "memberId", role, token_hash AS "tokenHash",
          created_at AS "createdAt", expires_at AS "expiresAt", used_at AS "usedAt"
        FROM setup_links WHERE token_hash = ${tokenHash}`;
      return row ?? null;
    },

    /** Marks the link used unless it is already; true when it did. */
    async useSetupLink(organizationId: string, id: string, at: string) {
      const done = await db()`UPDATE setup_links SET used_at = ${at} WHERE organization_id = ${organizationId} AND id = ${id} AND used_at IS NULL`;
      return done.count > 0;
    },

    /** Deletes the member's links not yet used. */
    async voidSetupLinks(organizationId: string, memberId: string) {
      await db()`DELETE FROM setup_links WHERE organization_id = ${organizationId} AND member_id = ${memberId} AND used_at IS NULL`;
    },
  };
}
