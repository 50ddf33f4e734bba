// GET /dossiers answers rows made into JSON by the database (src/db/dossiers.ts, src/db/pg/dossiers.ts).
// The text must be exactly JSON.stringify of the rows as objects, for awkward text and for every kind
// of number, on each engine (C19).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createDossier, listDossiers, listDossiersJson, type ListDossiersQuery } from "../../src/services/dossiers";
import { call, makeOrg } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("listDossiersJson on %s", async (engine) => {
  const app = await appOn(engine);
  const ctx = app.dossier;
  const org = await makeOrg(app);
  const texts = ["plain", "quote \" backslash \\ slash /", "tab\tnewline\ncr\r", "ctrl \u0001\u001f\b\f\u007f", "é ü ß 中文 😀 \u2028\u2029", "<script>"];
  const sizes = [0, 1, 15000, 0.1, 1 / 3, 12345.678901234567, 0.30000000000000004, 1e21, 2 ** 53 + 2, 5e-324, null];

  test("the same text as JSON.stringify of the rows, on first and later pages, filtered or not", async () => {
    for (const [i, text] of texts.entries()) {
      await createDossier(ctx, org.id, { type: "candidate", name: `${text} ${i}`, email: null, company: text, intake_notes: text, role: text });
    }
    for (const [i, deal] of sizes.entries()) {
      await createDossier(ctx, org.id, { type: "sales", name: `Deal ${i}`, deal_size: deal, deal_currency: deal === null ? null : "EUR", contact_person: texts[i % texts.length] });
    }
    const queries: Omit<ListDossiersQuery, "page" | "perPage">[] = [{}, { type: "sales" }, { status: "active" }, { q: "é" }];
    for (const query of queries) {
      for (const [page, perPage] of [[1, 100], [1, 3], [2, 3], [3, 3], [2, 3], [7, 3], [1, 1], [40, 1]]) {
        const objects = await listDossiers(ctx, org.id, { ...query, page, perPage });
        const json = await listDossiersJson(ctx, org.id, { ...query, page, perPage });
        expect(json.total).toBe(objects.total);
        expect(json.json).toBe(JSON.stringify(objects.data));
      }
    }
  });

  test("the route's body and content type are those of a JSON object answer", async () => {
    const answer = await call(app, "GET", "/dossiers?per_page=5&page=2", { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json;charset=utf-8");
    const objects = await listDossiers(ctx, org.id, { page: 2, perPage: 5 });
    expect(answer.text).toBe(JSON.stringify({ data: objects.data, meta: { total: objects.total, page: 2, per_page: 5, next_after: objects.next_after } }));
  });
});
