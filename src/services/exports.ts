// CSV exports (C21): every row of a list that matches its filters, in its order, as batches read in
// keyset order, each batch its own short read snapshot (round 3 notes, "Streaming on SQLite": one
// snapshot held for a 1,000,000-row export would stop WAL checkpoints for its whole length). The
// batches are read as the consumer pulls (src/csv/writer.ts csvStream), so a slow client holds the
// reading back and memory holds one batch. HTTP-free: the routes and `dossier export` wrap them.
import type { Context } from "../context";
import type { DossierFilters } from "../db/dossier-page";
import { keysetBatches } from "../csv";
import { fold, kindMaskOf, type Contact, type Kind } from "./contacts";
import type { Dossier } from "./dossiers";
import { metadataFilters } from "./metadata";
import { parseInstant } from "./timestamps";
import type { PoolFilter } from "../db/contacts";

/** Rows read in one batch (one read snapshot): about 1.5 MB of dossiers. */
export const EXPORT_BATCH_ROWS = 1_000;

export interface ContactFilters {
  kinds?: Kind[];
  pool?: PoolFilter;
  search?: string;
  updatedSince?: string;
  metadata?: Record<string, string>;
}

/** An export: the metadata keys its rows hold when it begins, sorted (its `metadata.<key>` columns,
 * issue 38; a key first set on a row while the export runs has no column), then its rows. */
export interface Export<Row> {
  metadataKeys: string[];
  batches: AsyncGenerator<readonly Row[]>;
}

/** The filters checked before the first byte is sent: a bad `updated_since` is a 400, not a
 * broken download. */
export function checkDossierFilters(filters: DossierFilters): DossierFilters {
  const metadata = metadataFilters(filters.metadata);
  return { ...filters, metadata, updatedSince: filters.updatedSince === undefined ? undefined : parseInstant("updated_since", filters.updatedSince) };
}

/** GET /dossiers/export's rows (C21): GET /dossiers' filters (C5, C10, C17) and order (created_at
 * desc, id desc), every page. `overdue` is judged at the export's start, for every batch alike. */
export async function exportDossiers(ctx: Context, organizationId: string, raw: DossierFilters, batchRows = EXPORT_BATCH_ROWS): Promise<Export<Dossier>> {
  const filters = checkDossierFilters(raw);
  const now = ctx.now().toISOString();
  const metadataKeys = await ctx.store.read(() => ctx.store.dossiers.metadataKeys(organizationId, filters, now));
  const batches = keysetBatches(
    (after: { created_at: string; id: string } | undefined, limit) =>
      ctx.store.read(() => ctx.store.dossiers.exportPage(organizationId, filters, now, after, limit)),
    (row) => ({ created_at: row.created_at, id: row.id }),
    batchRows,
  );
  return { metadataKeys, batches };
}

/** The contact filters as the store takes them; a bad `updated_since` throws 400 now. */
function contactQuery(ctx: Context, organizationId: string, filters: ContactFilters) {
  return {
    organizationId,
    mask: filters.kinds && filters.kinds.length > 0 ? kindMaskOf(filters.kinds) : 0,
    search: filters.search === undefined || filters.search === "" ? null : fold(filters.search),
    pool: filters.pool ? { filter: filters.pool, now: ctx.now().toISOString() } : undefined,
    updatedSince: filters.updatedSince === undefined ? null : parseInstant("updated_since", filters.updatedSince),
    metadata: metadataFilters(filters.metadata),
  };
}

/** GET /contacts/export's rows (C21): GET /contacts' filters (C6, C10, C17) and order, every page. */
export async function exportContacts(ctx: Context, organizationId: string, filters: ContactFilters, batchRows = EXPORT_BATCH_ROWS): Promise<Export<Contact>> {
  const query = contactQuery(ctx, organizationId, filters);
  const metadataKeys = await ctx.store.read(() => ctx.store.contacts.metadataKeys(query));
  const batches = keysetBatches(
    (after: { created_at: string; id: string } | undefined, limit) => ctx.store.read(() => ctx.store.contacts.exportPage(query, after, limit)),
    (row) => ({ created_at: row.created_at, id: row.id }),
    batchRows,
  );
  return { metadataKeys, batches };
}
