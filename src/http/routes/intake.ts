// Email intake over HTTP (C15, C20):
//   GET  /flows/:id/intake          the flow's address (made with the flow)       flows:write
//   POST /flows/:id/intake/rotate   a new address; the old one stops at once      flows:write
//   POST /intake/:token             a raw message (message/rfc822) → a dossier    the token
// The last takes no API key: the token in the path is the principal. Its checks, in C20's order:
// an unknown token 404 (before the body is read), the plan 402 (not counted), the token's own
// limit 429 (apart from the organization's API budget: no X-RateLimit headers), then the body:
// 415 for another type, 413 over 25 MB, 400 for a message that cannot be read.
import { Elysia } from "elysia";
import type { Context } from "../../context";
import { ApiError, invalidBody, notFound } from "../../errors";
import type { IntakeDesk } from "../../intake/desk";
import { MESSAGE_LIMIT, UnreadableMessage } from "../../intake/message";
import { One } from "../../schemas/common";
import { IntakeAddress, IntakeReceipt, RawMessage } from "../../schemas/intake";
import { intakeAddress, rotateIntakeAddress } from "../../services/intake";
import { operation } from "../openapi-doc";
import { one, readBytes } from "../request";
import { defineRoute } from "../route";

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

export const intakeReceiver = (ctx: Context, desk: IntakeDesk) =>
  new Elysia().post(
    "/intake/:token",
    async ({ request, params, set }) => {
      const { target } = desk.admit(params.token);
      const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
      if (type !== "message/rfc822") throw new ApiError("unsupported_media_type", "send the raw message with Content-Type: message/rfc822");
      const raw = await readBytes(request, MESSAGE_LIMIT, tooLarge);
      let taken;
      try {
        [taken] = await desk.receive([target], raw);
      } catch (error) {
        if (error instanceof UnreadableMessage) {
          ctx.logger.log("warn", "an email could not be read and was refused", { error: error.message });
          throw invalidBody(error.message);
        }
        throw error;
      }
      set.status = taken.created ? 201 : 200;
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
      }),
    },
  );
