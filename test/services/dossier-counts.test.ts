// Issue 6: the totals of GET /dossiers come from counts kept by triggers (migration 0003); under
// concurrent creates, moves, status changes and archives they stay equal to COUNT(*).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("maintained dossier counts on %s", (engine) => {
  test("stay exact under concurrent writes, for every filter combination they serve", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app);
    const other = await makeOrg(app);
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.handle(request) });
    try {
      const flows = (await call(app, "GET", "/flows", { key: org.key })).json.data as { id: string; type: string; stages: { id: string }[] }[];
      const request = (key: string, method: string, path: string, body?: unknown) =>
        fetch(`${server.url}api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));

      const created = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          request(i % 5 === 0 ? other.key : org.key, "POST", "/dossiers", { type: i % 2 ? "sales" : "candidate", name: `D${i}` }),
        ),
      );
      expect(created.every((r) => r.status === 201)).toBe(true);
      const mine = created.filter((_, i) => i % 5 !== 0).map((r) => r.json.data);
      const statuses = ["active", "won", "lost", "archived"];
      const writes = mine.flatMap((d, i) => {
        const stages = flows.find((f) => f.type === d.type)!.stages;
        return [
          request(org.key, "PATCH", `/dossiers/${d.id}`, { current_stage_id: stages[(i + 1) % stages.length].id }),
          request(org.key, "PATCH", `/dossiers/${d.id}`, { status: statuses[i % 4] }),
          ...(i % 3 === 0 ? [request(org.key, "DELETE", `/dossiers/${d.id}`)] : []),
          ...(i % 7 === 0 ? [request(org.key, "PATCH", `/dossiers/${d.id}`, { current_stage_id: null })] : []),
        ];
      });
      expect((await Promise.all(writes)).every((r) => r.status === 200)).toBe(true);

      // PostgreSQL answers a count as a string: Number() it.
      const rows = async (text: string) => (await queryRows<{ k: string; n: number }>(app, text)).map(({ k, n }) => ({ k, n: Number(n) }));
      const maintained = await rows(`SELECT organization_id || type || status || flow_id || stage_id AS k, n FROM dossier_counts WHERE n <> 0 ORDER BY k`);
      const actual = await rows(
        `SELECT organization_id || type || status || coalesce(flow_id, '') || coalesce(current_stage_id, '') AS k, count(*) AS n FROM dossiers GROUP BY k ORDER BY k`,
      );
      expect(maintained).toEqual(actual);

      const count = async (where: string, ...params: string[]) =>
        Number((await queryRows<{ n: number }>(app, `SELECT count(*) AS n FROM dossiers WHERE organization_id = ? AND ${where}`, org.id, ...params))[0].n);
      const stage = flows[0].stages[1].id;
      const cases: [string, number][] = [
        ["", await count("status <> 'archived'")],
        ["status=archived", await count("status = 'archived'")],
        ["type=sales", await count("type = 'sales' AND status <> 'archived'")],
        ["type=candidate&status=won", await count("type = 'candidate' AND status = 'won'")],
        [`stage_id=${stage}`, await count("current_stage_id = ? AND status <> 'archived'", stage)],
        [`flow_id=${flows[1].id}&status=lost`, await count("flow_id = ? AND status = 'lost'", flows[1].id)],
      ];
      for (const [query, expected] of cases) {
        const answer = await call(app, "GET", `/dossiers?${query}`, { key: org.key });
        expect([query, answer.json.meta.total]).toEqual([query, expected]);
      }
    } finally {
      server.stop(true);
    }
  });
});
