// Organizations: created by the operator (C2), each with its default flows (C4).
import { asc, count, eq } from "drizzle-orm";
import type { Context } from "../context";
import { organizations, type Organization } from "../db/schema";
import { newId } from "../ids";
import { insertDefaultFlows } from "./flows";
import { forgetPrincipals } from "./principals";

export type Plan = "free" | "pro" | "growth";
export const PLANS: Plan[] = ["free", "pro", "growth"];

export interface OrgView {
  id: string;
  name: string;
  plan: Plan;
  rate_limit: number;
}

const present = (row: Organization): OrgView => ({ id: row.id, name: row.name, plan: row.plan, rate_limit: row.rateLimit });

type OrgInput = { name: string; plan?: Plan; rateLimit?: number };

export const createOrg = (ctx: Context, input: OrgInput): Promise<OrgView> => ctx.store.write(() => writeOrg(ctx, input));

/** createOrg's unit of work: the organization and its default flows. */
export function writeOrg(ctx: Context, input: OrgInput): OrgView {
  const row: Organization = {
    id: newId(),
    name: input.name,
    plan: input.plan ?? "growth",
    rateLimit: input.rateLimit ?? ctx.config.defaultRateLimit,
    createdAt: ctx.now().toISOString(),
  };
  ctx.store.orm.insert(organizations).values(row).run();
  insertDefaultFlows(ctx, row.id);
  return present(row);
}

/** Returns null when there is no such organization. */
export async function updateOrg(ctx: Context, id: string, changes: { name?: string; plan?: Plan; rateLimit?: number }): Promise<OrgView | null> {
  const { orm } = ctx.store;
  const set: Partial<Organization> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.plan !== undefined) set.plan = changes.plan;
  if (changes.rateLimit !== undefined) set.rateLimit = changes.rateLimit;
  if (Object.keys(set).length > 0) {
    await ctx.store.write(() => orm.update(organizations).set(set).where(eq(organizations.id, id)).run());
    forgetPrincipals(ctx); // plan and rate limit are part of the remembered principals (C10)
  }
  const row = orm.select().from(organizations).where(eq(organizations.id, id)).get();
  return row ? present(row) : null;
}

export function getOrg(ctx: Context, id: string): OrgView | null {
  const row = ctx.store.orm.select().from(organizations).where(eq(organizations.id, id)).get();
  return row ? present(row) : null;
}

export function listOrgs(ctx: Context): OrgView[] {
  return ctx.store.orm.select().from(organizations).orderBy(asc(organizations.createdAt), asc(organizations.id)).all().map(present);
}

export function countOrgs(ctx: Context): number {
  return ctx.store.orm.select({ n: count() }).from(organizations).get()!.n;
}
