// The CSV columns of each resource (C21): the export's header row is the resource's field names in
// the order of the API's schema, taken from the TypeBox records themselves so that a field added
// to the API appears in the export without a second list to keep. The import side names the fields
// a column may be mapped to: the create and update bodies' fields, plus the few that only an import
// has (`id` to match on, a dossier's `stage` by name).
import type { TSchema } from "@sinclair/typebox";
import { Contact, CreateContact, PatchContact } from "../schemas/contacts";
import { CreateDossier, Dossier, PatchDossier } from "../schemas/dossiers";

export type CsvResource = "dossiers" | "contacts";
export const CSV_RESOURCES: readonly CsvResource[] = ["dossiers", "contacts"];

/** The object field written as one column per key, `metadata.<key>` (issue 38), where the
 * export's other fields are. */
export const METADATA_FIELD = "metadata";
export const METADATA_COLUMN_PREFIX = "metadata.";

/** The export's columns, in the order of the API's schema (C21), but `metadata`, whose keys each
 * have a column after them (src/csv/writer.ts resourceColumns). */
export const EXPORT_COLUMNS: Record<CsvResource, readonly string[]> = {
  dossiers: Object.keys(Dossier.properties).filter((name) => name !== METADATA_FIELD),
  contacts: Object.keys(Contact.properties).filter((name) => name !== METADATA_FIELD),
};

/** Fields holding an array, written as one cell joined by `;` (C21: contacts' `kind`). */
export const ARRAY_FIELDS: Record<CsvResource, ReadonlySet<string>> = {
  dossiers: new Set(Object.entries(Dossier.properties).filter(([, field]) => field.type === "array").map(([name]) => name)),
  contacts: new Set(Object.entries(Contact.properties).filter(([, field]) => field.type === "array").map(([name]) => name)),
};

/** Fields whose text is a number in the API (`deal_size`): a cell is read as one on import. */
export const NUMBER_FIELDS: Record<CsvResource, ReadonlySet<string>> = {
  dossiers: numberFields(Dossier.properties),
  contacts: numberFields(Contact.properties),
};

function numberFields(properties: Record<string, TSchema>): ReadonlySet<string> {
  const isNumber = (type: unknown) => type === "number" || type === "integer";
  return new Set(
    Object.entries(properties)
      .filter(([, field]) => isNumber(field.type) || ((field.anyOf ?? []) as TSchema[]).some((member) => isNumber(member.type)))
      .map(([name]) => name),
  );
}

/** Fields a column may be mapped to on import: a create's or an update's body fields, `id` (to
 * match rows with `match_on=id`) and, for dossiers, `stage`: the name of a stage of the flow (C21's
 * "stage name column"). Read-only fields (`created_at`, `dossier_count`, ...) are not among them;
 * nor is `metadata` whole: a column is mapped to one key, `metadata.<key>` (src/csv/mapping.ts). */
export const IMPORT_FIELDS: Record<CsvResource, readonly string[]> = {
  contacts: unique(["id", ...Object.keys(CreateContact.properties), ...Object.keys(PatchContact.properties)]).filter((name) => name !== METADATA_FIELD),
  dossiers: unique(["id", ...Object.keys(CreateDossier.properties), ...Object.keys(PatchDossier.properties), "stage"]).filter(
    (name) => name !== METADATA_FIELD,
  ),
};

/** Columns of an export that an import leaves alone when the mapping is guessed (derived or
 * read-only): re-importing an export file maps everything else by name. */
export const READ_ONLY_FIELDS: Record<CsvResource, ReadonlySet<string>> = {
  dossiers: new Set(EXPORT_COLUMNS.dossiers.filter((name) => !IMPORT_FIELDS.dossiers.includes(name))),
  contacts: new Set(EXPORT_COLUMNS.contacts.filter((name) => !IMPORT_FIELDS.contacts.includes(name))),
};

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
