// Seeds a benchmark data folder: one organization (created with the real CLI, so the real
// migrations and default flows are used) holding N dossiers, N contacts, their links and notes,
// written directly with bun:sqlite prepared statements in big transactions.
//
//   bun bench/seed.ts --n 10000 --data /tmp/dossier-bench/n10000 [--exe dist/dossier]
//
// The rows follow the app's own rules (src/services/dossiers.ts, contacts.ts, links.ts):
// - dossiers: both types, all statuses, in a stage of the org's default flow of their type, with
//   stage_entered_at and stage_due_at (= entered + deadline_days), contact_id = the primary link;
// - contacts: kind JSON + kind_mask (bit = 1 << index in KINDS of src/services/contacts.ts),
//   email_folded = email.toLowerCase(); all text is ASCII, so the contacts triggers of migration
//   0001 fold exactly as the app does (no refreshSearch rewrite needed) and fill contact_search and
//   contacts_fts (the FTS5 trigram index) themselves;
// - dossier_contacts: one primary link per dossier, plus a secondary link on 10 % of them;
// - notes: N/4, on random dossiers.
// While seeding: journal_mode=OFF, synchronous=OFF, a large cache, secondary indexes dropped and
// re-created after the load (a sort instead of a million random B-tree inserts). The folder is left
// in WAL mode, as the server expects.
import { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { seededRandom } from "../src/random";

// Must follow src/services/contacts.ts KINDS (kind_mask bit i = KINDS[i]); checked at import time
// below when that module is importable.
export const KINDS = ["candidate", "prospect", "client", "supplier", "partner"] as const;
type Kind = (typeof KINDS)[number];
const kindMask = (kinds: readonly Kind[]) => kinds.reduce((m, k) => m | (1 << KINDS.indexOf(k)), 0);

export interface StageRef {
  id: string;
  name: string;
  position: number;
  deadline_days: number | null;
}
export interface FlowRef {
  id: string;
  stages: StageRef[];
}

export interface SeedResult {
  dataDir: string;
  dbPath: string;
  n: number;
  organizationId: string;
  key: string;
  flows: { candidate: FlowRef; sales: FlowRef };
  /** Sample ids for GET /dossiers/{id} (any dossier). */
  sampleIds: string[];
  /** Sample candidate dossier ids for the stage-change PATCH. */
  sampleCandidateIds: string[];
  /** Contact search terms (3+ letters, mid-word) and how many contacts each matches. */
  searchTerms: { term: string; matches: number }[];
  counts: Record<string, number>;
  seconds: { cli: number; rows: number; indexes: number; total: number };
}

// ---------------------------------------------------------------------------------------------
// Deterministic pseudo-random data (mulberry32), so that two runs seed the same shapes.

const FIRST = [
  "Anna", "Bruno", "Clara", "David", "Elena", "Felix", "Greta", "Hugo", "Ines", "Jonas", "Karin", "Lukas", "Maria",
  "Nico", "Olga", "Paul", "Rosa", "Simon", "Tara", "Uwe", "Vera", "Walter", "Yara", "Zoe", "Amir", "Bea", "Chen",
  "Dara", "Emil", "Farah", "Goran", "Hana", "Ivan", "Jana", "Kofi", "Lea", "Mateo", "Noor", "Omar", "Pia",
];
// Last names are built from syllables: 18 × 8 × 12 = 1,728 of them, so a mid-word fragment is
// selective the way a real name fragment is.
const LAST_A = ["Ab", "Bel", "Cor", "Dal", "Fen", "Gar", "Hol", "Kes", "Lom", "Mar", "Nor", "Pel", "Ros", "Sal", "Tor", "Val", "Wes", "Zan"];
const LAST_B = ["a", "e", "i", "o", "u", "an", "er", "in"];
const LAST_C = ["berg", "ford", "ley", "mont", "rick", "son", "ton", "well", "wood", "ski", "ez", "ini"];
const COMPANY_A = ["Nord", "Blue", "Iron", "Silver", "Green", "Bright", "Quantum", "Atlas", "Cedar", "Delta", "Ember", "Falcon", "Granite", "Harbor", "Lumen", "Maple", "Nimbus", "Orion", "Pioneer", "Summit"];
const COMPANY_B = ["wind", "stone", "field", "gate", "bridge", "works", "point", "line", "ridge", "wave"];
const COMPANY_C = ["Logistics", "Systems", "Health", "Foods", "Energy", "Labs", "Partners", "Retail", "Media", "Capital"];
const ROLES = [
  "Software Engineer", "Data Analyst", "Product Manager", "Sales Director", "Account Executive", "CFO", "CTO",
  "Head of HR", "Recruiter", "Designer", "Nurse", "Electrician", "Project Manager", "Buyer", "Marketing Lead",
  "Operations Manager", "Consultant", "Accountant", "Lawyer", "Mechanic",
];
const CITIES = ["Berlin", "Paris", "Lyon", "Madrid", "Lisbon", "Milan", "Vienna", "Zurich", "Oslo", "Warsaw", "Prague", "Dublin", "Ghent", "Porto", "Munich"];
const CURRENCIES = ["EUR", "USD", "GBP", "CHF"];
const LINK_ROLES = ["hiring_manager", "decision_maker", "champion", "gatekeeper", "introducer", "other"] as const;
const NOTE_TEXT = [
  "Called, left a voicemail.", "Sent the proposal, follow up next week.", "Strong technical interview.",
  "Asked for references.", "Budget confirmed by the CFO.", "Prefers remote work, open to travel.",
  "Negotiating the start date.", "Met at the trade fair, very interested.",
];
/** Search terms: 3+ letters taken from the middle of generated words (never a word's start). */
export const SEARCH_TERMS = ["anfor", "erwoo", "inric"];

const DAY = 86_400_000;

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function cli(exe: string, args: string[], dataDir: string): Promise<any> {
  const proc = Bun.spawn([exe, ...args, "--data", dataDir, "--json"], {
    env: { ...process.env, DOSSIER_LOG: "off" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${exe} ${args.join(" ")} failed (${code}): ${err.trim()}`);
  return JSON.parse(out);
}

/** Tables that keep counts: dossier_counts (migrations 0002/0003) is filled by its triggers on
 * dossiers while the seed inserts, contact_kind_counts (migration 0004) in bulk after the load;
 * both are checked here against COUNT(*). rate_counters counts requests on PostgreSQL only and is
 * empty on SQLite (src/db/schema.ts). Any other table whose name says "count" is one the seeder
 * does not know yet, and is reported. */
function checkCounts(db: Database, log: (line: string) => void) {
  const tables = db
    .query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%count%' AND name NOT LIKE 'sqlite_%'`)
    .all()
    .map((r) => r.name);
  for (const table of tables) {
    if (table === "contact_kind_counts") {
      const wrong = db
        .query<{ k: string }, []>(
          `SELECT organization_id || kind_mask AS k FROM (
             SELECT organization_id, kind_mask, count(*) AS n FROM contacts GROUP BY 1, 2
             EXCEPT SELECT organization_id, kind_mask, n FROM contact_kind_counts WHERE n <> 0)`,
        )
        .all();
      if (wrong.length > 0) throw new Error(`seed: contact_kind_counts disagrees with COUNT(*) on ${wrong.length} keys`);
      log("seed: contact_kind_counts agrees with COUNT(*) on every key");
      continue;
    }
    if (table === "rate_counters") continue;
    if (table !== "dossier_counts") {
      log(`seed: WARNING table ${table} looks like maintained counts that bench/seed.ts does not know: check it`);
      continue;
    }
    const wrong = db
      .query<{ k: string }, []>(
        `SELECT organization_id || type || status || flow_id || stage_id AS k FROM (
           SELECT organization_id, type, status, coalesce(flow_id, '') AS flow_id, coalesce(current_stage_id, '') AS stage_id, count(*) AS n
             FROM dossiers GROUP BY 1, 2, 3, 4, 5
           EXCEPT SELECT organization_id, type, status, flow_id, stage_id, n FROM dossier_counts WHERE n <> 0)`,
      )
      .all();
    if (wrong.length > 0) throw new Error(`seed: dossier_counts disagrees with COUNT(*) on ${wrong.length} keys`);
    log("seed: dossier_counts agrees with COUNT(*) on every key");
  }
}

/** The kind_mask bits must be the app's: compare with src/services/contacts.ts when it loads. */
async function checkKinds(log: (line: string) => void) {
  let appKinds: readonly string[] | undefined;
  try {
    appKinds = (await import("../src/services/contacts")).KINDS;
  } catch (error) {
    log(`seed: could not load src/services/contacts.ts to check the kind bits (${(error as Error).message}); using ${KINDS.join(",")}`);
    return;
  }
  if (JSON.stringify(appKinds) !== JSON.stringify(KINDS)) {
    throw new Error(`bench/seed.ts KINDS (${KINDS.join(",")}) differ from src/services/contacts.ts (${appKinds?.join(",")}): update the seeder`);
  }
}

/**
 * Leaves the FTS5 index as the app would have left it after N one-contact transactions, so that
 * the next writes owe no merge a grown file would not owe. FTS5 merges level by level (automerge
 * 4: 4 segments on a level become 1 on the next), and a file grown by the app holds its largest
 * segment at about level log4(N). A bulk-built index sits on the few levels of its bulk flushes
 * instead, and the app's next few thousand writes would then bring 4 segments onto its level and
 * rewrite all of it (300 MB at 1M rows), in slices inside their commits: up to 380 ms for one
 * create (docs/performance.md, point 5). So: 'optimize' into one segment, then, while its level is
 * below floor(log4(N)), rewrite one row (a tiny new segment) and 'optimize' again, which puts the
 * merged segment above every level in use. (A tiny segment cannot be lifted first and the bulk
 * merged onto it: FTS5 moves a segment down to the level of any new segment at least as large.)
 * Bounded: 16 rounds.
 */
function settleSearchIndex(db: Database, n: number, show: (text: string) => void) {
  const target = Math.floor(Math.log(Math.max(n, 1)) / Math.log(4));
  const firstRow = db.query<{ id: number }, []>("SELECT id FROM contact_search ORDER BY id LIMIT 1").get();
  for (let round = 0; round < 16; round++) {
    show(`contact search index (optimize, round ${round + 1})`);
    db.run("INSERT INTO contacts_fts (contacts_fts) VALUES ('optimize')");
    const levels = ftsLevels(db);
    if (levels.length !== 1) throw new Error(`seed: after 'optimize' the FTS5 index has ${levels.length} segments`);
    if (levels[0] >= target || !firstRow) return levels[0];
    db.run("UPDATE contact_search SET full_name = full_name WHERE id = ?", [firstRow.id]);
  }
  throw new Error(`seed: the FTS5 index did not reach level ${target} in 16 rounds`);
}

/** The level of each segment of contacts_fts, from its structure record (the row with id 10 of
 * contacts_fts_data; layout in SQLite's ext/fts5/fts5_index.c, "Structure record"). */
export function ftsLevels(db: Database): number[] {
  const block = db.query<{ block: Uint8Array }, []>("SELECT block FROM contacts_fts_data WHERE id = 10").get()?.block;
  if (!block) return [];
  // A 4-byte cookie, then (format 2) the marker ff 00 00 01, then varints.
  const v2 = block[4] === 0xff && block[5] === 0 && block[6] === 0 && block[7] === 1;
  let at = v2 ? 8 : 4;
  const varint = () => {
    let value = 0;
    for (let i = 0; i < 9; i++) {
      const byte = block[at++];
      if (i === 8) return value * 256 + byte;
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
    return value;
  };
  const levelCount = varint();
  varint(); // segments in all
  varint(); // write counter
  const levels: number[] = [];
  for (let level = 0; level < levelCount; level++) {
    varint(); // segments being merged
    const segments = varint();
    for (let i = 0; i < segments; i++) {
      for (let field = 0; field < (v2 ? 8 : 3); field++) varint(); // id, first and last page (+ origins, tombstones, entries)
      levels.push(level);
    }
  }
  return levels;
}

/** A one-line progress display on a terminal (`\r`-rewritten); silent when stderr is not a TTY. */
function progressLine(enabled: boolean) {
  let last = 0;
  let shown = false;
  return {
    show(phase: string, done?: number, total?: number) {
      if (!enabled) return;
      const now = performance.now();
      if (done !== undefined && done !== total && now - last < 100) return; // at most ~10 redraws a second
      last = now;
      shown = true;
      const count = done === undefined ? "" : ` ${done.toLocaleString("en-US")}/${(total ?? 0).toLocaleString("en-US")}`;
      process.stderr.write(`\r\x1b[2Kseed: ${phase}${count}`);
    },
    /** Clears the line before a log line or at the end, so that lines never mix. */
    clear() {
      if (enabled && shown) process.stderr.write("\r\x1b[2K");
      shown = false;
    },
  };
}

export async function seed(options: {
  exe: string;
  dataDir: string;
  n: number;
  log?: (line: string) => void;
  /** Show a `\r` progress line on stderr; only ever when stderr is a TTY. */
  progress?: boolean;
}): Promise<SeedResult> {
  const progress = progressLine(Boolean(options.progress) && process.stderr.isTTY === true);
  const baseLog = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const log = (line: string) => {
    progress.clear();
    baseLog(line);
  };
  const n = options.n;
  await checkKinds(log);
  const dataDir = resolve(options.dataDir);
  const t0 = performance.now();
  if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });

  // 1. The organization, its default flows and a key, with the real executable (real migrations).
  progress.show("organization and key (CLI)");
  const org = await cli(options.exe, ["org", "create", "--name", "Bench"], dataDir);
  await cli(options.exe, ["org", "update", org.id, "--rate-limit", "1000000"], dataDir);
  const key = await cli(options.exe, ["key", "create", "--org", org.id, "--scopes", "all", "--name", "bench"], dataDir);
  const tCli = performance.now();

  const dbPath = join(dataDir, "dossier.db");
  const db = new Database(dbPath, { strict: true });
  db.run("PRAGMA journal_mode = OFF");
  db.run("PRAGMA synchronous = OFF");
  db.run("PRAGMA locking_mode = EXCLUSIVE");
  db.run("PRAGMA cache_size = -1000000"); // ~1 GB
  db.run("PRAGMA temp_store = MEMORY");
  db.run("PRAGMA foreign_keys = OFF"); // rows are consistent by construction
  db.run("PRAGMA threads = 2"); // CREATE INDEX sorts on both cores

  const flowRows = db
    .query<{ id: string; type: "candidate" | "sales" }, [string]>(`SELECT id, type FROM flows WHERE organization_id = ? AND is_default = 1`)
    .all(org.id);
  const flows = {} as { candidate: FlowRef; sales: FlowRef };
  for (const f of flowRows) {
    flows[f.type] = {
      id: f.id,
      stages: db
        .query<StageRef, [string]>(`SELECT id, name, position, deadline_days FROM stages WHERE flow_id = ? ORDER BY position`)
        .all(f.id),
    };
  }
  if (!flows.candidate || !flows.sales) throw new Error("the organization has no default flows (C4)");

  // 2. Drop the secondary indexes of the bulk tables; re-created after the load.
  const indexes = db
    .query<{ name: string; sql: string }, []>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
         AND tbl_name IN ('dossiers', 'contacts', 'dossier_contacts', 'notes')`,
    )
    .all();
  for (const index of indexes) db.run(`DROP INDEX "${index.name}"`);
  // The search table's triggers too: contact_search and its FTS5 index are filled in bulk after the
  // load, with the triggers' own SQL (the same folding), then the triggers are put back as they were.
  const triggers = process.env.BENCH_SEED_FTS === "trigger" ? [] : db
    .query<{ name: string; sql: string }, []>(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'contacts' AND name = 'contacts_search_ai'`)
    .all();
  for (const trigger of triggers) db.run(`DROP TRIGGER "${trigger.name}"`);
  // Likewise the insert triggers of migration 0004 (kind counts and the contacts generation): an
  // upsert or two per contact and per link during the load cost more than one GROUP BY after it.
  const countTriggers = db
    .query<{ name: string; sql: string }, []>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ('contacts_counts_insert', 'dossier_contacts_generation_insert')`,
    )
    .all();
  for (const trigger of countTriggers) db.run(`DROP TRIGGER "${trigger.name}"`);

  const insertDossier = db.prepare(
    `INSERT INTO dossiers (id, organization_id, flow_id, type, name, email, phone, company, role, contact_person, status,
       current_stage_id, assigned_to, deal_size, deal_currency, intake_notes, cv_url, contact_id, stage_entered_at,
       stage_due_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
  );
  const insertContact = db.prepare(
    `INSERT INTO contacts (id, organization_id, full_name, email, email_folded, phone, linkedin_url, company, role, city,
       kind, kind_mask, notes, pool_added_at, pool_expires_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertLink = db.prepare(
    `INSERT INTO dossier_contacts (dossier_id, contact_id, organization_id, role_on_dossier, is_primary, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insertNote = db.prepare(
    `INSERT INTO notes (id, organization_id, dossier_id, content, is_internal, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );

  const random = seededRandom(20_261_122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const now = Date.now();
  const start = now - 730 * DAY; // two years of history, oldest first
  const step = (730 * DAY) / n;
  const users = Array.from({ length: 25 }, () => crypto.randomUUID());
  const orgId: string = org.id;
  const dossierIds: string[] = new Array(n);
  const dossierCreated: number[] = new Array(n);
  const contactIds: string[] = new Array(n);
  const types: ("candidate" | "sales")[] = new Array(n);
  const sampleIds: string[] = [];
  const sampleCandidateIds: string[] = [];
  const sampleEvery = Math.max(1, Math.floor(n / 2000));
  const batch = 50_000;

  for (let from = 0; from < n; from += batch) {
    progress.show("dossiers, contacts, primary links", from, n);
    db.transaction(() => {
      for (let i = from; i < Math.min(n, from + batch); i++) {
        const type = random() < 0.6 ? "candidate" : "sales";
        const flow = flows[type];
        const r = random();
        const status = r < 0.7 ? "active" : r < 0.8 ? "won" : r < 0.9 ? "lost" : "archived";
        const last = flow.stages.length - 1;
        const stage =
          status === "won" ? flow.stages[last] : flow.stages[Math.min(last - 1, Math.floor(random() * random() * last))];
        const created = Math.floor(start + i * step + random() * step);
        const entered = created + Math.floor(random() * Math.min(60 * DAY, now - created));
        const due = stage.deadline_days === null ? null : new Date(entered + stage.deadline_days * DAY).toISOString();
        const createdIso = new Date(created).toISOString();
        const updatedIso = new Date(entered).toISOString();
        const first = pick(FIRST);
        const lastName = pick(LAST_A) + pick(LAST_B) + pick(LAST_C);
        const name = `${first} ${lastName}`;
        const company = pick(COMPANY_A) + pick(COMPANY_B) + " " + pick(COMPANY_C);
        const role = pick(ROLES);
        const email = `${first}.${lastName}.${i}@${company.split(" ")[0]}.example`.toLowerCase();
        const phone = `+33 6 ${String(i % 100_000_000).padStart(8, "0")}`;
        // Ids as the app makes them (src/ids.ts): UUIDv7 of the row's creation time.
        const id = Bun.randomUUIDv7("hex", created);
        const contactId = Bun.randomUUIDv7("hex", created);
        const sales = type === "sales";
        insertDossier.run(
          id, orgId, flow.id, type, sales ? `${company} (${role})` : name, email, phone, company, role,
          sales ? name : null, status, stage.id, random() < 0.8 ? pick(users) : null,
          sales ? Math.round(random() * 200) * 500 : null, sales ? pick(CURRENCIES) : null,
          random() < 0.3 ? "Referred by a partner; see the call notes." : null,
          contactId, updatedIso, due, createdIso, updatedIso,
        );
        // The contact created with the dossier (C5): kind candidate or prospect, plus other kinds.
        const kinds: Kind[] = [sales ? "prospect" : "candidate"];
        const k = random();
        if (k < 0.15) kinds.push("client");
        else if (k < 0.2) kinds.push("supplier");
        else if (k < 0.25) kinds.push("partner");
        const inPool = !sales && random() < 0.3;
        insertContact.run(
          contactId, orgId, name, email, email, phone,
          random() < 0.5 ? `https://www.linkedin.com/in/${first.toLowerCase()}-${lastName.toLowerCase()}-${i}` : null,
          company, role, pick(CITIES), JSON.stringify(kinds), kindMask(kinds), null,
          inPool ? createdIso : null, inPool ? new Date(created + 365 * DAY).toISOString() : null, createdIso, createdIso,
        );
        insertLink.run(id, contactId, orgId, "primary", 1, createdIso);
        dossierIds[i] = id;
        dossierCreated[i] = created;
        contactIds[i] = contactId;
        types[i] = type;
        if ((i & 4095) === 0) progress.show("dossiers, contacts, primary links", i, n);
        if (i % sampleEvery === 0) {
          sampleIds.push(id);
          if (type === "candidate") sampleCandidateIds.push(id);
        }
      }
    }).immediate();
  }
  // Secondary links (10 % of dossiers) and notes (N/4), in further big transactions.
  progress.show("dossiers, contacts, primary links", n, n);
  progress.show("secondary links and notes");
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      if (random() >= 0.1 || n < 2) continue;
      let j = Math.floor(random() * n);
      if (j === i) j = (j + 1) % n;
      insertLink.run(dossierIds[i], contactIds[j], orgId, pick(LINK_ROLES), 0, new Date(dossierCreated[i] + DAY).toISOString());
    }
    for (let k = 0; k < Math.floor(n / 4); k++) {
      const i = Math.floor(random() * n);
      const at = new Date(Math.min(now, dossierCreated[i] + Math.floor(random() * 30 * DAY))).toISOString();
      insertNote.run(Bun.randomUUIDv7("hex", Date.parse(at)), orgId, dossierIds[i], pick(NOTE_TEXT), random() < 0.8 ? 1 : 0, at);
    }
  }).immediate();
  const tRows = performance.now();

  if (triggers.length > 0) {
    progress.show("contact search index (FTS5 trigram)");
    // No merging during the fill (a large in-memory hash, automerge off): one 'optimize' after it
    // merges the few segments once, instead of every row being merged level after level.
    db.run("INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('hashsize', 67108864)");
    db.run("INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('automerge', 0)");
    db.transaction(() => {
      // As trigger contacts_search_ai (migration 0004's version) writes it; contact_search_ai fills the FTS index.
      db.run(`INSERT INTO contact_search (contact_id, organization_id, full_name, email, company, role, created_at)
              SELECT id, organization_id, lower(full_name), email_folded, lower(company), lower(role), created_at FROM contacts ORDER BY rowid`);
    }).immediate();
    for (const trigger of triggers) db.run(trigger.sql);
    // Back to FTS5's defaults (the rows stay in contacts_fts_config, which is read-only to SQL).
    db.run("INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('hashsize', 1048576)");
    db.run("INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('automerge', 4)");
  }
  settleSearchIndex(db, n, (text) => progress.show(text));
  if (countTriggers.length > 0) {
    db.transaction(() => {
      // What trigger contacts_counts_insert would have left: migration 0004's own backfill.
      db.run(`INSERT INTO contact_kind_counts (organization_id, kind_mask, n)
              SELECT organization_id, kind_mask, count(*) FROM contacts GROUP BY organization_id, kind_mask
              ON CONFLICT DO UPDATE SET n = n + excluded.n`);
      db.run(`INSERT INTO contact_generations (organization_id, generation)
              SELECT DISTINCT organization_id, 1 FROM contacts WHERE true
              ON CONFLICT DO UPDATE SET generation = generation + 1`);
    }).immediate();
    for (const trigger of countTriggers) db.run(trigger.sql);
  }
  const tSearch = performance.now();
  log(`seed: rows ${((tRows - tCli) / 1000).toFixed(1)} s, search table ${((tSearch - tRows) / 1000).toFixed(1)} s`);

  indexes.forEach((index, i) => {
    progress.show(`indexes (${index.name})`, i, indexes.length);
    db.run(index.sql);
  });
  progress.show("checking counts");
  // No ANALYZE: the app never runs it, so the planner sees what a real deployment's file gives it.
  const tIndexes = performance.now();

  const counts: Record<string, number> = {};
  for (const table of ["dossiers", "contacts", "dossier_contacts", "notes", "contact_search"]) {
    counts[table] = db.query<{ c: number }, []>(`SELECT count(*) AS c FROM ${table}`).get()!.c;
  }
  const searchTerms = SEARCH_TERMS.map((term) => ({
    term,
    matches: db
      .query<{ c: number }, [string]>(`SELECT count(*) AS c FROM contacts_fts WHERE contacts_fts MATCH ?`)
      .get(`"${term}"`)!.c,
  }));
  checkCounts(db, log);

  progress.show("fsync");
  db.run("PRAGMA locking_mode = NORMAL");
  db.run("PRAGMA journal_mode = WAL");
  // Closed for real: with a statement left unfinalized, close() only marks the connection to be
  // closed when the garbage collector finalizes it, and the bench runs its servers from this
  // process meanwhile. Such a lingering connection (its locks dropped by the closeSync below: POSIX
  // drops a process's locks on a file when any of its descriptors for it closes) was seen to
  // corrupt the file under the servers' writes; close(true) throws rather than linger.
  for (const statement of [insertDossier, insertContact, insertLink, insertNote]) statement.finalize();
  db.close(true);
  // synchronous=OFF left the file's pages to the kernel's write-back: flush them now, so that the
  // server's first fsync (its first write under synchronous=FULL) is not charged for the seed.
  const fd = openSync(dbPath, "r+");
  fsyncSync(fd);
  closeSync(fd);
  const tEnd = performance.now();
  progress.clear();
  const seconds = {
    cli: (tCli - t0) / 1000,
    rows: (tRows - tCli) / 1000,
    indexes: (tIndexes - tRows) / 1000,
    total: (tEnd - t0) / 1000,
  };
  log(
    `seed: N=${n} in ${seconds.total.toFixed(1)} s (cli ${seconds.cli.toFixed(1)} s, rows ${seconds.rows.toFixed(1)} s, ` +
      `indexes ${seconds.indexes.toFixed(1)} s): ${Object.entries(counts).map(([t, c]) => `${t}=${c}`).join(" ")}`,
  );
  return {
    dataDir,
    dbPath,
    n,
    organizationId: orgId,
    key: key.key,
    flows,
    sampleIds,
    sampleCandidateIds,
    searchTerms,
    counts,
    seconds,
  };
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const n = Number(flag(argv, "n") ?? "10000");
  const dataDir = flag(argv, "data") ?? `/tmp/dossier-bench/n${n}`;
  const exe = resolve(flag(argv, "exe") ?? "dist/dossier");
  // --json: machine-readable use, so no progress line even on a terminal.
  const result = await seed({ exe, dataDir, n, progress: !argv.includes("--json") });
  const { sampleIds, sampleCandidateIds, ...rest } = result;
  console.log(JSON.stringify({ ...rest, sampleIds: sampleIds.length, sampleCandidateIds: sampleCandidateIds.length }, null, 2));
}
