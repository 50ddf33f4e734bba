// What the console's browser tests share: a real server on 127.0.0.1 with the first start's
// organization (its key of every scope and the owner's setup link, C12), members made through the
// API, pages signed in by their setup links, and axe's serious and critical findings.
import AxeBuilder from "@axe-core/playwright";
import { afterAll } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import type { Config } from "../../src/config";
import { startServer } from "../../src/server";
import { bootstrap } from "../../src/services/bootstrap";
import { newContext } from "../helpers/browser";
import { tempDir } from "../helpers";
import { migratedDatabase, type Engine } from "../helpers/stores";

export const PASSWORD = "a long enough password";
export const LOAD_MS = 60_000;

/** `webhooks`: run the webhook dispatcher (off by default); `config`: settings over the defaults;
 * `engine`: the store (default SQLite; PostgreSQL: a fresh database on the tests' server). */
export async function consoleServer(options: { webhooks?: boolean; config?: Partial<Config>; engine?: Engine } = {}) {
  const env = options.engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};
  const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: tempDir(), webhooks: options.webhooks ?? false, env, config: { log: "off", ...options.config } });
  afterAll(() => server.stop());
  const first = (await bootstrap(server.app.dossier, server.app.site.base))!;
  const api = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${first.key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, json: (await answer.json()) as any };
  };
  const flows = (await api("GET", "/flows?type=candidate")).json.data as { id: string; name: string; stages: { id: string; name: string }[] }[];
  return { server, first, api, flow: flows[0] };
}

export type ConsoleServer = Awaited<ReturnType<typeof consoleServer>>;

let made = 0;

/** A new page in its own browser context (its own cookies), refusals by the page's policy kept in
 * `window.refusedByPolicy`. */
export async function newPage(): Promise<Page> {
  const context = await newContext();
  await context.addInitScript(`window.refusedByPolicy = [];
    document.addEventListener("securitypolicyviolation", (event) => window.refusedByPolicy.push(event.effectiveDirective + " " + event.blockedURI));`);
  return context.newPage();
}

/** A member of `role` made through the API, signed in in a new page by their setup link (C12).
 * @sparticuz/chromium runs as one process, in which the pages of every context send the cookies
 * last set by any: so each test signs in as its member first, whatever ran before it. */
export async function signedIn(at: ConsoleServer, role: "viewer" | "member" | "admin") {
  made += 1;
  const email = `${role}${made}@example.com`;
  const member = await at.api("POST", "/members", { email, name: `${role[0].toUpperCase()}${role.slice(1)} ${made}`, role });
  if (member.status !== 201) throw new Error(`POST /members: ${member.status} ${JSON.stringify(member.json)}`);
  const page = await newPage();
  await page.goto(member.json.data.setup_url);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: LOAD_MS });
  return { page, id: member.json.data.id as string, email };
}

/** The board of `flowId`, once every column has its count. */
export async function openBoard(page: Page, at: ConsoleServer, flow: { id: string; name: string } = at.flow) {
  await page.goto(`${at.server.url}/console/board/${flow.id}`);
  try {
    await page.getByRole("heading", { level: 1, name: flow.name }).waitFor({ timeout: LOAD_MS });
  } catch (error) {
    // What the page shows instead ("No such flow", an alert, the sign-in form) says where to look.
    const shown = await page.locator("body").innerText().catch(() => "(unreadable)");
    throw new Error(`the board of ${flow.name} showed no heading: ${(error as Error).message.split("\n")[0]}; the page shows: ${JSON.stringify(shown.slice(0, 600))}`);
  }
  // A function, not a string: the page's policy allows no eval (this file has no DOM types).
  await page.waitForFunction(() => ![...(globalThis as any).document.querySelectorAll(".count")].some((count: any) => count.textContent === "…"), undefined, { timeout: LOAD_MS });
}

/** The column of a stage, by its name. */
export const column = (page: Page, stage: string) => page.getByRole("region", { name: stage, exact: true });

/** axe's serious and critical findings on the page as it is now, as "rule: element" lines. */
export async function seriousFindings(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.html.slice(0, 200)}`));
}

export const refusedByPolicy = (page: Page) => page.evaluate(() => (globalThis as any).refusedByPolicy as string[]);

/** Whether the element a locator finds has the focus. */
export const focused = (locator: import("playwright-core").Locator) => locator.evaluate((element: any) => element === element.ownerDocument.activeElement);

/** With DOSSIER_SCREENSHOTS=1, the page as it is now in docs/console/NAME.png (1280 × 800, or
 * `size`), for docs/console.md
 * (`DOSSIER_SCREENSHOTS=1 npm test -- test/console` remakes them all); else nothing. */
export async function screenshot(page: Page, name: string, size: { width: number; height: number } = { width: 1280, height: 800 }) {
  if (process.env.DOSSIER_SCREENSHOTS !== "1") return;
  const folder = new URL("../../docs/console/", import.meta.url).pathname;
  mkdirSync(folder, { recursive: true });
  await page.setViewportSize(size);
  await page.screenshot({ path: `${folder}${name}.png`, fullPage: false });
}
