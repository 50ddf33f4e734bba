// C1: `createApp({ memory: true })` is the whole service in-process, on a scratch database,
// driven with app.handle(new Request(...)) and no port: what other projects' test suites use.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { createKey, SCOPES } from "../../src/services/keys";
import { createOrg } from "../../src/services/orgs";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("C1 createApp({ memory: true })", () => {
  const app = createApp({ memory: true, webhooks: false, config: { log: "off" } });
  afterAll(() => app.close());

  test("GET /healthz answers 200 {status: ok}, with X-Request-Id", async () => {
    const answer = await app.handle(new Request("http://localhost/healthz"));
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as any).status).toBe("ok");
    expect(answer.headers.get("x-request-id")).toBeTruthy();
  });

  test("an authenticated request: a key made in-process lists the default flows, then a write reads back", async () => {
    const org = await createOrg(app.dossier, { name: "In memory", plan: "growth" });
    const { key } = await createKey(app.dossier, { organizationId: org.id, scopes: [...SCOPES] });
    const auth = { authorization: `Bearer ${key}` };
    const flows = await app.handle(new Request("http://localhost/api/v1/flows", { headers: auth }));
    expect(flows.status).toBe(200);
    expect(((await flows.json()) as any).data.map((f: { name: string }) => f.name).sort()).toEqual(["Recruitment", "Sales"]);
    expect(flows.headers.get("x-ratelimit-remaining")).toBe("599");

    const created = await app.handle(
      new Request("http://localhost/api/v1/contacts", {
        method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ full_name: "Memo Ry" }),
      }),
    );
    expect(created.status).toBe(201);
    const listed = await app.handle(new Request("http://localhost/api/v1/contacts", { headers: auth }));
    expect(((await listed.json()) as any).data.map((c: { full_name: string }) => c.full_name)).toEqual(["Memo Ry"]);
    expect((await app.handle(new Request("http://localhost/api/v1/flows"))).status).toBe(401);
  });

  test("the database is a scratch file of its own in the temporary folder (units and reads need two connections to it), never flushed", () => {
    const file = app.dossier.store.sqlite.query<{ file: string }, []>("SELECT file FROM pragma_database_list WHERE name = 'main'").get()!.file;
    expect(file.startsWith(join(tmpdir(), "dossier-db-"))).toBe(true);
    expect(app.dossier.store.sqlite.query<{ synchronous: number }, []>("PRAGMA synchronous").get()!.synchronous).toBe(0);
  });
});
