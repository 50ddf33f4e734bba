// Issue 23 point 6, measured in the browser (C14): the board of a flow holding 2,000 dossiers (and,
// since C22, about 2,000 open tasks shown as the cards' task marks), opened with an empty cache. The test records, and does not assert on, how long until the board is
// interactive (every column's count shown, its first cards drawn, a card's "Move to…" focusable)
// and how many bytes the first load transfers (Chromium's encodedDataLength of every response:
// compressed bodies and headers). C14's bound on the bytes (under 250 KB) is asserted: a size, not a
// time. The figures go to the output and, when DOSSIER_CONSOLE_FIGURES names a file, to it as JSON;
// docs/performance.md's "Console" section holds them (bench/console.ts runs
// board-speed.browser.test.ts, the SQLite file, and writes the section). On either engine (C19):
// board-speed.browser.test.ts (SQLite), board-speed-postgres.browser.test.ts.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import type { Page } from "playwright-core";
import type { BoardFigures, Load } from "../../bench/console-figures";
import { newId } from "../../src/ids";
import { writeDossierPatch, writeNewDossier } from "../../src/services/dossiers";
import { writeTask } from "../../src/services/tasks";
import type { Engine } from "../helpers/stores";
import { consoleServer, LOAD_MS, signedIn } from "./console";

const DOSSIERS = 2_000;
const STAGES = ["Applied", "Screening", "Phone call", "Interview", "Assessment", "Offer", "Hired"];
const LOADS = 3;
const DAY = 86_400_000;

function benchTask(org: string, dossierId: string, assignee: string | null, title: string, due: number, status: "open" | "done") {
  const at = new Date().toISOString();
  return {
    id: newId(),
    organization_id: org,
    dossier_id: dossierId,
    contact_id: null,
    title,
    notes: "Asked for the salary range first.",
    due_at: new Date(due).toISOString(),
    remind_at: null,
    assigned_to: assignee,
    status,
    done_at: status === "done" ? at : null,
    created_by: { kind: "key" as const, id: null },
    created_at: at,
    updated_at: at,
  };
}

/** The board opened with an empty cache, until interactive. */
async function firstLoad(page: Page, url: string): Promise<Load> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.clearBrowserCache");
  const urls = new Map<string, string>();
  const bytes = new Map<string, number>();
  cdp.on("Network.requestWillBeSent", (event) => urls.set(event.requestId, event.request.url));
  cdp.on("Network.loadingFinished", (event) => bytes.set(event.requestId, event.encodedDataLength));
  await cdp.send("Performance.enable");
  const busy = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    const of = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
    return { task: of("TaskDuration"), script: of("ScriptDuration"), style: of("RecalcStyleDuration"), layout: of("LayoutDuration") };
  };
  const before = await busy();
  await page.goto(url, { waitUntil: "commit" });
  const interactive = await page.waitForFunction(
    () => {
      const document = (globalThis as any).document;
      const columns = [...document.querySelectorAll("section.column")];
      if (columns.length === 0) return false;
      for (const column of columns as any[]) {
        const count = column.querySelector(".count")?.textContent ?? "…";
        if (count === "…") return false;
        if (!count.startsWith("0 ") && !column.querySelector("article")) return false;
      }
      const move = document.querySelector("article .move > button");
      if (!move) return false;
      move.focus();
      return document.activeElement === move ? (globalThis as any).performance.now() : false;
    },
    undefined,
    { timeout: LOAD_MS, polling: "raf" },
  );
  const interactive_ms = Math.round((await interactive.jsonValue()) as number);
  const after = await busy();
  const main_thread_ms = {
    task: Math.round(after.task - before.task),
    script: Math.round(after.script - before.script),
    style: Math.round(after.style - before.style),
    layout: Math.round(after.layout - before.layout),
  };
  const last_answer_ms = Math.round(
    await page.evaluate(() =>
      Math.max(
        0,
        ...(globalThis as any).performance
          .getEntriesByType("resource")
          .filter((entry: any) => new URL(entry.name).pathname.startsWith("/api/"))
          .map((entry: any) => entry.responseEnd as number),
      ),
    ),
  );
  // Every request of the load has finished by now, but its event may still be on its way.
  await page.waitForLoadState("networkidle");
  await cdp.detach();
  const api = [...bytes].filter(([id]) => new URL(urls.get(id) ?? url).pathname.startsWith("/api/"));
  const total = [...bytes.values()].reduce((sum, n) => sum + n, 0);
  const api_bytes = api.reduce((sum, [, n]) => sum + n, 0);
  return { interactive_ms, last_answer_ms, main_thread_ms, transferred_bytes: total, requests: bytes.size, assets_bytes: total - api_bytes, api_bytes, api_requests: api.length };
}

