// CSV imports (C21): a file of contacts or dossiers, mapped column by column to the API's fields,
// each row validated exactly as the API validates one create or update and written by the same
// services, in batches of at most 500 rows a unit of work, with the import's progress recorded in
// the same unit as the batch it closes: after a stop or a crash the job goes on after the last
// committed row, and no row is made twice (round 3 notes, "Resume without doubles"). A bad row is
// refused alone with its reason, inside a savepoint of its own, so nothing of it is half-written
// (new contacts on PostgreSQL: checked first, then the batch's valid rows in one statement that
// leaves out those whose email is taken, so none needs a savepoint: see writeBatch).
// A revert undoes what the import did, row by row, except where a later change touched the record.
//
//   startImport   the checks that refuse the whole file (413, 400), the file kept in the file store
//                 (files/uploads.ts: the files folder, or the bucket where every node finds it), the
//                 import recorded `queued` (the route answers 202)
//   runImport     the job: batch after batch (the app's ImportRunner runs it in the background;
//                 `dossier import` runs it in its own process)
//   revertImport  POST /imports/{id}/revert
import type { Awaitable } from "../awaitable";
import type { Static } from "@sinclair/typebox";
import { asActor, type Actor } from "../actor";
import type { Context } from "../context";
import {
  addBatch, inspectCsv, mapBatch, readCsv, resolveMapping, startCounts, type CsvInspection, type CsvRowError, type ImportCounts, type ImportForm, type Mapping,
} from "../csv";
import type { ImportedRecordRow, ImportRow } from "../db/imports";
import { ApiError, invalidBody, notFound } from "../errors";
import { validate } from "../http/request";
import { metadataUndo, type Metadata } from "./metadata";
import { importPath } from "../files/uploads";
import { pgStoreOf } from "../db/pg/store-of";
import { isUuid, newId } from "../ids";
import { CreateContact, PatchContact } from "../schemas/contacts";
import { CreateDossier, PatchDossier } from "../schemas/dossiers";
import type { Import as ImportSchema } from "../schemas/imports";
import {
  findContactByEmail, getContact, writeContactDeletion, writeContactPatch, writeNewContact, writeNewContacts, type Contact, type ContactInput, type ContactPatch,
} from "./contacts";
import { getDossier, writeArchive, writeDossierPatch, writeNewDossier, type Dossier, type PatchDossierInput } from "./dossiers";
import { offsetOf, pageEnd, positionOf, rowsToRead, type CursorPaging, type PagedAnswer } from "./cursor";
import { withoutEvents } from "./outbox";

export type Import = Static<typeof ImportSchema>;

/** What an import keeps besides its counts: how to read its file and map its rows. */
interface Settings {
  mapping: Mapping;
  flowId: string | null;
  type: "candidate" | "sales" | null;
  inspection: Omit<CsvInspection, "sample">;
}

/** The import as the API shows it. */
export function importOf(row: ImportRow): Import {
  return {
    id: row.id,
    resource: row.resource,
    status: row.status,
    dry_run: row.dryRun,
    mode: row.mode,
    match_on: row.matchOn,
    file_name: row.fileName,
    rows: row.rows,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    skipped: row.skipped,
    failed: row.failed,
    errors: JSON.parse(row.errors) as CsvRowError[],
    created_at: row.createdAt,
    finished_at: row.finishedAt,
    revert: row.revertedAt === null ? null : { undone: row.revertUndone ?? 0, skipped: row.revertSkipped ?? 0, reverted_at: row.revertedAt },
  };
}

// ---------------------------------------------------------------------------------------------
// Starting

/** The job runners of the open apps, by their context's settings (a request's context is a copy of
 * its app's, with the same settings): POST /imports wakes its app's. */
const runners = new WeakMap<object, { wake(): void }>();
export const registerRunner = (ctx: Context, runner: { wake(): void }) => runners.set(ctx.config, runner);
export const unregisterRunner = (ctx: Context) => runners.delete(ctx.config);

/**
 * POST /imports (and `dossier import`): every check that refuses the whole file runs first (size
 * and row count 413; empty, binary, no header, mixed delimiters, the mapping, the flow: 400 or
 * 404), then the file is kept and the import recorded `queued`. Nothing of the file is in the
 * database yet; the job (runImport) takes it from there.
 */
