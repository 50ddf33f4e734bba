// Issue 38 point 7, as a reader of /docs sees it in a real headless Chromium against a real server
// on 127.0.0.1: the introduction (keys and scopes, pagination, errors, idempotency, webhooks) opens
// the page, Scalar reads the document with no validation error (a schema it refuses cost the page
// most of its first render), and a choice among values shows its values as choices ("enum" and
// each value), never as "Any of" a list of const with a free-text box: in a query parameter (GET
// /dossiers's status) and in a request body (POST /dossiers's type). How long the page takes is measured by
// test/openapi/docs-render.bench.ts, not here.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { startServer } from "../../src/server";
import { newContext } from "../helpers/browser";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: tempDir(), webhooks: false, config: { log: "off" } });
afterAll(() => server.stop());

const LOAD_MS = 60_000;

/** What the page wrote to its console: Scalar says there when it finds the document invalid. */
const consoleOf = new WeakMap<Page, string[]>();

async function openDocs(): Promise<Page> {
  const page = await (await newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  const messages: string[] = [];
  consoleOf.set(page, messages);
  page.on("console", (message) => messages.push(message.text()));
  await page.goto(`${server.url}/docs`);
  await page.getByRole("heading", { name: "Dossier API", level: 1 }).waitFor({ timeout: LOAD_MS });
  return page;
}

/** The text of one operation's section, opened from the sidebar. */
async function operationText(page: Page, tag: string, summary: string): Promise<string> {
  const sidebar = page.getByRole("navigation");
  await sidebar.getByRole("button", { name: new RegExp(`^${tag}`) }).first().click();
  await sidebar.getByText(summary, { exact: true }).first().click();
  const heading = page.getByRole("heading", { name: summary }).first();
  await heading.waitFor({ timeout: LOAD_MS });
  return page.locator("section", { has: heading }).first().innerText();
}

describe("issue 38: /docs in a headless browser", () => {
  test("the introduction opens the page: keys and scopes, pagination, errors, idempotency, webhooks", async () => {
    const page = await openDocs();
    for (const heading of ["Keys and scopes", "Pagination", "Errors", "Idempotency and concurrent changes"]) {
      await page.getByRole("heading", { name: heading, exact: true }).first().waitFor({ timeout: LOAD_MS });
    }
    const text = await page.locator("body").innerText();
    for (const words of ["Authorization: Bearer svc_live_", "dossiers:write", "per_page", "request_id", "Idempotency-Key", "X-Service-Signature"]) {
      expect(text, words).toContain(words);
    }
  }, 2 * LOAD_MS);

  test("Scalar reads the document as valid: every schema says its type (a schema it refuses costs the page most of its first render)", async () => {
    const page = await openDocs();
    // Scalar logs each step of reading the document, addDocument last, before it draws anything.
    const messages = consoleOf.get(page)!;
    expect(messages.some((text) => text.startsWith("addDocument:"))).toBe(true);
    expect(messages.filter((text) => /validation error/i.test(text))).toEqual([]);
  }, 2 * LOAD_MS);

  test("a choice among values shows its values, in a query parameter and in a body; nothing shows as Any of", async () => {
    const page = await openDocs();
    // The lines shown for one member, from its name to the next member's.
    const member = (text: string, name: string, next: string) => {
      const lines = text.split("\n").map((line) => line.trim());
      return lines.slice(lines.indexOf(name), lines.indexOf(next));
    };
    const list = await operationText(page, "Dossiers", "List dossiers");
    const status = member(list, "status", "stage_id");
    expect(status).toContain("enum");
    for (const value of ["active", "won", "lost", "archived"]) expect(status).toContain(value);
    const create = await operationText(page, "Dossiers", "Create a dossier");
    const type = member(create, "type", "assigned_to");
    expect(type).toContain("enum");
    for (const value of ["candidate", "sales"]) expect(type).toContain(value);
    for (const text of [list, create]) expect(text).not.toMatch(/any of/i);
  }, 3 * LOAD_MS);
});