/** The suite on a server whose store is `engine`. */
export async function boardSpeedSuite(engine: Engine) {
  const at = await consoleServer({ engine });

  /** A recruitment flow of 7 stages with 2,000 dossiers spread over them, written straight through
   * the services in a few transactions (the API would take 2,000 requests and as many moves). */
  async function seededFlow(assignees: (string | null)[]) {
    const made = await at.api("POST", "/flows", { type: "candidate", name: "Big board", stages: STAGES.map((name) => ({ name, deadline_days: 10 })) });
    expect(made.status).toBe(201);
    const flow = made.json.data as { id: string; name: string; stages: { id: string; name: string }[] };
    const ctx = at.server.app.dossier;
    const org = at.first.organizationId;
    for (let start = 0; start < DOSSIERS; start += 250) {
      await ctx.store.write(async () => {
        for (let i = start; i < Math.min(start + 250, DOSSIERS); i++) {
          const dossier = await writeNewDossier(ctx, org, {
            type: "candidate",
            flow_id: flow.id,
            name: `Candidate ${i} Lastname`,
            email: `candidate${i}@example.com`,
            phone: "+44 20 7946 0000",
            company: "Globex",
            role: "Software Engineer",
            intake_notes: "Applied through the careers page.",
            assigned_to: assignees[i % assignees.length],
          });
          const stage = flow.stages[i % flow.stages.length];
          if (stage.id !== dossier.current_stage_id) await writeDossierPatch(ctx, org, dossier.id, { current_stage_id: stage.id });
          // C22's task marks: 0, 1 or 2 open tasks per dossier (the first overdue on every other
          // dossier that has one), and a done one on every fourth, which the marks leave out.
          for (let k = 0; k < i % 3; k++) {
            const due = k === 0 && i % 2 === 1 ? Date.now() - 2 * DAY : Date.now() + (k + 1) * 3 * DAY;
            await writeTask(ctx, benchTask(org, dossier.id, assignees[i % assignees.length], `Call back ${dossier.name} about the interview`, due, "open"));
          }
          if (i % 4 === 0) await writeTask(ctx, benchTask(org, dossier.id, assignees[i % assignees.length], "Read the CV", Date.now() - 5 * DAY, "done"));
        }
      });
    }
    return flow;
  }

  test(`C14, issue 23 (${engine}): the board of a flow holding ${DOSSIERS.toLocaleString("en")} dossiers, first load: time to interactive and bytes (recorded)`, async () => {
    const { page, id } = await signedIn(at, "member");
    const flow = await seededFlow([id, null]);
    const url = `${at.server.url}/console/board/${flow.id}`;
    // The machine's other work shows in the times: say how busy it was.
    const load_average = loadavg()[0];
    const loads: Load[] = [];
    for (let i = 0; i < LOADS; i++) loads.push(await firstLoad(page, url));

    // The board it measured is the whole one: every column counts its share, 50 cards each.
    const counts = await page.locator("section.column .count").allInnerTexts();
    expect(counts.reduce((sum, text) => sum + Number.parseInt(text, 10), 0)).toBe(DOSSIERS);
    expect(await page.locator("section.column").first().getByRole("article").count()).toBe(50);
    // With C22's task marks, read in the load measured (one GET /tasks per column): cards show them.
    expect(await page.locator("section.column .badge.tasks").count()).toBeGreaterThan(0);
    expect(await page.locator("section.column .badge.task-overdue").count()).toBeGreaterThan(0);
    for (const load of loads) expect(load.api_requests).toBeLessThanOrEqual(5 + 2 * STAGES.length);

    const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
    const figures: BoardFigures = {
      measured_at: new Date().toISOString(),
      dossiers: DOSSIERS,
      columns: STAGES.length,
      cpus: availableParallelism(),
      load_average: Math.round(load_average * 10) / 10,
      loads,
      interactive_ms_median: median(loads.map((load) => load.interactive_ms)),
      transferred_bytes_median: median(loads.map((load) => load.transferred_bytes)),
    };
    console.log(JSON.stringify(figures, null, 2));
    if (process.env.DOSSIER_CONSOLE_FIGURES) writeFileSync(process.env.DOSSIER_CONSOLE_FIGURES, JSON.stringify(figures, null, 2));
    for (const load of loads) expect(load.transferred_bytes).toBeLessThan(250_000);
  });
}
