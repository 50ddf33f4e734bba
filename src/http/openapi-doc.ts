// Each route's OpenAPI operation, built from the same TypeBox schemas that validate and shape it.
import type { TSchema } from "@sinclair/typebox";
import type { DocumentDecoration } from "elysia";
import { STATUS_OF, type ErrorCode } from "../errors";
import type { Scope } from "../services/keys";
import { ErrorBody } from "../schemas/common";

// Failures any authenticated route can give (C3's order of checks).
const AUTH_ERRORS: ErrorCode[] = ["unauthorized", "plan_required", "rate_limited", "forbidden", "internal"];

export interface OperationDoc {
  summary: string;
  tag: string;
  scopes: Scope[];
  /** Query parameters, all optional; an array schema is a parameter that may repeat. */
  query?: Record<string, TSchema>;
  body?: TSchema;
  /** Other request bodies by media type, e.g. multipart/form-data. */
  bodies?: Record<string, TSchema>;
  responses: Record<number, TSchema>;
  errors?: ErrorCode[];
  description?: string;
}

export function operation(doc: OperationDoc): DocumentDecoration {
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(doc.responses)) {
    responses[status] = { description: Number(status) === 201 ? "Created" : "OK", content: { "application/json": { schema } } };
  }
  for (const code of [...AUTH_ERRORS, ...(doc.errors ?? [])]) {
    const status = String(STATUS_OF[code]);
    const existing = responses[status] as { description: string } | undefined;
    responses[status] = {
      description: existing ? `${existing.description}, ${code}` : code,
      content: { "application/json": { schema: ErrorBody } },
      ...(code === "rate_limited" ? { headers: { "Retry-After": { schema: { type: "integer" } } } } : {}),
    };
  }
  const content: Record<string, { schema: TSchema }> = {};
  if (doc.body) content["application/json"] = { schema: doc.body };
  for (const [type, schema] of Object.entries(doc.bodies ?? {})) content[type] = { schema };
  return {
    summary: doc.summary,
    tags: [doc.tag],
    description: [doc.description, `Required scopes: ${doc.scopes.map((s) => `\`${s}\``).join(", ")}.`].filter(Boolean).join("\n\n"),
    security: [{ bearerAuth: [] }],
    "x-scopes": doc.scopes,
    ...(doc.query
      ? {
          parameters: Object.entries(doc.query).map(([name, schema]) => ({
            name,
            in: "query",
            required: false,
            schema,
            ...(schema.type === "array" ? { style: "form", explode: true } : {}),
          })),
        }
      : {}),
    ...(Object.keys(content).length > 0 ? { requestBody: { required: true, content } } : {}),
    responses,
  } as DocumentDecoration;
}
