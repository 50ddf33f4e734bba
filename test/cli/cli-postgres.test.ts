// C2 and C19: the operator's commands on PostgreSQL (DOSSIER_DATABASE_URL), as real processes, each
// test on a fresh migrated database of the test server and its own data folder (the master key):
// org create|list|update, key create|list|revoke, flow create, member add|list, webhook
// set|deliveries|retry, seed. They print what they print on SQLite (test/cli/cli.test.ts,
// member.test.ts, webhook-deliveries.test.ts, seed.test.ts).
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { onCleanup, tempDir } from "../helpers";
import { migratedDatabase } from "../helpers/stores";
import { dossierRun } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const LINK = /^http:\/\/127\.0\.0\.1:8080\/console\/setup#token=[A-Za-z0-9_-]{43}$/;

function expectOneJsonObject(stdout: string) {
  expect(stdout.trim().split("\n")).toHaveLength(1);
  expect(typeof JSON.parse(stdout)).toBe("object");
}

/** A fresh database and data folder: `run(...args)` runs `dossier ...args --data <folder>` on
 * them; `sql` reads the database beside the CLI. */
async function onPostgres() {
  const url = await migratedDatabase();
  const data = tempDir();
  const run = (...args: string[]) => dossierRun([...args, "--data", data], { DOSSIER_DATABASE_URL: url });
  const sql = new SQL(url, { max: 1 });
  onCleanup(() => sql.close());
  return { run, sql };
}

/** As onPostgres, holding organization "Acme" made by `org create`. */
async function withAcme() {
  const db = await onPostgres();
  const created = db.run("org", "create", "--name", "Acme", "--json");
  return { ...db, created, orgId: created.json?.id as string };
}