export async function startImport(ctx: Context, organizationId: string, form: ImportForm, actor: Actor | null): Promise<Import> {
  const found = await inspectCsv(form.file);
  const mapping = resolveMapping(form, found.headers);
  if (form.resource === "dossiers" && form.flowId !== undefined) {
    const flow = await ctx.store.dossiers.flow(organizationId, form.flowId.toLowerCase());
    if (!flow) throw notFound("flow_id: flow not found");
    if (form.type !== undefined && flow.type !== form.type) throw invalidBody(`flow_id: the flow is a ${flow.type} flow, the import's type ${form.type}`);
  }
  const { sample: _, ...inspection } = found;
  const settings: Settings = { mapping, flowId: form.flowId?.toLowerCase() ?? null, type: form.type ?? null, inspection };
  const id = newId();
  const file = importPath(organizationId, id);
  await ctx.files.imports.save(file, form.file);
  const counts = startCounts(found.rows);
  const row: ImportRow = {
    id,
    organizationId,
    resource: form.resource,
    status: "queued",
    dryRun: form.dryRun,
    mode: form.mode,
    matchOn: form.matchOn,
    emitEvents: form.emitEvents,
    settings: JSON.stringify(settings),
    fileName: (form.file as Partial<File>).name || null,
    file,
    actorType: actor?.type ?? null,
    actorId: actor?.id ?? null,
    rows: counts.rows,
    processed: 0,
    created: 0,
    updated: 0,
    skipped: 0,
    failed: 0,
    lastRow: 0,
    errors: "[]",
    failure: null,
    revertUndone: null,
    revertSkipped: null,
    createdAt: ctx.now().toISOString(),
    finishedAt: null,
    revertedAt: null,
  };
  let answer: Import;
  try {
    // The unit answers the import: with an Idempotency-Key, the answer stored with the effect.
    answer = await ctx.store.write(async () => {
      await ctx.store.imports.insert(row);
      return importOf(row);
    });
  } catch (error) {
    await ctx.files.imports.remove(file).catch(() => {}); // else an old orphan: the sweep's
    throw error;
  }
  runners.get(ctx.config)?.wake();
  return answer;
}

/**
 * Uploads that no import names, older than an hour, deleted (files/uploads.ts): a crash between
 * saving the upload and committing its import leaves one (a failed commit deletes its own). An
 * import's file is otherwise deleted when the import ends (runImport's `finish`), so a succeeded,
 * failed or reverted import names none. Run by the import runner as it starts (and, with the files
 * in a bucket, hourly by the files' sweep job). Answers how many files went.
 */
export const sweepImportFiles = (ctx: Context, now = Date.now()): Promise<number> => ctx.files.imports.sweep(new Date(now));

// ---------------------------------------------------------------------------------------------
// Reading

export const getImport = async (ctx: Context, organizationId: string, id: string): Promise<Import | null> => {
  const row = await ctx.store.imports.byId(organizationId, id);
  return row ? importOf(row) : null;
};

/** GET /imports: newest first, the resources the caller may read; C3's page or a cursor page. */
export async function listImports(ctx: Context, organizationId: string, resources: readonly string[], paging: CursorPaging): Promise<PagedAnswer<Import>> {
  const after = paging.after === undefined ? undefined : positionOf("imports", paging.after);
  const { rows, total } = await ctx.store.read(() => ctx.store.imports.page(organizationId, resources, offsetOf(paging), rowsToRead(paging), after));
  const { data, next_after } = pageEnd("imports", paging, rows, total, (row) => ({ created_at: row.createdAt, id: row.id }));
  return { data: data.map(importOf), total, next_after };
}

// ---------------------------------------------------------------------------------------------
// The job

/** Another runner took the import on (or it ended): this one stops. */
class Superseded extends Error {}

export interface RunOptions {
  /** Rows a batch (default and at most 500). */
  batchRows?: number;
  /** Called after each committed batch, with the counts so far (the CLI's progress bar). */
  onBatch?: (counts: ImportCounts) => void;
  /** Asked between batches: true stops the job there, to be resumed later (a stopping server). */
  shouldStop?: () => boolean;
}

/**
 * Runs the import from where it stands (its recorded last row) to its end, or until `shouldStop`.
 * Each batch is one unit of work: its rows, what they changed (for the revert) and the import's
 * progress commit together. Answers the import as it stands when it returns (null when unknown).
 */
