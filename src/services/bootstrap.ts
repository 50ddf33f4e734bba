// First start (C2): a data folder with no organization gets "Default" on Growth and a key with
// every scope, printed once.
import type { Context } from "../context";
import { SCOPES, writeKey } from "./keys";
import { countOrgs, writeOrg } from "./orgs";

export function bootstrap(ctx: Context): Promise<{ organizationId: string; key: string } | null> {
  return ctx.store.write(() => {
    if (countOrgs(ctx) > 0) return null;
    const org = writeOrg(ctx, { name: "Default", plan: "growth" });
    const key = writeKey(ctx, { organizationId: org.id, scopes: [...SCOPES], name: "bootstrap" });
    return { organizationId: org.id, key: key.key };
  });
}
