// Writes that the storage refuses (C11): a failed write of the database answers 503
// storage_unavailable, keeps nothing, and turns the process into one that refuses writes, answers
// reads and says so on /healthz, until a restart; a CV that does not fit answers 507
// insufficient_storage and leaves nothing behind.
//
// The failures are real, not mocked: SQLite's `PRAGMA max_page_count` on the app's own connection
// makes the next write that needs a new page fail with SQLITE_FULL, as a full disk does; the CV's
// full disk is a 1 MB tmpfs mounted (as root) over the data folder's `files`.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { call, filesUnder, makeOrg, rowCounts, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** Captures the JSON log lines the app writes on stderr while `work` runs. */
async function logged(work: () => Promise<void>): Promise<{ level: string; msg: string; [field: string]: unknown }[]> {
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    await work();
  } finally {
    process.stderr.write = write;
  }
  return lines.flatMap((line) => line.split("\n")).filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
}

const failureLines = <T extends { msg: string }>(lines: T[]) => lines.filter((line) => line.msg.includes("refusing writes"));

describe("C11: a failed write of the database", () => {
  test("503 storage_unavailable, nothing kept; then writes 503, reads 200, /healthz 503 storage_unavailable, one log line; a restart recovers", async () => {
    const data = tempDir();
    const app = createApp({ dataDir: data, webhooks: false, config: { log: "json", logLevel: "error" } });
    let closed = false;
    try {
      const org = await makeOrg(app);
      const first = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Before" } });
      expect(first.status).toBe(201);
      const { sqlite } = app.dossier.store;
      // The file may not grow by one page more: the next write that needs a page fails as on a full disk.
      const pages = sqlite.query<{ page_count: number }, []>("PRAGMA page_count").get()!.page_count;
      sqlite.run(`PRAGMA max_page_count = ${pages}`);
      const before = rowCounts(app);

      const lines = await logged(async () => {
        const failed = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Lost", intake_notes: "x".repeat(20_000) } });
        expect(failed.status).toBe(503);
        expect(failed.json).toEqual({ error: { code: "storage_unavailable", message: expect.any(String), request_id: expect.any(String) } });
        expect(rowCounts(app)).toEqual(before);

        // A write that would fit is refused too: the state of the file is unknown.
        const small = await call(app, "PATCH", `/dossiers/${first.json.data.id}`, { key: org.key, body: { name: "Renamed" } });
        expect(small.status).toBe(503);
        expect(small.json.error.code).toBe("storage_unavailable");
        const note = await call(app, "POST", `/dossiers/${first.json.data.id}/notes`, { key: org.key, body: { content: "x" } });
        expect(note.status).toBe(503);

        // Reads go on.
        const read = await call(app, "GET", `/dossiers/${first.json.data.id}`, { key: org.key });
        expect(read.status).toBe(200);
        expect(read.json.data.name).toBe("Before");
        expect((await call(app, "GET", "/dossiers", { key: org.key })).json.meta.total).toBe(1);

        const health = await call(app, "GET", "/healthz");
        expect(health.status).toBe(503);
        expect(health.json).toEqual({ status: "storage_unavailable" });
      });
      const why = failureLines(lines);
      expect(why).toHaveLength(1);
      expect(why[0]).toMatchObject({ level: "error" });
      expect(String(why[0].error)).toContain("SQLITE_FULL");

      await app.close();
      closed = true;
      // A restart (a new process on the same file, without the page cap) takes writes again.
      const restarted = createApp({ dataDir: data, webhooks: false, config: { log: "off" } });
      try {
        expect((await call(restarted, "GET", "/healthz")).status).toBe(200);
        const again = await call(restarted, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "After" } });
        expect(again.status).toBe(201);
      } finally {
        await restarted.close();
      }
    } finally {
      if (!closed) await app.close();
    }
  });
});

/** Mounts a tmpfs of `size` over `dir`; false where this process may not mount (not root). */
function mountTmpfs(dir: string, size: string): boolean {
  const run = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
  return run.status === 0;
}


describe("C11: a CV on a full disk", () => {
  test("507 insufficient_storage, nothing left behind, and the server still takes writes", async () => {
    const data = tempDir();
    const files = join(data, "files");
    mkdirSync(files);
    if (!mountTmpfs(files, "1m")) {
      console.warn("skipped: mounting a tmpfs needs root (CAP_SYS_ADMIN); C11's 507 is not checked here");
      return;
    }
    const app = createApp({ dataDir: data, webhooks: false, config: { log: "off" } });
    try {
      const org = await makeOrg(app);
      const dossier = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Big CV" } })).json.data;
      const big = new Uint8Array(2 * 1_048_576);
      big.set(new TextEncoder().encode("%PDF-1.7\n"));
      const before = rowCounts(app);

      const raw = await call(app, "POST", `/dossiers/${dossier.id}/cv`, { key: org.key, raw: big, contentType: "application/pdf" });
      expect(raw.status).toBe(507);
      expect(raw.json).toEqual({ error: { code: "insufficient_storage", message: expect.any(String), request_id: expect.any(String) } });

      const form = new FormData();
      form.set("type", "candidate");
      form.set("name", "With a big CV");
      form.set("cv", new File([big], "cv.pdf", { type: "application/pdf" }));
      const created = await call(app, "POST", "/dossiers", { key: org.key, raw: form });
      expect(created.status).toBe(507);
      expect(created.json.error.code).toBe("insufficient_storage");

      expect(filesUnder(files)).toEqual([]);
      expect(rowCounts(app)).toEqual(before);
      expect((await call(app, "GET", `/dossiers/${dossier.id}`, { key: org.key })).json.data.cv_url).toBeNull();
      // Not a failed flush of the database: the server goes on taking writes, a CV that fits included.
      expect((await call(app, "GET", "/healthz")).status).toBe(200);
      const small = await call(app, "POST", `/dossiers/${dossier.id}/cv`, { key: org.key, raw: big.slice(0, 100_000), contentType: "application/pdf" });
      expect(small.status).toBe(200);
    } finally {
      await app.close();
      spawnSync("umount", [files], { stdio: "pipe" });
    }
  });
});
