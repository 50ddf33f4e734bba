// First start (C2, C12): a data folder with no organization gets "Default" on Growth, a key with
// every scope and a setup link for its owner, printed once.
import type { Context } from "../context";
import { SCOPES, writeKey } from "./keys";
import { writeOwnerSetupLink } from "./members";
import { countOrgs, writeOrg } from "./orgs";

/** `base` is the `<base>` of the owner's setup link (C20). */
export async function bootstrap(ctx: Context, base: string): Promise<{ organizationId: string; key: string; setupUrl: string } | null> {
  return await ctx.store.write(async () => {
    // Several nodes may start at once on one database (C19): one makes the organization.
    await ctx.store.orgs.holdFirstStart();
    if ((await countOrgs(ctx)) > 0) return null;
    const org = await writeOrg(ctx, { name: "Default", plan: "growth" });
    const key = await writeKey(ctx, { organizationId: org.id, scopes: [...SCOPES], name: "bootstrap" });
    return { organizationId: org.id, key: key.key, setupUrl: (await writeOwnerSetupLink(ctx, org.id, base)) };
  });
}
