// GET /openapi.json and GET /docs (C2). The reference page's script is embedded in the binary,
// so /docs works on a machine with no internet.
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
// By package specifier (its exports map names ./browser/standalone.js), so that it resolves from a
// hoisted node_modules too when dossier is installed as a dependency (issue 8).
import scalarScript from "@scalar/api-reference/browser/standalone.js" with { type: "text" };

export const SCALAR_PATH = "/docs/assets/scalar.js";

export const docs = (version: string) =>
  new Elysia({ name: "docs" })
    .get(SCALAR_PATH, () => new Response(scalarScript, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" } }), {
      detail: { hide: true },
    })
    .use(
      openapi({
        path: "/docs",
        specPath: "/openapi.json",
        exclude: { paths: [SCALAR_PATH, "/docs", "/openapi.json"] },
        scalar: { cdn: SCALAR_PATH } as never,
        documentation: {
          openapi: "3.1.0",
          info: {
            title: "Dossier API",
            version,
            description: "Pipeline and contact management: dossiers, flows, notes, contacts and signed webhooks. Every path is under /api/v1.",
          },
          components: {
            securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API key: svc_live_ followed by 32 letters and digits." } },
          },
        },
      }),
    );
