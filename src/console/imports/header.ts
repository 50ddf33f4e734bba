// The import page's first look at a file (C21): its header row, read in the browser from the
// file's first bytes (UTF-8 or UTF-16 by their byte order mark, else Windows-1252 when the bytes
// are not UTF-8; the delimiter that stands most in the row), and the mapping guessed from the
// header names, which the page lets people change. The server reads the whole file again and
// decides: this only fills the form.

export type Resource = "contacts" | "dossiers";

/** The fields a column may go to, in the order the page lists them. */
export const FIELDS: Record<Resource, readonly string[]> = {
  contacts: ["full_name", "email", "phone", "company", "role", "city", "linkedin_url", "kind", "notes", "pool_added_at", "pool_expires_at", "id"],
  dossiers: [
    "name", "type", "email", "phone", "company", "role", "contact_person", "deal_size", "deal_currency", "status", "stage", "intake_notes",
    "assigned_to", "flow_id", "contact_id", "current_stage_id", "id",
  ],
};

/** Other names people give a column, reduced as `reduce` does. */
const SYNONYMS: Record<Resource, Record<string, string>> = {
  contacts: {
    name: "full_name", fullname: "full_name", contact: "full_name", nom: "full_name", mail: "email", emailaddress: "email", courriel: "email",
    telephone: "phone", tel: "phone", mobile: "phone", phonenumber: "phone", companyname: "company", organization: "company",
    organisation: "company", title: "role", jobtitle: "role", town: "city", ville: "city", linkedin: "linkedin_url", kinds: "kind",
    tags: "kind", note: "notes", comments: "notes",
  },
  dossiers: {
    fullname: "name", candidate: "name", deal: "name", dealname: "name", mail: "email", telephone: "phone", tel: "phone", mobile: "phone",
    companyname: "company", organization: "company", title: "role", jobtitle: "role", amount: "deal_size", value: "deal_size",
    dealvalue: "deal_size", currency: "deal_currency", step: "stage", stagename: "stage", notes: "intake_notes", state: "status",
  },
};

/** A header as a person means it: no case, no accents, no spaces or punctuation. */
export const reduce = (text: string) => text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** header → field, for the headers whose name says which field they hold (each field once). */
export function guess(resource: Resource, headers: readonly string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  const taken = new Set<string>();
  for (const header of headers) {
    const key = reduce(header);
    const field = FIELDS[resource].find((f) => reduce(f) === key) ?? SYNONYMS[resource][key];
    if (field && !taken.has(field)) {
      mapping[header] = field;
      taken.add(field);
    }
  }
  return mapping;
}

function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // The first bytes may end inside a character: only the header row matters.
    const text = new TextDecoder("utf-8").decode(bytes);
    const line = text.split(/\r\n|\n|\r/)[0];
    return line.includes("\uFFFD") ? new TextDecoder("windows-1252").decode(bytes) : text;
  }
}

/** The cells of the file's first row that is not blank. */
export async function headerOf(file: Blob): Promise<string[]> {
  const text = decode(new Uint8Array(await file.slice(0, 65_536).arrayBuffer())).replace(/^\uFEFF/, "");
  let line = "";
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (!quoted && (char === "\n" || char === "\r")) {
      if (line.trim().replace(/[,;\t]/g, "") !== "") break;
      line = "";
      continue;
    }
    line += char;
  }
  const count = (d: string) => line.split(d).length - 1;
  const delimiter = [",", ";", "\t"].sort((a, b) => count(b) - count(a))[0];
  const cells: string[] = [];
  let cell = "";
  quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === '"' && quoted && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === delimiter && !quoted) {
      cells.push(cell.trim());
      cell = "";
    } else {
      cell += char;
    }
  }
  cells.push(cell.trim());
  return line.trim() === "" ? [] : cells;
}
