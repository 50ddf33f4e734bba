// The raw baseline: a minimal Bun.serve + prepared bun:sqlite server running the same SQL as the
// app for the unfiltered dossier list and for the JSON create, against the same data folder.
// No framework, no auth, no validation beyond what the SQL needs: what the hardware and SQLite give.
//
//   bun bench/raw-server.ts --data DIR --org ORG_ID --port 18081
//
//   GET  /list?page=P&per_page=K  -> { data: [Dossier], meta: { total, page, per_page } }
//        the app's GET /dossiers SQL without filters (C10: archived left out): an exact COUNT(*)
//        and one page, newest first, its rows as JSON text from SQLite as the app makes them.
//   POST /create (JSON: type, name, email, phone, company, role)  -> 201 { data: Dossier }
//        one BEGIN IMMEDIATE transaction under synchronous=FULL: the default flow and its first
//        stage, the contact with the same email (if any), INSERT dossier, INSERT contact (whose
//        triggers fill contact_search and the FTS index), INSERT the primary link, INSERT the
//        dossier.created outbox event with its JSON body. Each create is its own transaction and
//        its own fsync: issue 18's "raw one-create-per-transaction baseline" (bench/README.md).
//
// Keep this in step with src/services/dossiers.ts: the raw list reads the total the way the app
// does (dossier_counts when the file has it), and the raw create fires the same triggers (counts,
// contact search) and makes its ids as the app does (src/ids.ts), or the ratios would compare
// different work (see bench/README.md).
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { newId, timeOrderedId } from "../src/ids";

function flag(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] : fallback;
  if (value === undefined) throw new Error(`raw-server: --${name} is required`);
  return value;
}

const dataDir = flag("data");
const orgId = flag("org");
const port = Number(flag("port", "18081"));

const db = new Database(join(dataDir, "dossier.db"), { strict: true });
db.run("PRAGMA busy_timeout = 10000");
db.run("PRAGMA journal_mode = WAL");
db.run("PRAGMA synchronous = FULL");
db.run("PRAGMA foreign_keys = ON");

const COLUMNS =
  "id, organization_id, flow_id, type, name, email, phone, company, role, contact_person, status, current_stage_id, " +
  "assigned_to, deal_size, deal_currency, intake_notes, cv_url, contact_id, stage_entered_at, stage_due_at, created_at, updated_at";

// The same total as the app's: from the maintained counts when the file has them (migration 0002,
// kept by the triggers of 0003, which fire for the raw create too), else an exact COUNT(*).
const hasCounts = db.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'dossier_counts'`).get() !== null;
export const COUNT_SQL = hasCounts
  ? `SELECT coalesce(sum(n), 0) AS n FROM dossier_counts WHERE organization_id = ? AND status <> 'archived'`
  : `SELECT count(*) AS n FROM dossiers WHERE organization_id = ? AND status <> 'archived'`;
const countList = db.query<{ n: number }, [string]>(COUNT_SQL);
// The app's page as JSON text made by SQLite (src/services/dossier-json.ts): json_object around
// deal_size, which JSON.stringify prints, so the text equals JSON.stringify of the rows.
const jsonObject = (columns: string) => `json_object(${columns.split(", ").map((c) => `'${c}', ${c}`).join(", ")})`;
const JSON_COLUMNS =
  `${jsonObject("id, organization_id, flow_id, type, name, email, phone, company, role, contact_person, status, current_stage_id, assigned_to")} AS head, ` +
  `deal_size, ${jsonObject("deal_currency, intake_notes, cv_url, contact_id, stage_entered_at, stage_due_at, created_at, updated_at")} AS tail, created_at, id`;
const pageList = db.query<{ head: string; deal_size: number | null; tail: string }, [string, number, number]>(
  `SELECT ${JSON_COLUMNS} FROM dossiers WHERE organization_id = ? AND status <> 'archived' ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
);
const rowJson = (r: { head: string; deal_size: number | null; tail: string }) =>
  `${r.head.slice(0, -1)},"deal_size":${JSON.stringify(r.deal_size)},${r.tail.slice(1)}`;

