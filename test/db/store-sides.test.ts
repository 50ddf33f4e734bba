// Where the store's reads run (src/db/client.ts, src/db/scope.ts): on the writer's connection while
// no group is open on it (its page cache and the caches stay warm), on a read connection of their
// own when they meet an open group; a group waits for a read snapshot still open on its connection.
// And the GET path that SQLite answers at once stays free of promises (src/awaitable.ts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { openStore, type SqliteStore as Store } from "../../src/db/client";
import { guard } from "../../src/http/auth";
import { dossierRoutes } from "../../src/http/routes/dossiers";
import { makeApp, makeOrg, onCleanup, tempDir } from "../helpers";

setDefaultTimeout(60_000); // Bun keeps a timeout per test file (test/preload.ts)

function store(): Store {
  const opened = openStore(join(tempDir(), "sides.db"));
  onCleanup(() => opened.close());
  return opened;
}

const org = (id: string) => ({ id, name: id, plan: "growth" as const, rate_limit: 100, created_at: "2026-01-01T00:00:00.000Z" });

/** A promise and the call that settles it: something besides the store that work awaits. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("the store's sides", () => {
  test("a read snapshot runs on the writer's connection while no group is open", async () => {
    const s = store();
    await s.write(() => s.orgs.insert(org("a")));
    let inside = false;
    const count = await s.read(() => {
      inside = s.sqlite.inTransaction; // the snapshot's BEGIN, on the writer's connection
      return s.orgs.count();
    });
    expect(count).toBe(1);
    expect(inside).toBe(true);
    expect(s.sqlite.inTransaction).toBe(false);
  });

  test("a read that meets a group paused inside a unit runs beside it and never sees the unit's uncommitted rows", async () => {
    const s = store();
    const paused = gate();
    const reached = gate();
    const written = s.write(async () => {
      await s.orgs.insert(org("uncommitted"));
      reached.open();
      await paused.opened; // a unit that awaits something besides the store holds its group open
      return "done";
    });
    await reached.opened;
    expect(s.sqlite.inTransaction).toBe(true);
    expect(await s.read(() => s.orgs.all())).toEqual([]);
    paused.open();
    expect(await written).toBe("done");
    expect((await s.read(() => s.orgs.all())).map((o) => o.id)).toEqual(["uncommitted"]);
  });

  test("a group waits for a read snapshot open on its connection, and the read sees one state of the database throughout", async () => {
    const s = store();
    await s.write(() => s.orgs.insert(org("a")));
    const paused = gate();
    const reading = s.read(async () => {
      const before = await s.orgs.count();
      await paused.opened; // a read that awaits something besides the store keeps its snapshot
      return [before, await s.orgs.count()];
    });
    let committed = false;
    const written = s.write(() => s.orgs.insert(org("b"))).then(() => (committed = true));
    // The group is due on the next turn of the event loop; it finds the snapshot and waits.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(committed).toBe(false);
    paused.open();
    expect(await reading).toEqual([1, 1]);
    await written;
    expect(committed).toBe(true);
    expect(await s.read(() => s.orgs.count())).toBe(2);
  });

  test("a unit's rows that roll back are seen by no read, on either side", async () => {
    const s = store();
    const failing = s.write(async () => {
      await s.orgs.insert(org("gone"));
      throw new Error("rolled back");
    });
    await expect(failing).rejects.toThrow("rolled back");
    expect(await s.read(() => s.orgs.count())).toBe(0);
  });
});

describe("the GET path that SQLite answers at once", () => {
  test("from the key check to the answer, a GET /dossiers and a GET /dossiers/{id} answer a value, not a promise", async () => {
    const app = makeApp();
    const o = await makeOrg(app);
    const created = await app.handle(
      new Request("http://localhost/api/v1/dossiers", {
        method: "POST",
        headers: { authorization: `Bearer ${o.key}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "sales", name: "Acme" }),
      }),
    );
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const check = guard(app.dossier);
    const route = (name: string) => dossierRoutes.find((r) => r.id === name)!.handle(app.dossier, check);
    const get = (path: string) => new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `Bearer ${o.key}` } });
    for (const [name, path, raw] of [["listDossiers", "/dossiers", {}], ["getDossier", `/dossiers/${id}`, { id }]] as const) {
      const set = { headers: {} as Record<string, string | number> };
      const answer = route(name)(get(path), raw, set);
      expect(answer instanceof Promise).toBe(false);
      expect(JSON.stringify(answer)).toContain("Acme");
      expect(set.headers["x-ratelimit-limit"]).toBeDefined();
    }
  });
});
