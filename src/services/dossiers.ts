// Dossiers (api-v1 "Dossier", "States and transitions", "Dossiers"; C3, C5, C7, C10).
// HTTP-free: the routes parse and shape; this module checks the rules, writes the change and its
// outbox events in one transaction, and places CVs (src/files/) just before the commit.
import type { Awaitable } from "../awaitable";
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import type { DossierChanges, StageDeadline } from "../db/dossiers";
import type { Answer, ListDossiersQuery as ListQuery } from "../db/dossier-page";
import { invalidBody, notFound } from "../errors";
import type { StagedCv } from "../files";
import { isEmailAddress } from "../schemas/contacts";
import {
  CreateDossier, type Dossier as DossierRecord, type DossierStatus as DossierStatusSchema, type DossierType as DossierTypeSchema, PatchDossier,
} from "../schemas/dossiers";
import { newId } from "../ids";
import { findOrInsertContact, insertContact } from "./contacts";
import { cursorOf, positionOf, type PagedAnswer } from "./cursor";
import { changesOf, recordHistory } from "./history";
import { applyMetadata, metadataFilters, metadataText } from "./metadata";
import { insertPrimaryLink } from "./links";
import { recordEvent } from "./outbox";
import { parseInstant } from "./timestamps";

/** GET /dossiers' filters and paging, `after` as sent (the cursor, issue 38). */
export type ListDossiersQuery = Omit<ListQuery, "after"> & { after?: string };
export type DossierType = Static<typeof DossierTypeSchema>;
export type DossierStatus = Static<typeof DossierStatusSchema>;
/** Every representation of a dossier (C5). */
export type Dossier = Static<typeof DossierRecord>;
export type CreateDossierInput = Static<typeof CreateDossier>;
/** The fields of api-v1's PATCH table; `null` clears the nullable ones (C10). */
export type PatchDossierInput = Static<typeof PatchDossier>;

/** What a PATCH may change: the schema's fields (a field added there is patchable); `metadata`
 * merges rather than replaces (src/services/metadata.ts) and is handled apart. */
const PATCH_FIELDS = (Object.keys(PatchDossier.properties) as (keyof PatchDossierInput)[]).filter((field) => field !== "metadata");
/** The fields a create stores as given (null when left out): every field of the schema but those
 * the rules below set (a field added to the schema and the table is stored with nothing else). */
const RULED_ON_CREATE = new Set(["type", "name", "contact_id", "flow_id", "assigned_to", "metadata"]);
const STORED_AS_GIVEN = Object.keys(CreateDossier.properties).filter((field) => !RULED_ON_CREATE.has(field)) as (keyof CreateDossierInput)[];

/** What a `created` history item lists (C18), the primary link's contact_id included. */
const CREATED_FIELDS = [
  "type", "flow_id", "current_stage_id", "status", "contact_id", ...PATCH_FIELDS.filter((f) => f !== "status" && f !== "current_stage_id"), "cv_url",
] as const satisfies readonly (keyof Dossier)[];

const SALES_ONLY = ["contact_person", "deal_size", "deal_currency"] as const;
const SHORT_TEXT = ["email", "phone", "company", "role", "contact_person"] as const;
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const DAY_MS = 86_400_000;

/** Length in Unicode code points (C10). */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The text, number and sales-only rules of C3 on the fields present in `input` (not null). */
function checkFields(fields: object, type: DossierType) {
  const input = fields as Record<string, unknown>;
  if (input.name !== undefined) {
    const length = codePoints((input.name as string).trim());
    if (length < 1 || length > 200) throw invalidBody("name: must be 1 to 200 characters after trimming");
  }
  for (const field of SHORT_TEXT) {
    const value = input[field];
    if (typeof value === "string" && codePoints(value) > 200) throw invalidBody(`${field}: must be at most 200 characters`);
  }
  if (typeof input.email === "string" && !isEmailAddress(input.email)) throw invalidBody("email: must be an email address");
  if (typeof input.intake_notes === "string" && codePoints(input.intake_notes) > 20_000) {
    throw invalidBody("intake_notes: must be at most 20000 characters");
  }
  if (typeof input.deal_size === "number" && !(Number.isFinite(input.deal_size) && input.deal_size >= 0)) {
    throw invalidBody("deal_size: must be a finite number >= 0");
  }
  if (typeof input.deal_currency === "string" && !CURRENCIES.has(input.deal_currency)) {
    throw invalidBody("deal_currency: must be an upper-case ISO 4217 currency code");
  }
  if (type === "candidate") {
    for (const field of SALES_ONLY) {
      if (input[field] !== undefined && input[field] !== null) throw invalidBody(`${field}: sales-only field, not allowed on a candidate dossier`);
    }
  }
}