export async function runImport(ctx: Context, organizationId: string, id: string, options: RunOptions = {}): Promise<Import | null> {
  let row = await ctx.store.imports.byId(organizationId, id);
  if (!row || (row.status !== "queued" && row.status !== "running")) return row ? importOf(row) : null;
  if (row.status === "queued") {
    await ctx.store.write(async () => {
      const now = await ctx.store.imports.byId(organizationId, id);
      if (now?.status === "queued") await ctx.store.imports.setStatus(organizationId, id, "running");
    });
  }
  const settings = JSON.parse(row.settings) as Settings;
  const actor: Actor = { type: "import", id, name: row.fileName };
  // A file store that cannot be reached (S3) throws here: the import stays running, for later.
  const source = row.file === null ? null : await ctx.files.imports.source(row.file);
  let counts: ImportCounts = { ...startCounts(row.rows, row.lastRow), ...pick(row), errors: JSON.parse(row.errors) as CsvRowError[] };
  const finish = async (status: "succeeded" | "failed", failure: string | null) => {
    await ctx.store.write(() =>
      ctx.store.imports.progress(organizationId, id, { ...progressOf(counts, status), failure, file: null, finishedAt: ctx.now().toISOString() }),
    );
    // Named by no import from now on: what cannot be deleted now, the sweep deletes in an hour.
    if (row!.file !== null) {
      await ctx.files.imports.remove(row!.file).catch((error: Error) => ctx.logger.log("error", "could not delete an import's file", { import_id: id, error: error.message }));
    }
  };
  try {
    if (source === null) {
      await finish("failed", "the uploaded file is gone");
      return await getImport(ctx, organizationId, id);
    }
    const inspection: CsvInspection = { ...settings.inspection, sample: [] };
    const job: Job = { ctx, organizationId, id, resource: row.resource, mode: row.mode, matchOn: row.matchOn, dryRun: row.dryRun, settings };
    for await (const batch of readCsv(source, inspection, { afterRow: row.lastRow, batchSize: options.batchRows })) {
      const mapped = mapBatch(row.resource, settings.mapping, inspection.headers, batch);
      const before = counts;
      const unit = () => writeBatch(job, before, mapped, batch.lastRow, row!.emitEvents);
      counts = await asActor(actor, () => ctx.store.write(unit));
      options.onBatch?.(counts);
      if (options.shouldStop?.()) return await getImport(ctx, organizationId, id);
    }
    await finish("succeeded", null);
  } catch (error) {
    if (error instanceof Superseded) return await getImport(ctx, organizationId, id);
    // A failure of the store (503, a full disk) or of the file store (S3 out of reach) leaves the
    // import running, to go on after a restart; anything else ends it, with its reason.
    if (ctx.store.failure !== null || (error instanceof ApiError && error.code === "storage_unavailable")) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    ctx.logger.log("error", "an import failed", { import_id: id, error: reason });
    await finish("failed", reason);
  }
  row = await ctx.store.imports.byId(organizationId, id);
  return row ? importOf(row) : null;
}

const pick = (row: ImportRow) => ({ processed: row.processed, created: row.created, updated: row.updated, skipped: row.skipped, failed: row.failed, lastRow: row.lastRow });

const progressOf = (counts: ImportCounts, status: ImportRow["status"]) => ({
  status,
  processed: counts.processed,
  created: counts.created,
  updated: counts.updated,
  skipped: counts.skipped,
  failed: counts.failed,
  lastRow: counts.lastRow,
  errors: JSON.stringify(counts.errors),
});

interface Job {
  ctx: Context;
  organizationId: string;
  id: string;
  resource: ImportRow["resource"];
  mode: ImportRow["mode"];
  matchOn: ImportRow["matchOn"];
  dryRun: boolean;
  settings: Settings;
}

/** What one row did. */
interface Applied {
  action: "created" | "updated" | "skipped";
  id: string;
  previous?: Record<string, unknown>;
  updatedAt: string;
}

/** One batch, as one unit of work: the rows, each in a savepoint of its own (a refused row leaves
 * nothing; new contacts on PostgreSQL in one statement instead), what they changed, and the
 * import's progress. A dry run's batch is rolled back whole,
 * its counts kept. Throws Superseded when the import is not where this job left it (another
 * process goes on with it, or it ended). */
