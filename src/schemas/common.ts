import { FormatRegistry, Type as t, type TSchema } from "@sinclair/typebox";
import { isUuid } from "../ids";

// TypeBox refuses formats it does not know; the shared Uuid and DateTime schemas need these.
if (!FormatRegistry.Has("uuid")) FormatRegistry.Set("uuid", (value) => isUuid(value));
if (!FormatRegistry.Has("date-time")) FormatRegistry.Set("date-time", (value) => !Number.isNaN(Date.parse(value)));

export const Uuid = t.String({ format: "uuid" });
export const DateTime = t.String({ format: "date-time", examples: ["2026-11-22T04:21:26.123Z"] });
export const Nullable = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()]);

export const Meta = t.Object({
  total: t.Integer({ minimum: 0 }),
  page: t.Integer({ minimum: 1 }),
  per_page: t.Integer({ minimum: 0 }),
});

export const ErrorBody = t.Object(
  { error: t.Object({ code: t.String(), message: t.String() }) },
  { examples: [{ error: { code: "not_found", message: "resource not found" } }] },
);

export const One = <T extends TSchema>(schema: T) => t.Object({ data: schema });
export const List = <T extends TSchema>(schema: T) => t.Object({ data: t.Array(schema), meta: Meta });

/** The query parameters of a paginated list (C3). */
export const PagingQuery = {
  page: t.Integer({ minimum: 1, default: 1, description: "1-based page number" }),
  per_page: t.Integer({ minimum: 1, maximum: 100, default: 25 }),
};
