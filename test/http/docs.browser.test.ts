// GET /docs in a real headless browser against a real server on 127.0.0.1 (C2, C20 "Origins"):
// the page asks nothing of any other machine (every request it makes is recorded), shows none of
// the hosted service's buttons, sets `lang`, opens with the bearer scheme selected, is held to its
// Content-Security-Policy by the browser, and has no serious or critical accessibility violation
// (axe): the page's own script repairs those of Scalar's markup (src/http/scalar-markup-repair.browser.js),
// and the one left (Headless UI's focus guards) is allowed below with the reason.
import AxeBuilder from "@axe-core/playwright";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { startServer } from "../../src/server";
import { newContext, recordRequests } from "../helpers/browser";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: tempDir(), webhooks: false, config: { log: "off" } });
afterAll(() => server.stop());

const LOAD_MS = 60_000;

/** Opens /docs in a new context and waits until Scalar has rendered the document and the page's
 * fonts are settled (a font from elsewhere would have been asked for by then). */
async function openDocs(query = ""): Promise<{ page: Page; requests: string[] }> {
  const context = await newContext();
  // Every refusal by the page's policy, from the first script on (an init script runs outside it).
  await context.addInitScript(`window.refusedByPolicy = [];
    document.addEventListener("securitypolicyviolation", (event) => window.refusedByPolicy.push(event.effectiveDirective + " " + event.blockedURI));`);
  const page = await context.newPage();
  const requests = recordRequests(page);
  await page.goto(`${server.url}/docs${query}`);
  await page.getByRole("heading", { name: "Dossier API", level: 1 }).waitFor({ timeout: LOAD_MS });
  await page.getByText("Liveness and database check").first().waitFor({ timeout: LOAD_MS });
  await page.waitForFunction('document.fonts.status === "loaded"', undefined, { timeout: LOAD_MS });
  return { page, requests };
}

const fromElsewhere = (requests: string[]) =>
  requests.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith("data:") && !url.startsWith("blob:"));

/** Serious and critical findings in Scalar's markup that the page leaves as they are, each with
 * the reason. Each matches the offending element's HTML, so the same rule broken anywhere else (our
 * page, another part of Scalar) still fails. */
const LEFT_AS_IS: { rule: string; element: RegExp; reason: string }[] = [
  {
    rule: "aria-hidden-focus",
    element: /^<button aria-hidden="true" id="headlessui-focus-sentinel-[^"]*" data-headlessui-focus-guard="true"/,
    reason:
      "Headless UI (inside Scalar) puts hidden focus guards around an open drop-down list, which pass the focus on at once, so that Tab moves into and out of the list in order: unfocusable, they would break that; shown, they would be empty buttons (axe-core's own issue 4832 counts such guards as no problem)",
  },
];

/** axe's serious and critical findings on the page as it is now, but those left as they are, as
 * "rule: element" lines. With `within`, only the overlay holding that element is checked (the part
 * of the page under body it belongs to: Scalar draws its drop-down lists and its search dialog
 * there); the rest of the page was checked before it opened, and axe on the whole of Scalar's page
 * takes most of a minute on a busy machine. */
async function seriousFindings(page: Page, within?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  if (within) {
    // Runs in the page (this file is type-checked without the DOM's types).
    await page.locator(within).first().evaluate((element: any) => {
      let top = element;
      while (top.parentElement && top.parentElement !== top.ownerDocument.body) top = top.parentElement;
      top.setAttribute("data-axe-scope", "");
    });
    axe.include("[data-axe-scope]");
  }
  const { violations } = await axe.analyze();
  if (within) await page.locator("[data-axe-scope]").evaluateAll((elements: any[]) => elements.forEach((element) => element.removeAttribute("data-axe-scope")));
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) => violation.nodes.map((node) => ({ rule: violation.id, html: node.html })))
    .filter(({ rule, html }) => !LEFT_AS_IS.some((left) => left.rule === rule && left.element.test(html)))
    .map(({ rule, html }) => `${rule}: ${html.slice(0, 200)}`);
}

