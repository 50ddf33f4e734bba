// `dossier seed --org ID [--dossiers N] [--contacts N] [--seed S]` (C2's operator surface): demo
// data made through the services, then read back through the real API (GET, in-process on the
// same data folder) and checked against the API's own schemas: counts, both flows, a spread over
// stages, some overdue (C5), notes, secondary links (C6), deal sizes on sales dossiers only (C3),
// and events recorded but never delivered (docs/decisions.md), even with a webhook endpoint set.
// On both engines (C19): SQLite in the data folder, PostgreSQL through DOSSIER_DATABASE_URL.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { openApp, type DossierApp } from "../../src/app";
import { openConfiguredContext } from "../../src/context";
import type { Store } from "../../src/db/store";
import { Contact, LinkItem } from "../../src/schemas/contacts";
import { Dossier } from "../../src/schemas/dossiers";
import { Note } from "../../src/schemas/notes";
import { writeNewDossier } from "../../src/services/dossiers";
import { call, onCleanup, tempDir } from "../helpers";
import { ENGINES, type Engine } from "../helpers/stores";
import { cliOn, MAIN } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const schemas = { dossier: ajv.compile(Dossier), contact: ajv.compile(Contact), note: ajv.compile(Note), link: ajv.compile(LinkItem) };
const valid = (kind: keyof typeof schemas, value: unknown) => {
  const check = schemas[kind];
  return check(value) ? [] : [kind, check.errors];
};

/** A new data folder (and database on `engine`) with an organization, a key of every scope and an
 * enabled webhook endpoint. */
async function setUp(engine: Engine) {
  const cli = await cliOn(engine, join(tempDir(), "data"));
  const org = cli.run("org", "create", "--name", "Demo Co", "--json").json.id as string;
  const key = cli.run("key", "create", "--org", org, "--scopes", "all", "--json").json.key as string;
  expect(cli.run("webhook", "set", "--org", org, "--url", "http://127.0.0.1:9/hook", "--json").code).toBe(0);
  return { cli, org, key };
}

async function all(app: DossierApp<Store>, key: string, path: string): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; page <= 100; page++) {
    const answer = await call(app, "GET", `${path}${path.includes("?") ? "&" : "?"}per_page=100&page=${page}`, { key });
    expect(answer.status).toBe(200);
    items.push(...answer.json.data);
    if (items.length >= answer.json.meta.total) return items;
  }
  throw new Error(`more than 100 pages at ${path}`);
}

