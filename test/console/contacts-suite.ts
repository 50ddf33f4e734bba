// Contacts (C14 screen 6) in a real headless Chromium against a real server: a contact created by the
// form, found by search, edited (If-Match, C16) and deleted after a confirmation; a duplicate email's
// 409 shown beside the email with the typed text kept; an edit made stale by someone else's change
// refused with words and the typed text kept; the dossiers a contact is linked to; pages; a viewer
// finds no write control; axe finds no serious or critical violation on either screen.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { consoleServer, focused, LOAD_MS, refusedByPolicy, screenshot, seriousFindings, signedIn } from "./console";
import type { Engine } from "../helpers/stores";

/** The contacts screens on a server whose store is `engine` (C19). */
export async function contactsSuite(engine: Engine) {
  const at = await consoleServer({ engine });

  const tag = (what: string) => `${what}${crypto.randomUUID().slice(0, 6)}`;

  async function newContact(fields: Record<string, unknown>) {
    const made = await at.api("POST", "/contacts", fields);
    expect(made.status).toBe(201);
    return made.json.data as { id: string; full_name: string };
  }

  async function openContacts(page: Page, query = "") {
    await page.goto(`${at.server.url}/console/contacts${query}`);
    await page.getByRole("heading", { level: 1, name: "Contacts" }).waitFor({ timeout: LOAD_MS });
    await page.getByRole("table").waitFor({ timeout: LOAD_MS });
  }

  async function openContact(page: Page, contact: { id: string; full_name: string }) {
    await page.goto(`${at.server.url}/console/contacts/${contact.id}`);
    await page.getByRole("heading", { level: 1, name: contact.full_name }).waitFor({ timeout: LOAD_MS });
  }

  /** A field of the contact form, by its exact label. */
  const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

  /** The words shown for a field of the details. */
  const detail = (page: Page, label: string) => page.locator(".details div").filter({ has: page.locator("dt", { hasText: label }) }).locator("dd");

  describe("C14 screen 6: contacts", () => {
    test("C14: a contact is created by the form, found by search, edited and deleted after a confirmation", async () => {
      const { page } = await signedIn(at, "member");
      const company = tag("Initech ");
      const domain = company.replace(" ", "").toLowerCase();
      await newContact({ full_name: "Peter Gibbons", email: `peter@${domain}.example`, company, role: "Engineer", kind: ["candidate"] });
      await newContact({ full_name: "Joanna Lee", email: `joanna@${domain}.example`, company, role: "Head of people", kind: ["client"] });
      await newContact({ full_name: "Bill Lumbergh", company, role: "Vice president", kind: ["prospect", "client"] });
      await openContacts(page);
      await page.getByRole("button", { name: "New contact" }).click();
      await field(page, "Full name").fill("Nora Newcontact");
      await field(page, "Email").fill(`nora@${domain}.example`);
      await field(page, "Company").fill(company);
      await page.getByRole("checkbox", { name: "Prospect" }).check();
      expect(await seriousFindings(page)).toEqual([]);
      await page.getByRole("button", { name: "Create contact" }).click();
      await page.getByRole("heading", { level: 1, name: "Nora Newcontact" }).waitFor({ timeout: LOAD_MS });
      const id = new URL(page.url()).pathname.split("/").at(-1)!;
      const made = (await at.api("GET", `/contacts/${id}`)).json.data;
      expect([made.email, made.company, made.kind]).toEqual([`nora@${domain}.example`, company, ["prospect"]]);
      expect(await detail(page, "Kind").innerText()).toBe("Prospect");

      await openContacts(page);
      await page.getByLabel("Name, email, company or role").fill(company.toUpperCase());
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("status").filter({ hasText: "4 contacts found" }).waitFor({ timeout: LOAD_MS });
      expect(new URL(page.url()).searchParams.get("search")).toBe(company.toUpperCase());
      await screenshot(page, "contacts");
      const row = page.getByRole("row", { name: /Nora Newcontact/ });
      expect(await row.innerText()).toContain(`nora@${domain}.example`);
      expect(await seriousFindings(page)).toEqual([]);
      await row.getByRole("link", { name: "Nora Newcontact" }).click();
      await page.getByRole("heading", { level: 1, name: "Nora Newcontact" }).waitFor({ timeout: LOAD_MS });

      await page.getByRole("button", { name: "Edit" }).click();
      expect(await focused(field(page, "Full name"))).toBe(true);
      expect(await field(page, "Company").inputValue()).toBe(company);
      await field(page, "Role").fill("Head of buying");
      await field(page, "Phone").fill("+33 1 23 45 67 89");
      await page.getByRole("checkbox", { name: "Client" }).check();
      expect(await seriousFindings(page)).toEqual([]);
      await page.getByRole("button", { name: "Save changes" }).click();
      await detail(page, "Role").filter({ hasText: "Head of buying" }).waitFor({ timeout: LOAD_MS });
      // The focus goes back to the button that opened the form.
      expect(await focused(page.getByRole("button", { name: "Edit" }))).toBe(true);
      const edited = (await at.api("GET", `/contacts/${id}`)).json.data;
      expect([edited.role, edited.phone, edited.kind, edited.company]).toEqual(["Head of buying", "+33 1 23 45 67 89", ["prospect", "client"], company]);

      // Deleting asks first; Cancel keeps the contact.
      await page.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("region", { name: "Delete Nora Newcontact?" });
      await confirm.waitFor({ timeout: LOAD_MS });
      expect(await confirm.innerText()).toContain("linked to no dossier");
      expect(await seriousFindings(page)).toEqual([]);
      await confirm.getByRole("button", { name: "Cancel" }).click();
      expect(await confirm.count()).toBe(0);
      expect(await focused(page.getByRole("button", { name: "Delete" }))).toBe(true);
      expect((await at.api("GET", `/contacts/${id}`)).status).toBe(200);

      await page.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("button", { name: "Yes, delete Nora Newcontact" }).click();
      await page.getByRole("heading", { level: 1, name: "Contacts" }).waitFor({ timeout: LOAD_MS });
      expect((await at.api("GET", `/contacts/${id}`)).status).toBe(404);
      await page.getByLabel("Name, email, company or role").fill(company);
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("status").filter({ hasText: "3 contacts found" }).waitFor({ timeout: LOAD_MS });
      expect(await page.getByRole("link", { name: "Nora Newcontact" }).count()).toBe(0);
      expect(await refusedByPolicy(page)).toEqual([]);
    });

    test("C6, C14: a duplicate email's 409 is shown next to the email field, and what was typed stays", async () => {
      const { page } = await signedIn(at, "member");
      const email = `${tag("taken")}@example.com`;
      await newContact({ full_name: "First Holder", email });
      await openContacts(page);
      await page.getByRole("button", { name: "New contact" }).click();
      await field(page, "Full name").fill("Second Holder");
      await field(page, "Email").fill(email.toUpperCase());
      await field(page, "City").fill("Lyon");
      await page.getByRole("button", { name: "Create contact" }).click();
      const emailField = page.locator(".field").filter({ has: page.getByLabel("Email", { exact: true }) });
      await emailField.getByRole("alert").filter({ hasText: "already exists" }).waitFor({ timeout: LOAD_MS });
      expect(await field(page, "Email").getAttribute("aria-invalid")).toBe("true");
      expect(await field(page, "Email").getAttribute("aria-describedby")).toBe(await emailField.locator(".error").getAttribute("id"));
      expect([await field(page, "Full name").inputValue(), await field(page, "Email").inputValue(), await field(page, "City").inputValue()]).toEqual([
        "Second Holder",
        email.toUpperCase(),
        "Lyon",
      ]);
      expect(await seriousFindings(page)).toEqual([]);
      // Another email creates it.
      await field(page, "Email").fill(`second-${email}`);
      await page.getByRole("button", { name: "Create contact" }).click();
      await page.getByRole("heading", { level: 1, name: "Second Holder" }).waitFor({ timeout: LOAD_MS });
    });

    test("C10, C14: a refusal of the API that names a field is shown beside it", async () => {
      const { page } = await signedIn(at, "member");
      await openContacts(page);
      await page.getByRole("button", { name: "New contact" }).click();
      await field(page, "Full name").fill("Bad Mail");
      await field(page, "Email").fill("not an email");
      await page.getByRole("button", { name: "Create contact" }).click();
      const emailField = page.locator(".field").filter({ has: page.getByLabel("Email", { exact: true }) });
      await emailField.getByRole("alert").filter({ hasText: /^Email: / }).waitFor({ timeout: LOAD_MS });
      expect(await field(page, "Full name").inputValue()).toBe("Bad Mail");
    });

    test("C6, C14: the talent-pool window: a window that ends before it starts is refused beside its end; a contact in the pool is found by the pool filter", async () => {
      const { page } = await signedIn(at, "member");
      const name = tag("Pooled ");
      await openContacts(page);
      await page.getByRole("button", { name: "New contact" }).click();
      await field(page, "Full name").fill(name);
      await field(page, "In the talent pool from").fill("2020-01-10");
      await field(page, "In the talent pool until").fill("2020-01-05");
      await page.getByRole("button", { name: "Create contact" }).click();
      const until = page.locator(".field").filter({ has: field(page, "In the talent pool until") });
      // In words, with the fields' labels, not their API names (issue 39).
      const refusal = until.getByRole("alert").filter({ hasText: "In the talent pool until: must be later than “In the talent pool from”." });
      await refusal.waitFor({ timeout: LOAD_MS });
      await field(page, "In the talent pool until").fill("2099-01-01");
      // Fixed, the field's error goes (issue 39, point 8).
      expect(await refusal.count()).toBe(0);
      await page.getByRole("button", { name: "Create contact" }).click();
      await page.getByRole("heading", { level: 1, name }).waitFor({ timeout: LOAD_MS });
      const id = new URL(page.url()).pathname.split("/").at(-1)!;
      const made = (await at.api("GET", `/contacts/${id}`)).json.data;
      expect([made.pool_added_at, made.pool_expires_at]).toEqual(["2020-01-10T00:00:00.000Z", "2099-01-01T00:00:00.000Z"]);

      await openContacts(page, `?search=${encodeURIComponent(name)}`);
      await page.getByRole("status").filter({ hasText: "1 contact found" }).waitFor({ timeout: LOAD_MS });
      await page.getByLabel("Talent pool").selectOption("expired");
      await page.getByRole("status").filter({ hasText: "0 contacts found" }).waitFor({ timeout: LOAD_MS });
      await page.getByLabel("Talent pool").selectOption("in_pool");
      await page.getByRole("status").filter({ hasText: "1 contact found" }).waitFor({ timeout: LOAD_MS });
      expect(new URL(page.url()).searchParams.get("pool")).toBe("in_pool");
    });

    test("C16, C14: an edit after someone else changed the contact is refused with words (412); the typed text stays; saving again wins", async () => {
      const { page } = await signedIn(at, "member");
      const contact = await newContact({ full_name: tag("Stale "), city: "Paris" });
      await openContact(page, contact);
      await page.getByRole("button", { name: "Edit" }).click();
      // Someone else changes the contact while the form is open.
      expect((await at.api("PATCH", `/contacts/${contact.id}`, { city: "Nantes" })).status).toBe(200);
      await field(page, "Role").fill("Typed by me");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("alert").filter({ hasText: "Someone else changed this contact" }).waitFor({ timeout: LOAD_MS });
      expect(await field(page, "Role").inputValue()).toBe("Typed by me");
      expect((await at.api("GET", `/contacts/${contact.id}`)).json.data.role).toBeNull();
      // Their version is there to see.
      await page.getByText("The contact as it is now").click();
      await detail(page, "City").filter({ hasText: "Nantes" }).waitFor({ timeout: LOAD_MS });
      expect(await seriousFindings(page)).toEqual([]);
      // Saving again sends only what was typed, on the version now read.
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("button", { name: "Edit" }).waitFor({ timeout: LOAD_MS });
      const saved = (await at.api("GET", `/contacts/${contact.id}`)).json.data;
      expect([saved.role, saved.city]).toEqual(["Typed by me", "Nantes"]);
    });

    test("C6, C14: a contact's page lists the dossiers linked to it, primary or not, each a link to its page", async () => {
      const { page } = await signedIn(at, "member");
      const contact = await newContact({
        full_name: "Jane Doe",
        email: `${tag("jane.doe.")}@acme.example`,
        phone: "+33 1 23 45 67 89",
        company: "Acme",
        role: "Head of procurement",
        city: "Lyon",
        kind: ["prospect", "client"],
        notes: "Met at the Lyon trade fair; prefers email.",
      });
      const made = await at.api("POST", "/dossiers", { type: "sales", name: "Acme framework deal", contact_id: contact.id, deal_size: 48000, deal_currency: "EUR" });
      expect(made.status).toBe(201);
      expect((await at.api("POST", "/dossiers", { type: "candidate", name: "Someone Else" })).status).toBe(201);
      const second = await at.api("POST", "/dossiers", { type: "sales", name: "Acme support renewal" });
      expect(second.status).toBe(201);
      const link = await at.api("POST", `/dossiers/${second.json.data.id}/contacts`, { contact_id: contact.id, role_on_dossier: "decision_maker" });
      expect(link.status).toBeOneOf([200, 201]);
      await openContact(page, contact);
      const linked = page.getByRole("region", { name: "Linked dossiers" });
      await linked.getByRole("link", { name: "Acme framework deal" }).waitFor({ timeout: LOAD_MS });
      expect(await linked.getByText("Linked to 2 dossiers").count()).toBe(1);
      expect(await linked.getByRole("link", { name: "Acme support renewal" }).count()).toBe(1);
      expect(await linked.getByRole("link", { name: "Someone Else" }).count()).toBe(0);
      await screenshot(page, "contact");
      await linked.getByRole("link", { name: "Acme framework deal" }).click();
      await page.waitForURL(`${at.server.url}/console/dossiers/${made.json.data.id}`, { timeout: LOAD_MS });
    });

    test("C6, C14: deleting a linked contact says its links go and the dossiers stay; the dossier keeps no primary contact", async () => {
      const { page } = await signedIn(at, "member");
      const contact = await newContact({ full_name: tag("Leaving ") });
      const dossier = await at.api("POST", "/dossiers", { type: "candidate", name: tag("Kept "), contact_id: contact.id });
      expect(dossier.status).toBe(201);
      await openContact(page, contact);
      await page.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("region", { name: `Delete ${contact.full_name}?` });
      expect(await confirm.innerText()).toContain("Its link to dossiers is removed; the dossiers stay.");
      // The focus starts on Cancel, the choice that loses nothing.
      expect(await focused(confirm.getByRole("button", { name: "Cancel" }))).toBe(true);
      await confirm.getByRole("button", { name: `Yes, delete ${contact.full_name}` }).click();
      await page.getByRole("heading", { level: 1, name: "Contacts" }).waitFor({ timeout: LOAD_MS });
      const kept = await at.api("GET", `/dossiers/${dossier.json.data.id}`);
      expect([kept.status, kept.json.data.contact_id]).toEqual([200, null]);
    });

    test("C12, C14: a delete the API refuses (the member became a viewer meanwhile) is shown in its words; the contact stays", async () => {
      const { page, id } = await signedIn(at, "member");
      const contact = await newContact({ full_name: tag("Refused ") });
      await openContact(page, contact);
      expect((await at.api("PATCH", `/members/${id}`, { role: "viewer" })).status).toBe(200);
      await page.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("button", { name: `Yes, delete ${contact.full_name}` }).click();
      await page.getByRole("alert").filter({ hasText: "Your role does not allow this: it needs permission to change contacts." }).waitFor({ timeout: LOAD_MS });
      expect((await at.api("GET", `/contacts/${contact.id}`)).status).toBe(200);
      expect(await page.getByRole("heading", { level: 1, name: contact.full_name }).count()).toBe(1);
    });

    test("C14: pages of contacts: page n of m, next and previous", async () => {
      const { page } = await signedIn(at, "member");
      const company = tag("Pagedco");
      for (let i = 0; i < 27; i++) await newContact({ full_name: `Paged ${String(i).padStart(2, "0")}`, company });
      await openContacts(page, `?search=${company}`);
      await page.getByRole("status").filter({ hasText: "27 contacts found" }).waitFor({ timeout: LOAD_MS });
      const pager = page.getByRole("navigation", { name: "Pages of contacts" });
      expect(await pager.getByText("Page 1 of 2").count()).toBe(1);
      expect(await page.locator("table.list tbody tr").count()).toBe(25);
      await pager.getByRole("link", { name: "Next page" }).click();
      await pager.getByText("Page 2 of 2").waitFor({ timeout: LOAD_MS });
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("table.list tbody tr").length === 2, undefined, { timeout: LOAD_MS });
      expect(new URL(page.url()).searchParams.get("page")).toBe("2");
      await pager.getByRole("link", { name: "Previous page" }).click();
      await pager.getByText("Page 1 of 2").waitFor({ timeout: LOAD_MS });
    });

    test("C12, C14: a viewer finds no create, edit or delete control; axe finds nothing serious", async () => {
      const { page } = await signedIn(at, "viewer");
      const contact = await newContact({ full_name: tag("Viewed "), company: "Viewco" });
      await openContacts(page, `?search=${encodeURIComponent(contact.full_name)}`);
      await page.getByRole("row", { name: new RegExp(contact.full_name) }).waitFor({ timeout: LOAD_MS });
      expect(await page.getByRole("button", { name: "New contact" }).count()).toBe(0);
      expect(await page.getByRole("button").filter({ hasNotText: /^(Search|Sign out)$/ }).count()).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
      await openContact(page, contact);
      await page.getByRole("region", { name: "Linked dossiers" }).getByText("Linked to no dossier").waitFor({ timeout: LOAD_MS });
      expect(await page.getByRole("button").filter({ hasNotText: /^Sign out$/ }).count()).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test("C14: an unknown contact's page says so", async () => {
      const { page } = await signedIn(at, "viewer");
      await page.goto(`${at.server.url}/console/contacts/${crypto.randomUUID()}`);
      await page.getByRole("heading", { level: 1, name: "No such contact" }).waitFor({ timeout: LOAD_MS });
    });
  });
}