const defaultFlow = db.query<{ id: string }, [string, string]>(`SELECT id FROM flows WHERE organization_id = ? AND type = ? AND is_default = 1`);
const firstStage = db.query<{ id: string; deadline_days: number | null }, [string]>(
  `SELECT id, deadline_days FROM stages WHERE flow_id = ? ORDER BY position LIMIT 1`,
);
const contactByEmail = db.query<{ id: string }, [string, string]>(`SELECT id FROM contacts WHERE organization_id = ? AND email_folded = ?`);
const insertDossier = db.query(
  `INSERT INTO dossiers (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'active', ?, NULL, NULL, NULL, NULL, NULL, ?, ?, ?, ?, ?)`,
);
const insertContact = db.query(
  `INSERT INTO contacts (id, organization_id, full_name, email, email_folded, phone, linkedin_url, company, role, city, kind,
     kind_mask, notes, pool_added_at, pool_expires_at, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, NULL, ?, ?, NULL, NULL, NULL, ?, ?)`,
);
const insertLink = db.query(
  `INSERT INTO dossier_contacts (dossier_id, contact_id, organization_id, role_on_dossier, is_primary, created_at) VALUES (?, ?, ?, 'primary', 1, ?)`,
);
const endpoint = db.query<{ ok: number }, [string]>(`SELECT 1 AS ok FROM webhook_endpoints WHERE organization_id = ? AND disabled_at IS NULL`);
const insertEvent = db.query(
  `INSERT INTO events (id, organization_id, type, created_at, body, status, attempts, next_attempt_at) VALUES (?, ?, 'dossier.created', ?, ?, ?, 0, ?)`,
);

const DAY_MS = 86_400_000;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

interface CreateBody {
  type: "candidate" | "sales";
  name: string;
  email?: string | null;
  phone?: string | null;
  company?: string | null;
  role?: string | null;
}

const create = db.transaction((input: CreateBody) => {
  const flow = defaultFlow.get(orgId, input.type)!;
  const stage = firstStage.get(flow.id);
  const now = new Date().toISOString();
  const id = newId();
  const email = input.email ?? null;
  const existing = email === null ? null : contactByEmail.get(orgId, email.toLowerCase());
  const contactId = existing?.id ?? newId();
  const due = stage && stage.deadline_days !== null ? new Date(Date.parse(now) + stage.deadline_days * DAY_MS).toISOString() : null;
  const dossier = {
    id, organization_id: orgId, flow_id: flow.id, type: input.type, name: input.name.trim(), email,
    phone: input.phone ?? null, company: input.company ?? null, role: input.role ?? null, contact_person: null,
    status: "active", current_stage_id: stage?.id ?? null, assigned_to: null, deal_size: null, deal_currency: null,
    intake_notes: null, cv_url: null, contact_id: contactId, stage_entered_at: stage ? now : null, stage_due_at: due,
    created_at: now, updated_at: now,
  };
  if (!existing) {
    const kind = input.type === "candidate" ? "candidate" : "prospect";
    insertContact.run(
      contactId, orgId, dossier.name, email, email?.toLowerCase() ?? null, dossier.phone, dossier.company, dossier.role,
      JSON.stringify([kind]), kind === "candidate" ? 1 : 2, now, now,
    );
  }
  insertDossier.run(
    id, orgId, flow.id, input.type, dossier.name, email, dossier.phone, dossier.company, dossier.role,
    dossier.current_stage_id, contactId, dossier.stage_entered_at, due, now, now,
  );
  insertLink.run(id, contactId, orgId, now);
  const eventId = "evt_" + timeOrderedId();
  const pending = endpoint.get(orgId) !== null;
  const body = JSON.stringify({ id: eventId, type: "dossier.created", created_at: now, organization_id: orgId, data: dossier });
  insertEvent.run(eventId, orgId, now, body, pending ? "pending" : "skipped", pending ? Date.now() : null);
  return dossier;
});

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/list" && request.method === "GET") {
      const page = Number(url.searchParams.get("page") ?? "1");
      const perPage = Number(url.searchParams.get("per_page") ?? "25");
      const total = countList.get(orgId)!.n;
      const offset = (page - 1) * perPage;
      const data = offset >= total ? "[]" : `[${pageList.all(orgId, perPage, offset).map(rowJson).join(",")}]`;
      return new Response(`{"data":${data},"meta":${JSON.stringify({ total, page, per_page: perPage })}}`, {
        headers: { "content-type": "application/json" },
      });
    }
    if (url.pathname === "/create" && request.method === "POST") {
      const input = (await request.json()) as CreateBody;
      return json({ data: create.immediate(input) }, 201);
    }
    if (url.pathname === "/healthz") return json({ status: "ok", count_sql: COUNT_SQL });
    return json({ error: { code: "not_found", message: "not found" } }, 404);
  },
});

process.stderr.write(`raw-server listening on http://127.0.0.1:${server.port}; total: ${COUNT_SQL}\n`);
process.on("SIGTERM", () => {
  server.stop(true);
  db.close();
  process.exit(0);
});
