// Organizations: created by the operator (C2), each with its default flows (C4).
import type { Awaitable } from "../awaitable";
import type { Context } from "../context";
import type { OrgChanges, OrgRow, Plan } from "../db/orgs";
import { newId } from "../ids";
import { insertDefaultFlows } from "./flows";

export type { Plan };
export const PLANS: Plan[] = ["free", "pro", "growth"];

/** An organization as the CLI shows it (no schema: the API never answers one). */
export type OrgView = OrgRow;

type OrgInput = { name: string; plan?: Plan; rateLimit?: number };

export const createOrg = (ctx: Context, input: OrgInput): Promise<OrgView> => ctx.store.write(() => writeOrg(ctx, input));

/** createOrg's unit of work: the organization and its default flows. */
export async function writeOrg(ctx: Context, input: OrgInput): Promise<OrgView> {
  const org: OrgView = {
    id: newId(),
    name: input.name,
    plan: input.plan ?? "growth",
    rate_limit: input.rateLimit ?? ctx.config.defaultRateLimit,
  };
  await ctx.store.orgs.insert({ ...org, created_at: ctx.now().toISOString() });
  await insertDefaultFlows(ctx, org.id);
  return org;
}

/** Returns null when there is no such organization. */
export async function updateOrg(ctx: Context, id: string, changes: { name?: string; plan?: Plan; rateLimit?: number }): Promise<OrgView | null> {
  const set: OrgChanges = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.plan !== undefined) set.plan = changes.plan;
  if (changes.rateLimit !== undefined) set.rate_limit = changes.rateLimit;
  if (Object.keys(set).length > 0) await ctx.store.write(() => ctx.store.orgs.update(id, set));
  return getOrg(ctx, id);
}

export const getOrg = (ctx: Context, id: string): Awaitable<OrgView | null> => ctx.store.orgs.byId(id);

/** Oldest first. */
export const listOrgs = (ctx: Context): Awaitable<OrgView[]> => ctx.store.orgs.all();

export const countOrgs = (ctx: Context): Awaitable<number> => ctx.store.orgs.count();
