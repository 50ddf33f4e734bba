// The organization's webhook endpoint and its secrets (C2 `webhook set|rotate-secret|unset`, C7).
// Secrets are stored sealed under the data folder's master key (docs/security.md); only the
// dispatcher unseals them, to sign.
import type { Context } from "../context";
import { invalidBody, notFound } from "../errors";
import { randomAlphanumeric } from "../ids";
import { seal } from "../secrets";
import { refusedWebhookUrl } from "../webhooks/send";

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
  return ctx.store.write(async () => {
    const current = await webhooks.sealedSecret(organizationId);
    if (current === null) return null;
    const secret = newSecret();
    const now = ctx.now();
    await webhooks.rotate(organizationId, {
      secret: seal(ctx.masterKey, secret),
      previousSecret: current,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      at: now.toISOString(),
    });
    return { secret };
  });
}

export async function unsetEndpoint(ctx: Context, organizationId: string): Promise<{ url: null }> {
  await ctx.store.write(async () => {
    await ctx.store.webhooks.remove(organizationId);
    // Nothing pending is delivered once the endpoint is gone; nothing skipped is revived (C10).
    await ctx.store.outbox.skipPending(organizationId);
  });
  return { url: null };
}

/** DOSSIER_WEBHOOK_ALLOW_PRIVATE (C20): whether webhooks may reach loopback and private addresses
 * (default yes). */
export const allowsPrivate = (ctx: Context): boolean => ctx.config.webhookAllowPrivate;

/** GET /webhook-endpoint (C13): `{url, enabled}`; not_found when none is set. */
export async function getEndpoint(ctx: Context, organizationId: string): Promise<{ url: string; enabled: boolean }> {
  const endpoint = await ctx.store.webhooks.endpoint(organizationId);
  if (!endpoint) throw notFound("no webhook endpoint is set");
  return { url: endpoint.url, enabled: endpoint.disabled_at === null };
}

/** PUT /webhook-endpoint (C13, C20): `webhook set` for a URL that may be used: http or https, not
 * resolving to a refused address (src/webhooks/send.ts checks again at each attempt). */
export async function putEndpoint(ctx: Context, organizationId: string, url: string): Promise<{ url: string; enabled: true; secret: string }> {
  const refusal = await refusedWebhookUrl(url, allowsPrivate(ctx));
  if (refusal) throw invalidBody(refusal);
  const set = await setEndpoint(ctx, organizationId, url);
  return { url: set.url, enabled: true, secret: set.secret };
}

/** POST /webhook-endpoint/rotate-secret: not_found when no endpoint is set. */
export async function rotateEndpointSecret(ctx: Context, organizationId: string): Promise<{ secret: string }> {
  const rotated = await rotateSecret(ctx, organizationId);
  if (!rotated) throw notFound("no webhook endpoint is set");
  return rotated;
}

/** DELETE /webhook-endpoint: `webhook unset`, answered as the final state. */
export async function removeEndpoint(ctx: Context, organizationId: string): Promise<{ url: null; enabled: false }> {
  await unsetEndpoint(ctx, organizationId);
  return { url: null, enabled: false };
}