export const getDossier = (ctx: Context, organizationId: string, id: string): Awaitable<Dossier | null> => ctx.store.dossiers.byId(organizationId, id);

/** The dossier as GET /dossiers/{id} shows it: the same as getDossier, remembered (frozen) while
 * nothing is committed, unless DOSSIER_CACHE=off. */
export const showDossier = (ctx: Context, organizationId: string, id: string): Awaitable<Dossier | null> =>
  ctx.store.dossiers.shown(organizationId, id, { remember: ctx.config.cache });

async function mustGet(ctx: Context, organizationId: string, id: string): Promise<Dossier> {
  const dossier = await getDossier(ctx, organizationId, id);
  if (!dossier) throw notFound("dossier not found");
  return dossier;
}

/** The list's `metadata[key]=value` filters checked (issue 38); undefined when none. */
const withMetadata = <Q extends Pick<ListQuery, "metadata">>(query: Q): Q =>
  query.metadata === undefined ? query : { ...query, metadata: metadataFilters(query.metadata) };

/** Only `overdue` compares with the clock; the other filters need no timestamp. */
const clockFor = (ctx: Context, query: ListQuery) => (query.overdue === undefined ? "" : ctx.now().toISOString());

/** C17's updated_since as stored timestamps are written (a bad one: 400), the metadata filters
 * (issue 38) and the cursor's position (a bad one: 400). */
function checked({ after, ...query }: ListDossiersQuery): ListQuery {
  const since = withMetadata(query.updatedSince === undefined ? query : { ...query, updatedSince: parseInstant("updated_since", query.updatedSince) });
  return after === undefined ? since : { ...since, after: positionOf("dossiers", after) };
}

/** GET /dossiers: C5's filters and C17's updated_since, newest first (created_at desc, id desc), C3
 * paging or a cursor page (`after`), exact total. */
export async function listDossiers(ctx: Context, organizationId: string, raw: ListDossiersQuery): Promise<PagedAnswer<Dossier>> {
  const query = checked(raw);
  const now = clockFor(ctx, query);
  const { data, total, next } = await ctx.store.read(() => ctx.store.dossiers.page(organizationId, query, now, { remember: ctx.config.cache }));
  return { data, total, next_after: next && cursorOf("dossiers", next) };
}

/** The same list as the route answers it: `json` is the page's array as JSON text, the same text
 * as JSON.stringify(listDossiers(...).data), remembered while the organization's dossiers are
 * unchanged (DOSSIER_CACHE). */
export function listDossiersJson(ctx: Context, organizationId: string, raw: ListDossiersQuery): Awaitable<Answer> {
  const query = checked(raw);
  const now = clockFor(ctx, query);
  return ctx.store.read(() => ctx.store.dossiers.pageJson(organizationId, query, now, { remember: ctx.config.cache }));
}

function dueAt(enteredAt: string, deadlineDays: number | null): string | null {
  return deadlineDays === null ? null : new Date(Date.parse(enteredAt) + deadlineDays * DAY_MS).toISOString();
}

/** C10: `null` for an optional field on create is the same as leaving it out. */
function dropNulls<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as T;
}

/**
 * POST /dossiers (C4, C5): into the first stage of the given or default flow, linked as primary to
 * the given contact, the contact with the same email, or a new contact; with an optional CV. All
 * of it, the `dossier.created` event and the CV's placing happen in one transaction; a failure
 * leaves no row and no file.
 */
export async function createDossier(ctx: Context, organizationId: string, raw: CreateDossierInput, cv?: Uint8Array): Promise<Dossier> {
  checkFields(dropNulls(raw), raw.type); // before a CV is staged for a request that fails anyway
  applyMetadata({}, raw.metadata, { create: true });
  const id = newId();
  const staged: StagedCv | null = cv ? await ctx.files.stageCv(organizationId, id, cv, true) : null;
  let created: Dossier;
  try {
    created = await ctx.store.write(() => writeNewDossier(ctx, organizationId, raw, id, staged));
  } catch (error) {
    await staged?.discard();
    throw error;
  }
  await staged?.committed();
  return created;
}

