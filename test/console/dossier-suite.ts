// The dossier page and the new-dossier form (C14 screens 4 and 5) in a real headless Chromium
// against a real server: creating a dossier with a PDF CV and viewing it from a blob: URL (C20),
// editing in place with If-Match and the 412 of a change made meanwhile (C16), notes newest first,
// linking contacts (C6), the history in words (C18), refusals beside their fields with the typed
// text kept, a viewer with no write control, a 404; axe finds nothing serious on either screen and
// the page's policy refuses nothing the console does.
import { describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { Locator, Page } from "playwright-core";
import { consoleServer, LOAD_MS, refusedByPolicy, screenshot, seriousFindings, signedIn } from "./console";
import type { Engine } from "../helpers/stores";

/** The dossier page and the new-dossier form on a server whose store is `engine` (C19). */
export async function dossierSuite(engine: Engine) {
  const at = await consoleServer({ engine });
  const [first, second] = at.flow.stages;

  const unique = (prefix: string) => `${prefix} ${crypto.randomUUID().slice(0, 8)}`;

  async function newDossier(name: string, fields: Record<string, unknown> = {}) {
    const made = await at.api("POST", "/dossiers", { type: "candidate", name, flow_id: at.flow.id, ...fields });
    expect(made.status).toBe(201);
    return made.json.data as { id: string };
  }

  const read = async (id: string) => (await at.api("GET", `/dossiers/${id}`)).json.data as Record<string, unknown>;

  async function cvPdf(): Promise<Buffer> {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.addPage([595, 842]).drawText("Curriculum vitae: Ada Lovelace", { x: 60, y: 760, size: 20, font });
    return Buffer.from(await pdf.save());
  }

  /** The dossier's page, once its name is its heading. */
  async function openDossier(page: Page, id: string, name: string) {
    await page.goto(`${at.server.url}/console/dossiers/${id}`);
    await page.getByRole("heading", { level: 1, name }).waitFor({ timeout: LOAD_MS });
  }

  /** The words that describe a control (its aria-describedby), e.g. the API's refusal beside it. */
  const description = (control: Locator) =>
    control.evaluate((element: any) =>
      (element.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .filter(Boolean)
        .map((id: string) => element.ownerDocument.getElementById(id)?.textContent ?? "")
        .join(" "),
    );

  const details = (page: Page) => page.getByRole("form", { name: "Dossier details" });

  describe("C14 screen 5: a new dossier", () => {
    test("C5, C14, C20: the form creates a dossier with its PDF CV in the chosen flow; its page views the CV from a blob: URL", async () => {
      const { page } = await signedIn(at, "member");
      const name = unique("Ada");
      await page.goto(`${at.server.url}/console/dossiers/new?flow=${at.flow.id}`);
      await page.getByRole("heading", { level: 1, name: "New dossier" }).waitFor({ timeout: LOAD_MS });
      expect(await page.getByLabel("Candidate (recruitment)").isChecked()).toBe(true);
      expect(await page.getByLabel("Flow").inputValue()).toBe(at.flow.id);
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Email").fill("ada@example.org");
      await page.getByLabel("Role").fill("Engineer");
      await page.getByLabel("CV (PDF, optional)").setInputFiles({ name: "ada.pdf", mimeType: "application/pdf", buffer: await cvPdf() });
      expect(await seriousFindings(page)).toEqual([]);
      await screenshot(page, "new-dossier");
      await page.getByRole("button", { name: "Create dossier" }).click();
      await page.getByRole("heading", { level: 1, name }).waitFor({ timeout: LOAD_MS });
      const id = page.url().split("/").at(-1)!;
      expect(await page.title()).toBe(`${name} · Dossier`);
      const made = await read(id);
      expect(made).toMatchObject({ name, email: "ada@example.org", role: "Engineer", flow_id: at.flow.id, current_stage_id: first.id });
      expect(made.cv_url).not.toBeNull();
      const frame = page.getByTitle(`CV of ${name}`);
      await frame.waitFor({ timeout: LOAD_MS });
      expect(await frame.getAttribute("src")).toStartWith("blob:");
      expect(await refusedByPolicy(page)).toEqual([]);
    });

    test("C14: a refused field shows the API's message beside it, everything typed stays, and nothing is made", async () => {
      const { page } = await signedIn(at, "member");
      const name = unique("Refused");
      // ?flow= chooses the flow, and with it the type.
      const sales = ((await at.api("GET", "/flows?type=sales")).json.data as { id: string }[])[0];
      await page.goto(`${at.server.url}/console/dossiers/new?flow=${sales.id}`);
      await page.getByLabel("Name").waitFor({ timeout: LOAD_MS });
      expect(await page.getByLabel("Sales (a deal or an account)").isChecked()).toBe(true);
      expect(await page.getByLabel("Flow").inputValue()).toBe(sales.id);
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Email").fill("not an email");
      await page.getByLabel("Deal size").fill("1200");
      await page.getByRole("button", { name: "Create dossier" }).click();
      const email = page.getByLabel("Email");
      await page.getByRole("alert").filter({ hasText: "email" }).waitFor({ timeout: LOAD_MS });
      expect(await email.getAttribute("aria-invalid")).toBe("true");
      expect(await description(email)).toContain("must be an email address");
      expect(await page.getByLabel("Name").inputValue()).toBe(name);
      expect(await email.inputValue()).toBe("not an email");
      expect(await page.getByLabel("Deal size").inputValue()).toBe("1200");
      expect((await at.api("GET", `/dossiers?q=${encodeURIComponent(name)}`)).json.meta.total).toBe(0);
      // A file that is no PDF is refused beside the CV field before anything is sent.
      await email.fill("deal@example.org");
      await page.getByLabel("CV (PDF, optional)").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("plain text") });
      await page.getByRole("button", { name: "Create dossier" }).click();
      await page.getByRole("alert").filter({ hasText: "notes.txt is not a PDF file" }).waitFor({ timeout: LOAD_MS });
      expect((await at.api("GET", `/dossiers?q=${encodeURIComponent(name)}`)).json.meta.total).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
    });
  });

  describe("C14 screen 4: a dossier", () => {
    test("C14, C16: a field edited in place is saved (the API agrees); a change made meanwhile gives the 412 message, keeps the typed value, and saving after a reload applies it", async () => {
      const { page } = await signedIn(at, "member");
      const name = unique("Edit");
      const { id } = await newDossier(name, { company: "Initech" });
      await openDossier(page, id, name);
      await details(page).getByLabel("Company").fill("Globex");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor({ timeout: LOAD_MS });
      expect((await read(id)).company).toBe("Globex");

      await details(page).getByLabel("Phone").fill("+44 20 7946 0000");
      expect((await at.api("PATCH", `/dossiers/${id}`, { company: "Umbrella" })).status).toBe(200);
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("alert").filter({ hasText: "Someone else changed this dossier first" }).waitFor({ timeout: LOAD_MS });
      expect(await details(page).getByLabel("Phone").inputValue()).toBe("+44 20 7946 0000");
      expect(await read(id)).toMatchObject({ company: "Umbrella", phone: null });
      await page.getByRole("button", { name: "Reload the dossier" }).click();
      await page.getByRole("status").filter({ hasText: "(they changed company); what you typed is still here" }).waitFor({ timeout: LOAD_MS });
      expect(await details(page).getByLabel("Company").inputValue()).toBe("Umbrella");
      expect(await details(page).getByLabel("Phone").inputValue()).toBe("+44 20 7946 0000");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor({ timeout: LOAD_MS });
      expect(await read(id)).toMatchObject({ company: "Umbrella", phone: "+44 20 7946 0000" });
    });

    test("C14: an invalid email is refused beside its field and the typed text stays; stage, status and assignee are saved from their pickers", async () => {
      const { page, id: memberId } = await signedIn(at, "member");
      const name = unique("Fields");
      const { id } = await newDossier(name);
      await openDossier(page, id, name);
      const email = details(page).getByLabel("Email");
      await email.fill("nobody at example");
      await details(page).getByLabel("Company").fill("Hooli");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("alert").filter({ hasText: "must be an email address" }).waitFor({ timeout: LOAD_MS });
      expect(await email.getAttribute("aria-invalid")).toBe("true");
      expect(await description(email)).toContain("Email: must be an email address");
      expect(await email.inputValue()).toBe("nobody at example");
      expect(await details(page).getByLabel("Company").inputValue()).toBe("Hooli");
      expect((await read(id)).company).toBeNull();
      expect(await seriousFindings(page)).toEqual([]);

      await email.fill("fields@example.org");
      await details(page).getByLabel("Stage").selectOption({ label: second.name });
      await details(page).getByLabel("Status").selectOption({ label: "Won" });
      await details(page).getByLabel("Assigned to").selectOption(memberId);
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor({ timeout: LOAD_MS });
      expect(await read(id)).toMatchObject({ email: "fields@example.org", company: "Hooli", current_stage_id: second.id, status: "won", assigned_to: memberId });
      expect(await page.getByRole("heading", { level: 1, name }).isVisible()).toBe(true);
    });

    test("C14: notes are added and the newest shows first", async () => {
      const { page } = await signedIn(at, "member");
      const name = unique("Notes");
      const { id } = await newDossier(name);
      await openDossier(page, id, name);
      await page.getByText("No notes yet.").waitFor({ timeout: LOAD_MS });
      for (const content of ["First call went well.", "Second call: wants a proposal."]) {
        await page.getByLabel("New note").fill(content);
        await page.getByRole("button", { name: "Add note" }).click();
        await page.getByRole("list", { name: "Notes, newest first" }).getByText(content).waitFor({ timeout: LOAD_MS });
        expect(await page.getByLabel("New note").inputValue()).toBe("");
      }
      const shown = await page.getByRole("list", { name: "Notes, newest first" }).locator(".content").allInnerTexts();
      expect(shown).toEqual(["Second call: wants a proposal.", "First call went well."]);
      const stored = (await at.api("GET", `/dossiers/${id}/notes`)).json.data.map((note: { content: string }) => note.content);
      expect(stored).toEqual(["First call went well.", "Second call: wants a proposal."]);
      // An empty note is refused beside the field, naming it by its label (issue 39).
      await page.getByRole("button", { name: "Add note" }).click();
      await page.getByRole("alert").filter({ hasText: "New note: cannot be empty." }).waitFor({ timeout: LOAD_MS });
      expect(await description(page.getByLabel("New note"))).toContain("New note: cannot be empty.");
      expect(await page.getByRole("list", { name: "Notes, newest first" }).locator("li").count()).toBe(2);
    });

    test("C6, C14: a contact found by search is linked, made primary and unlinked; the API agrees at each step", async () => {
      const { page } = await signedIn(at, "member");
      const name = unique("Links");
      const { id } = await newDossier(name);
      const contactName = unique("Grace");
      const contact = await at.api("POST", "/contacts", { full_name: contactName, email: `${crypto.randomUUID().slice(0, 8)}@example.org` });
      expect(contact.status).toBe(201);
      const contactId = contact.json.data.id as string;
      await openDossier(page, id, name);
      const links = page.getByRole("region", { name: "Linked contacts" });
      await links.getByLabel("Find a contact").fill(contactName);
      await links.getByLabel("Role on this dossier").selectOption({ label: "hiring manager" });
      await links.getByRole("button", { name: "Search" }).click();
      await links.getByRole("button", { name: `Link ${contactName}` }).click();
      await links.getByRole("link", { name: contactName }).waitFor({ timeout: LOAD_MS });
      const linked = async () => (await at.api("GET", `/dossiers/${id}/contacts`)).json.data as { contact_id: string; is_primary: boolean; role_on_dossier: string }[];
      expect((await linked()).find((link) => link.contact_id === contactId)).toMatchObject({ role_on_dossier: "hiring_manager", is_primary: false });

      await links.getByRole("button", { name: `Make ${contactName} the primary contact` }).click();
      await links.getByRole("button", { name: `Make ${contactName} the primary contact` }).waitFor({ state: "detached", timeout: LOAD_MS });
      expect((await read(id)).contact_id).toBe(contactId);

      await links.getByRole("button", { name: `Unlink ${contactName}` }).click();
      await links.getByRole("link", { name: contactName }).waitFor({ state: "detached", timeout: LOAD_MS });
      expect((await linked()).some((link) => link.contact_id === contactId)).toBe(false);
      expect((await read(id)).contact_id).toBeNull();

      // The history tells each step, with the contact by name.
      const history = page.getByRole("list", { name: "What happened, oldest first" });
      await history.getByText(`unlinked ${contactName}`).waitFor({ timeout: LOAD_MS });
      expect(await history.innerText()).toContain(`linked ${contactName} as hiring manager`);
      expect(await history.innerText()).toContain(`made ${contactName} the primary contact`);
    });

    test("C18: the history lists the changes in words, oldest first, by who made them", async () => {
      const { page } = await signedIn(at, "member");
      const name = unique("History");
      const { id } = await newDossier(name);
      expect((await at.api("PATCH", `/dossiers/${id}`, { current_stage_id: second.id })).status).toBe(200);
      await openDossier(page, id, name);
      await details(page).getByLabel("Company").fill("Acme");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor({ timeout: LOAD_MS });
      await page.getByLabel("New note").fill("Met at the fair.");
      await page.getByRole("button", { name: "Add note" }).click();
      const history = page.getByRole("list", { name: "What happened, oldest first" });
      await history.getByText("added a note").waitFor({ timeout: LOAD_MS });
      const lines = await history.locator("li span").allInnerTexts();
      expect(lines).toEqual([
        `The API key “bootstrap” created it in ${first.name}.`,
        `The API key “bootstrap” moved it from ${first.name} to ${second.name}.`,
        expect.stringMatching(/^Member \d+ changed company from nothing to “Acme”\.$/),
        expect.stringMatching(/^Member \d+ added a note\.$/),
      ]);
      expect(await page.getByRole("region", { name: "History" }).getByText(`${second.name}:`).innerText()).toContain("so far");
    });

    test("C14, C20: a CV is attached on the page and viewed from a blob: URL; a file that is no PDF is refused beside the field", async () => {
      const { page } = await signedIn(at, "member");
      const name = unique("Cv");
      const { id } = await newDossier(name);
      await openDossier(page, id, name);
      await page.getByText("No CV attached.").waitFor({ timeout: LOAD_MS });
      const input = page.getByLabel("Attach a CV (PDF)");
      await input.setInputFiles({ name: "cv.txt", mimeType: "text/plain", buffer: Buffer.from("no pdf") });
      await page.getByRole("alert").filter({ hasText: "cv.txt is not a PDF file" }).waitFor({ timeout: LOAD_MS });
      expect((await read(id)).cv_url).toBeNull();
      await input.setInputFiles({ name: "cv.pdf", mimeType: "application/pdf", buffer: await cvPdf() });
      await page.getByTitle(`CV of ${name}`).waitFor({ timeout: LOAD_MS });
      expect(await page.getByTitle(`CV of ${name}`).getAttribute("src")).toStartWith("blob:");
      expect((await read(id)).cv_url).not.toBeNull();
      expect(await page.getByLabel("Replace the CV (PDF)").count()).toBe(1);
      // A PDF dropped on the CV box replaces it.
      const before = (await read(id)).cv_url;
      const blobBefore = await page.getByTitle(`CV of ${name}`).getAttribute("src");
      const bytes = [...(await cvPdf())];
      const dropped = await page.evaluateHandle((content: number[]) => {
        const transfer = new (globalThis as any).DataTransfer();
        transfer.items.add(new (globalThis as any).File([new Uint8Array(content)], "dropped.pdf", { type: "application/pdf" }));
        return transfer;
      }, bytes);
      await page.locator(".drop").dispatchEvent("drop", { dataTransfer: dropped });
      await page.getByRole("status").filter({ hasText: "dropped.pdf attached." }).waitFor({ timeout: LOAD_MS });
      await page.waitForFunction((old) => (globalThis as any).document.querySelector("iframe.cv-view")?.getAttribute("src") !== old, blobBefore, { timeout: LOAD_MS });
      expect((await read(id)).cv_url).toBe(before);
      await page.getByRole("list", { name: "What happened, oldest first" }).getByText("replaced the CV").waitFor({ timeout: LOAD_MS });
      expect(await page.getByRole("list", { name: "What happened, oldest first" }).innerText()).toContain("attached a CV");
      expect(await refusedByPolicy(page)).toEqual([]);
    });

    test("C14: axe finds no serious or critical violation on a dossier with everything shown", async () => {
      const { page, id: memberId } = await signedIn(at, "member");
      const name = unique("Full");
      const sales = ((await at.api("GET", "/flows?type=sales")).json.data as { id: string }[])[0];
      const jane = await at.api("POST", "/contacts", { full_name: "Jane Doe", email: `jane.${name.split(" ")[1]}@acme.example`, company: "Acme", role: "Head of procurement" });
      expect(jane.status).toBe(201);
      const made = await at.api("POST", "/dossiers", {
        type: "sales",
        contact_id: jane.json.data.id,
        name: `Acme renewal ${name.split(" ")[1]}`,
        flow_id: sales.id,
        email: "jane.doe@acme.example",
        company: "Acme",
        contact_person: "Jane Doe",
        deal_size: 12500.5,
        deal_currency: "EUR",
        assigned_to: memberId,
        intake_notes: "Met at the trade fair.",
      });
      expect(made.status).toBe(201);
      const id = made.json.data.id as string;
      const cv = await fetch(`${at.server.url}/api/v1/dossiers/${id}/cv`, {
        method: "POST",
        headers: { authorization: `Bearer ${at.first.key}`, "content-type": "application/pdf" },
        body: await cvPdf(),
      });
      expect(cv.status).toBe(200);
      await at.api("POST", `/dossiers/${id}/notes`, { content: "Called back, wants a proposal by Friday." });
      await openDossier(page, id, made.json.data.name);
      await page.getByRole("region", { name: "Linked contacts" }).getByRole("link").first().waitFor({ timeout: LOAD_MS });
      await page.getByRole("list", { name: "Notes, newest first" }).waitFor({ timeout: LOAD_MS });
      await page.getByTitle(`CV of ${made.json.data.name}`).waitFor({ timeout: LOAD_MS });
      expect(await details(page).getByLabel("Deal size").inputValue()).toBe("12500.5");
      expect(await seriousFindings(page)).toEqual([]);
      await screenshot(page, "dossier");
    });

    test("C12, C14: a viewer sees the dossier as text with no write control, and the new-dossier page says they cannot create one", async () => {
      const { page } = await signedIn(at, "viewer");
      const name = unique("Viewed");
      const { id } = await newDossier(name, { company: "Read Only Ltd" });
      await at.api("POST", `/dossiers/${id}/notes`, { content: "Seen by all." });
      await openDossier(page, id, name);
      await page.getByText("Seen by all.").waitFor({ timeout: LOAD_MS });
      await page.getByRole("region", { name: "Linked contacts" }).getByRole("link").first().waitFor({ timeout: LOAD_MS });
      expect(await page.getByRole("region", { name: "Details" }).getByText("Read Only Ltd").count()).toBe(1);
      const content = page.locator("main");
      for (const role of ["textbox", "combobox", "checkbox", "radio", "searchbox"] as const) expect(await content.getByRole(role).count()).toBe(0);
      expect(await content.getByRole("button").count()).toBe(0);
      expect(await content.locator("input").count()).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);

      await page.goto(`${at.server.url}/console/dossiers/new`);
      await page.getByText("cannot create them").waitFor({ timeout: LOAD_MS });
      expect(await page.locator("main form").count()).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test("C14: a dossier that does not exist says so", async () => {
      const { page } = await signedIn(at, "viewer");
      await page.goto(`${at.server.url}/console/dossiers/${crypto.randomUUID()}`);
      await page.getByRole("heading", { level: 1, name: "No such dossier" }).waitFor({ timeout: LOAD_MS });
      expect(await page.getByText("does not exist").count()).toBe(1);
    });
  });
}
