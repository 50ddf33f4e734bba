// The organization's webhook endpoint and its secrets (C2 `webhook set|rotate-secret|unset`, C7).
// Secrets are stored sealed under the data folder's master key (docs/security.md); only the
// dispatcher unseals them, to sign.
import { eq } from "drizzle-orm";
import type { Context } from "../context";
import { outboxStore } from "../db/outbox";
import { webhookEndpoints } from "../db/schema";
import { randomAlphanumeric } from "../ids";
import { seal } from "../secrets";

export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const newSecret = () => "whsec_" + randomAlphanumeric(32);

export async function setEndpoint(ctx: Context, organizationId: string, url: string): Promise<{ url: string; secret: string }> {
  const secret = newSecret();
  const sealed = seal(ctx.masterKey, secret);
  const now = ctx.now().toISOString();
  await ctx.store.write(() => ctx.store.orm
    .insert(webhookEndpoints)
    .values({ organizationId, url, secret: sealed, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: webhookEndpoints.organizationId,
      set: { url, secret: sealed, previousSecret: null, previousSecretExpiresAt: null, disabledAt: null, updatedAt: now },
    })
    .run());
  return { url, secret };
}

/** Null when the organization has no endpoint. */
export function rotateSecret(ctx: Context, organizationId: string): Promise<{ secret: string } | null> {
  const { orm } = ctx.store;
  return ctx.store.write(() => {
  const current = orm.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, organizationId)).get();
  if (!current) return null;
  const secret = newSecret();
  const now = ctx.now();
  orm.update(webhookEndpoints)
    .set({
      secret: seal(ctx.masterKey, secret),
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updatedAt: now.toISOString(),
    })
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .run();
  return { secret };
  });
}

export async function unsetEndpoint(ctx: Context, organizationId: string): Promise<{ url: null }> {
  await ctx.store.write(() => {
    ctx.store.orm.delete(webhookEndpoints).where(eq(webhookEndpoints.organizationId, organizationId)).run();
    // Nothing pending is delivered once the endpoint is gone; nothing skipped is revived (C10).
    outboxStore(ctx.store.sqlite).skipPending(organizationId);
  });
  return { url: null };
}
