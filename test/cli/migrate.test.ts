// C19 "Moving": `dossier migrate --to postgres://...` as real processes on a real PostgreSQL. A
// SQLite data folder is filled through the real API and CLI, moved, and served from PostgreSQL on
// the same data folder: the same answers byte for byte, and new event ids after the copied ones.
// Also: its refusals (exit 1 or 2, nothing written), a failure midway leaving the target empty, the
// source file untouched.
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { CountMismatchError, MOVE_TABLES, moveToPg, NOT_MOVED } from "../../src/db/pg/move";
import * as pgSchema from "../../src/db/pg/schema";
import { tempDir } from "../helpers";
import { freshDatabase } from "../helpers/postgres";
import { bootstrapKey, startServerProcess, type ServerProcess } from "../helpers/process";
import { migratedDatabase } from "../helpers/stores";
import { dossierRun } from "./helpers";

setDefaultTimeout(180_000);

const sha256 = (path: string) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");

interface Seeded {
  data: string;
  key: string;
  orgId: string;
  flowId: string;
  dossierId: string;
  /** The GETs compared across engines: path → body. */
  answers: Map<string, string>;
  lastEventId: string;
}

async function api(server: ServerProcess, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined || body instanceof FormData ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === "" ? undefined : JSON.parse(text);
}

/** The GETs whose answers must be the same bytes on both engines. */
const paths = (s: Pick<Seeded, "flowId" | "dossierId">) => [
  "/dossiers?per_page=100",
  "/dossiers?status=active&per_page=5&page=2",
  "/contacts?per_page=100",
  "/contacts?q=ada",
  `/dossiers/${s.dossierId}`,
  `/dossiers/${s.dossierId}/notes`,
  `/dossiers/${s.dossierId}/contacts`,
  `/dossiers/${s.dossierId}/history`,
  "/events?limit=100",
  "/flows",
  `/flows/${s.flowId}/stages`,
  `/flows/${s.flowId}/stats?from=2026-01-01T00:00:00.000Z&to=2030-01-01T00:00:00.000Z`,
  "/tasks",
  "/members",
  "/imports",
  "/keys",
  "/webhook-endpoint",
];

async function answersOf(server: ServerProcess, key: string, s: Pick<Seeded, "flowId" | "dossierId">) {
  const answers = new Map<string, string>();
  for (const path of paths(s)) {
    const response = await fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    // What moves with the clock and with these very reads, not with the data: an open stay's `days`
    // (C18), the key's last use.
    const text = (await response.text()).replace(/"left_at":null,"days":[0-9.e+-]+/g, '"left_at":null,"days":"now"').replace(/"last_used_at":"[^"]+"/g, '"last_used_at":"used"');
    answers.set(path, `${response.status} ${text}`);
  }
  return answers;
}

