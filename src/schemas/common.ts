import { FormatRegistry, Type as t, type TArray, type TObject, type TSchema, type TUnsafe } from "@sinclair/typebox";
import { STATUS_OF, type ErrorCode } from "../errors";
import { isUuid } from "../ids";

// TypeBox refuses formats it does not know; the shared Uuid and DateTime schemas need these.
if (!FormatRegistry.Has("uuid")) FormatRegistry.Set("uuid", (value) => isUuid(value));
if (!FormatRegistry.Has("date-time")) FormatRegistry.Set("date-time", (value) => !Number.isNaN(Date.parse(value)));

export const Uuid = t.String({ format: "uuid" });
export const DateTime = t.String({ format: "date-time", description: "ISO 8601 UTC with milliseconds and Z", examples: ["2026-11-22T04:21:26.123Z"] });
export const Nullable = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()]);

/** Response records are closed: a member the document does not name is a lie (test/openapi). */
export const closed = { additionalProperties: false } as const;

export const Meta = t.Object(
  {
    total: t.Integer({ minimum: 0, description: "Number of items across all pages" }),
    page: t.Integer({ minimum: 1 }),
    per_page: t.Integer({ minimum: 0, description: "The page size asked for; on an unpaginated list, the number of items" }),
  },
  { ...closed, examples: [{ total: 1, page: 1, per_page: 25 }] },
);

/** The meta of a list that takes `after` (issue 38): C3's members and the next page's cursor. */
export const PageMeta = t.Object(
  {
    ...Meta.properties,
    page: t.Integer({ minimum: 1, description: "The page number asked for; on a page asked for with `after`, 1 (pages are counted from the cursor)" }),
    total: t.Integer({ minimum: 0, description: "Number of items across all pages (with `after` too: the list's total for its filters)" }),
    next_after: Nullable(
      t.String({
        description:
          "The cursor of the next page: pass it as `after` to read on from the last item of this page, with no item skipped or repeated while others write; null when no item follows",
      }),
    ),
  },
  { ...closed, examples: [{ total: 1, page: 1, per_page: 25, next_after: null }] },
);

/** The error envelope (api-v1 "Errors", C9): every code the API answers. Each operation's answers
 * narrow `code` to the codes of that status (src/http/openapi-doc.ts). */
export const ErrorBody = t.Object(
  {
    error: t.Object(
      {
        code: t.Union(
          (Object.keys(STATUS_OF) as ErrorCode[]).map((code) => t.Literal(code)),
          { description: "Stable, machine-readable" },
        ),
        message: t.String({ minLength: 1, description: "Human readable" }),
        param: t.Optional(
          t.String({
            description:
              "The body field (`name`, `stages[2].color`) or query parameter at fault, when one is: on a 400 invalid_body, on a 404 for an id given in the body (`flow_id`, `contact_id`), on a 409 duplicate_contact or duplicate_member (`email`)",
          }),
        ),
        request_id: t.Optional(
          t.String({ description: "The answer's X-Request-Id (the client's when it sent a safe one): quote it when asking about this answer. Always present in practice" }),
        ),
      },
      closed,
    ),
  },
  { ...closed, examples: [{ error: { code: "not_found", message: "dossier not found" } }] },
);

const firstExample = (schema: TSchema): unknown => (Array.isArray(schema.examples) ? schema.examples[0] : undefined);

// One envelope object per resource schema, so that the OpenAPI document can name each envelope
// once (src/http/openapi-components.ts) and every operation that answers it refers to that name.
const ones = new WeakMap<TSchema, TSchema>();
const lists = new WeakMap<TSchema, TSchema>();
const pages = new WeakMap<TSchema, TSchema>();

/** `{ data: <resource> }` */
export const One = <T extends TSchema>(schema: T) => {
  const made = ones.get(schema);
  if (made) return made as TObject<{ data: T }>;
  const example = firstExample(schema);
  const envelope = t.Object({ data: schema }, { ...closed, ...(example === undefined ? {} : { examples: [{ data: example }] }) });
  ones.set(schema, envelope);
  return envelope;
};

/** `{ data: [<resource>...], meta }` */
export const List = <T extends TSchema>(schema: T) => {
  const made = lists.get(schema);
  if (made) return made as TObject<{ data: TArray<T>; meta: typeof Meta }>;
  const example = firstExample(schema);
  const envelope = t.Object(
    { data: t.Array(schema), meta: Meta },
    { ...closed, ...(example === undefined ? {} : { examples: [{ data: [example], meta: { total: 1, page: 1, per_page: 25 } }] }) },
  );
  lists.set(schema, envelope);
  return envelope;
};

