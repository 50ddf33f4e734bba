// C21 in the console, in a real headless Chromium against a real server: "Export CSV" on the
// dossiers list and on the contacts screen downloads the list's rows with its current filters, as
// the signed-in member (the session's cookie); axe finds no serious or critical violation.
import { describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { consoleServer, LOAD_MS, seriousFindings, signedIn } from "./console";
import type { Engine } from "../helpers/stores";

/** The exports on a server whose store is `engine` (C19). */
export async function exportsSuite(engine: Engine) {
  const at = await consoleServer({ engine });
  const tag = `Initech${crypto.randomUUID().slice(0, 6)}`;

  /** Clicks the export link and reads the downloaded file as rows (header first). */
  async function download(page: Page): Promise<{ name: string; rows: string[][] }> {
    const [file] = await Promise.all([page.waitForEvent("download", { timeout: LOAD_MS }), page.getByRole("link", { name: "Export CSV" }).click()]);
    const path = await file.path();
    return { name: file.suggestedFilename(), rows: parse(readFileSync(path), { bom: true }) as string[][] };
  }

  describe("C21 in the console: Export CSV", () => {
    test("the dossiers list exports the rows its filters show, with its filters", async () => {
      for (const name of ["Ada Export", "Bob Export"]) expect((await at.api("POST", "/dossiers", { type: "candidate", name, company: tag })).status).toBe(201);
      expect((await at.api("POST", "/dossiers", { type: "sales", name: "Deal Export", company: tag })).status).toBe(201);
      const { page } = await signedIn(at, "viewer");
      await page.goto(`${at.server.url}/console/dossiers?type=candidate&q=${tag}`);
      await page.getByRole("status").filter({ hasText: "2 dossiers match these filters" }).waitFor({ timeout: LOAD_MS });
      const link = page.getByRole("link", { name: "Export CSV" });
      expect(new URL(await link.getAttribute("href") ?? "", at.server.url).search).toBe(`?type=candidate&q=${tag}`);
      const { name, rows } = await download(page);
      expect(name).toMatch(/^dossiers-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(rows[0].slice(0, 5)).toEqual(["id", "organization_id", "flow_id", "type", "name"]);
      expect(rows.slice(1).map((row) => row[rows[0].indexOf("name")]).sort()).toEqual(["Ada Export", "Bob Export"]);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test("the contacts screen exports its search", async () => {
      expect((await at.api("POST", "/contacts", { full_name: "Carla Export", company: tag, kind: ["client"] })).status).toBe(201);
      expect((await at.api("POST", "/contacts", { full_name: "Dan Export", company: tag, kind: ["partner"] })).status).toBe(201);
      const { page } = await signedIn(at, "viewer");
      await page.goto(`${at.server.url}/console/contacts?search=${tag}&kind=client`);
      await page.getByRole("heading", { level: 1, name: "Contacts" }).waitFor({ timeout: LOAD_MS });
      await page.getByRole("cell", { name: "Carla Export" }).or(page.getByRole("rowheader", { name: "Carla Export" })).first().waitFor({ timeout: LOAD_MS });
      const { name, rows } = await download(page);
      expect(name).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(rows.slice(1).map((row) => row[rows[0].indexOf("full_name")])).toEqual(["Carla Export"]);
      expect(rows[1][rows[0].indexOf("kind")]).toBe("client");
      expect(await seriousFindings(page)).toEqual([]);
    });
  });
}