describe.each(ENGINES)("dossier seed on %s: realistic demo data, valid through the API", async (engine) => {
  const { cli, org, key } = await setUp(engine);
  const dossier = cli.run;
  // An event from before the seed, waiting for its delivery: the seed must leave it pending.
  const before = await openConfiguredContext({ dataDir: cli.data, env: { ...cli.env, DOSSIER_LOG: "off" } });
  const earlier = await before.store.write(() => writeNewDossier(before, org, { type: "candidate", name: "Before the seed" }));
  await before.store.close();

  const seeded = dossier("seed", "--org", org, "--dossiers", "60", "--contacts", "40", "--seed", "42", "--json");
  // The API on the seeded folder and database, for every test here: they only read through it.
  const app = await openApp({ dataDir: cli.data, webhooks: false, env: cli.env, config: { log: "off" } });
  onCleanup(() => app.close());

  test("--json prints one object with the counts", () => {
    expect(seeded.code).toBe(0);
    expect(seeded.stderr).toBe("");
    expect(seeded.stdout.trim().split("\n")).toHaveLength(1);
    const counts = seeded.json.counts;
    expect(seeded.json).toMatchObject({ organization_id: org, seed: 42 });
    expect(counts).toMatchObject({ contacts: 40, dossiers: 60 });
    expect(counts.candidate_dossiers + counts.sales_dossiers).toBe(60);
    for (const name of ["candidate_dossiers", "sales_dossiers", "notes", "overdue", "won", "lost"]) expect([name, counts[name] > 0]).toEqual([name, true]);
    expect(counts.links).toBeGreaterThan(60); // every dossier's primary contact, and more on some
  });

  test("every dossier, contact, note and link reads back through the API and matches its schema", async () => {
    const counts = seeded.json.counts;
    const open = await all(app, key, "/api/v1/dossiers");
    const archived = await all(app, key, "/api/v1/dossiers?status=archived");
    const dossiers = [...open, ...archived].filter((d) => d.id !== earlier.id);
    expect(dossiers).toHaveLength(60);
    expect(archived).toHaveLength(counts.archived);
    expect(dossiers.flatMap((d) => valid("dossier", d))).toEqual([]);

    const contacts = await all(app, key, "/api/v1/contacts");
    expect(contacts).toHaveLength(40 + 1); // and the earlier dossier's own contact
    expect(contacts.flatMap((c) => valid("contact", c))).toEqual([]);
    for (const c of contacts) {
      if (c.email) expect(c.email).toMatch(/\.example$/); // no real address (RFC 2606)
    }

    let notes = 0;
    let links = 0;
    for (const d of dossiers) {
      const one = await call(app, "GET", `/api/v1/dossiers/${d.id}`, { key });
      expect(one.status).toBe(200);
      expect(one.json.data).toEqual(d);
      const dossierNotes = await all(app, key, `/api/v1/dossiers/${d.id}/notes`);
      expect(dossierNotes.flatMap((n) => valid("note", n))).toEqual([]);
      for (const n of dossierNotes) expect(Date.parse(n.created_at)).toBeGreaterThanOrEqual(Date.parse(d.created_at));
      notes += dossierNotes.length;
      const linked = await call(app, "GET", `/api/v1/dossiers/${d.id}/contacts`, { key });
      expect(linked.json.data.flatMap((l: unknown) => valid("link", l))).toEqual([]);
      expect(linked.json.data[0]).toMatchObject({ contact_id: d.contact_id, is_primary: true });
      links += linked.json.meta.total;
    }
    expect(notes).toBe(counts.notes);
    expect(links).toBe(counts.links);
    expect(links).toBeGreaterThan(dossiers.length);
  });

  test("both flows, spread over their stages; deal sizes on sales dossiers only; dated in the past", async () => {
    const dossiers = [...(await all(app, key, "/api/v1/dossiers")), ...(await all(app, key, "/api/v1/dossiers?status=archived"))].filter((d) => d.id !== earlier.id);
    const flows = (await call(app, "GET", "/api/v1/flows", { key })).json.data as { type: string; stages: { id: string; position: number }[] }[];
    for (const type of ["candidate", "sales"]) {
      const ofType = dossiers.filter((d) => d.type === type);
      const stages = new Set(ofType.map((d) => d.current_stage_id));
      expect([type, stages.size >= 3]).toEqual([type, true]);
      const flow = flows.find((f) => f.type === type)!;
      for (const d of ofType) expect(flow.stages.map((s) => s.id)).toContain(d.current_stage_id);
      expect(new Set(ofType.map((d) => d.status)).size).toBeGreaterThanOrEqual(2);
    }
    const now = Date.now();
    for (const d of dossiers) {
      if (d.type === "sales") {
        expect(d.deal_size).toBeGreaterThan(0);
        expect(d.deal_currency).toBe("EUR");
        expect(d.contact_person).toEqual(expect.any(String));
      } else {
        expect([d.deal_size, d.deal_currency, d.contact_person]).toEqual([null, null, null]);
      }
      expect(Date.parse(d.created_at)).toBeLessThan(now);
      expect(Date.parse(d.stage_entered_at)).toBeGreaterThanOrEqual(Date.parse(d.created_at));
      expect(Date.parse(d.updated_at)).toBeLessThan(now);
    }
    expect(new Set(dossiers.map((d) => d.created_at.slice(0, 10))).size).toBeGreaterThan(10); // spread over many days
  });

  test("C5: the overdue count is what GET /dossiers?overdue=true answers", async () => {
    const overdue = (await all(app, key, "/api/v1/dossiers?overdue=true")).filter((d) => d.id !== earlier.id);
    expect(overdue.length).toBe(seeded.json.counts.overdue);
    for (const d of overdue) expect(Date.parse(d.stage_due_at)).toBeLessThanOrEqual(Date.now());
  });

  test("the seed's events are recorded but skipped, with an endpoint set; the earlier pending one stays pending", () => {
    const pending = dossier("webhook", "deliveries", "--org", org, "--status", "pending", "--json").json.data;
    expect(pending).toHaveLength(1);
    const log = dossier("webhook", "deliveries", "--org", org, "--json").json.data as { status: string; type: string }[];
    expect(log.length).toBeGreaterThan(60 + seeded.json.counts.notes); // created, stage moves, notes...
    expect(log.filter((e) => e.status !== "skipped")).toHaveLength(1);
    expect(new Set(log.map((e) => e.type))).toEqual(new Set(["dossier.created", "dossier.stage_changed", "dossier.updated", "dossier.deleted", "note.created"]));
  });
});

