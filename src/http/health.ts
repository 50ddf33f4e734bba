import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Context } from "../context";

/** GET /healthz: 200 when the database answers (C2). */
export const health = (ctx: Context) =>
  new Elysia({ name: "health" }).get(
    "/healthz",
    ({ set }) => {
      try {
        ctx.store.sqlite.query("SELECT 1").get();
        return { status: "ok" };
      } catch {
        set.status = 503;
        return { status: "unavailable" };
      }
    },
    { detail: { summary: "Liveness and database check", tags: ["Operations"], responses: { 200: { description: "OK", content: { "application/json": { schema: t.Object({ status: t.Literal("ok") }) } } } } } },
  );
