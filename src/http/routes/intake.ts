// Email intake over HTTP (C15, C20):
//   GET  /flows/:id/intake          the flow's address (made with the flow)       flows:write
//   POST /flows/:id/intake/rotate   a new address; the old one stops at once      flows:write
//   POST /intake/:token             a raw message (message/rfc822) → a dossier    the token
// The last takes no API key: the token in the path is the principal. Its checks, in C20's order:
// an unknown token 404 (before the body is read), the plan 402 (not counted), the token's own
// limit 429 (apart from the organization's API budget: no X-RateLimit headers), then the body:
// 415 for another type, 413 over 25 MB, 400 for a message that cannot be read. Idempotency-Key as
// on the other POSTs (C16), the token being the principal; a malformed key's 400 comes after 429.
import { Elysia } from "elysia";
import type { Context } from "../../context";
import { ApiError, invalidBody, notFound } from "../../errors";
import type { Admitted, IntakeDesk } from "../../intake/desk";
import { MESSAGE_LIMIT, UnreadableMessage } from "../../intake/message";
import { One } from "../../schemas/common";
import { IntakeAddress, IntakeReceipt, RawMessage } from "../../schemas/intake";
import { intakeAddress, intakePrincipal, rotateIntakeAddress, type IntakeTarget, type Taken } from "../../services/intake";
import { fingerprint, Idempotency, idempotencyKey, KeyAnsweredElsewhere, malformedKey, replay, type Answer as StoredAnswer } from "../idempotency";
import { operation } from "../openapi-doc";
import { one, readBytes } from "../request";
import { defineRoute, type Reply } from "../route";

export const flowIntakeRoutes = [
  defineRoute({
    id: "getFlowIntake",
    method: "GET",
    path: "/flows/:id/intake",
    summary: "The flow's intake address",
    tag: "Flows",
    description: "Mail sent to this address becomes a dossier of the flow (docs/email-intake.md). Every flow has one from its creation; the same until rotated.",
    scopes: ["flows:write"],
    params: { id: "The flow's id" },
    responses: { 200: { schema: One(IntakeAddress), description: "The flow's intake address" } },
    handler: async ({ ctx, principal, params }) => {
      const address = await intakeAddress(ctx, principal.organizationId, params.id);
      if (!address) throw notFound("flow not found");
      return one(address);
    },
  }),
  defineRoute({
    id: "rotateFlowIntake",
    method: "POST",
    path: "/flows/:id/intake/rotate",
    summary: "Give the flow a new intake address",
    tag: "Flows",
    description: "The old address stops working at once: mail to it is refused (550 5.1.1 over SMTP, 404 over HTTP).",
    scopes: ["flows:write"],
    params: { id: "The flow's id" },
    responses: { 200: { schema: One(IntakeAddress), description: "The flow's new intake address" } },
    handler: async ({ ctx, principal, params }) => {
      const address = await rotateIntakeAddress(ctx, principal.organizationId, params.id);
      if (!address) throw notFound("flow not found");
      return one(address);
    },
  }),
];

const tooLarge = () => new ApiError("payload_too_large", "the message is larger than 25 MB (26,214,400 bytes)");
const JSON_TYPE = "application/json;charset=utf-8";

/** A new dossier's URL: the Location of a 201 (issue 38). */
const locationOf = (taken: Taken) => (taken.created ? `/api/v1/dossiers/${taken.id}` : null);

/** The answer to a message taken in, as an Idempotency-Key stores it. */
const answerOf = (taken: Taken): StoredAnswer => ({
  status: taken.created ? 201 : 200,
  content_type: JSON_TYPE,
  location: locationOf(taken),
  body: JSON.stringify(one({ id: taken.id })),
});

export const intakeReceiver = (ctx: Context, desk: IntakeDesk) => {
  /** 415 for another type; then the message (`bytes`: 413 over 25 MB) becomes a dossier (400 when
   * it cannot be read). `remember` runs in the unit that makes it. */
  const take = async (request: Request, target: IntakeTarget, bytes: () => Promise<Uint8Array>, remember?: (taken: Taken) => Promise<void>) => {
    const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
    if (type !== "message/rfc822") throw new ApiError("unsupported_media_type", "send the raw message with Content-Type: message/rfc822");
    const raw = await bytes();
    try {
      const [taken] = await desk.receive([target], raw, remember);
      return taken;
    } catch (error) {
      if (error instanceof UnreadableMessage) {
        ctx.logger.log("warn", "an email could not be read and was refused", { error: error.message });
        // The message, not a field of a request, is at fault.
        throw invalidBody(error.message, null);
      }
      throw error;
    }
  };

  /** With an Idempotency-Key (C16, C20), the token being the principal: a repeat gets the stored
   * answer, another request with the key 422, one while the first runs 409; the first answer is
   * stored in the unit that makes the dossier. The path is kept without the token, a secret. */
  const once = async (request: Request, admitted: Admitted, key: string, set: Reply): Promise<Taken | Response> => {
    const keyed = new Idempotency(ctx, { organizationId: admitted.target.organization_id, principalId: intakePrincipal(admitted.token), key });
    keyed.begin();
    try {
      const bytes = await readBytes(request, MESSAGE_LIMIT, tooLarge);
      const stored = await keyed.stored({ ...fingerprint(request, bytes), path: `/api/v1/intake/{token}${new URL(request.url).search}` });
      if (stored) return replay(stored, set.headers);
      try {
        return await take(request, admitted.target, async () => bytes, (taken) => keyed.writeAnswer(answerOf(taken)));
      } catch (error) {
        // Another node took the key's message meanwhile (C19): its answer.
        if (error instanceof KeyAnsweredElsewhere) return replay(await keyed.answeredElsewhere(), set.headers);
        await keyed.writeRefusal(error);
        throw error;
      }
    } finally {
      keyed.end();
    }
  };

  return new Elysia().post(
    "/intake/:token",
    async ({ request, params, set }) => {
      const admitted = await desk.admit(params.token);
      // After the token's 404, 402 and 429 (C20).
      const key = idempotencyKey(request);
      if (key === "malformed") throw malformedKey();
      const taken = key === null ? await take(request, admitted.target, () => readBytes(request, MESSAGE_LIMIT, tooLarge)) : await once(request, admitted, key, set as Reply);
      if (taken instanceof Response) return taken;
      set.status = taken.created ? 201 : 200;
      const location = locationOf(taken);
      if (location !== null) set.headers.location = location;
      return one({ id: taken.id });
    },
    {
      parse: "none",
      detail: operation({
        id: "receiveIntakeMessage",
        summary: "Take in an email as a dossier",
        tag: "Intake",
        auth: "path-token",
        scopes: [],
        description:
          "For mail servers that pipe a message to HTTP, and for tests (docs/email-intake.md). The message becomes a dossier of the flow whose intake address has this token, as over SMTP. The same Message-ID on the flow within 7 days makes nothing new: 200 with the first dossier's id.",
        params: { token: "The intake address's local part" },
        bodies: { "message/rfc822": RawMessage },
        responses: {
          201: { schema: One(IntakeReceipt), description: "The message became a new dossier, stored with its CV" },
          200: { schema: One(IntakeReceipt), description: "The flow took this message in already (same Message-ID within 7 days): the first dossier's id, nothing new" },
        },
        errors: ["not_found", "plan_required", "rate_limited", "unsupported_media_type", "payload_too_large", "invalid_body", "storage_unavailable"],
        idempotent: true,
        location: true,
      }),
    },
  );
};
