// Organizations on PostgreSQL: src/db/orgs.ts's statements, the same answers.
import type { Db } from "./client";
import type { EngineQueries } from "./queries";
import type { OrgChanges, OrgRow } from "../orgs";
import { FIRST_START_LOCK } from "./lock-classes";


export function pgOrgQueries(db: Db): EngineQueries<"orgs"> {
  return {
    async insert(row: OrgRow & { created_at: string }) {
      await db()`INSERT INTO organizations (id, name, plan, rate_limit, created_at)
        VALUES (${row.id}, ${row.name}, ${row.plan}, ${row.rate_limit}, ${row.created_at})`;
    },

    async update(id: string, changes: OrgChanges) {
      await db()`UPDATE organizations SET name = coalesce(${changes.name ?? null}, name), plan = coalesce(${changes.plan ?? null}, plan),
        rate_limit = coalesce(${changes.rate_limit ?? null}::integer, rate_limit) WHERE id = ${id}`;
    },

    async byId(id: string) {
      const [row] = await db()<OrgRow[]>`SELECT id, name, plan, rate_limit FROM organizations WHERE id = ${id}`;
      return row ?? null;
    },

    /** Oldest first. */
    async all() {
      return [...(await db()<OrgRow[]>`SELECT id, name, plan, rate_limit FROM organizations ORDER BY created_at, id`)];
    },

    /** Held by the first start's unit until it ends (C2): nodes started together on an empty
     * database (C19) count the organizations one after another, and only the first makes one. */
    async holdFirstStart() {
      await db()`SELECT pg_advisory_xact_lock(${FIRST_START_LOCK})`;
    },

    async count() {
      const [row] = await db()<{ n: number }[]>`SELECT count(*)::integer AS n FROM organizations`;
      return row.n;
    },
  };
}