async function writeBatch(
  job: Job,
  counts: ImportCounts,
  mapped: { bodies: { row: number; body: Record<string, unknown> }[]; errors: CsvRowError[] },
  lastRow: number,
  emitEvents: boolean,
): Promise<ImportCounts> {
  const { ctx, organizationId, id } = job;
  const store = ctx.store.imports;
  const current = await store.byId(organizationId, id);
  if (!current || current.status !== "running" || current.lastRow !== counts.lastRow) throw new Superseded();
  const errors = [...mapped.errors];
  const changed: ImportedRecordRow[] = [];
  let created = 0;
  let updated = 0;
  let skipped = 0;
  const stages = new Map<string, Awaitable<{ id: string; name: string }[]>>();
  const refused = (row: number, error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    errors.push({ row, column: columnOf(job, error.param), message: error.message });
  };
  // New contacts on PostgreSQL: the batch's rows in one INSERT (src/db/pg/contacts.ts), where a
  // row's INSERT and the savepoints around it made the import wait on five round trips a row. The
  // same checks, answers and errors; SQLite, which writes in process, takes the rows one by one below.
  const batches = job.resource === "contacts" && job.mode === "create" ? pgStoreOf(ctx.store)?.contactBatches : undefined;
  const newContacts = async (insert: NonNullable<typeof batches>) => {
    const valid: { row: number; input: ContactInput }[] = [];
    for (const { row, body } of mapped.bodies) {
      try {
        valid.push({ row, input: validate(CreateContact, without(body, ["id"])) });
      } catch (error) {
        refused(row, error);
      }
    }
    const answers = await writeNewContacts(ctx, organizationId, valid.map((v) => v.input), (rows) => insert.insertNew(organizationId, rows));
    answers.forEach((answer, i) => {
      if (answer instanceof ApiError) return refused(valid[i].row, answer);
      created++;
      changed.push({ importId: id, organizationId, row: valid[i].row, resourceId: answer.id, action: "created", previous: null, updatedAt: answer.updated_at });
    });
  };
  const rows = async () => {
    if (batches) return newContacts(batches);
    for (const { row, body } of mapped.bodies) {
      await store.savepoint("import_row");
      try {
        const applied = job.resource === "contacts" ? await applyContact(job, body) : await applyDossier(job, body, stages);
        await store.release("import_row");
        if (applied.action === "created") created++;
        else if (applied.action === "updated") updated++;
        else skipped++;
        if (applied.action !== "skipped") {
          changed.push({
            importId: id, organizationId, row, resourceId: applied.id, action: applied.action,
            previous: applied.previous === undefined ? null : JSON.stringify(applied.previous), updatedAt: applied.updatedAt,
          });
        }
      } catch (error) {
        await store.rollbackTo("import_row");
        refused(row, error);
      }
    }
  };
  if (job.dryRun) await store.savepoint("import_batch");
  await (emitEvents ? rows() : withoutEvents(rows));
  if (job.dryRun) await store.rollbackTo("import_batch");
  else await store.insertRows(changed);
  errors.sort((a, b) => a.row - b.row);
  const next = addBatch(counts, { created, updated, skipped, errors, lastRow });
  await store.progress(organizationId, id, progressOf(next, "running"));
  return next;
}

/** The CSV header of the field an error names (the `stage` column for a stage), else null. */
function columnOf(job: Job, field: string | undefined): string | null {
  if (!field) return null;
  const base = field.split(/[.[]/)[0];
  for (const [header, mapped] of Object.entries(job.settings.mapping)) if (mapped === base || mapped === field) return header;
  return null;
}

/** Fields of `before` that `after` changed, with their old values: what the revert puts back. */
function previousOf(before: Record<string, unknown>, after: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const field of fields) if (JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null)) previous[field] = before[field] ?? null;
  // A PATCH's metadata merges: putting it back also removes the keys the import added.
  if (previous.metadata !== undefined) previous.metadata = metadataUndo(before.metadata as Metadata, after.metadata as Metadata);
  return previous;
}

const CONTACT_PATCH_FIELDS = Object.keys(PatchContact.properties);
const DOSSIER_PATCH_FIELDS = Object.keys(PatchDossier.properties);
/** A dossier's fields that only a create takes: an update leaves them as they are. */
const CREATE_ONLY = new Set(["type", "flow_id", "contact_id"]);

const without = (body: Record<string, unknown>, names: Iterable<string>) => {
  const out = { ...body };
  for (const name of names) delete out[name];
  return out;
};

