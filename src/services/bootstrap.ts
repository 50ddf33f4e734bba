// First start (C2): a data folder with no organization gets "Default" on Growth and a key with
// every scope, printed once.
import { transact, type Context } from "../context";
import { createKey, SCOPES } from "./keys";
import { countOrgs, createOrg } from "./orgs";

export function bootstrap(ctx: Context): { organizationId: string; key: string } | null {
  return transact(ctx, () => {
    if (countOrgs(ctx) > 0) return null;
    const org = createOrg(ctx, { name: "Default", plan: "growth" });
    const key = createKey(ctx, { organizationId: org.id, scopes: [...SCOPES], name: "bootstrap" });
    return { organizationId: org.id, key: key.key };
  });
}
