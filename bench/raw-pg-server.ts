// The raw baseline on PostgreSQL (issue 34 point 7): a minimal Bun.serve answering the app's
// queries for the dossier list, a dossier by id and the JSON create through the same driver as the
// app (Bun's built-in SQL, a pool of the same size, DOSSIER_DATABASE_POOL's default 10), with the
// same JSON, a long answer sent in one write as the product sends it (src/http/one-write.ts); no
// framework, no auth, no validation, no read snapshot: what the hardware, the driver and PostgreSQL give.
//
//   bun bench/raw-pg-server.ts --url postgres://... --org ORG_ID --port 18082 [--pool 10]
//
//   GET  /list?page=P&per_page=K[&type=T][&status=S] -> { data: [Dossier], meta: { total, page, per_page } }
//        one statement as src/db/pg/dossiers.ts's: the total from dossier_counts (as the app reads it
//        for these filters) and, when the page is not past it, the page newest first; JSON.stringify
//        of the rows.
//   GET  /get/ID -> { data: Dossier }   (every list and record with its metadata as an object, as the API shows it)
//   POST /create (JSON: type, name, email, phone, company, role) -> 201 { data: Dossier }
//        one transaction: the default flow and its first stage, the contact with the same email (if
//        any), INSERT contact (whose triggers fill contact_search and the kind counts), INSERT
//        dossier (the counts' trigger), INSERT the primary link, the webhook-endpoint lookup, the
//        organization's event-numbering lock and the event's number (src/db/pg/events.ts), INSERT
//        the dossier.created event with its JSON body; committed at synchronous_commit = on.
//
// Keep it in step with src/db/pg/dossiers.ts and src/services/dossiers.ts (bench/README.md).
import { SQL } from "bun";
import { newId, timeOrderedId } from "../src/ids";
import { EVENT_NUMBERING_LOCK } from "../src/db/pg/lock-classes";
import { inOneWrite } from "../src/http/one-write";

function flag(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] : fallback;
  if (value === undefined) throw new Error(`raw-pg-server: --${name} is required`);
  return value;
}

const url = flag("url");
const orgId = flag("org");
const port = Number(flag("port", "18082"));
const pool = Number(flag("pool", "10"));

const sql = new SQL({ url, max: pool, idleTimeout: 60 });

const COLUMNS = sql`id, organization_id, flow_id, type, name, email, phone, company, role, contact_person, status, current_stage_id,
  assigned_to, deal_size, deal_currency, intake_notes, cv_url, contact_id, stage_entered_at, stage_due_at, created_at, updated_at, metadata`;
/** The row's metadata (its stored JSON text) as the object the API shows (src/db/metadata.ts). */
const withMetadata = (row: Record<string, unknown>) => {
  row.metadata = row.metadata === "{}" ? {} : JSON.parse(row.metadata as string);
  return row;
};

const DAY_MS = 86_400_000;
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

async function list(page: number, perPage: number, type: string | null, status: string | null) {
  // One statement, as src/db/pg/dossiers.ts reads it: the total, and the page joined to it when the
  // page is not past it (else one row of NULLs).
  const where = sql`organization_id = ${orgId} AND ${status === null ? sql`status <> 'archived'` : sql`status = ${status}`} ${type === null ? sql`` : sql`AND type = ${type}`}`;
  const offset = (page - 1) * perPage;
  const found = await sql`SELECT page.*, total.n AS list_total
    FROM (SELECT coalesce(sum(n), 0)::integer AS n FROM dossier_counts WHERE ${where}) total LEFT JOIN LATERAL (
      SELECT ${COLUMNS} FROM dossiers WHERE total.n > ${offset}::bigint AND ${where}
      ORDER BY created_at DESC, id DESC LIMIT ${perPage}::bigint OFFSET ${offset}::bigint) page ON true`;
  const total = found[0].list_total;
  const rows = found[0].id === null ? [] : found.map(({ list_total: _, ...row }: Record<string, unknown>) => withMetadata(row));
  return `{"data":${JSON.stringify(rows)},"meta":${JSON.stringify({ total, page, per_page: perPage })}}`;
}

interface CreateBody {
  type: "candidate" | "sales";
  name: string;
  email?: string | null;
  phone?: string | null;
  company?: string | null;
  role?: string | null;
}

