// The organization's webhook endpoint and its secrets (C2 `webhook set|rotate-secret|unset`, C7).
// Secrets are stored sealed under the data folder's master key (docs/security.md); only the
// dispatcher unseals them, to sign.
import type { Context } from "../context";
import { randomAlphanumeric } from "../ids";
import { seal } from "../secrets";

export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const newSecret = () => "whsec_" + randomAlphanumeric(32);

export async function setEndpoint(ctx: Context, organizationId: string, url: string): Promise<{ url: string; secret: string }> {
  const secret = newSecret();
  const sealed = seal(ctx.masterKey, secret);
  const at = ctx.now().toISOString();
  await ctx.store.write(() => ctx.store.webhooks.upsert({ organizationId, url, secret: sealed, at }));
  return { url, secret };
}

/** Null when the organization has no endpoint. */
export function rotateSecret(ctx: Context, organizationId: string): Promise<{ secret: string } | null> {
  const { webhooks } = ctx.store;
  return ctx.store.write(() => {
    const current = webhooks.sealedSecret(organizationId);
    if (current === null) return null;
    const secret = newSecret();
    const now = ctx.now();
    webhooks.rotate(organizationId, {
      secret: seal(ctx.masterKey, secret),
      previousSecret: current,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      at: now.toISOString(),
    });
    return { secret };
  });
}

export async function unsetEndpoint(ctx: Context, organizationId: string): Promise<{ url: null }> {
  await ctx.store.write(() => {
    ctx.store.webhooks.remove(organizationId);
    // Nothing pending is delivered once the endpoint is gone; nothing skipped is revived (C10).
    ctx.store.outbox.skipPending(organizationId);
  });
  return { url: null };
}