describe.each(ENGINES)("dossier seed on %s: arguments, determinism, progress", async (engine) => {
  test("the same --seed gives the same data again, in another organization", async () => {
    const shape = async () => {
      const { cli, org } = await setUp(engine);
      expect(cli.run("seed", "--org", org, "--dossiers", "12", "--contacts", "10", "--seed", "7", "--json").code).toBe(0);
      return cli.rows(
        `SELECT d.name, d.type, d.status, d.deal_size, s.position FROM dossiers d LEFT JOIN stages s ON s.id = d.current_stage_id
         WHERE d.organization_id = ? ORDER BY d.name, d.type, d.status, d.deal_size, s.position`,
        org,
      );
    };
    const first = await shape();
    expect(first).toHaveLength(12);
    expect((await shape())).toEqual(first);
  });

  test("seeding twice into one organization adds to it (no clash on contact emails)", async () => {
    const { cli, org } = await setUp(engine);
    for (let run = 0; run < 2; run++) expect(cli.run("seed", "--org", org, "--dossiers", "5", "--contacts", "5", "--seed", "1", "--json").code).toBe(0);
    expect(cli.run("seed", "--org", org, "--dossiers", "0", "--contacts", "1", "--json").json.counts).toMatchObject({ contacts: 1, dossiers: 0 });
  });

  const { run: dossier, data, env } = await cliOn(engine, join(tempDir(), "data"));
  const org = dossier("org", "create", "--name", "Args", "--json").json.id as string;
  test.each([
    ["without --org", []],
    ["--dossiers -1", ["--org", org, "--dossiers", "-1"]],
    ["--dossiers abc", ["--org", org, "--dossiers", "abc"]],
    ["--dossiers 100001", ["--org", org, "--dossiers", "100001"]],
    ["--contacts 0", ["--org", org, "--contacts", "0"]],
    ["--seed x", ["--org", org, "--seed", "x"]],
    ["--seed 2^32", ["--org", org, "--seed", "4294967296"]],
    ["a stray argument", ["--org", org, "extra"]],
  ])("C2: %s is a bad argument: exit 2, one line", (_name, args) => {
    const result = dossier("seed", ...args, "--json");
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("C2: an unknown organization exits 1", () => {
    const result = dossier("seed", "--org", "00000000-0000-4000-8000-000000000000", "--json");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("no organization");
  });

  test("in a pipe: a plain summary, no progress drawing", () => {
    const result = dossier("seed", "--org", org, "--dossiers", "3", "--contacts", "3", "--seed", "5");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("3 contacts, 3 dossiers");
    expect(result.stdout).toContain("--seed 5");
    expect(result.stderr).toBe("");
  });

  const script = Bun.which("script");
  const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
  const onTerminal = (...extra: string[]) => {
    const args = [process.execPath, MAIN, "seed", "--org", org, "--dossiers", "30", "--contacts", "20", "--data", data, ...extra];
    const run = Bun.spawnSync([script!, "-qec", args.map(quote).join(" "), "/dev/null"], {
      stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: 60_000, env: { ...process.env, ...env, DOSSIER_LOG: "off" },
    });
    expect(run.exitCode).toBe(0);
    return run.stdout.toString();
  };

  test.skipIf(!script)("on a terminal: a progress bar redrawn in place on stderr, up to its last step", () => {
    const out = onTerminal();
    expect(out).toContain("\r\x1b[2Kseed: [");
    expect(out).toContain(`[${"#".repeat(24)}] 50 of 50 contacts and dossiers`);
    expect(out).toContain("20 contacts, 30 dossiers");
  }, 60_000);

  test.skipIf(!script)("on a terminal with --json: no progress, only the JSON object", () => {
    const out = onTerminal("--json");
    expect(out).not.toContain("\x1b[2K");
    expect(JSON.parse(out.trim()).counts.dossiers).toBe(30);
  }, 60_000);
});