describe("dossier org|key|flow|member|webhook|seed --json on PostgreSQL", () => {
  test("org create: growth by default, default rate limit, default flows (C4)", async () => {
    const { sql, created: result, orgId } = await withAcme();
    expect(result.code).toBe(0);
    expectOneJsonObject(result.stdout);
    expect(Object.keys(result.json).sort()).toEqual(["id", "name", "plan", "rate_limit"]);
    expect(result.json).toMatchObject({ name: "Acme", plan: "growth", rate_limit: 600 });
    const [{ n }] = await sql`SELECT count(*)::integer AS n FROM flows WHERE organization_id = ${orgId} AND is_default`;
    expect(n).toBe(2);
  });

  test("org create with plan and rate limit; org update; org list", async () => {
    const { run } = await withAcme();
    const pro = run("org", "create", "--name", "Pro Co", "--plan", "pro", "--rate-limit", "50", "--json");
    expect(pro.json).toMatchObject({ plan: "pro", rate_limit: 50 });
    const updated = run("org", "update", pro.json.id, "--plan", "growth", "--rate-limit", "70", "--name", "Grown", "--json");
    expect(updated.code).toBe(0);
    expect(updated.json).toEqual({ id: pro.json.id, name: "Grown", plan: "growth", rate_limit: 70 });
    const list = run("org", "list", "--json");
    expectOneJsonObject(list.stdout);
    expect(list.json.data.map((o: { name: string }) => o.name)).toEqual(["Acme", "Grown"]);
  });

  test("key create shows the key once; key list never shows it; key revoke", async () => {
    const { run, orgId } = await withAcme();
    const created = run("key", "create", "--org", orgId, "--scopes", "flows:read,dossiers:read", "--name", "ci", "--expires-at", "2030-01-01T00:00:00Z", "--json");
    expect(created.code).toBe(0);
    expectOneJsonObject(created.stdout);
    expect(created.json).toMatchObject({ scopes: ["flows:read", "dossiers:read"], expires_at: "2030-01-01T00:00:00.000Z", name: "ci" });
    expect(created.json.key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    const keyId = created.json.id;
    const all = run("key", "create", "--org", orgId, "--scopes", "all", "--json");
    expect(all.json.scopes).toHaveLength(15);
    const list = run("key", "list", "--org", orgId, "--json");
    expect(list.stdout).not.toContain(created.json.key);
    expect(list.json.data[0]).toEqual({ id: keyId, prefix: created.json.key.slice(0, 12), scopes: ["flows:read", "dossiers:read"], expires_at: "2030-01-01T00:00:00.000Z", revoked_at: null, last_used_at: null, name: "ci" });
    const revoked = run("key", "revoke", keyId, "--json");
    expect(revoked.code).toBe(0);
    expect(Object.keys(revoked.json).sort()).toEqual(["id", "revoked_at"]);
    expect(run("key", "list", "--org", orgId, "--json").json.data[0].revoked_at).toBe(revoked.json.revoked_at);
  });

  test("flow create with defaults for stage fields, and --default moves the flag (C4, C10)", async () => {
    const { run, sql, orgId } = await withAcme();
    const result = run("flow", "create", "--org", orgId, "--type", "candidate", "--name", "Engineering", "--stages", '[{"name":"Sourced"},{"name":"Tech","deadline_days":5,"win_probability":40,"color":"#abc"}]', "--default", "--json");
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ name: "Engineering", type: "candidate", is_default: true, organization_id: orgId });
    expect(result.json.stages.map((s: Record<string, unknown>) => [s.name, s.position, s.deadline_days, s.win_probability, s.color])).toEqual([
      ["Sourced", 1, null, 0, "#9E9E9E"],
      ["Tech", 2, 5, 40, "#abc"],
    ]);
    expect([...(await sql`SELECT name FROM flows WHERE organization_id = ${orgId} AND type = 'candidate' AND is_default`)]).toEqual([{ name: "Engineering" }]);
  });

  test("member add prints the setup link (--json: C20's fields); member list: {data: [member...]}", async () => {
    const { run, orgId } = await withAcme();
    const text = run("member", "add", "--org", orgId, "--email", "ada@cli.example", "--name", "Ada Admin", "--role", "admin");
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n")[0]).toMatch(LINK);
    const json = run("member", "add", "--org", orgId, "--email", "Bob@CLI.example", "--name", "Ada Admin", "--role", "owner", "--json");
    expect(json.code).toBe(0);
    expect(json.stdout.trim().split("\n")).toHaveLength(1);
    expect(Object.keys(json.json).sort()).toEqual(["email", "id", "name", "role", "setup_url"]);
    expect(json.json).toMatchObject({ email: "Bob@CLI.example", name: "Ada Admin", role: "owner", setup_url: expect.stringMatching(LINK) });
    const list = run("member", "list", "--org", orgId, "--json");
    expect(list.code).toBe(0);
    expect(list.json.data.find((m: { id: string }) => m.id === json.json.id)).toEqual({
      id: json.json.id,
      organization_id: orgId,
      email: "Bob@CLI.example",
      name: "Ada Admin",
      role: "owner",
      created_at: expect.any(String),
      last_sign_in_at: null,
      disabled_at: null,
    });
    expect(list.json.data).toHaveLength(2);
    expect(run("member", "list", "--org", orgId).stdout).toContain("ada@cli.example");
  });

  test("webhook set; deliveries lists a failed delivery with --status and --event; retry re-queues it once (C10)", async () => {
    const { run, sql, orgId } = await withAcme();
    const set = run("webhook", "set", "--org", orgId, "--url", "http://127.0.0.1:9/hook", "--json");
    expect(set.code).toBe(0);
    expect(set.json.url).toBe("http://127.0.0.1:9/hook");
    expect(set.json.secret).toMatch(/^whsec_/);
    const rotated = run("webhook", "rotate-secret", "--org", orgId, "--json");
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(set.json.secret);
    // An event of the organization, as the dispatcher leaves a delivery that failed twice.
    expect(run("seed", "--org", orgId, "--dossiers", "1", "--contacts", "1", "--seed", "7", "--json").code).toBe(0);
    const [{ id: eventId }] = await sql`SELECT id FROM events WHERE organization_id = ${orgId} ORDER BY seq LIMIT 1`;
    await sql`UPDATE events SET status = 'failed', attempts = 2, next_attempt_at = NULL, last_status_code = 500, last_error = 'HTTP 500' WHERE id = ${eventId}`;

    const failed = run("webhook", "deliveries", "--org", orgId, "--status", "failed", "--json");
    expect(failed.code).toBe(0);
    expectOneJsonObject(failed.stdout);
    expect(failed.json.data).toEqual([{ event_id: eventId, type: "dossier.created", status: "failed", attempts: 2, next_attempt_at: null, last_status_code: 500, last_error: "HTTP 500" }]);
    const detail = run("webhook", "deliveries", "--org", orgId, "--event", eventId, "--json").json.data[0];
    expect(detail).toMatchObject({ event_id: eventId, status: "failed", attempt_log: [] });

    const retried = run("webhook", "retry", eventId, "--json");
    expect(retried.code).toBe(0);
    expect(retried.json).toEqual({ event_id: eventId, status: "pending" });
    // Retry only a failed delivery: a second one, while pending, exits 1 (C10).
    const again = run("webhook", "retry", eventId, "--json");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(eventId);
    expect(run("webhook", "unset", "--org", orgId, "--json").json).toEqual({ url: null });
  });

  test("seed --json prints one object with the counts", async () => {
    const { run, orgId } = await withAcme();
    const seeded = run("seed", "--org", orgId, "--dossiers", "60", "--contacts", "40", "--seed", "42", "--json");
    expect(seeded.code).toBe(0);
    expect(seeded.stderr).toBe("");
    expect(seeded.stdout.trim().split("\n")).toHaveLength(1);
    const counts = seeded.json.counts;
    expect(seeded.json).toMatchObject({ organization_id: orgId, seed: 42 });
    expect(counts).toMatchObject({ contacts: 40, dossiers: 60 });
    expect(counts.candidate_dossiers + counts.sales_dossiers).toBe(60);
    for (const name of ["candidate_dossiers", "sales_dossiers", "notes", "overdue", "won", "lost"]) expect([name, counts[name] > 0]).toEqual([name, true]);
    expect(counts.links).toBeGreaterThan(60);
  });
});