/** The id a row matches on: a uuid, lower-cased (C3); a malformed one names no record. */
function matchId(job: Job, value: unknown, what: string): string {
  if (typeof value !== "string" || !isUuid(value)) throw invalidBody(`id: ${JSON.stringify(value)} is not ${what} id`, "id");
  return value.toLowerCase();
}

async function applyContact(job: Job, body: Record<string, unknown>): Promise<Applied> {
  const { ctx, organizationId } = job;
  const fields = without(body, ["id"]);
  const create = async (): Promise<Applied> => {
    const contact = await writeNewContact(ctx, organizationId, validate(CreateContact, fields));
    return { action: "created", id: contact.id, updatedAt: contact.updated_at };
  };
  if (job.mode === "create") return create();
  let existing: Contact | null = null;
  if (job.matchOn === "email") {
    if (typeof fields.email !== "string") {
      if (job.mode === "upsert") return create();
      throw invalidBody(`email: empty, and mode ${job.mode} matches rows on email`, "email");
    }
    const byEmail = async (email: string) => {
      const row = await findContactByEmail(ctx, organizationId, email);
      return row ? await getContact(ctx, organizationId, row.id) : null;
    };
    existing = await byEmail(fields.email);
    if (!existing && job.mode === "upsert") {
      try {
        return await create();
      } catch (error) {
        // Made since the lookup by a unit that committed first (PostgreSQL's concurrent units;
        // SQLite's one writer never gets here): updated instead, as it would have been found.
        if (!(error instanceof ApiError && error.code === "duplicate_contact")) throw error;
      }
      existing = await byEmail(fields.email);
    }
  } else if (body.id === undefined) {
    if (job.mode === "upsert") return create();
    throw invalidBody(`id: empty, and mode ${job.mode} matches rows on id`, "id");
  } else {
    existing = await getContact(ctx, organizationId, matchId(job, body.id, "a contact"));
  }
  if (!existing) {
    if (job.mode === "upsert") return create();
    throw invalidBody(`${job.matchOn}: no contact has this ${job.matchOn}`, job.matchOn);
  }
  const patch = validate(PatchContact, fields) as ContactPatch;
  const after = (await writeContactPatch(ctx, organizationId, existing.id, patch))!;
  if (after.updated_at === existing.updated_at) return { action: "skipped", id: existing.id, updatedAt: existing.updated_at };
  return { action: "updated", id: existing.id, previous: previousOf(existing, after, CONTACT_PATCH_FIELDS), updatedAt: after.updated_at };
}

/** The stage of the flow named `name` (exactly, else ignoring case and surrounding spaces). */
async function stageNamed(job: Job, flowId: string, name: unknown, stages: Map<string, Awaitable<{ id: string; name: string }[]>>): Promise<string> {
  let list = stages.get(flowId);
  if (!list) stages.set(flowId, (list = job.ctx.store.imports.stagesOfFlow(job.organizationId, flowId)));
  const all = await list;
  const text = String(name);
  const stage = all.find((s) => s.name === text) ?? all.find((s) => s.name.trim().toLowerCase() === text.trim().toLowerCase());
  if (!stage) throw invalidBody(`stage: the flow has no stage named ${JSON.stringify(text)}; its stages: ${all.map((s) => s.name).join(", ")}`, "stage");
  return stage.id;
}

async function applyDossier(job: Job, body: Record<string, unknown>, stages: Map<string, Awaitable<{ id: string; name: string }[]>>): Promise<Applied> {
  const { ctx, organizationId, settings } = job;
  const stageName = body.stage;
  const fields = without(body, ["id", "stage"]);
  const create = async (): Promise<Applied> => {
    const given = { ...fields };
    if (given.type === undefined && settings.type !== null) given.type = settings.type;
    if (given.flow_id === undefined && settings.flowId !== null) given.flow_id = settings.flowId;
    const input = validate(CreateDossier, given);
    let stageId: string | undefined;
    if (stageName !== undefined) {
      const flow = input.flow_id ? await ctx.store.dossiers.flow(organizationId, input.flow_id.toLowerCase()) : await ctx.store.dossiers.defaultFlow(organizationId, input.type);
      // No flow: writeNewDossier says why.
      if (flow) stageId = await stageNamed(job, flow.id, stageName, stages);
    }
    const dossier = await writeNewDossier(ctx, organizationId, input, newId(), null, stageId);
    return { action: "created", id: dossier.id, updatedAt: dossier.updated_at };
  };
  if (job.mode === "create") return create();
  if (body.id === undefined) {
    if (job.mode === "upsert") return create();
    throw invalidBody(`id: empty, and mode ${job.mode} matches rows on id`, "id");
  }
  const existing: Dossier | null = await getDossier(ctx, organizationId, matchId(job, body.id, "a dossier"));
  if (!existing) {
    if (job.mode === "upsert") return create();
    throw invalidBody("id: no dossier has this id", "id");
  }
  const changes = without(fields, CREATE_ONLY);
  if (stageName !== undefined && existing.flow_id !== null) changes.current_stage_id = await stageNamed(job, existing.flow_id, stageName, stages);
  const patch = validate(PatchDossier, changes) as PatchDossierInput;
  const after = await writeDossierPatch(ctx, organizationId, existing.id, patch);
  if (after.updated_at === existing.updated_at) return { action: "skipped", id: existing.id, updatedAt: existing.updated_at };
  return { action: "updated", id: existing.id, previous: previousOf(existing, after, DOSSIER_PATCH_FIELDS), updatedAt: after.updated_at };
}

