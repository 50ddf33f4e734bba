// The form of POST /api/v1/imports (C21), checked without a store: `file`, `resource`, `mapping`,
// and the optional `mode`, `match_on`, `dry_run`, `emit_events` and, for dossiers, `flow_id`,
// `type` and `stage` (the header of the column that holds stage names). As multipart POST
// /dossiers (C10): an unknown or repeated field is 400 naming it, an empty string for an optional
// field counts as absent, a file where text is expected (or text where the file is) is 400.
// Whether `flow_id` names a flow of the organization, and `stage` names of its stages, is the
// service's check.
import { invalidBody } from "../errors";
import { isUuid } from "../ids";
import type { CsvResource } from "./columns";
import { checkMappingForMode, parseMapping, type ImportMode, type ImportSettings, type Mapping, type MatchOn } from "./mapping";

export interface ImportForm {
  file: Blob;
  resource: CsvResource;
  /** As sent: checked by `resolveMapping` once the file's headers are known. */
  mapping: string;
  mode: ImportMode;
  matchOn: MatchOn;
  dryRun: boolean;
  emitEvents: boolean;
  /** Dossiers: the flow of every row (default: the organization's default flow for the type). */
  flowId?: string;
  /** Dossiers: the type of every row, else a `type` column gives it. */
  type?: "candidate" | "sales";
  /** Dossiers: the header of the column holding each row's stage name. */
  stage?: string;
}

const FIELDS = new Set(["file", "resource", "mapping", "mode", "match_on", "dry_run", "emit_events", "flow_id", "type", "stage"]);
const DOSSIERS_ONLY = new Set(["flow_id", "type", "stage"]);

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw invalidBody(`${name}: must be ${allowed.map((a) => JSON.stringify(a)).join(" or ")}`, name);
  return value as T;
}

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  return oneOf(name, value, ["true", "false"]) === "true";
}

/** The import form's fields (a FormData's `entries()`), checked in the order C3 checks a body. */
export function parseImportForm(entries: Iterable<[string, string | Blob]>): ImportForm {
  const texts = new Map<string, string>();
  let file: Blob | undefined;
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (!FIELDS.has(name)) throw invalidBody(`unknown field "${name}"`, name);
    if (seen.has(name)) throw invalidBody(`${name}: given more than once`, name);
    seen.add(name);
    if (name === "file") {
      if (typeof value === "string") throw invalidBody("file: must be a file, not a text field", "file");
      file = value;
      continue;
    }
    if (typeof value !== "string") throw invalidBody(`${name}: must be a text field, not a file`, name);
    if (value !== "") texts.set(name, value);
  }
  if (file === undefined) throw invalidBody("file is required", "file");
  const resourceText = texts.get("resource");
  if (resourceText === undefined) throw invalidBody("resource is required", "resource");
  const resource = oneOf<CsvResource>("resource", resourceText, ["contacts", "dossiers"]);
  const mapping = texts.get("mapping");
  if (mapping === undefined) throw invalidBody("mapping is required: a JSON object from a CSV header to a field name", "mapping");
  const mode = oneOf<ImportMode>("mode", texts.get("mode") ?? "create", ["create", "update", "upsert"]);
  const matchOn = oneOf<MatchOn>("match_on", texts.get("match_on") ?? (resource === "contacts" ? "email" : "id"), resource === "contacts" ? ["email", "id"] : ["id"]);
  const form: ImportForm = {
    file,
    resource,
    mapping,
    mode,
    matchOn,
    dryRun: flag("dry_run", texts.get("dry_run"), false),
    emitEvents: flag("emit_events", texts.get("emit_events"), true),
  };
  if (resource === "contacts") {
    const stray = [...DOSSIERS_ONLY].find((name) => texts.has(name));
    if (stray !== undefined) throw invalidBody(`${stray}: only for dossiers`, stray);
    return form;
  }
  const flowId = texts.get("flow_id");
  if (flowId !== undefined) {
    if (!isUuid(flowId)) throw invalidBody("flow_id: must be a uuid", "flow_id");
    form.flowId = flowId;
  }
  const type = texts.get("type");
  if (type !== undefined) form.type = oneOf<"candidate" | "sales">("type", type, ["candidate", "sales"]);
  const stage = texts.get("stage");
  if (stage !== undefined) form.stage = stage;
  return form;
}

/** The settings `checkMappingForMode` needs, from the form. */
export function importSettings(form: ImportForm): ImportSettings {
  return { mode: form.mode, matchOn: form.matchOn, ...(form.type ? { type: form.type } : {}) };
}

/** The form's mapping checked against the file's headers (parseMapping), the `stage` column added
 * as the `stage` field, and what the mode needs (checkMappingForMode). 400 naming what is wrong. */
export function resolveMapping(form: ImportForm, headers: readonly string[]): Mapping {
  const mapping = parseMapping(form.resource, form.mapping, headers);
  if (form.stage !== undefined) {
    const header = headers.includes(form.stage) ? form.stage : headers.find((h) => h.toLowerCase() === form.stage!.trim().toLowerCase());
    if (header === undefined) throw invalidBody(`stage: the file has no column ${JSON.stringify(form.stage)}`, "stage");
    const other = Object.entries(mapping).find(([h, field]) => field === "stage" && h !== header);
    if (other) throw invalidBody(`stage: column ${JSON.stringify(other[0])} is already mapped to stage`, "stage");
    if (mapping[header] !== undefined && mapping[header] !== "stage") {
      throw invalidBody(`stage: column ${JSON.stringify(header)} is mapped to ${mapping[header]}`, "stage");
    }
    mapping[header] = "stage";
  }
  checkMappingForMode(form.resource, mapping, importSettings(form));
  return mapping;
}