/** A SQLite data folder filled through the real server and CLI, then stopped. */
async function seededFolder(): Promise<Seeded> {
  const data = tempDir();
  const server = await startServerProcess(data);
  const key = bootstrapKey(server);
  const orgs = dossierRun(["org", "list", "--json", "--data", data]);
  const orgId = orgs.json.data[0].id as string;
  expect(dossierRun(["key", "create", "--org", orgId, "--scopes", "all", "--name", "second", "--data", data]).code).toBe(0);
  const flow = (await api(server, key, "POST", "/flows", {
    type: "sales",
    name: "Moved deals",
    stages: [{ name: "Lead", deadline_days: 3 }, { name: "Offer", win_probability: 60 }, { name: "Signed", win_probability: 100 }],
  })).data;
  const stages = (await api(server, key, "GET", `/flows/${flow.id}/stages`)).data;
  const contacts = [];
  for (const [i, name] of ["Ada Lovelace", "Zoë Ångström", "Grace\tHopper\\n"].entries()) {
    contacts.push((await api(server, key, "POST", "/contacts", { full_name: name, email: `c${i}@example.com`, kind: ["client"], company: "Ünïcode AG" })).data);
  }
  const dossiers = [];
  for (let i = 0; i < 12; i++) {
    const dossier = (await api(server, key, "POST", "/dossiers", {
      name: `Deal ${i}\nline two`,
      type: "sales",
      flow_id: flow.id,
      deal_size: 1000.5 + i,
      deal_currency: "EUR",
      company: "Acme",
    })).data;
    dossiers.push(dossier);
    await api(server, key, "POST", `/dossiers/${dossier.id}/notes`, { content: `note ${i} "quoted" \\ back` });
  }
  await api(server, key, "POST", `/dossiers/${dossiers[0].id}/contacts`, { contact_id: contacts[0].id, role_on_dossier: "decision_maker", is_primary: true });
  await api(server, key, "POST", `/dossiers/${dossiers[0].id}/contacts`, { contact_id: contacts[1].id, role_on_dossier: "champion" });
  await api(server, key, "PATCH", `/dossiers/${dossiers[0].id}`, { current_stage_id: stages[1].id });
  await api(server, key, "PATCH", `/dossiers/${dossiers[0].id}`, { current_stage_id: stages[2].id });
  await api(server, key, "PATCH", `/dossiers/${dossiers[1].id}`, { status: "won" });
  await api(server, key, "PATCH", `/dossiers/${dossiers[2].id}`, { status: "lost" });
  await api(server, key, "PUT", "/webhook-endpoint", { url: "https://hooks.example.invalid/dossier" });
  const member = (await api(server, key, "POST", "/members", { email: "Owner.Two@example.com", name: "Owner Two", role: "admin" })).data;
  const token = /#token=(.+)$/.exec(member.setup_url)![1];
  const signed = await fetch(`${server.url}/api/v1/session/setup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token, password: "a long enough password" }) });
  expect(signed.status).toBe(200);
  await api(server, key, "POST", "/tasks", { title: "Call Ada", dossier_id: dossiers[0].id, due_at: "2026-12-01T09:00:00.000Z", assigned_to: member.member?.id ?? member.id });
  const form = new FormData();
  form.append("file", new File(["name,email\nImported One,imp1@example.com\nImported Two,imp2@example.com\n"], "people.csv", { type: "text/csv" }));
  form.append("resource", "contacts");
  form.append("mapping", JSON.stringify({ name: "full_name", email: "email" }));
  const started = (await api(server, key, "POST", "/imports", form)).data;
  for (let i = 0; i < 200; i++) {
    const state = (await api(server, key, "GET", `/imports/${started.id}`)).data;
    if (state.status === "succeeded") break;
    if (i === 199 || state.status === "failed") throw new Error(`import: ${JSON.stringify(state)}`);
    await Bun.sleep(50);
  }
  const s = { flowId: flow.id as string, dossierId: dossiers[0].id as string };
  const answers = await answersOf(server, key, s);
  const events = (await api(server, key, "GET", "/events?limit=100")).data;
  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  return { data, key, orgId, ...s, answers, lastEventId: events.at(-1).id };
}

async function rowsIn(url: string): Promise<number> {
  const sql = new SQL(url, { max: 1 });
  try {
    let total = 0;
    for (const table of [...MOVE_TABLES.map((t) => t.name), ...NOT_MOVED]) {
      const [present] = await sql`SELECT to_regclass(${`public.${table}`}) IS NOT NULL AS present`;
      if (present.present) total += Number((await sql.unsafe(`SELECT count(*)::int AS n FROM "${table}"`))[0].n);
    }
    return total;
  } finally {
    await sql.close();
  }
}

describe("dossier migrate --to", () => {
  test("copies every table of the PostgreSQL schema but the SQLite-only bookkeeping", () => {
    const all = Object.values(pgSchema).filter((v) => v instanceof PgTable).map((t) => getTableConfig(t as PgTable).name);
    expect(new Set([...MOVE_TABLES.map((t) => t.name), ...NOT_MOVED])).toEqual(new Set([...all, "contact_search"]));
  });

  test("moves a SQLite data folder; PostgreSQL then answers the same bytes, and new events come after the copied ones", async () => {
    const seeded = await seededFolder();
    const db = join(seeded.data, "dossier.db");
    const before = sha256(db);
    const url = await freshDatabase();

    const moved = dossierRun(["migrate", "--to", url, "--data", seeded.data, "--json"]);
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    expect(moved.json.verified).toBe(true);
    expect(moved.json.to).not.toContain("@");
    expect(moved.json.tables.dossiers).toBe(12);
    expect(moved.json.tables.notes).toBe(12);
    expect(moved.json.tables.contacts).toBeGreaterThanOrEqual(5);
    expect(moved.json.tables.sessions).toBe(1);
    expect(moved.json.tables.imports).toBe(1);
    expect(moved.json.tables.stage_visits).toBeGreaterThan(12);
    expect(sha256(db)).toBe(before); // the source untouched
    // The same counts, read from PostgreSQL by the test itself.
    const sql = new SQL(url, { max: 1 });
    for (const [table, n] of Object.entries(moved.json.tables as Record<string, number>)) expect([table, Number((await sql.unsafe(`SELECT count(*)::int AS n FROM "${table}"`))[0].n)]).toEqual([table, n]);
    const source = new Database(db, { readonly: true });
    const folded = source.query(`SELECT contact_id, full_name, email, company, role FROM contact_search ORDER BY contact_id`).all();
    source.close();
    expect(await sql`SELECT contact_id, full_name, email, company, role FROM contact_search ORDER BY contact_id`).toEqual(folded as never);
    await sql.close();

    const server = await startServerProcess(seeded.data, [], { DOSSIER_DATABASE_URL: url });
    expect(server.stderr()).not.toContain("API key (shown once");
    const answers = await answersOf(server, seeded.key, seeded);
    for (const path of paths(seeded)) expect([path, answers.get(path)]).toEqual([path, seeded.answers.get(path)]);
    // The sealed webhook secret opens with the data folder's master.key: rotation needs it.
    expect((await api(server, seeded.key, "POST", "/webhook-endpoint/rotate-secret")).data.secret).toMatch(/^whsec_/);
    // A new event is numbered after every copied one: the feed after the last copied id shows it.
    const note = (await api(server, seeded.key, "POST", `/dossiers/${seeded.dossierId}/notes`, { content: "after the move" })).data;
    const after = (await api(server, seeded.key, "GET", `/events?after=${seeded.lastEventId}`)).data;
    expect(after.map((e: { type: string }) => e.type)).toEqual(["note.created"]);
    expect(after[0].data.id).toBe(note.id);
    const dossier = (await api(server, seeded.key, "POST", "/dossiers", { name: "New on PostgreSQL", type: "sales", flow_id: seeded.flowId })).data;
    expect((await api(server, seeded.key, "GET", `/dossiers/${dossier.id}/history`)).data.length).toBeGreaterThan(0);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(sha256(db)).not.toBe(""); // still there

    // A second move into the now filled database: refused, nothing written.
    const rows = await rowsIn(url);
    const again = dossierRun(["migrate", "--to", url, "--data", seeded.data]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("not empty");
    expect(await rowsIn(url)).toBe(rows);
  });

  test("refusals: bad URL (2), no --to (2), no database (1), a server on the folder (1), a target with data (1); nothing written", async () => {
    const data = tempDir();
    expect(dossierRun(["org", "create", "--name", "Small", "--data", data]).code).toBe(0);
    const bad = dossierRun(["migrate", "--to", "mysql://localhost/db", "--data", data]);
    expect([bad.code, bad.stderr]).toEqual([2, "dossier: --to must be a postgres:// URL: postgres://user:password@host:5432/database\n"]);
    expect(dossierRun(["migrate", "--data", data]).code).toBe(2);

    const url = await freshDatabase();
    const empty = dossierRun(["migrate", "--to", url, "--data", tempDir()]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("no data folder");

    const server = await startServerProcess(data, ["--no-bootstrap"]);
    const busy = dossierRun(["migrate", "--to", url, "--data", data]);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`is in use by process ${server.proc.pid}`);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(await rowsIn(url)).toBe(0);

    const full = await migratedDatabase();
    const sql = new SQL(full, { max: 1 });
    await sql`INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES ('org-x', 'There', 'free', 60, '2026-01-01T00:00:00.000Z')`;
    await sql.close();
    const before = await rowsIn(full);
    const taken = dossierRun(["migrate", "--to", full, "--data", data]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("table organizations holds rows");
    expect(await rowsIn(full)).toBe(before);

    // An empty migrated database is fine (a first start made its schema).
    const migrated = dossierRun(["migrate", "--to", await migratedDatabase(), "--data", data, "--json"]);
    expect(migrated.code).toBe(0);
    expect(migrated.json.tables.organizations).toBe(1);
  });

  test("a failure midway leaves the target without a row; fixed, the move runs again", async () => {
    const data = tempDir();
    const org = dossierRun(["org", "create", "--name", "Broken", "--json", "--data", data]).json;
    // A note whose dossier is gone (SQLite checks no foreign key unless asked): PostgreSQL refuses it
    // after the organizations, flows and stages went in.
    const db = new Database(join(data, "dossier.db"));
    db.run(`INSERT INTO notes (id, organization_id, dossier_id, content, is_internal, created_at) VALUES ('n1', ?, 'no-such-dossier', 'x', 0, '2026-01-01T00:00:00.000Z')`, [org.id]);
    db.close();
    const url = await freshDatabase();
    const failed = dossierRun(["migrate", "--to", url, "--data", data]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("notes");
    expect(await rowsIn(url)).toBe(0);
    const fix = new Database(join(data, "dossier.db"));
    fix.run(`DELETE FROM notes WHERE id = 'n1'`);
    fix.close();
    const moved = dossierRun(["migrate", "--to", url, "--data", data, "--json"]);
    expect(moved.code).toBe(0);
    expect(moved.json.tables.flows).toBe(2);
  });

  test("a count that differs at the end: CountMismatchError naming the table, and nothing kept", async () => {
    const data = tempDir();
    expect(dossierRun(["org", "create", "--name", "Counted", "--data", data]).code).toBe(0);
    const real = new Database(join(data, "dossier.db"), { readonly: true });
    // The source as the copy sees it, but for one more stage said to be there than it reads.
    const source = new Proxy(real, {
      get(target, name) {
        if (name !== "query") return Reflect.get(target, name, target);
        return (text: string) => {
          const query = target.query(text);
          if (text !== `SELECT count(*) AS n FROM "stages"`) return query;
          return { get: () => ({ n: (query.get() as { n: number }).n + 1 }) };
        };
      },
    });
    const url = await freshDatabase();
    const sql = new SQL(url, { max: 1 });
    real.run("BEGIN");
    const failure = await moveToPg(source, sql).catch((error) => error);
    real.close();
    await sql.close();
    expect(failure).toBeInstanceOf(CountMismatchError);
    expect(failure.message).toBe("table stages: 11 rows in SQLite, 10 in PostgreSQL; nothing was kept");
    expect(await rowsIn(url)).toBe(0);
  });

  test("on a terminal: progress on stderr, then the rows per table; with --json no progress", async () => {
    const data = tempDir();
    expect(dossierRun(["org", "create", "--name", "Shown", "--data", data]).code).toBe(0);
    const url = await freshDatabase();
    const command = [process.execPath, join(import.meta.dir, "../../src/main.ts"), "migrate", "--to", url, "--data", data]
      .map((a) => `'${a.replaceAll("'", `'\\''`)}'`)
      .join(" ");
    const run = Bun.spawnSync(["script", "-qec", command, "/dev/null"], { env: { ...process.env, DOSSIER_LOG: "off" } });
    const screen = run.stdout.toString();
    expect(run.exitCode).toBe(0);
    expect(screen).toContain("\r\x1b[2Kmigrate: organizations 1 of 1 rows (all tables: ");
    expect(screen).toContain("migrate: building index");
    expect(screen).toMatch(/rows per table, equal in SQLite and PostgreSQL:\r?\n {2}organizations +1\r?\n/);
    expect(screen).toMatch(/moved \d+ rows to postgres:\/\/127\.0\.0\.1:\d+\/\w+ in [\d.]+ s and checked them/);
    const quiet = Bun.spawnSync(["script", "-qec", `${command} --json`.replace(url, await freshDatabase()), "/dev/null"], { env: { ...process.env, DOSSIER_LOG: "off" } });
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stdout.toString()).not.toContain("migrate:");
    expect(JSON.parse(quiet.stdout.toString()).verified).toBe(true);
  });

  test("--help", () => {
    const help = dossierRun(["migrate", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("dossier migrate --to URL");
  });
});
