// C19, C21: a CSV import uploaded to one node of three, with the files in a bucket (DOSSIER_FILES_URL,
// a real s3rver): the upload is the bucket's object, not the receiving node's disk, so whichever
// node holds the import's lease reads it. The node that took the upload is killed (-9) once the
// import has committed a batch: the import goes on elsewhere (DOSSIER_LEASE 3 s here) from its last
// committed row, to the end, every row once; the object is deleted as it ends, and no node's data
// folder ever held the file.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { until } from "../helpers";
import { startCluster } from "../helpers/cluster";
import { keysUnder, startS3 } from "../helpers/s3";

setDefaultTimeout(180_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROWS = 10_000; // 20 batches: the job is well under way, not done, when its first batch is seen

interface ImportView {
  id: string;
  status: string;
  rows: number;
  processed: number;
  created: number;
  failed: number;
}

describe("an import on S3 across nodes", () => {
  test("uploaded to one node, that node killed mid-import: another goes on from the bucket, to the end, every row once", async () => {
    const s3 = await startS3();
    const bucket = s3.client();
    const cluster = await startCluster({ env: { ...s3.env("shared"), DOSSIER_LEASE: "3s" } });
    try {
      const [uploader, ...others] = cluster.nodes;
      const auth = { authorization: `Bearer ${cluster.key}` };
      const lines = ["full_name,email"];
      for (let i = 0; i < ROWS; i++) lines.push(`Person ${i},person${i}@example.com`);
      const form = new FormData();
      form.append("file", new File([lines.join("\r\n") + "\r\n"], "people.csv", { type: "text/csv" }));
      form.append("resource", "contacts");
      form.append("mapping", JSON.stringify({ full_name: "full_name", email: "email" }));
      const answer = await fetch(`${uploader.url}/api/v1/imports`, { method: "POST", headers: auth, body: form });
      expect(answer.status).toBe(202);
      const { id } = ((await answer.json()) as { data: ImportView }).data;
      const uploads = async () => (await keysUnder(bucket, "shared/")).filter((key) => key.includes("/imports/"));
      /** The import as a node shows it; looked at five times a second at most (the key's rate limit). */
      const view = async (url: string) => {
        await Bun.sleep(200);
        const got = await fetch(`${url}/api/v1/imports/${id}`, { headers: auth });
        if (got.status !== 200) throw new Error(`GET /imports/${id}: ${got.status} ${await got.text()}`);
        return ((await got.json()) as { data: ImportView }).data;
      };

      const [key] = await uploads();
      expect(key).toEndWith(`/imports/${id}.csv`);
      // A batch committed (by whichever node holds the lease), the import not done: the uploader goes.
      const underWay = await until(
        async () => {
          const now = await view(others[0].url);
          return now.processed > 0 && now;
        },
        60_000,
        "the import's first batch",
      );
      await cluster.kill(0);
      expect(underWay.status).toBe("running");
      expect(underWay.processed).toBeLessThan(ROWS);

      const done = await until(
        async () => {
          const now = await view(others[1].url);
          return now.status !== "queued" && now.status !== "running" && now;
        },
        120_000,
        "the import to end on the nodes left",
      );
      expect(done).toMatchObject({ status: "succeeded", rows: ROWS, processed: ROWS, created: ROWS, failed: 0 });
      const contacts = (await (await fetch(`${others[0].url}/api/v1/contacts?per_page=1`, { headers: auth })).json()) as { meta: { total: number } };
      expect(contacts.meta.total).toBe(ROWS); // every row once: none made twice across the takeover
      await until(async () => (await uploads()).length === 0, 60_000, "the import's object to be deleted");
      for (const dir of cluster.dataDirs) {
        const files = join(dir, "files");
        const orgs = existsSync(files) ? readdirSync(files) : [];
        expect(orgs.filter((org) => existsSync(join(files, org, "imports")))).toEqual([]);
      }
    } finally {
      await cluster.stop();
    }
  });
});