/** createDossier's unit of work (for a caller that makes several in one). */
export async function writeNewDossier(
  ctx: Context,
  organizationId: string,
  raw: CreateDossierInput,
  id = newId(),
  staged: StagedCv | null = null,
  /** A stage of the flow to begin in instead of its first (a CSV import's `stage` column, C21). */
  stageId?: string,
): Promise<Dossier> {
  const rows = ctx.store.dossiers;
  const input = dropNulls(raw);
  checkFields(input, input.type);
  const metadata = applyMetadata({}, input.metadata, { create: true });
  const flow = input.flow_id ? (await rows.flow(organizationId, input.flow_id.toLowerCase())) : (await rows.defaultFlow(organizationId, input.type));
  if (!flow) {
    if (input.flow_id) throw notFound("flow_id: flow not found");
    throw invalidBody(`flow_id: the organization has no default ${input.type} flow; give flow_id`);
  }
  if (flow.type !== input.type) throw invalidBody(`flow_id: the flow is a ${flow.type} flow, the dossier a ${input.type} dossier`);
  let contactId: string | null = null;
  if (input.contact_id) {
    contactId = input.contact_id.toLowerCase();
    if (!(await rows.contactExists(organizationId, contactId))) throw notFound("contact_id: contact not found");
  }
  const stage = stageId === undefined ? (await rows.firstStage(organizationId, flow.id)) : (await rows.stageOfFlow(organizationId, flow.id, stageId));
  if (stageId !== undefined && !stage) throw invalidBody("stage: not a stage of the dossier's flow");
  const now = ctx.now().toISOString();
  const name = input.name.trim();
  // The contact first, so that the dossier's INSERT carries its contact_id (C5: the primary's).
  if (!contactId) {
    const made = {
      full_name: name,
      phone: input.phone ?? null,
      company: input.company ?? null,
      role: input.role ?? null,
      kind: [input.type === "candidate" ? "candidate" : "prospect"],
    };
    contactId = (input.email
      ? await findOrInsertContact(ctx, organizationId, { ...made, email: input.email })
      : await insertContact(ctx, organizationId, { ...made, email: null })).id;
  }
  // The row as stored is the event's and the answer's Dossier, without reading it again.
  const given = Object.fromEntries(STORED_AS_GIVEN.map((field) => [field, input[field] ?? null])) as Pick<Dossier, (typeof STORED_AS_GIVEN)[number] & keyof Dossier>;
  const dossier = await rows.insert({
    ...given,
    id, organization_id: organizationId, flow_id: flow.id, type: input.type, name, status: "active",
    current_stage_id: stage?.id ?? null, assigned_to: input.assigned_to?.toLowerCase() ?? null, cv_url: staged?.url ?? null,
    contact_id: contactId, stage_entered_at: stage ? now : null, stage_due_at: stage ? dueAt(now, stage.deadline_days) : null,
    created_at: now, updated_at: now, metadata,
  });
  await insertPrimaryLink(ctx, organizationId, id, contactId);
  const eventId = await recordEvent(ctx, organizationId, "dossier.created", dossier);
  const created = changesOf({} as Dossier, dossier, CREATED_FIELDS);
  if (Object.keys(metadata).length > 0) created.metadata = [null, metadata];
  await recordHistory(ctx, organizationId, id, "created", created);
  await staged?.place(eventId); // last: the commit follows
  return dossier;
}

/**
 * PATCH /dossiers/{id} (C5, C7, C10): only the fields whose value changes count. Nothing changed:
 * the dossier as it is, no event, `updated_at` kept. A new stage emits `dossier.stage_changed`,
 * then `dossier.updated` with `previous_attributes` (the changed fields' old values).
 */
export const updateDossier = (ctx: Context, organizationId: string, id: string, patch: PatchDossierInput): Promise<Dossier> =>
  ctx.store.write(() => writeDossierPatch(ctx, organizationId, id, patch));

