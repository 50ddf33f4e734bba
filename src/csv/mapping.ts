// The mapping of an import (C21): a JSON object from a CSV header to a field name. Guessed from the
// header names for the console's import page and the CLI without `--map` (case, accents, spaces and
// punctuation ignored; common synonyms such as "E-mail", "Phone number", "Company name"), checked
// when given (an unknown field is 400 naming it), and applied to each row to make the body of one
// create or update, which the services then validate exactly as the API does.
import { ARRAY_FIELDS, IMPORT_FIELDS, METADATA_COLUMN_PREFIX, NUMBER_FIELDS, READ_ONLY_FIELDS, type CsvResource } from "./columns";
import { CsvFileError, type CsvRowError } from "./errors";
import type { CsvRow } from "./reader";

/** Header → field. A header mapped to null or "" (or left out) is not imported. */
export type Mapping = Record<string, string>;
export type ImportMode = "create" | "update" | "upsert";
export type MatchOn = "email" | "id";

/** A header or a synonym reduced to what a person means by it: no case, no accents, no spaces or
 * punctuation ("E-mail " → "email", "Téléphone" → "telephone", "full_name" → "fullname"). */
export function normalizeHeader(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Names people give each field's column, besides the field's own name (English, French, German,
 * Spanish: the usual exports of CRMs and spreadsheets). Reduced by normalizeHeader when read. */
const COMMON_SYNONYMS: Record<string, readonly string[]> = {
  email: ["e-mail", "email address", "e-mail address", "mail", "courriel", "adresse e-mail", "adresse email", "e-mail-adresse", "correo", "correo electronico", "primary email", "work email"],
  phone: ["phone number", "telephone", "tel", "tel.", "mobile", "mobile phone", "mobile number", "cell", "cell phone", "portable", "numero de telephone", "telefon", "telefonnummer", "handy", "telefono", "work phone"],
  company: ["company name", "organization", "organisation", "organization name", "account", "account name", "employer", "current company", "entreprise", "societe", "firma", "unternehmen", "empresa"],
  role: ["title", "job title", "position", "job", "poste", "fonction", "titre", "beruf", "position title", "cargo", "puesto"],
  id: ["uuid", "record id"],
};

const CONTACT_SYNONYMS: Record<string, readonly string[]> = {
  ...COMMON_SYNONYMS,
  full_name: ["name", "full name", "contact name", "contact", "person", "nom", "nom complet", "prenom nom", "name des kontakts", "vollstandiger name", "nombre", "nombre completo", "candidate name", "candidate"],
  linkedin_url: ["linkedin", "linkedin profile", "linkedin url", "linked in", "profil linkedin"],
  city: ["town", "location", "ville", "stadt", "ort", "ciudad", "localite"],
  kind: ["kinds", "type", "types", "category", "categories", "tags", "contact type"],
  notes: ["note", "comments", "comment", "remarks", "description", "commentaires", "bemerkungen", "notizen", "notas"],
  pool_added_at: ["pool added", "added to pool", "pool start", "in pool since"],
  pool_expires_at: ["pool expires", "pool expiry", "pool end", "pool until"],
};

const DOSSIER_SYNONYMS: Record<string, readonly string[]> = {
  ...COMMON_SYNONYMS,
  name: ["full name", "candidate name", "candidate", "deal", "deal name", "opportunity", "opportunity name", "title of deal", "nom", "nom complet", "nombre", "dossier"],
  type: ["dossier type", "kind", "pipeline type"],
  contact_person: ["contact", "contact name", "contact person", "point of contact", "interlocuteur", "ansprechpartner"],
  deal_size: ["deal value", "amount", "value", "deal amount", "montant", "betrag", "valor", "opportunity amount", "size"],
  deal_currency: ["currency", "devise", "wahrung", "moneda"],
  intake_notes: ["notes", "note", "comments", "comment", "remarks", "description", "commentaires"],
  status: ["state", "deal status", "statut", "estado"],
  stage: ["stage name", "pipeline stage", "deal stage", "step", "etape", "phase", "stufe", "etapa"],
  current_stage_id: ["stage id"],
  assigned_to: ["owner id", "assignee id", "assigned to id"],
  flow_id: ["pipeline id", "flow"],
  contact_id: ["contact id"],
};

const SYNONYMS: Record<CsvResource, Record<string, readonly string[]>> = { contacts: CONTACT_SYNONYMS, dossiers: DOSSIER_SYNONYMS };

/** normalized header → field, per resource: the field names first, then their synonyms. */
const GUESSES: Record<CsvResource, Map<string, string>> = {
  contacts: guessTable("contacts"),
  dossiers: guessTable("dossiers"),
};

function guessTable(resource: CsvResource): Map<string, string> {
  const table = new Map<string, string>();
  for (const field of IMPORT_FIELDS[resource]) table.set(normalizeHeader(field), field);
  for (const [field, names] of Object.entries(SYNONYMS[resource])) {
    if (!IMPORT_FIELDS[resource].includes(field)) continue;
    for (const name of names) {
      const key = normalizeHeader(name);
      if (!table.has(key)) table.set(key, field);
    }
  }
  return table;
}

/** The mapping guessed from the header names: each header whose name or a synonym of it names an
 * importable field, each field at most once (the first such header wins). Read-only columns of an
 * export (`created_at`, `dossier_count`, ...) and unknown ones are left out: not imported. */
export function guessMapping(resource: CsvResource, headers: readonly string[]): Mapping {
  const mapping: Mapping = {};
  const taken = new Set<string>();
  const table = GUESSES[resource];
  for (const header of headers) {
    // An export's `metadata.<key>` column maps to its key, as named (keys are not normalized).
    const field = isMetadataField(header) ? header : table.get(normalizeHeader(header));
    if (field === undefined || taken.has(field) || READ_ONLY_FIELDS[resource].has(field)) continue;
    mapping[header] = field;
    taken.add(field);
  }
  return mapping;
}

const badMapping = (message: string) => new CsvFileError("bad_mapping", `mapping: ${message}`);

/** `metadata.<key>`: a column mapped to one key of the row's metadata (issue 38); the key's own
 * rules are the API's, checked with the row. */
const isMetadataField = (field: string) => field.startsWith(METADATA_COLUMN_PREFIX) && field.length > METADATA_COLUMN_PREFIX.length;

/** The `mapping` form field checked against the resource's fields and the file's headers: a JSON
 * object (or its text) from header to field name, each value a field name, or null or "" to leave
 * the column out. An unknown field, a header the file does not have, a field given two columns:
 * 400 invalid_body naming it (param `mapping`). */
export function parseMapping(resource: CsvResource, given: unknown, headers: readonly string[]): Mapping {
  let value = given;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw badMapping("must be a JSON object from a CSV header to a field name");
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badMapping("must be a JSON object from a CSV header to a field name");
  const fields = IMPORT_FIELDS[resource];
  const mapping: Mapping = {};
  const columnOf = new Map<string, string>();
  for (const [given, field] of Object.entries(value as Record<string, unknown>)) {
    if (field === null || field === "") continue;
    // The header as the file has it, or, failing that, the one header that it names trimmed and
    // case-insensitively (`--map email=email` for a column "Email").
    const loose = headers.filter((h) => h.trim().toLowerCase() === given.trim().toLowerCase());
    const header = headers.includes(given) ? given : loose.length === 1 ? loose[0] : given;
    if (typeof field !== "string") throw badMapping(`the value for column ${JSON.stringify(header)} must be a field name`);
    if (!fields.includes(field) && !isMetadataField(field)) {
      const why = READ_ONLY_FIELDS[resource].has(field) ? "is read-only" : `is not a field of ${resource}`;
      throw badMapping(`unknown field ${JSON.stringify(field)} (column ${JSON.stringify(header)}): ${field} ${why}; fields: ${fields.join(", ")}`);
    }
    if (!headers.includes(header)) throw badMapping(`the file has no column ${JSON.stringify(header)}; its columns: ${headers.map((h) => JSON.stringify(h)).join(", ")}`);
    const other = columnOf.get(field);
    if (other !== undefined) throw badMapping(`columns ${JSON.stringify(other)} and ${JSON.stringify(header)} are both mapped to ${field}`);
    columnOf.set(field, header);
    mapping[header] = field;
  }
  return mapping;
}

/** The CLI's `--map COL=field,...` as a mapping (`COL=` leaves a column out). A column whose name
 * holds `,` or `=` is given through the JSON form of the API instead. */
export function parseMapOption(text: string): Record<string, string | null> {
  const mapping: Record<string, string | null> = {};
  for (const pair of text.split(",")) {
    if (pair.trim() === "") continue;
    const at = pair.lastIndexOf("=");
    if (at <= 0) throw badMapping(`${JSON.stringify(pair)} is not COLUMN=field`);
    const field = pair.slice(at + 1).trim();
    mapping[pair.slice(0, at).trim()] = field === "" ? null : field;
  }
  return mapping;
}

export interface ImportSettings {
  mode: ImportMode;
  /** Default `email` for contacts, `id` for dossiers (dossiers have no unique email). */
  matchOn?: MatchOn;
  /** Dossiers: the form's `type` for every row, else a `type` column is needed to create. */
  type?: string;
}

/** The fields a mapping must give for the mode: what a create needs (contacts `full_name`;
 * dossiers `name`, and `type` unless the form gives it), and the column to match on for `update`
 * and `upsert`. Throws 400 naming the first one missing. */
export function checkMappingForMode(resource: CsvResource, mapping: Mapping, settings: ImportSettings): void {
  const mapped = new Set(Object.values(mapping));
  const matchOn = settings.matchOn ?? (resource === "contacts" ? "email" : "id");
  if (resource === "dossiers" && matchOn === "email") throw new CsvFileError("bad_mapping", "match_on: dossiers are matched on id", "match_on");
  const needed: string[] = [];
  if (settings.mode !== "update") needed.push(resource === "contacts" ? "full_name" : "name");
  if (settings.mode !== "update" && resource === "dossiers" && settings.type === undefined) needed.push("type");
  if (settings.mode !== "create") needed.push(matchOn);
  const missing = needed.find((field) => !mapped.has(field));
  if (missing !== undefined) {
    const why = missing === matchOn && settings.mode !== "create" ? `mode ${settings.mode} matches rows on ${matchOn}` : `a ${settings.mode} needs ${missing}`;
    throw badMapping(`no column is mapped to ${missing}: ${why}`);
  }
}

/** A row as the body of one create or update: each mapped column's cell under its field, the cell
 * as given except that an empty cell is left out (a create's default, an update's "unchanged"),
 * an array field (contacts' `kind`) is split on `;` (or `,`) and trimmed, and a number field
 * (`deal_size`) is read as a number (`12500.5`, or `12500,5` from a European export). A cell that
 * cannot be read as its field's type is the row's error, named by its column. */
export function rowBody(resource: CsvResource, mapping: Mapping, headers: readonly string[], row: CsvRow): { body: Record<string, unknown> } | { errors: CsvRowError[] } {
  const body: Record<string, unknown> = {};
  const errors: CsvRowError[] = [];
  for (let i = 0; i < headers.length; i++) {
    const header = headers[i];
    const field = mapping[header];
    if (field === undefined) continue;
    const cell = row.cells[i] ?? "";
    if (cell.trim() === "") continue;
    if (isMetadataField(field)) {
      const metadata = (body.metadata ??= {}) as Record<string, string>;
      Object.defineProperty(metadata, field.slice(METADATA_COLUMN_PREFIX.length), { value: cell, enumerable: true, writable: true, configurable: true });
    } else if (ARRAY_FIELDS[resource].has(field)) {
      body[field] = cell
        .split(cell.includes(";") ? ";" : ",")
        .map((item) => item.trim())
        .filter((item) => item !== "");
    } else if (NUMBER_FIELDS[resource].has(field)) {
      const number = readNumber(cell);
      if (number === undefined) errors.push({ row: row.row, column: header, message: `${field}: ${JSON.stringify(cell)} is not a number` });
      else body[field] = number;
    } else {
      body[field] = cell;
    }
  }
  return errors.length > 0 ? { errors } : { body };
}

/** A batch's rows as bodies: the rows to create or update, and the rows refused (a cell that is
 * not its field's type), with the reader's own refusals (too many cells) put first in row order. */
export function mapBatch(
  resource: CsvResource,
  mapping: Mapping,
  headers: readonly string[],
  batch: { rows: readonly CsvRow[]; errors: readonly CsvRowError[] },
): { bodies: { row: number; body: Record<string, unknown> }[]; errors: CsvRowError[] } {
  const bodies: { row: number; body: Record<string, unknown> }[] = [];
  const errors: CsvRowError[] = [...batch.errors];
  for (const row of batch.rows) {
    const made = rowBody(resource, mapping, headers, row);
    if ("body" in made) bodies.push({ row: row.row, body: made.body });
    else errors.push(...made.errors);
  }
  errors.sort((a, b) => a.row - b.row);
  return { bodies, errors };
}

/** `12500.5`, `12500,5`, `12 500.50`, `1,234.5`, `1.234,5`: a decimal number, or undefined. */
export function readNumber(cell: string): number | undefined {
  let text = cell.trim().replace(/[\s\u00a0\u202f']/g, "");
  if (!/^[+-]?(\d+([.,]\d+)*)$/.test(text)) return undefined;
  const lastDot = text.lastIndexOf(".");
  const lastComma = text.lastIndexOf(",");
  if (lastDot !== -1 && lastComma !== -1) {
    // Both: the last one is the decimal mark, the other groups thousands.
    const decimal = lastDot > lastComma ? "." : ",";
    const group = decimal === "." ? "," : ".";
    text = text.replaceAll(group, "").replace(decimal, ".");
  } else if (lastComma !== -1) {
    // Commas alone: one is a decimal comma (`12500,5`), several group thousands (`1,234,567`).
    text = text.split(",").length === 2 ? text.replace(",", ".") : text.replaceAll(",", "");
  } else if ((text.match(/\./g) ?? []).length > 1) {
    text = text.replaceAll(".", ""); // `1.234.567`
  }
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}
