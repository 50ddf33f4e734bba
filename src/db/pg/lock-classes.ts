// The advisory locks' keys, in one place so that no two kinds of lock share one: two-key locks are
// pg_advisory_xact_lock(class, hashtext(what)), whose keys never meet the one-key form's; one-key
// locks are a constant of their own.

/** An organization's write order and event numbering (src/db/pg/events.ts). Two organizations
 * whose ids hash alike share a lock: they wait for each other, nothing worse. */
export const EVENT_NUMBERING_LOCK = 1_917;
/** One intake message (organization, flow, Message-ID): one dossier for it (src/db/pg/intake.ts). */
export const INTAKE_MESSAGE_LOCK = 1_918;
/** One member email (src/db/pg/members.ts). */
export const MEMBER_EMAIL_LOCK = 1_919;
/** One address's sign-in throttle (src/db/pg/counters.ts). It shared 1_918 with the intake
 * messages until round 3: a needless wait when two hashes met. */
export const SIGN_IN_LOCK = 1_920;

/** The migrations (src/db/pg/migrate.ts): any constant shared by all versions. */
export const MIGRATION_LOCK = 4_711_034_019;
/** The first start's first organization (src/db/pg/orgs.ts). */
export const FIRST_START_LOCK = 4_711_034_020;
