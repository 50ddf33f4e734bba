// The dossiers list (C14 screen 3) in a real headless Chromium against a real server: GET /dossiers's
// filters narrow the table and its total, and stand in the address (a reload shows the same list);
// the pages go forward and back; a name opens the dossier's page; a viewer finds no "New dossier";
// axe finds no serious or critical violation.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { consoleServer, LOAD_MS, refusedByPolicy, screenshot, seriousFindings, signedIn } from "./console";
import type { Engine } from "../helpers/stores";

/** The dossiers list on a server whose store is `engine` (C19). */
export async function listSuite(engine: Engine) {
  const at = await consoleServer({ engine });
  const [first, second] = at.flow.stages;

  /** A tag no other test's dossiers carry, to search by. */
  const tag = (what: string) => `${what}${crypto.randomUUID().slice(0, 6)}`;

  async function newDossier(name: string, fields: Record<string, unknown> = {}) {
    const made = await at.api("POST", "/dossiers", { type: "candidate", name, ...fields });
    expect(made.status).toBe(201);
    return made.json.data as { id: string };
  }

  async function openList(page: Page, query = "") {
    await page.goto(`${at.server.url}/console/dossiers${query}`);
    await page.getByRole("heading", { level: 1, name: "Dossiers" }).waitFor({ timeout: LOAD_MS });
    await page.getByRole("table").waitFor({ timeout: LOAD_MS });
  }

  /** The total the page states, once it reads `words`. */
  const total = (page: Page, words: string) => page.getByRole("status").filter({ hasText: words }).waitFor({ timeout: LOAD_MS });

  /** The names in the table's rows, in order. */
  const names = (page: Page) => page.locator("table.list tbody th").allInnerTexts();

  /** The pager's "page n of m". */
  const pagerAt = (page: Page, words: string) => page.getByRole("navigation", { name: "Pages of dossiers" }).getByText(words);

  /** Waits until the table's rows are `expected` (in any order), and says what they are. */
  async function rows(page: Page, expected: string[]): Promise<string[]> {
    const want = [...expected].sort().join("\n");
    for (let tries = 0; tries < LOAD_MS / 100; tries++) {
      const shown = await names(page);
      if ([...shown].sort().join("\n") === want) return shown;
      await Bun.sleep(100);
    }
    return names(page);
  }

  async function search(page: Page, text: string) {
    await page.getByLabel("Name, email or company").fill(text);
    await page.getByRole("button", { name: "Search" }).click();
  }

  describe("C14 screen 3: the list", () => {
    test("C14: type, stage, assignee, deadline, changed-since and text filters narrow the table and its total; they stand in the address; axe finds nothing serious", async () => {
      const { page, id: me } = await signedIn(at, "member");
      const company = tag("Globex ");
      const sales = ((await at.api("GET", "/flows?type=sales")).json.data as { id: string }[])[0];
      const ada = await newDossier("Ada Moreau", { company, flow_id: at.flow.id, assigned_to: me });
      const bob = await newDossier("Bruno Keller", { company, flow_id: at.flow.id });
      await newDossier("Chloé Martin", { company, flow_id: at.flow.id });
      await newDossier("Northwind renewal", { type: "sales", company, flow_id: sales.id, deal_size: 1200, deal_currency: "EUR" });
      expect((await at.api("PATCH", `/dossiers/${bob.id}`, { current_stage_id: second.id })).status).toBe(200);

      await openList(page);
      expect(await page.getByRole("table", { name: /^Dossiers, page 1 of \d+$/ }).count()).toBe(1);
      expect(await page.getByRole("columnheader").allInnerTexts()).toEqual(["Name", "Type", "Stage", "Status", "Assigned to", "Company", "Deal", "Updated"]);

      await search(page, company);
      await total(page, "4 dossiers match these filters");
      await screenshot(page, "list");
      expect((await rows(page, ["Ada Moreau", "Bruno Keller", "Chloé Martin", "Northwind renewal"])).sort()).toEqual(["Ada Moreau", "Bruno Keller", "Chloé Martin", "Northwind renewal"]);
      expect(new URL(page.url()).searchParams.get("q")).toBe(company);

      await page.getByLabel("Type", { exact: true }).selectOption("candidate");
      await total(page, "3 dossiers match these filters");
      expect((await rows(page, ["Ada Moreau", "Bruno Keller", "Chloé Martin"])).sort()).toEqual(["Ada Moreau", "Bruno Keller", "Chloé Martin"]);

      await page.getByLabel("Stage", { exact: true }).selectOption({ label: second.name });
      await total(page, "1 dossier matches these filters");
      expect(await rows(page, ["Bruno Keller"])).toEqual(["Bruno Keller"]);
      const address = new URL(page.url()).searchParams;
      expect([address.get("type"), address.get("stage_id"), address.get("q")]).toEqual(["candidate", second.id, company]);

      // A reload shows the same list: the filters live in the address.
      await page.reload();
      await total(page, "1 dossier matches these filters");
      expect(await rows(page, ["Bruno Keller"])).toEqual(["Bruno Keller"]);
      expect(await page.getByLabel("Stage", { exact: true }).inputValue()).toBe(second.id);
      expect(await page.getByLabel("Name, email or company").inputValue()).toBe(company);

      await page.getByLabel("Stage", { exact: true }).selectOption("");
      await page.getByLabel("Assigned to").selectOption({ label: "Me" });
      await total(page, "1 dossier matches these filters");
      expect(await rows(page, ["Ada Moreau"])).toEqual(["Ada Moreau"]);
      const row = page.getByRole("row", { name: /Ada Moreau/ });
      expect(await row.innerText()).toContain(first.name);
      expect(await row.innerText()).toContain("Member");
      expect(await row.getByRole("link", { name: "Ada Moreau" }).getAttribute("href")).toBe(`/console/dossiers/${ada.id}`);
      // The table's total agrees with the API's.
      expect((await at.api("GET", `/dossiers?q=${encodeURIComponent(company)}&type=candidate&assigned_to=${me}`)).json.meta.total).toBe(1);
      expect(await seriousFindings(page)).toEqual([]);

      await page.getByLabel("Assigned to").selectOption("");
      await page.getByLabel("Deadline").selectOption({ label: "Overdue" });
      await total(page, "0 dossiers match these filters");
      expect(await page.getByRole("cell", { name: "No dossier matches these filters." }).count()).toBe(1);

      await page.getByLabel("Deadline").selectOption("");
      await total(page, "3 dossiers match these filters");
      await page.getByLabel("Changed since").fill("2999-01-01");
      await total(page, "0 dossiers match these filters");
      expect(new URL(page.url()).searchParams.get("updated_since")).toBe("2999-01-01");
      await page.getByLabel("Changed since").fill("2000-01-01");
      await total(page, "3 dossiers match these filters");

      await page.getByRole("link", { name: "Clear filters" }).click();
      await page.waitForURL((url) => url.search === "", { timeout: LOAD_MS });
      expect(await page.getByLabel("Name, email or company").inputValue()).toBe("");
      expect(await refusedByPolicy(page)).toEqual([]);
    });

    test("C14: the status filter shows archived dossiers, which the list leaves out without it", async () => {
      const { page } = await signedIn(at, "viewer");
      const company = tag("Archco");
      const gone = await newDossier("Archived Alma", { company });
      await newDossier("Active Abe", { company });
      expect((await at.api("DELETE", `/dossiers/${gone.id}`)).status).toBe(200);
      await openList(page, `?q=${company}`);
      await total(page, "1 dossier matches these filters");
      expect(await rows(page, ["Active Abe"])).toEqual(["Active Abe"]);
      await page.getByLabel("Status").selectOption("archived");
      await total(page, "1 dossier matches these filters");
      expect(await rows(page, ["Archived Alma"])).toEqual(["Archived Alma"]);
      expect(await page.getByRole("row", { name: /Archived Alma/ }).innerText()).toContain("Archived");
    });

    test("C14: pages: page n of m, next and previous, the rows per page; the page stands in the address", async () => {
      const { page } = await signedIn(at, "member");
      const company = tag("Pageco");
      for (let i = 0; i < 12; i++) await newDossier(`Paged ${String(i).padStart(2, "0")}`, { company });
      await openList(page, `?q=${company}`);
      await total(page, "12 dossiers match these filters");
      // 25 a page by default: one page, no way forward.
      expect(await pagerAt(page, "Page 1 of 1").count()).toBe(1);
      expect(await page.getByRole("link", { name: "Next page" }).count()).toBe(0);

      await page.getByLabel("Rows per page").selectOption("10");
      await pagerAt(page, "Page 1 of 2").waitFor({ timeout: LOAD_MS });
      // The pager may say so before the table has its new rows (a busy machine saw 12 still).
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("table.list tbody tr").length === 10, undefined, { timeout: LOAD_MS });
      expect(await names(page)).toHaveLength(10);
      const firstPage = await names(page);
      expect(await page.getByRole("link", { name: "Previous page" }).count()).toBe(0);

      await page.getByRole("navigation", { name: "Pages of dossiers" }).getByRole("link", { name: "Next page" }).click();
      await pagerAt(page, "Page 2 of 2").waitFor({ timeout: LOAD_MS });
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("table.list tbody tr").length === 2, undefined, { timeout: LOAD_MS });
      const secondPage = await names(page);
      expect(secondPage).toHaveLength(2);
      expect([...firstPage, ...secondPage].sort()).toEqual(Array.from({ length: 12 }, (_, i) => `Paged ${String(i).padStart(2, "0")}`));
      expect(new URL(page.url()).searchParams.get("page")).toBe("2");
      expect(await page.getByRole("table", { name: "Dossiers that match the filters, page 2 of 2" }).count()).toBe(1);
      expect(await seriousFindings(page)).toEqual([]);

      await page.getByRole("link", { name: "Previous page" }).click();
      await pagerAt(page, "Page 1 of 2").waitFor({ timeout: LOAD_MS });
      expect(new URL(page.url()).searchParams.get("page")).toBeNull();
      // The browser's back button goes back to page 2.
      await page.goBack();
      await pagerAt(page, "Page 2 of 2").waitFor({ timeout: LOAD_MS });

      // A filter changed goes back to page 1.
      await page.getByLabel("Type", { exact: true }).selectOption("candidate");
      await pagerAt(page, "Page 1 of 2").waitFor({ timeout: LOAD_MS });
    });

    test("C14: a row's name opens the dossier's page; a member sees New dossier", async () => {
      const { page } = await signedIn(at, "member");
      const name = tag("Linked ");
      const dossier = await newDossier(name);
      await openList(page, `?q=${encodeURIComponent(name)}`);
      await total(page, "1 dossier matches these filters");
      expect(await page.getByRole("link", { name: "New dossier" }).getAttribute("href")).toBe("/console/dossiers/new");
      await page.getByRole("link", { name }).click();
      await page.waitForURL(`${at.server.url}/console/dossiers/${dossier.id}`, { timeout: LOAD_MS });
    });

    test("C12, C14: a viewer sees the list and finds no New dossier; axe finds nothing serious", async () => {
      const { page } = await signedIn(at, "viewer");
      const name = tag("Seen ");
      await newDossier(name);
      await openList(page, `?q=${encodeURIComponent(name)}`);
      await total(page, "1 dossier matches these filters");
      expect(await rows(page, [name])).toEqual([name]);
      expect(await page.getByRole("link", { name: "New dossier" }).count()).toBe(0);
      expect(await page.getByRole("button").filter({ hasNotText: /^(Search|Sign out)$/ }).count()).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test("C10, C14: a filter the API refuses is shown in words, naming the filter by its label, not its API name (issue 39)", async () => {
      const { page } = await signedIn(at, "viewer");
      await page.goto(`${at.server.url}/console/dossiers?stage_id=not-a-uuid`);
      const alert = page.getByRole("alert").filter({ hasText: /^Stage: / });
      await alert.waitFor({ timeout: LOAD_MS });
      expect(await alert.innerText()).not.toContain("stage_id");
    });
  });
}
