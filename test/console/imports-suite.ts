// C21's import page in a real headless Chromium against a real server: a CSV file chosen, its
// columns mapped from the header names (and changed by hand), a dry run that shows the refused rows
// and writes nothing, the run with its progress, the log with the revert; a viewer cannot start
// one; axe finds no serious or critical violation.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { consoleServer, LOAD_MS, screenshot, seriousFindings, signedIn } from "./console";
import type { Engine } from "../helpers/stores";

/** The imports screen on a server whose store is `engine` (C19). */
export async function importsSuite(engine: Engine) {
  const at = await consoleServer({ engine });
  const tag = crypto.randomUUID().slice(0, 6);
  const CSV = `Name;E-mail;Ville;Shoe size\r\nAda ${tag};ada.${tag}@example.com;Paris;38\r\nBad ${tag};not-an-email;Lyon;41\r\n`;

  const status = (page: Page, words: string | RegExp) => page.getByRole("status").filter({ hasText: words }).waitFor({ timeout: LOAD_MS });
  const contactsNamed = async (name: string) => (await at.api("GET", `/contacts?search=${encodeURIComponent(name)}`)).json.meta.total as number;

  describe("C21 in the console: the import page", () => {
    test("upload, mapping guessed and edited, dry run with the refused rows, run with progress, the log and its revert", async () => {
      const { page } = await signedIn(at, "member");
      await page.goto(`${at.server.url}/console/imports`);
      await page.getByRole("heading", { level: 1, name: "Import" }).waitFor({ timeout: LOAD_MS });
      await page.getByLabel("CSV file").setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
      const field = (column: string) => page.getByLabel(`Field for the column ${column}`);
      await field("Name").waitFor({ timeout: LOAD_MS });
      expect(await field("Name").inputValue()).toBe("full_name");
      expect(await field("E-mail").inputValue()).toBe("email");
      expect(await field("Ville").inputValue()).toBe("city");
      expect(await field("Shoe size").inputValue()).toBe("");
      await field("Ville").selectOption("role");

      await page.getByRole("button", { name: "Dry run" }).click();
      await status(page, "Dry run finished: 2 of 2 rows, 1 would be created, 0 updated, 0 unchanged, 1 refused");
      const refused = page.getByRole("table", { name: /^Refused rows/ });
      expect(await refused.locator("tbody tr").allInnerTexts()).toEqual([expect.stringMatching(/^3\tE-mail\temail: must be an email address$/)]);
      expect(await contactsNamed(`Ada ${tag}`)).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);

      await page.getByRole("button", { name: "Import", exact: true }).click();
      await status(page, "Import succeeded: 2 of 2 rows, 1 created, 0 updated, 0 unchanged, 1 refused");
      expect(await page.getByRole("progressbar", { name: "Rows done" }).getAttribute("value")).toBe("2");
      const ada = (await at.api("GET", `/contacts?search=${encodeURIComponent(`Ada ${tag}`)}`)).json.data[0];
      expect(ada).toMatchObject({ email: `ada.${tag}@example.com`, role: "Paris", city: null });
      await screenshot(page, "import");

      const log = page.getByRole("table", { name: "The latest imports, newest first" });
      const row = log.getByRole("row").filter({ hasText: "succeeded" }).first();
      await row.waitFor({ timeout: LOAD_MS });
      expect(await log.getByRole("row").filter({ hasText: "dry run, succeeded" }).count()).toBe(1);
      await row.getByRole("button", { name: "Revert the import of people.csv" }).click();
      await log.getByText("1 undone, 0 left as changed since").waitFor({ timeout: LOAD_MS });
      expect(await contactsNamed(`Ada ${tag}`)).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test("a refused file is shown in words; a viewer sees the log but cannot start an import", async () => {
      const { page } = await signedIn(at, "member");
      await page.goto(`${at.server.url}/console/imports`);
      await page.getByLabel("CSV file").setInputFiles({ name: "empty.csv", mimeType: "text/csv", buffer: Buffer.from("") });
      await page.getByRole("button", { name: "Dry run" }).click();
      await page.getByRole("alert").filter({ hasText: /empty/ }).waitFor({ timeout: LOAD_MS });

      const viewer = await signedIn(at, "viewer");
      await viewer.page.goto(`${at.server.url}/console/imports`);
      await viewer.page.getByText("Your role can read the imports but not start one.").waitFor({ timeout: LOAD_MS });
      expect(await viewer.page.getByLabel("CSV file").count()).toBe(0);
      await viewer.page.getByRole("table", { name: "The latest imports, newest first" }).waitFor({ timeout: LOAD_MS });
      expect(await viewer.page.getByRole("button", { name: /^Revert/ }).count()).toBe(0);
      expect(await seriousFindings(viewer.page)).toEqual([]);
    });
  });
}
