// Organizations (C2): their rows, nothing else. The operator's commands act across organizations,
// so these are the store's only statements not scoped by one.
import type { QueryDeps } from "./queries";
import type { Organization } from "./schema";

export type Plan = Organization["plan"];

export interface OrgRow {
  id: string;
  name: string;
  plan: Plan;
  rate_limit: number;
}

export type OrgChanges = Partial<Pick<OrgRow, "name" | "plan" | "rate_limit">>;

const COLUMNS = `id, name, plan, rate_limit`;

export function orgQueries({ sqlite }: QueryDeps) {
  return {
    insert(row: OrgRow & { created_at: string }) {
      sqlite
        .query(`INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES (?, ?, ?, ?, ?)`)
        .run(row.id, row.name, row.plan, row.rate_limit, row.created_at);
    },

    /** Sets the given columns (at least one). */
    update(id: string, changes: OrgChanges) {
      sqlite
        .query(
          `UPDATE organizations SET name = coalesce(?, name), plan = coalesce(?, plan), rate_limit = coalesce(?, rate_limit) WHERE id = ?`,
        )
        .run(changes.name ?? null, changes.plan ?? null, changes.rate_limit ?? null, id);
    },

    byId(id: string): OrgRow | null {
      return sqlite.query<OrgRow, [string]>(`SELECT ${COLUMNS} FROM organizations WHERE id = ?`).get(id) ?? null;
    },

    /** Oldest first. */
    all(): OrgRow[] {
      return sqlite.query<OrgRow, []>(`SELECT ${COLUMNS} FROM organizations ORDER BY created_at, id`).all();
    },

    /** Nothing to wait for on SQLite: a data folder has one server, and its units one writer. */
    holdFirstStart() {},

    count(): number {
      return sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM organizations`).get()!.n;
    },
  };
}
