// Issue 39, points 1 and the design system, in a real headless Chromium: every screen at 390, 768,
// 1366 and 1920 px wide has no sideways page scroll, every control within reach (in the window, or
// in a box that scrolls sideways, such as the board or a wide table), Sign out in view; at 1366 and
// wider the whole board fits; axe finds nothing serious at a phone's width, nor in the dark theme.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { consoleServer, LOAD_MS, openBoard, screenshot, seriousFindings, signedIn } from "./console";
import type { Engine } from "../helpers/stores";

/** The console on narrow screens on a server whose store is `engine` (C19). */
export async function responsiveSuite(engine: Engine) {
  const at = await consoleServer({ engine });
  const sales = ((await at.api("GET", "/flows?type=sales")).json.data as (typeof at.flow)[])[0];

  const WIDTHS: [number, number][] = [
    [390, 844],
    [768, 1024],
    [1366, 768],
    [1920, 1080],
  ];

  const { page, id: adminId } = await signedIn(at, "admin");
  const made = await at.api("POST", "/dossiers", {
    type: "sales",
    name: "Northwind renewal with a rather long deal name",
    flow_id: sales.id,
    company: "Northwind Traders International",
    deal_size: 125000,
    deal_currency: "EUR",
    assigned_to: adminId,
  });
  expect(made.status).toBe(201);
  const dossierId = made.json.data.id as string;
  for (const name of ["Ada Lovelace", "Grace Hopper", "Edsger Dijkstra"]) {
    expect((await at.api("POST", "/dossiers", { type: "candidate", name, flow_id: at.flow.id, company: "Analytical Engines", assigned_to: adminId })).status).toBe(201);
  }
  expect((await at.api("POST", "/contacts", { full_name: "Margaret Hamilton", email: "margaret@example.com", company: "Apollo Guidance" })).status).toBe(201);

  /** The screens, by path and the name of their heading. */
  const SCREENS: [string, string][] = [
    [`/console/board/${at.flow.id}`, at.flow.name],
    [`/console/board/${sales.id}`, sales.name],
    ["/console/dossiers", "Dossiers"],
    ["/console/dossiers/new", "New dossier"],
    [`/console/dossiers/${dossierId}`, "Northwind renewal with a rather long deal name"],
    ["/console/contacts", "Contacts"],
    ["/console/settings/members", "Members"],
    ["/console/settings/keys", "API keys"],
    ["/console/settings/webhook", "Webhook"],
    ["/console/settings/flows", "Flows and stages"],
  ];

  async function open(path: string, heading: string) {
    await page.goto(`${at.server.url}${path}`);
    await page.getByRole("heading", { level: 1, name: heading }).waitFor({ timeout: LOAD_MS });
    // A function, not a string: the page's policy allows no eval.
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('[role="status"]')?.textContent?.startsWith("Loading"), undefined, { timeout: LOAD_MS });
    // A board's columns load each on its own: drawn when none still counts "…" or is busy (axe on a
    // board whose cards have not come yet finds a scrolling box with nothing to focus in it).
    await page.waitForFunction(
      () => {
        const doc = (globalThis as any).document;
        return ![...doc.querySelectorAll(".column .count")].some((count: any) => count.textContent === "…") && !doc.querySelector('[aria-busy="true"]');
      },
      undefined,
      { timeout: LOAD_MS },
    );
  }

  /** What is out of reach on the page as drawn now: the page wider than the window, or a control
   * outside it that no sideways-scrolling box holds. */
  const outOfReach = (target: Page) =>
    target.evaluate(() => {
      const doc = (globalThis as any).document;
      const view = globalThis as any;
      const width = view.innerWidth as number;
      const problems: string[] = [];
      if (doc.documentElement.scrollWidth > width) problems.push(`the page is ${doc.documentElement.scrollWidth} px wide in a ${width} px window`);
      const scrollerOf = (element: any) => {
        for (let at = element.parentElement; at; at = at.parentElement) {
          const style = view.getComputedStyle(at);
          if ((style.overflowX === "auto" || style.overflowX === "scroll") && at.scrollWidth > at.clientWidth) return at;
        }
        return null;
      };
      for (const control of doc.querySelectorAll("a[href], button, input, select, textarea")) {
        if (control.classList.contains("skip")) continue; // shown when focused
        const box = control.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        const scroller = scrollerOf(control);
        const outer = scroller ? scroller.getBoundingClientRect() : box;
        if (outer.left < -1 || outer.right > width + 1) problems.push(`${control.tagName.toLowerCase()} “${(control.textContent || control.getAttribute("aria-label") || control.name || "").trim().slice(0, 40)}” spans ${Math.round(box.left)}–${Math.round(box.right)} px`);
      }
      return problems;
    });

  describe("issue 39, point 1: every screen at every width", () => {
    for (const [width, height] of WIDTHS) {
      test(`at ${width} px: no sideways page scroll, every control within reach, Sign out in view`, async () => {
        await page.setViewportSize({ width, height });
        for (const [path, heading] of SCREENS) {
          await open(path, heading);
          expect({ path, problems: await outOfReach(page) }).toEqual({ path, problems: [] });
          const signOut = (await page.getByRole("button", { name: "Sign out" }).boundingBox())!;
          expect({ path, signOut: signOut.x >= 0 && signOut.x + signOut.width <= width && signOut.y >= 0 && signOut.y + signOut.height <= height }).toEqual({ path, signOut: true });
          if (width === 390) expect({ path, findings: await seriousFindings(page) }).toEqual({ path, findings: [] });
          if (width === 390 && path === `/console/board/${at.flow.id}`) await screenshot(page, "board-phone", { width, height });
        }
      });
    }

    test("at 1366 and 1920 px the whole board is in view: no column clipped, no sideways scroll", async () => {
      for (const [width, height] of WIDTHS.filter(([w]) => w >= 1366)) {
        await page.setViewportSize({ width, height });
        for (const flow of [at.flow, sales]) {
          await openBoard(page, at, flow);
          const columns = await page.locator("section.column").evaluateAll((sections: any[]) => sections.map((s) => [s.getBoundingClientRect().left, s.getBoundingClientRect().right]));
          expect(columns.length).toBe(flow.stages.length);
          for (const [left, right] of columns) expect(left >= 0 && right <= width).toBe(true);
        }
      }
    });
  });

  test("design system: the dark theme keeps AA contrast on every screen (axe), and the page's colours follow it", async () => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.emulateMedia({ colorScheme: "dark" });
    try {
      for (const [path, heading] of SCREENS) {
        await open(path, heading);
        expect({ path, findings: await seriousFindings(page) }).toEqual({ path, findings: [] });
      }
      await open(`/console/board/${sales.id}`, sales.name);
      await screenshot(page, "board-dark", { width: 1366, height: 768 });
      const ground = await page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.documentElement).backgroundColor as string);
      expect(ground).toBe("rgb(18, 22, 27)");
    } finally {
      await page.emulateMedia({ colorScheme: "light" });
    }
  });
}