// ---------------------------------------------------------------------------------------------
// Revert

/** Rows undone in one unit of work. */
const REVERT_BATCH = 500;

/**
 * POST /imports/{id}/revert (C21): the contacts it created are deleted, the dossiers it created
 * archived, the fields it updated put back; a record a later change touched (its updated_at moved
 * since the import wrote it, a created contact since linked to a dossier, a record gone) is left as
 * it is and counted as skipped. Last row first, in units of 500 rows; then the import is
 * `reverted`. Only a finished import that wrote something can be reverted (409 otherwise).
 */
export async function revertImport(ctx: Context, organizationId: string, id: string): Promise<Import> {
  const row = await ctx.store.imports.byId(organizationId, id);
  if (!row) throw notFound("import not found");
  if (row.dryRun) throw new ApiError("import_not_revertable", "a dry run changed nothing: there is nothing to revert");
  if (row.status !== "succeeded") throw new ApiError("import_not_revertable", `only a succeeded import can be reverted; this one is ${row.status}`);
  let undone = 0;
  let skipped = 0;
  let before = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const batch = await ctx.store.write(async () => {
      const rows = await ctx.store.imports.changedRows(organizationId, id, before, REVERT_BATCH);
      for (const changed of rows) {
        await ctx.store.imports.savepoint("import_row");
        try {
          const done = row.resource === "contacts" ? await undoContact(ctx, organizationId, changed) : await undoDossier(ctx, organizationId, changed);
          await ctx.store.imports.release("import_row");
          if (done) undone++;
          else skipped++;
        } catch (error) {
          await ctx.store.imports.rollbackTo("import_row");
          if (!(error instanceof ApiError)) throw error;
          skipped++; // what was put back is no longer valid (a duplicate email since): left as it is
        }
      }
      return rows;
    });
    if (batch.length > 0) before = batch[batch.length - 1].row;
    if (batch.length < REVERT_BATCH) break;
  }
  return await ctx.store.write(async () => {
    await ctx.store.imports.reverted(organizationId, id, undone, skipped, ctx.now().toISOString());
    return importOf((await ctx.store.imports.byId(organizationId, id))!);
  });
}

/** Undoes one contact row; false when a later change touched the contact. */
async function undoContact(ctx: Context, organizationId: string, row: ImportedRecordRow): Promise<boolean> {
  const contact = await getContact(ctx, organizationId, row.resourceId);
  if (!contact || contact.updated_at !== row.updatedAt) return false;
  if (row.action === "created") {
    if (contact.dossier_count > 0) return false;
    return writeContactDeletion(ctx, organizationId, row.resourceId);
  }
  await writeContactPatch(ctx, organizationId, row.resourceId, JSON.parse(row.previous ?? "{}") as ContactPatch);
  return true;
}

/** Undoes one dossier row; false when a later change touched the dossier. */
async function undoDossier(ctx: Context, organizationId: string, row: ImportedRecordRow): Promise<boolean> {
  const dossier = await getDossier(ctx, organizationId, row.resourceId);
  if (!dossier || dossier.updated_at !== row.updatedAt) return false;
  if (row.action === "created") {
    await writeArchive(ctx, organizationId, row.resourceId);
    return true;
  }
  await writeDossierPatch(ctx, organizationId, row.resourceId, JSON.parse(row.previous ?? "{}") as PatchDossierInput);
  return true;
}