/** `{ data: [<resource>...], meta }` of a list that takes `after`: meta has next_after. */
export const Paged = <T extends TSchema>(schema: T) => {
  const made = pages.get(schema);
  if (made) return made as TObject<{ data: TArray<T>; meta: typeof PageMeta }>;
  const example = firstExample(schema);
  const envelope = t.Object(
    { data: t.Array(schema), meta: PageMeta },
    { ...closed, ...(example === undefined ? {} : { examples: [{ data: [example], meta: { total: 1, page: 1, per_page: 25, next_after: null } }] }) },
  );
  pages.set(schema, envelope);
  return envelope;
};

/** The query parameters of a paginated list (C3). */
export const PagingQuery = {
  page: t.Integer({ minimum: 1, default: 1, description: "1-based page number; a page past the end answers data: [] with the right total" }),
  per_page: t.Integer({ minimum: 1, maximum: 100, default: 25, description: "Page size, 1 to 100" }),
};

/** The query of a paginated list that has no filter. */
export const PageQuery = t.Object(PagingQuery);

/** C3's paging and `after` (issue 38), for the lists a sync reads whole. */
export const CursorPagingQuery = {
  ...PagingQuery,
  after: t.Optional(
    t.String({
      description:
        "For a sync: the previous page's `meta.next_after`. The page after that item in the list's order, filters kept: nothing " +
        "skipped or repeated while others write (a task moves with its due_at). Not with `page` (400); a bad cursor is 400. " +
        "See the introduction, Pagination",
    }),
  ),
};

/** The query of a paginated list that has no filter but takes `after`. */
export const CursorPageQuery = t.Object(CursorPagingQuery);

/** `updated_since` of a list (C17): only rows changed at or after it. */
export const UpdatedSince = t.String({
  format: "date-time",
  description:
    "Only rows whose updated_at is at or after this ISO 8601 timestamp (e.g. 2026-11-22T04:21:26.123Z; an offset's `+` is sent as %2B); " +
    "anything else is 400",
  examples: ["2026-11-22T04:21:26.123Z"],
});

const METADATA_RULES =
  "At most 50 keys; a key 1 to 40 characters, without [ or ]; a value a string of at most 500 characters (code points)";

// The metadata schemas are objects whose `additionalProperties` says the values' type (what the
// document and generated clients want); TypeBox types such an object as `{}`, so each is given its
// static type, a record, by a cast that changes nothing at run time.
type Pairs<V> = TUnsafe<Record<string, V>>;

/** `metadata` in a representation (issue 38): the integrator's own pairs, `{}` when none; keys
 * sorted (src/services/metadata.ts). */
export const Metadata = t.Object(
  {},
  {
    additionalProperties: t.String(),
    maxProperties: 50,
    description: `Your own key/value pairs (e.g. another system's record id); {} when none. ${METADATA_RULES}. Keys are listed sorted (integer-like keys first, as JavaScript orders them)`,
    examples: [{ erp_id: "ACME-0042" }],
  },
) as TSchema as Pairs<string>;

const metadataPairs = (description: string) =>
  t.Object({}, { additionalProperties: Nullable(t.String()), description: `${METADATA_RULES}. ${description}`, examples: [{ erp_id: "ACME-0042" }] }) as TSchema as Pairs<
    string | null
  >;

/** `metadata` on a create: the pairs (a key whose value is null or "" is left out); null or "" is none. */
export const CreateMetadata = t.Union([metadataPairs("A key whose value is null or \"\" is left out"), t.Literal(""), t.Null()], {
  description: "The pairs to keep; null or \"\" is the same as leaving it out",
});

/** `metadata` on a PATCH: the keys sent are merged in, a key set to null or "" is removed; "" removes every key. */
export const PatchMetadata = t.Union([metadataPairs("Merged into the pairs kept: a key set to null or \"\" is removed, the others are set"), t.Literal("")], {
  description: "An object merges (a key set to null or \"\" is removed); \"\" removes every key. null is refused: metadata is never null",
});

/** `?metadata[key]=value` on a list (issue 38): only rows whose metadata has exactly that value
 * under that key; several AND together. */
export const MetadataFilter = t.Object(
  {},
  {
    additionalProperties: t.String(),
    description: "metadata[key]=value: only rows whose metadata holds exactly this value under this key; several filters AND together",
    examples: [{ erp_id: "ACME-0042" }],
  },
) as TSchema as Pairs<string>;
