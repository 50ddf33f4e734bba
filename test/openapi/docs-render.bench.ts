// A benchmark, not a test (issue 38 point 7: the first render of /docs under 1.5 s in Chromium on
// this machine): `bun test/openapi/docs-render.bench.ts [runs] [document.json]`. A real server on
// 127.0.0.1 and a headless Chromium (@sparticuz/chromium, as the browser tests use); each run opens
// /docs in a new context and times from navigation to the introduction's heading shown and to the
// first operation shown, then prints each run and the medians. With a document file, the page is given that document instead of
// the served one (the browser answers /openapi.json with it), to compare an older document on the
// same machine at the same time.
import chromium from "@sparticuz/chromium";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium as playwright } from "playwright-core";
import { startServer } from "../../src/server";

const runs = Number(process.argv[2] ?? 5);
const replacement = process.argv[3] ? await Bun.file(process.argv[3]).text() : undefined;
const dataDir = mkdtempSync(join(tmpdir(), "dossier-bench-docs-"));
const server = await startServer({ host: "127.0.0.1", port: 0, dataDir, webhooks: false, config: { log: "off" } });
const browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
try {
  /** Until the introduction's heading shows, and until the first operation does. */
  const times: number[] = [];
  const operations: number[] = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const started = performance.now();
    // SHOW_CONSOLE=1: Scalar's own timings (it logs each step of reading the document), with when they came.
    if (process.env.SHOW_CONSOLE) page.on("console", (message) => console.log(`${Math.round(performance.now() - started)} ms: ${message.text().slice(0, 200)}`));
    if (replacement) await page.route("**/openapi.json", (route) => route.fulfill({ status: 200, contentType: "application/json", body: replacement }));
    await page.goto(`${server.url}/docs`);
    await page.getByRole("heading", { name: "Dossier API", level: 1 }).waitFor({ timeout: 30_000 });
    const introduction = performance.now() - started;
    await page.getByRole("heading", { name: "Liveness and database check" }).first().waitFor({ timeout: 30_000 });
    times.push(introduction);
    operations.push(performance.now() - started);
    // Not the context: the browser runs in one process (@sparticuz/chromium), which closing a context ends.
    await page.close();
  }
  const median = (values: number[]) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]);
  const list = (values: number[]) => values.map((t) => `${Math.round(t)}`).join(", ");
  console.log(`introduction shown: ${list(times)} ms; median ${median(times)} ms`);
  console.log(`first operation shown: ${list(operations)} ms; median ${median(operations)} ms`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