/** updateDossier's unit of work. */
export async function writeDossierPatch(ctx: Context, organizationId: string, id: string, patch: PatchDossierInput): Promise<Dossier> {
  const before = await mustGet(ctx, organizationId, id);
  checkFields(patch, before.type);
  const next: DossierChanges = {};
  for (const field of PATCH_FIELDS) {
    if (patch[field] === undefined) continue;
    let value = patch[field];
    if (field === "name") value = (value as string).trim();
    if ((field === "assigned_to" || field === "current_stage_id") && typeof value === "string") value = value.toLowerCase();
    if (value !== before[field]) (next as Record<string, unknown>)[field] = value;
  }
  const metadata = applyMetadata(before.metadata, patch.metadata, { create: false });
  if (metadataText(metadata) !== metadataText(before.metadata)) next.metadata = metadata;
  let stage: StageDeadline | null = null;
  if (typeof next.current_stage_id === "string") {
    stage = await ctx.store.dossiers.stageOfFlow(organizationId, before.flow_id ?? "", next.current_stage_id);
    if (!stage) throw invalidBody("current_stage_id: the stage does not belong to the dossier's flow");
  }
  const changed = Object.keys(next) as (keyof PatchDossierInput)[];
  if (changed.length === 0) return before;
  const now = ctx.now().toISOString();
  const set: DossierChanges = { ...next, updated_at: now };
  const stageChanged = "current_stage_id" in next;
  if (stageChanged) {
    set.stage_entered_at = stage ? now : null;
    set.stage_due_at = stage ? dueAt(now, stage.deadline_days) : null;
  }
  await ctx.store.dossiers.update(organizationId, id, set);
  const after = await mustGet(ctx, organizationId, id);
  if (stageChanged) {
    await recordEvent(ctx, organizationId, "dossier.stage_changed", {
      id,
      current_stage_id: after.current_stage_id,
      previous_stage_id: before.current_stage_id,
      status: after.status,
    });
  }
  const previous = Object.fromEntries(changed.map((field) => [field, before[field]]));
  await recordEvent(ctx, organizationId, "dossier.updated", after, { previous_attributes: previous });
  if (stageChanged) await recordHistory(ctx, organizationId, id, "stage_changed", changesOf(before, after, ["current_stage_id"]));
  const others = changed.filter((field) => field !== "current_stage_id");
  if (others.length > 0) await recordHistory(ctx, organizationId, id, "updated", changesOf(before, after, others));
  return after;
}

/** DELETE /dossiers/{id}: archives and keeps the data; `dossier.deleted` only, and nothing at all
 * when the dossier is archived already (C5, C10). */
export const archiveDossier = (ctx: Context, organizationId: string, id: string): Promise<{ id: string; status: "archived" }> =>
  ctx.store.write(() => writeArchive(ctx, organizationId, id));

/** archiveDossier's unit of work. */
export async function writeArchive(ctx: Context, organizationId: string, id: string): Promise<{ id: string; status: "archived" }> {
  const before = await mustGet(ctx, organizationId, id);
  if (before.status !== "archived") {
    await ctx.store.dossiers.update(organizationId, id, { status: "archived", updated_at: ctx.now().toISOString() });
    await recordEvent(ctx, organizationId, "dossier.deleted", await mustGet(ctx, organizationId, id));
    await recordHistory(ctx, organizationId, id, "archived", { status: [before.status, "archived"] });
  }
  return { id, status: "archived" as const };
}

/** POST /dossiers/{id}/cv (C5): the new file replaces the old one; `dossier.updated` with
 * `previous_attributes: { cv_url: <old value> }`. Archived dossiers take CVs too (C10). */
export async function attachCv(ctx: Context, organizationId: string, id: string, bytes: Uint8Array): Promise<Dossier> {
  await mustGet(ctx, organizationId, id);
  const staged = await ctx.files.stageCv(organizationId, id, bytes, false);
  let updated: Dossier;
  try {
    updated = await ctx.store.write(async () => {
      const before = await mustGet(ctx, organizationId, id);
      await ctx.store.dossiers.update(organizationId, id, { cv_url: staged.url, updated_at: ctx.now().toISOString() });
      const after = await mustGet(ctx, organizationId, id);
      const eventId = await recordEvent(ctx, organizationId, "dossier.updated", after, { previous_attributes: { cv_url: before.cv_url } });
      await recordHistory(ctx, organizationId, id, "cv_attached", { cv_url: [before.cv_url, after.cv_url] });
      // Last, the commit follows. Over an existing CV, the old file is kept aside until the
      // transaction has ended: a failed commit puts it back (C5, C7, C19), see src/files/.
      await staged.place(eventId);
      return after;
    });
  } catch (error) {
    await staged.discard();
    throw error;
  }
  await staged.committed();
  return updated;
}

/** Where a dossier's CV lies (its cv_url), or null without a dossier or a CV. */
export const cvOf = (ctx: Context, organizationId: string, id: string): Awaitable<string | null> => ctx.store.dossiers.cvUrl(organizationId, id);