describe("GET /docs in a headless browser (C2, C20)", () => {
  test("the page asks nothing of any other machine: every request goes to this server, whatever its query asks", async () => {
    // C20: a document address in the query is not followed (another loopback origin, so that even
    // a page that followed it would stay on this machine).
    const { page, requests } = await openDocs("?url=http://127.0.0.2:9/spec.json&api=elsewhere");
    expect(requests).toContain(`${server.url}/openapi.json`);
    expect(fromElsewhere(requests)).toEqual([]);
    // Nor does it try to: its policy refused nothing but the one probe of zod (inside Scalar),
    // which asks whether eval is allowed (`new Function("")` in a try) and does without when not.
    const refused = (await page.evaluate("window.refusedByPolicy")) as string[];
    expect(refused.filter((refusal) => refusal !== "script-src eval")).toEqual([]);
    // A request tried from the page goes straight to this server, not through Scalar's proxy.
    await page.getByRole("button", { name: /Test Request/ }).first().click();
    const sent = page.waitForRequest(`${server.url}/healthz`, { timeout: LOAD_MS });
    await page.getByRole("button", { name: /^Send/ }).first().click();
    await sent;
    expect(fromElsewhere(requests)).toEqual([]);
  }, 2 * LOAD_MS);

  test("shows none of the hosted service's buttons, sets lang, and opens with the bearer scheme selected", async () => {
    const { page } = await openDocs();
    expect(await page.evaluate("document.documentElement.lang")).toBe("en");
    expect(await page.getByText(/Ask AI|Deploy|Share|Configure/).count()).toBe(0);
    expect(await page.getByRole("button", { name: /Ask AI|Deploy|Share|Configure|Open API Client/i }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /Selected Auth Type:\s*bearerAuth/ }).count()).toBeGreaterThan(0);
  }, 2 * LOAD_MS);

  test("the browser holds the page to its Content-Security-Policy: a fetch to another origin is refused", async () => {
    const { page } = await openDocs();
    // Another loopback origin: if the policy let it through, it would still stay on this machine.
    // (Expressions as text: they run in the page, whose DOM types this project does not load.)
    const refused = await page.evaluate(`new Promise((resolve) => {
      document.addEventListener("securitypolicyviolation", (event) => resolve(event.effectiveDirective + " " + event.blockedURI));
      fetch("http://127.0.0.2:9/elsewhere").catch(() => undefined);
      setTimeout(() => resolve("not refused"), 5000);
    })`);
    expect(refused).toBe("connect-src http://127.0.0.2:9/elsewhere");
  }, 2 * LOAD_MS);

  test("axe finds no serious or critical violation but Headless UI's focus guards, Scalar's markup repaired by the page's script: with an operation, a webhook, a code sample, the list of clients and the search open", async () => {
    const { page } = await openDocs();
    // Scalar renders a section when it is reached: open an operation, a webhook and the models
    // (when the page offers them) first.
    const sidebar = page.getByRole("navigation");
    for (const [group, item] of [["Dossiers", "Create a dossier"], ["Webhooks", "A dossier changed"], ["Models", "Dossier"]]) {
      const opener = sidebar.getByRole("button", { name: new RegExp(`^${group}`) });
      if ((await opener.count()) === 0) continue;
      await opener.first().click();
      await sidebar.getByText(item, { exact: true }).first().click();
      await page.getByRole("heading", { name: item }).first().waitFor({ timeout: LOAD_MS });
    }
    // The sidebar's current item is marked with aria-current (Scalar's aria-selected moved off its
    // buttons), and the mark follows the reader from item to item.
    const current = sidebar.locator('button[aria-current="page"]');
    await current.filter({ hasText: "A dossier changed" }).waitFor({ timeout: LOAD_MS });
    expect(await current.count()).toBe(1);
    // A code sample in another language: its tab, the "More" tab beside it and the copy buttons.
    await page.getByRole("tab", { name: "Python" }).first().click();
    await page.getByText("import http.client").first().waitFor({ timeout: LOAD_MS });
    expect(await seriousFindings(page)).toEqual([]);

    // The "More" list of every client, with its filter.
    await page.getByRole("tab", { name: /Select from all clients/ }).first().click();
    await page.getByRole("option", { name: "undici" }).first().waitFor({ timeout: LOAD_MS });
    expect(await seriousFindings(page, '[role="option"]')).toEqual([]);
    await page.keyboard.press("Escape");

    // The search dialog (rendered outside Scalar's root), with its list of results.
    await page.getByRole("button", { name: /^Open Search/ }).click();
    await page.getByRole("combobox").fill("dossier");
    await page.getByRole("option", { name: /Create a dossier/ }).first().waitFor({ timeout: LOAD_MS });
    expect(await seriousFindings(page, '[role="combobox"]')).toEqual([]);
  }, 6 * LOAD_MS); // each of the three axe passes takes most of a minute on a busy machine
});