const create = (input: CreateBody) =>
  sql.begin(async (tx) => {
    // The organization's write order before the create's first check, as src/db/pg/dossiers.ts's flow lookup.
    await tx`SELECT pg_advisory_xact_lock(${EVENT_NUMBERING_LOCK}::integer, hashtext(${orgId}))`;
    const [flow] = await tx<{ id: string }[]>`SELECT id, type FROM flows WHERE organization_id = ${orgId} AND type = ${input.type} AND is_default`;
    const [stage] = await tx<{ id: string; deadline_days: number | null }[]>`SELECT id, deadline_days FROM stages
      WHERE flow_id = ${flow.id} AND organization_id = ${orgId} ORDER BY position LIMIT 1`;
    const now = new Date().toISOString();
    const id = newId();
    const email = input.email ?? null;
    const [existing] = email === null ? [] : await tx<{ id: string }[]>`SELECT id FROM contacts WHERE organization_id = ${orgId} AND email_folded = ${email.toLowerCase()}`;
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
      await tx`INSERT INTO contacts (id, organization_id, full_name, email, email_folded, phone, linkedin_url, company, role, city, kind,
          kind_mask, notes, pool_added_at, pool_expires_at, created_at, updated_at)
        VALUES (${contactId}, ${orgId}, ${dossier.name}, ${email}, ${email?.toLowerCase() ?? null}, ${dossier.phone}, NULL, ${dossier.company},
          ${dossier.role}, NULL, ${JSON.stringify([kind])}, ${kind === "candidate" ? 1 : 2}, NULL, NULL, NULL, ${now}, ${now})`;
    }
    const [stored] = await tx`INSERT INTO dossiers (id, organization_id, flow_id, type, name, email, phone, company, role,
        contact_person, status, current_stage_id, assigned_to, deal_size, deal_currency, intake_notes, cv_url, contact_id, stage_entered_at,
        stage_due_at, created_at, updated_at)
      VALUES (${id}, ${orgId}, ${flow.id}, ${input.type}, ${dossier.name}, ${email}, ${dossier.phone}, ${dossier.company}, ${dossier.role},
        NULL, 'active', ${dossier.current_stage_id}, NULL, NULL, NULL, NULL, NULL, ${contactId}, ${dossier.stage_entered_at}, ${due}, ${now}, ${now})
      RETURNING ${COLUMNS}`;
    await tx`INSERT INTO dossier_contacts (dossier_id, contact_id, organization_id, role_on_dossier, is_primary, created_at)
      VALUES (${id}, ${contactId}, ${orgId}, 'primary', true, ${now})`;
    const pending = (await tx`SELECT 1 AS ok FROM webhook_endpoints WHERE organization_id = ${orgId} AND disabled_at IS NULL`).length > 0;
    const [{ seq }] = await tx<{ seq: number }[]>`SELECT nextval(pg_get_serial_sequence('events', 'seq'))::float8 AS seq`;
    const eventId = "evt_" + timeOrderedId();
    withMetadata(stored);
    const body = JSON.stringify({ id: eventId, type: "dossier.created", created_at: now, organization_id: orgId, data: stored });
    await tx`INSERT INTO events (seq, id, organization_id, type, created_at, body, status, attempts, next_attempt_at)
      VALUES (${seq}::bigint, ${eventId}, ${orgId}, 'dossier.created', ${now}, ${body}, ${pending ? "pending" : "skipped"}, 0, ${pending ? Date.now() : null}::bigint)`;
    return stored;
  });

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/list" && request.method === "GET") {
      const q = url.searchParams;
      const body = await list(Number(q.get("page") ?? "1"), Number(q.get("per_page") ?? "25"), q.get("type"), q.get("status"));
      // As the product sends a long answer made after an await: in one write (src/http/one-write.ts).
      return inOneWrite(request, new Response(body, { headers: { "content-type": "application/json" } }));
    }
    if (url.pathname.startsWith("/get/") && request.method === "GET") {
      const [row] = await sql`SELECT ${COLUMNS} FROM dossiers WHERE id = ${url.pathname.slice(5)} AND organization_id = ${orgId}`;
      return row ? json({ data: withMetadata(row) }) : json({ error: { code: "not_found", message: "not found" } }, 404);
    }
    if (url.pathname === "/create" && request.method === "POST") {
      const input = (await request.json()) as CreateBody;
      return json({ data: await create(input) }, 201);
    }
    if (url.pathname === "/healthz") return json({ status: "ok" });
    return json({ error: { code: "not_found", message: "not found" } }, 404);
  },
});

process.stderr.write(`raw-pg-server listening on http://127.0.0.1:${server.port}\n`);
process.on("SIGTERM", async () => {
  server.stop(true);
  await sql.close({ timeout: 1 }).catch(() => undefined);
  process.exit(0);
});
