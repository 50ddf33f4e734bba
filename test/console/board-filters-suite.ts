// The board's filters and links in a real headless Chromium against a real server (C14 screen 2):
// assignee (me, anyone, a member), overdue, my open tasks (C22) and text filters are GET /dossiers's own, the columns
// count what matches, and the address keeps them over a reload; a card's name opens the dossier's
// page while a drag that starts on it stays a drag; "New dossier" carries the board's flow.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { column, consoleServer, LOAD_MS, openBoard, screenshot, seriousFindings, signedIn } from "./console";
import type { Engine } from "../helpers/stores";

/** The board's filters on a server whose store is `engine` (C19). */
export async function boardFiltersSuite(engine: Engine) {
  const at = await consoleServer({ engine });

  interface Flow {
    id: string;
    name: string;
    stages: { id: string; name: string }[];
  }

  /** A flow of its own for a test, so that other tests' dossiers never count in its columns. */
  async function newFlow(stages: { name: string; deadline_days?: number }[]): Promise<Flow> {
    const made = await at.api("POST", "/flows", { type: "candidate", name: `Board ${crypto.randomUUID().slice(0, 8)}`, stages });
    expect(made.status).toBe(201);
    return made.json.data;
  }

  /** A dossier in `flow`, moved to `stage` when given. */
  async function newDossier(flow: Flow, fields: Record<string, unknown>, stage?: string) {
    const made = await at.api("POST", "/dossiers", { type: "candidate", flow_id: flow.id, ...fields });
    expect(made.status).toBe(201);
    const id = made.json.data.id as string;
    if (stage) expect((await at.api("PATCH", `/dossiers/${id}`, { current_stage_id: flow.stages.find((s) => s.name === stage)!.id })).status).toBe(200);
    return id;
  }

  /** A member who never signs in (an assignee to filter by). */
  async function newMember(name: string) {
    const made = await at.api("POST", "/members", { email: `${crypto.randomUUID().slice(0, 8)}@example.com`, name, role: "member" });
    expect(made.status).toBe(201);
    return made.json.data.id as string;
  }

  const card = (page: Page, stage: string, name: string) => column(page, stage).getByRole("article", { name });

  /** Waits until every column shows these counts ("2 dossiers", "1 dossier", ...), then answers the
   * names of the cards each shows. */
  async function shows(page: Page, counts: Record<string, string>): Promise<Record<string, string[]>> {
    await page.waitForFunction(
      (expected: Record<string, string>) => {
        const document = (globalThis as any).document;
        return Object.entries(expected).every(([stage, count]) => {
          const section = document.querySelector(`section[data-stage="${stage}"]`);
          return section && section.getAttribute("aria-busy") === null && section.querySelector(".count")?.textContent === count;
        });
      },
      counts,
      { timeout: LOAD_MS },
    );
    const names: Record<string, string[]> = {};
    for (const stage of Object.keys(counts)) names[stage] = await column(page, stage).locator("article h3").allInnerTexts();
    return names;
  }

  /** Waits until the board says `text` of the filters' matches (a status, read out when it changes). */
  const saysMatching = (page: Page, text: string) =>
    page.waitForFunction((expected: string) => (globalThis as any).document.querySelector("p.board-matches[role=status]")?.textContent === expected, text, { timeout: LOAD_MS });

  const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

  // First in the file, so that the top bar lists only the default flows (the other tests add theirs).
  test("C14: the board as docs/console.md shows it", async () => {
    const { page, id: me } = await signedIn(at, "member");
    const sales = ((await at.api("GET", "/flows?type=sales")).json.data as Flow[])[0];
    const people = [
      ["Northwind renewal", "Northwind", "Lead", 18000, "EUR"],
      ["Contoso pilot", "Contoso", "Lead", 9500, "EUR"],
      ["Fabrikam rollout", "Fabrikam", "Qualified", 42000, "USD"],
      ["Tailspin upgrade", "Tailspin Toys", "Qualified", 7000, "EUR"],
      ["Litware licences", "Litware", "Proposal", 26000, "EUR"],
      ["Adatum support", "Adatum", "Negotiation", 12000, "GBP"],
      ["Proseware expansion", "Proseware", "Closed", 31000, "EUR"],
    ] as const;
    for (const [name, company, stage, deal_size, deal_currency] of people) {
      const made = await at.api("POST", "/dossiers", { type: "sales", flow_id: sales.id, name, company, deal_size, deal_currency, assigned_to: me });
      expect(made.status).toBe(201);
      const target = sales.stages.find((s) => s.name === stage)!;
      if (target.id !== sales.stages[0].id) expect((await at.api("PATCH", `/dossiers/${made.json.data.id}`, { current_stage_id: target.id })).status).toBe(200);
    }
    await page.goto(`${at.server.url}/console/board/${sales.id}?assignee=me`);
    await shows(page, { Lead: "2 dossiers", Qualified: "2 dossiers", Proposal: "1 dossier", Negotiation: "1 dossier", Closed: "1 dossier" });
    expect(await seriousFindings(page)).toEqual([]);
    await screenshot(page, "board");
  });

  describe("C14: the board's filters", () => {
    test("C14: assignee (me, a member, anyone), overdue and text filter the columns; counts follow; a reload keeps them", async () => {
      const { page, id: me } = await signedIn(at, "member");
      const other = await newMember("Oscar Other");
      const flow = await newFlow([{ name: "Due", deadline_days: 0 }, { name: "Open" }, { name: "Done" }]);
      await newDossier(flow, { name: "Ada Alpha", assigned_to: me });
      await newDossier(flow, { name: "Bob Beta", assigned_to: other });
      await newDossier(flow, { name: "Cy Gamma", company: "Zeta Works" }, "Open");
      await newDossier(flow, { name: "Di Delta", assigned_to: me }, "Open");

      await openBoard(page, at, flow);
      expect(await shows(page, { Due: "2 dossiers", Open: "2 dossiers", Done: "0 dossiers" })).toEqual({
        Due: ["Bob Beta", "Ada Alpha"],
        Open: ["Di Delta", "Cy Gamma"],
        Done: [],
      });

      await page.getByLabel("Assigned to", { exact: true }).selectOption({ label: "Me" });
      expect(await shows(page, { Due: "1 dossier", Open: "1 dossier", Done: "0 dossiers" })).toEqual({ Due: ["Ada Alpha"], Open: ["Di Delta"], Done: [] });
      await page.getByLabel("Overdue only").check();
      expect(await shows(page, { Due: "1 dossier", Open: "0 dossiers", Done: "0 dossiers" })).toEqual({ Due: ["Ada Alpha"], Open: [], Done: [] });
      expect(query(page)).toEqual({ assignee: "me", overdue: "1" });
      await saysMatching(page, "1 dossier matches the filters.");
      expect(await seriousFindings(page)).toEqual([]);

      await page.reload();
      expect(await shows(page, { Due: "1 dossier", Open: "0 dossiers", Done: "0 dossiers" })).toEqual({ Due: ["Ada Alpha"], Open: [], Done: [] });
      expect(await page.getByLabel("Assigned to", { exact: true }).inputValue()).toBe("me");
      expect(await page.getByLabel("Overdue only").isChecked()).toBe(true);

      await page.getByRole("button", { name: "Clear filters" }).click();
      await shows(page, { Due: "2 dossiers", Open: "2 dossiers", Done: "0 dossiers" });
      expect(query(page)).toEqual({});
      await saysMatching(page, "");

      await page.getByLabel("Assigned to", { exact: true }).selectOption({ label: "Oscar Other" });
      expect(await shows(page, { Due: "1 dossier", Open: "0 dossiers", Done: "0 dossiers" })).toEqual({ Due: ["Bob Beta"], Open: [], Done: [] });
      expect(query(page)).toEqual({ assignee: other });
      await page.getByLabel("Assigned to", { exact: true }).selectOption({ label: "Anyone" });

      // Text: a case-insensitive part of the name, email or company.
      await page.getByLabel("Search").fill("zeta");
      expect(await shows(page, { Due: "0 dossiers", Open: "1 dossier", Done: "0 dossiers" })).toEqual({ Due: [], Open: ["Cy Gamma"], Done: [] });
      expect(query(page)).toEqual({ q: "zeta" });
      await page.reload();
      expect(await shows(page, { Due: "0 dossiers", Open: "1 dossier", Done: "0 dossiers" })).toEqual({ Due: [], Open: ["Cy Gamma"], Done: [] });
      expect(await page.getByLabel("Search").inputValue()).toBe("zeta");
      await page.getByLabel("Search").fill("nobody has this");
      await shows(page, { Due: "0 dossiers", Open: "0 dossiers", Done: "0 dossiers" });
      await saysMatching(page, "0 dossiers match the filters.");
      expect(await seriousFindings(page)).toEqual([]);
    });

    test("C14: a card moved under a filter keeps the columns' filtered counts; back from its page, the filter holds", async () => {
      const { page, id: me } = await signedIn(at, "member");
      const flow = await newFlow([{ name: "First" }, { name: "Second" }]);
      await newDossier(flow, { name: "Mine", assigned_to: me });
      await newDossier(flow, { name: "Not mine" });
      await page.goto(`${at.server.url}/console/board/${flow.id}?assignee=me`);
      await shows(page, { First: "1 dossier", Second: "0 dossiers" });
      await card(page, "First", "Mine").getByRole("button", { name: "Move to…" }).click();
      await card(page, "First", "Mine").getByRole("button", { name: "Second", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Mine moved to Second" }).waitFor({ timeout: LOAD_MS });
      expect(await shows(page, { First: "0 dossiers", Second: "1 dossier" })).toEqual({ First: [], Second: ["Mine"] });
      await page.reload();
      expect(await shows(page, { First: "0 dossiers", Second: "1 dossier" })).toEqual({ First: [], Second: ["Mine"] });
      // To the dossier's page and back: the board as it was left, filters included.
      await card(page, "Second", "Mine").getByRole("link", { name: "Mine" }).click();
      await page.waitForURL("**/console/dossiers/**", { timeout: LOAD_MS });
      await page.goBack();
      expect(await shows(page, { First: "0 dossiers", Second: "1 dossier" })).toEqual({ First: [], Second: ["Mine"] });
      expect(query(page)).toEqual({ assignee: "me" });
    });

    test("C22 (issue 39): 'With my open tasks' shows the dossiers with an open task assigned to me; a done task drops its dossier; the address keeps it", async () => {
      const { page, id: me } = await signedIn(at, "member");
      const other = await newMember("Tess Tasks");
      const flow = await newFlow([{ name: "New" }, { name: "Later" }]);
      const mine = await newDossier(flow, { name: "Mine Open" });
      const done = await newDossier(flow, { name: "Mine Done" }, "Later");
      const theirs = await newDossier(flow, { name: "Theirs Open" }, "Later");
      await newDossier(flow, { name: "No Task" });
      const task = async (dossier: string, assignee: string) => {
        const made = await at.api("POST", "/tasks", { title: "Follow up", dossier_id: dossier, assigned_to: assignee });
        expect(made.status).toBe(201);
        return made.json.data.id as string;
      };
      await task(mine, me);
      const finished = await task(done, me);
      await task(theirs, other);

      await openBoard(page, at, flow);
      await shows(page, { New: "2 dossiers", Later: "2 dossiers" });
      await page.getByLabel("With my open tasks").check();
      expect(await shows(page, { New: "1 dossier", Later: "1 dossier" })).toEqual({ New: ["Mine Open"], Later: ["Mine Done"] });
      expect(query(page)).toEqual({ tasks: "mine" });
      await saysMatching(page, "2 dossiers match the filters.");
      expect(await seriousFindings(page)).toEqual([]);

      expect((await at.api("PATCH", `/tasks/${finished}`, { status: "done" })).status).toBe(200);
      await page.reload();
      expect(await page.getByLabel("With my open tasks").isChecked()).toBe(true);
      expect(await shows(page, { New: "1 dossier", Later: "0 dossiers" })).toEqual({ New: ["Mine Open"], Later: [] });
    });
  });

  describe("C14: the board's links", () => {
    test("C14: a card's name opens the dossier's page; a drag that starts on the name moves the card and opens nothing", async () => {
      const { page } = await signedIn(at, "member");
      const flow = await newFlow([{ name: "From" }, { name: "To" }]);
      const id = await newDossier(flow, { name: "Linked Lou" });
      await openBoard(page, at, flow);
      const link = card(page, "From", "Linked Lou").getByRole("link", { name: "Linked Lou" });
      expect(await link.getAttribute("href")).toBe(`/console/dossiers/${id}`);

      // Dragged by its name and dropped where it was: neither a move nor a click on the link.
      const box = (await link.boundingBox())!;
      await page.mouse.move(box.x + 5, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 40, box.y + 40, { steps: 5 });
      await page.mouse.move(box.x + 5, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await page.waitForTimeout(300);
      expect(new URL(page.url()).pathname).toBe(`/console/board/${flow.id}`);
      expect((await at.api("GET", `/dossiers/${id}`)).json.data.current_stage_id).toBe(flow.stages[0].id);

      // Dragged by its name onto the next column: moved, and still the board.
      const to = (await column(page, "To").boundingBox())!;
      await page.mouse.move(box.x + 5, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 30, box.y + 20, { steps: 5 });
      await page.mouse.move(to.x + to.width / 2, to.y + 40, { steps: 10 });
      await page.mouse.up();
      await page.getByRole("status").filter({ hasText: "Linked Lou moved to To" }).waitFor({ timeout: LOAD_MS });
      expect(new URL(page.url()).pathname).toBe(`/console/board/${flow.id}`);
      expect((await at.api("GET", `/dossiers/${id}`)).json.data.current_stage_id).toBe(flow.stages[1].id);

      // A click is a click: the dossier's page, in the same page (no reload).
      await page.evaluate(() => ((globalThis as any).notReloaded = true));
      await card(page, "To", "Linked Lou").getByRole("link", { name: "Linked Lou" }).click();
      await page.waitForURL(`**/console/dossiers/${id}`, { timeout: LOAD_MS });
      expect(await page.evaluate(() => (globalThis as any).notReloaded)).toBe(true);
    });

    test("C14: 'New dossier' leads to the new-dossier form for the board's flow; a viewer has no such link", async () => {
      const { page } = await signedIn(at, "member");
      await openBoard(page, at);
      const link = page.getByRole("link", { name: "New dossier" });
      expect(await link.getAttribute("href")).toBe(`/console/dossiers/new?flow=${at.flow.id}`);
      await link.click();
      await page.waitForURL(`**/console/dossiers/new?flow=${at.flow.id}`, { timeout: LOAD_MS });

      const viewer = await signedIn(at, "viewer");
      await openBoard(viewer.page, at);
      expect(await viewer.page.getByRole("link", { name: "New dossier" }).count()).toBe(0);
      // Filtering is reading: a viewer has the filters.
      expect(await viewer.page.getByRole("search", { name: "Filter the board" }).count()).toBe(1);
    });
  });
}
