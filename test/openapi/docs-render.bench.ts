// A benchmark, not a test (issue 38 point 7: the first render of /docs under 1.5 s in Chromium on
// this machine): `bun test/openapi/docs-render.bench.ts [runs] [document.json]`. A real server on
// 127.0.0.1 and a headless Chromium (@sparticuz/chromium, as the browser tests use); each run opens
// /docs in a new context and times, from navigation, until the introduction's heading is shown and
// until the first operation's is, then prints each run and the medians, with the load average,
// Scalar's own time to read the document (its `addDocument`) and the browser's CPU time. With a
// document file, the page is given that document instead of the served one (the browser answers
// /openapi.json with it), to compare an older document on the same machine at the same time.
//
// The times are taken inside the page: a MutationObserver notes when each heading is in the
// document and visible, and the next animation frame, when it is drawn (performance.now() counts
// from the navigation). Waiting from outside with Playwright's role queries would poll the whole
// accessibility tree on the page's main thread at every frame, the thread Scalar renders on, and
// slow what it measures.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium as playwright } from "playwright-core";
import { chromiumArgs, chromiumExecutable } from "../helpers/chromium";
import { startServer } from "../../src/server";

const runs = Number(process.argv[2] ?? 5);
const replacement = process.argv[3] ? await Bun.file(process.argv[3]).text() : undefined;

/** Runs in the page before its scripts: the marks, and Scalar's timings ("addDocument: 812 ms"). */
const WATCH = `(() => {
  const marks = (window.__benchMarks = {});
  const drawn = (name) => requestAnimationFrame(() => { marks[name] = performance.now(); });
  const shown = (selector, text) => [...document.querySelectorAll(selector)].some((h) => h.textContent.includes(text) && h.getClientRects().length > 0);
  const observer = new MutationObserver(() => {
    if (!("intro" in marks) && shown("h1", "Dossier API")) { marks.intro = -1; drawn("intro"); }
    if (!("operation" in marks) && shown("h1, h2, h3, h4", "Liveness and database check")) { marks.operation = -1; drawn("operation"); }
    if ("operation" in marks && "intro" in marks) observer.disconnect();
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
  const info = console.info;
  console.info = (...args) => {
    const timing = /^addDocument: (\\d+) ms/.exec(String(args[0]));
    if (timing) marks.addDocument = Number(timing[1]);
    info(...args);
  };
})();`;

/** Milliseconds from the navigation, as the page noted them. */
type Marks = { intro: number; operation: number; addDocument?: number };

const dataDir = mkdtempSync(join(tmpdir(), "dossier-bench-docs-"));
const server = await startServer({ host: "127.0.0.1", port: 0, dataDir, webhooks: false, config: { log: "off" } });
const browser = await playwright.launch({ executablePath: await chromiumExecutable(), args: chromiumArgs, headless: true });
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
/** CPU time (user + system, ms) of the browser: one process (--single-process), this one's child.
 * Less swayed by other work on the machine than the times shown, which wait for the cores. */
const browserCpu = () => {
  let total = 0;
  for (const pid of readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").split(" ").filter(Boolean)) {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
  }
  return total;
};
try {
  const loadBefore = load();
  const intro: number[] = [];
  const operation: number[] = [];
  const addDocument: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(WATCH);
    // SHOW_CONSOLE=1: Scalar's own timings (it logs each step of reading the document).
    if (process.env.SHOW_CONSOLE) page.on("console", (message) => console.log(message.text().slice(0, 200)));
    if (replacement) await page.route("**/openapi.json", (route) => route.fulfill({ status: 200, contentType: "application/json", body: replacement }));
    const cpuBefore = browserCpu();
    await page.goto(`${server.url}/docs`);
    // A cheap check every 100 ms (the marks are taken by the page itself, on time).
    await page.waitForFunction(() => {
      const { intro = -1, operation = -1 } = (globalThis as unknown as { __benchMarks: Partial<Marks> }).__benchMarks;
      return intro > 0 && operation > 0;
    }, undefined, { timeout: 30_000, polling: 100 });
    cpu.push(browserCpu() - cpuBefore);
    const marks = await page.evaluate(() => (globalThis as unknown as { __benchMarks: Marks }).__benchMarks);
    intro.push(marks.intro);
    operation.push(marks.operation);
    if (marks.addDocument !== undefined) addDocument.push(marks.addDocument);
    // Not the context: the browser runs in one process (@sparticuz/chromium), which closing a context ends.
    await page.close();
  }
  const median = (values: number[]) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]);
  const list = (values: number[]) => values.map((t) => `${Math.round(t)}`).join(", ");
  console.log(`introduction shown: ${list(intro)} ms; median ${median(intro)} ms`);
  console.log(`first operation shown: ${list(operation)} ms; median ${median(operation)} ms`);
  if (addDocument.length > 0) console.log(`Scalar's addDocument: ${list(addDocument)} ms; median ${median(addDocument)} ms`);
  console.log(`the browser's CPU time until then: ${list(cpu)} ms; median ${median(cpu)} ms`);
  console.log(`load average before: ${loadBefore}; after: ${load()}`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
