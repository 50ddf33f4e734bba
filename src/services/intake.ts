// Dossiers by email (C15): each flow's intake address, and what a message sent to it becomes. The
// SMTP listener (src/intake/smtp.ts) and POST /intake/{token} both end here, with the message
// already read by src/intake/message.ts.
import { asActor } from "../actor";
import type { Context } from "../context";
import type { StagedCv } from "../files";
import { newId } from "../ids";
import type { Application } from "../intake/message";
import { seal, unseal } from "../secrets";
import type { IntakeTarget } from "../db/intake";
import { writeNewDossier } from "./dossiers";
import { hashKey } from "./keys";

export type { IntakeTarget };

/** C15: the same Message-ID on the same flow within 7 days creates nothing new. */
const DEDUPE_MS = 7 * 86_400_000;
const TOKEN_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** Lower-case letters and digits only: some mail systems fold the case of local parts. 26 of them
 * carry 134 bits. */
const TOKEN_LENGTH = 26;

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_LENGTH * 2));
  let token = "";
  // Rejection sampling keeps every character equally likely (252 = 7 × 36).
  for (const byte of bytes) {
    if (byte < 252) token += TOKEN_ALPHABET[byte % 36];
    if (token.length === TOKEN_LENGTH) return token;
  }
  return token + newToken().slice(token.length);
}

const addressOf = (ctx: Context, token: string) => ({ address: `${token}@${ctx.config.intakeDomain}` });

/** A new address for the flow, inside the unit that creates (or rotates) it: every flow gets one
 * when it is made (insertFlow), so that reading an address never writes. */
export async function writeIntakeAddress(ctx: Context, organizationId: string, flowId: string): Promise<string> {
  const token = newToken();
  await ctx.store.intake.setAddress({
    organization_id: organizationId,
    flow_id: flowId,
    token_hash: hashKey(token),
    token_sealed: seal(ctx.masterKey, token),
    created_at: ctx.now().toISOString(),
  });
  return token;
}

/** GET /flows/{id}/intake: the flow's address. Null: no such flow. A flow made before addresses
 * existed gets one at the server's start (`giveFlowsAddresses`); one whose sealed copy no longer
 * opens (the master key was lost and a new one made) gets a new address, which the log says. */
export async function intakeAddress(ctx: Context, organizationId: string, flowId: string): Promise<{ address: string } | null> {
  const found = await ctx.store.read(async () => ((await ctx.store.flows.exists(organizationId, flowId)) ? (await ctx.store.intake.address(organizationId, flowId)) : undefined));
  if (found === undefined) return null;
  if (found) {
    try {
      return addressOf(ctx, unseal(ctx.masterKey, found.token_sealed));
    } catch {
      ctx.logger.log("warn", "an intake address could not be unsealed with the master key: the flow gets a new address", { flow_id: flowId });
    }
  }
  return rotateIntakeAddress(ctx, organizationId, flowId);
}

/** POST /flows/{id}/intake/rotate: a new address; the old one stops working at once. Null: no
 * such flow. */
export async function rotateIntakeAddress(ctx: Context, organizationId: string, flowId: string): Promise<{ address: string } | null> {
  const token = await ctx.store.write(async () => ((await ctx.store.flows.exists(organizationId, flowId)) ? (await writeIntakeAddress(ctx, organizationId, flowId)) : null));
  return token === null ? null : addressOf(ctx, token);
}

/** At the server's start: an address for every flow that has none (flows made before intake
 * existed). Returns how many were made. */
export async function giveFlowsAddresses(ctx: Context): Promise<number> {
  return ctx.store.write(async () => {
    const missing = await ctx.store.intake.flowsWithoutAddress();
    for (const flow of missing) await writeIntakeAddress(ctx, flow.organization_id, flow.id);
    return missing.length;
  });
}

/** Where mail to `token` goes, or null for an unknown token. */
export async function intakeTarget(ctx: Context, token: string): Promise<IntakeTarget | null> {
  // A token is lower-case letters and digits; anything else is unknown without a look-up.
  if (!/^[a-z0-9]{20,64}$/i.test(token)) return null;
  return await ctx.store.intake.target(hashKey(token.toLowerCase()));
}

/** What became of a message: its dossier, and whether this delivery made it. */
export interface Taken {
  id: string;
  created: boolean;
}

/** Whose an Idempotency-Key sent to POST /intake/{token} is (C20): the token's, named by its hash
 * as the token is stored, so that the secret is written nowhere in clear. */
export const intakePrincipal = (token: string) => `intake:${hashKey(token.toLowerCase())}`;

/** The application becomes a dossier of the flow's type in its first stage, linked to a contact as
 * POST /dossiers does, with its CV; `dossier.created` is recorded. The same Message-ID within 7
 * days gives the first dossier's id and creates nothing (`created: false`). Resolves once durable.
 * `remember` runs last in the unit, with its outcome: what must be durable with it (the answer to
 * an Idempotency-Key) is written there. */
export async function takeIn(ctx: Context, target: IntakeTarget, application: Application, remember?: (taken: Taken) => Promise<void>): Promise<Taken> {
  const id = newId();
  const staged: StagedCv | null = application.cv ? await ctx.files.stageCv(target.organization_id, id, application.cv, true) : null;
  let result: Taken;
  try {
    const sender = { type: "email" as const, id: application.from, name: application.name };
    result = await asActor(sender, () => ctx.store.write(async () => {
      const taken = await writeTakeIn(ctx, target, application, id, staged);
      await remember?.(taken);
      return taken;
    }));
  } catch (error) {
    await staged?.discard();
    throw error;
  }
  if (result.created) await staged?.committed();
  else await staged?.discard();
  return result;
}

/** The unit of takeIn: the dossier, or the one this Message-ID already made. */
async function writeTakeIn(ctx: Context, target: IntakeTarget, application: Application, id: string, staged: StagedCv | null): Promise<Taken> {
  const now = ctx.now();
  const messageId = application.messageId;
  if (messageId) {
    await ctx.store.intake.holdMessage(target.organization_id, target.flow_id, messageId);
    const since = new Date(now.getTime() - DEDUPE_MS).toISOString();
    const previous = await ctx.store.intake.previous(target.organization_id, target.flow_id, messageId, since);
    if (previous) return { id: previous, created: false };
  }
  await writeNewDossier(
    ctx,
    target.organization_id,
    { type: target.flow_type, flow_id: target.flow_id, name: application.name, email: application.email, intake_notes: application.intake_notes || null },
    id,
    staged,
  );
  if (messageId) {
    await ctx.store.intake.record({ organization_id: target.organization_id, flow_id: target.flow_id, message_id: messageId, dossier_id: id, received_at: now.toISOString() });
  }
  return { id, created: true };
}
