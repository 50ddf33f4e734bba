import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Context } from "../context";
import { closed } from "../schemas/common";
import { requestIdHeaders } from "./openapi-doc";

const Healthy = t.Object({ status: t.Literal("ok") }, { ...closed, examples: [{ status: "ok" }] });
const Unavailable = t.Object(
  { status: t.Union([t.Literal("unavailable"), t.Literal("storage_unavailable")]) },
  { ...closed, examples: [{ status: "unavailable" }, { status: "storage_unavailable" }] },
);

/** GET /healthz: 200 when the database answers, 503 when it does not (C2), or when a write has
 * failed since the start (C11: `storage_unavailable`, until a restart). No key needed; every answer
 * carries X-Request-Id, as on every route (C3, C10). */
export const health = (ctx: Context) =>
  new Elysia({ name: "health" }).get(
    "/healthz",
    async ({ set }) => {
      try {
        await ctx.store.health.ping();
      } catch {
        set.status = 503;
        return { status: "unavailable" as const };
      }
      if (ctx.store.failure !== null) {
        set.status = 503;
        return { status: "storage_unavailable" as const };
      }
      return { status: "ok" as const };
    },
    {
      detail: {
        operationId: "getHealthz",
        summary: "Liveness and database check",
        description: "For load balancers and supervisors: no API key needed, and no organization is counted.",
        tags: ["Operations"],
        security: [],
        responses: {
          200: {
            description: "The service is up and its database answers a query",
            headers: requestIdHeaders(),
            content: { "application/json": { schema: Healthy, example: { status: "ok" } } },
          },
          503: {
            description:
              "`unavailable`: the service is up but its database does not answer (e.g. the file is gone or unreadable). " +
              "`storage_unavailable`: a write to the database failed (disk full, I/O error); the service refuses changes and " +
              "still answers reads until it is restarted (the reason is in its log)",
            headers: requestIdHeaders(),
            content: { "application/json": { schema: Unavailable, example: { status: "unavailable" } } },
          },
        },
      },
    },
  );
