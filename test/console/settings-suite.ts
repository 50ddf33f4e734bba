// Settings in a real headless Chromium against a real server (C12, C13, C14 screen 7): inviting a
// member and signing in as them by the setup link (in a second browser, so that both sessions hold
// at once), changing their role, disabling them; an API key shown once and revoked (the API then
// refuses it); the webhook endpoint, a delivery to a real receiver that fails, its attempts in the
// log and Retry re-sending it; a flow and its stages made, renamed, reordered by keyboard, deleted;
// members and viewers find no settings. axe finds no serious or critical violation on any screen.
import { afterAll, describe, expect, test } from "bun:test";
import { chromium as playwright, type Browser, type Page } from "playwright-core";
import { chromiumArgs, chromiumExecutable } from "../helpers/chromium";
import { consoleServer, focused, LOAD_MS, newPage, PASSWORD, refusedByPolicy, screenshot, seriousFindings, signedIn } from "./console";
import type { Engine } from "../helpers/stores";

/** The settings screens on a server whose store is `engine` (C19). */
export async function settingsSuite(engine: Engine) {
  // The webhook dispatcher runs, with no retries (a failed first attempt is `failed` at once, C7's
  // schedule replaced as DOSSIER_WEBHOOK_RETRY_SCHEDULE allows).
  const at = await consoleServer({ engine, webhooks: true, config: { webhookRetrySchedule: [], webhookTimeoutMs: 2000 } });

  // @sparticuz/chromium runs as one process whose contexts share their cookies (console.ts): a
  // second browser is a second process, with a cookie store of its own, so the invited member's
  // session and the admin's hold at once.
  // There the clipboard works too: in the first browser, where every test opens contexts, a
  // context's granted permissions did not always hold.
  let second: Promise<Browser> | null = null;

  /** An admin made through the API, signed in by their setup link in a page of the second browser
   * that may use the clipboard. */
  async function adminInSecondBrowser(): Promise<Page> {
    second ??= (async () => playwright.launch({ executablePath: await chromiumExecutable(), args: chromiumArgs, headless: true }))();
    const context = await (await second).newContext({ permissions: ["clipboard-read", "clipboard-write"] });
    // As newPage does: what the page's policy refuses, for refusedByPolicy.
    await context.addInitScript(`window.refusedByPolicy = [];
      document.addEventListener("securitypolicyviolation", (event) => window.refusedByPolicy.push(event.effectiveDirective + " " + event.blockedURI));`);
    const page = await context.newPage();
    const email = `${crypto.randomUUID().slice(0, 8)}@example.com`;
    const made = await at.api("POST", "/members", { email, name: unique("Ada Admin"), role: "admin" });
    expect(made.status).toBe(201);
    await page.goto(made.json.data.setup_url);
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: LOAD_MS });
    return page;
  }
  afterAll(async () => {
    await (await second?.catch(() => null))?.close();
  });

  const settings = (page: Page, section = "") => page.goto(`${at.server.url}/console/settings${section}`);
  const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name }).waitFor({ timeout: LOAD_MS });
  const alert = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });
  /** The read-only text of a secret or link shown once. */
  const shownOnce = (page: Page, label: string) => page.getByRole("textbox", { name: label, exact: true });
  const unique = (what: string) => `${what} ${crypto.randomUUID().slice(0, 8)}`;

  /** Waits until `check` holds, polling; fails naming `what` after LOAD_MS. */
  async function until(check: () => Promise<boolean>, what: string) {
    for (const started = Date.now(); Date.now() - started < LOAD_MS; await Bun.sleep(100)) if (await check()) return;
    throw new Error(`timed out waiting for ${what}`);
  }

  const memberById = async (id: string) => ((await at.api("GET", "/members")).json.data as { id: string; role: string; disabled_at: string | null }[]).find((m) => m.id === id)!;

  describe("C12, C14: settings → members", () => {
    test("C12: an admin invites a member, the setup link is shown once with Copy; the member signs in with it while the admin, in a second browser, stays signed in; the admin changes their role and disables them", async () => {
      const page = await adminInSecondBrowser();
      await settings(page);
      await heading(page, "Members");
      // /console/settings opens its first section.
      expect(page.url()).toEndWith("/console/settings/members");
      expect(await seriousFindings(page)).toEqual([]);

      const name = unique("Ivy Invited");
      const email = `${name.split(" ")[2]}@example.com`;
      const invite = page.getByRole("form", { name: "Invite a member" });
      await invite.getByLabel("Email").fill(email);
      await invite.getByLabel("Name").fill(name);
      await invite.getByLabel("Role").selectOption("member");
      await invite.getByRole("button", { name: "Invite" }).click();
      const link = shownOnce(page, `Setup link for ${name}`);
      await link.waitFor({ timeout: LOAD_MS });
      const setupUrl = await link.inputValue();
      expect(setupUrl).toStartWith(`${at.server.url}/console/setup#token=`);
      await page.getByRole("button", { name: "Copy" }).click();
      await page.getByRole("status").filter({ hasText: "Copied." }).waitFor({ timeout: LOAD_MS });
      expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(setupUrl);
      await screenshot(page, "settings-members");
      const row = page.getByRole("row").filter({ hasText: email });
      await row.waitFor({ timeout: LOAD_MS });
      expect(await seriousFindings(page)).toEqual([]);
      // Shown once: gone after Done, and nowhere after a reload.
      await page.getByRole("button", { name: "Done" }).click();
      expect(await shownOnce(page, `Setup link for ${name}`).count()).toBe(0);
      await page.reload();
      await row.waitFor({ timeout: LOAD_MS });
      expect(await page.content()).not.toContain(setupUrl.split("#token=")[1]);

      // The invited member, in the other browser, sets a password from the link and is signed in;
      // as a member, they find no settings.
      const theirs = await newPage();
      await theirs.goto(setupUrl);
      await theirs.getByLabel("New password").fill(PASSWORD);
      await theirs.getByRole("button", { name: "Set password and sign in" }).click();
      await theirs.getByRole("button", { name: "Sign out" }).waitFor({ timeout: LOAD_MS });
      expect(await theirs.getByText(name).isVisible()).toBe(true);
      expect(await theirs.getByRole("link", { name: "Settings", exact: true }).count()).toBe(0);
      const id = ((await at.api("GET", "/members")).json.data as { id: string; email: string }[]).find((m) => m.email === email)!.id;

      // The admin's session held meanwhile: they change the role.
      await row.getByRole("combobox", { name: `Role of ${name}` }).selectOption("viewer");
      await row.getByRole("button", { name: `Change role of ${name}` }).click();
      await until(async () => (await memberById(id)).role === "viewer", "the role to change");
      await row.getByRole("button", { name: `Change role of ${name}` }).and(page.locator(":disabled")).waitFor({ timeout: LOAD_MS });

      // Disabling asks first; then the row is marked and their session ends (C12).
      await row.getByRole("button", { name: `Disable ${name}` }).click();
      await row.getByRole("button", { name: "Yes, disable" }).click();
      await row.getByText("Disabled", { exact: true }).waitFor({ timeout: LOAD_MS });
      expect((await memberById(id)).disabled_at).not.toBeNull();
      expect(await row.getByRole("button").count()).toBe(0);
      expect(await theirs.evaluate(() => fetch("/api/v1/session").then((answer) => answer.status))).toBe(401);
      expect(await refusedByPolicy(page)).toEqual([]);
    });

    test("C14: a refusal shows beside its field and what was typed stays (an email a member has: duplicate_member)", async () => {
      const { page, email } = await signedIn(at, "admin");
      await settings(page, "/members");
      await heading(page, "Members");
      const invite = page.getByRole("form", { name: "Invite a member" });
      await invite.getByLabel("Email").fill(email.toUpperCase());
      await invite.getByLabel("Name").fill("Twice");
      await invite.getByRole("button", { name: "Invite" }).click();
      await invite.getByRole("alert").waitFor({ timeout: LOAD_MS });
      expect(await invite.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");
      expect(await invite.getByLabel("Email").inputValue()).toBe(email.toUpperCase());
      expect(await invite.getByLabel("Name").inputValue()).toBe("Twice");
      expect(await seriousFindings(page)).toEqual([]);
    });

    test("C12: a new setup link for a member is shown once, and an admin sees an owner's row without controls", async () => {
      const { page } = await signedIn(at, "admin");
      const made = await at.api("POST", "/members", { email: `${crypto.randomUUID().slice(0, 8)}@example.com`, name: unique("Lou Locked"), role: "member" });
      // The owner is made by the first start's link (no key can make one, C20).
      const token = at.first.setupUrl.split("#token=")[1];
      const owner = await fetch(`${at.server.url}/api/v1/session/setup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, password: PASSWORD, email: "otto@example.com", name: "Otto Owner" }),
      });
      expect(owner.status).toBe(200);
      await settings(page, "/members");
      const row = page.getByRole("row").filter({ hasText: made.json.data.email });
      await row.getByRole("button", { name: `New setup link for ${made.json.data.name}` }).click();
      const link = shownOnce(page, `Setup link for ${made.json.data.name}`);
      await link.waitFor({ timeout: LOAD_MS });
      expect(await link.inputValue()).toStartWith(`${at.server.url}/console/setup#token=`);
      const ownerRow = page.getByRole("row").filter({ hasText: "otto@example.com" });
      expect(await ownerRow.innerText()).toContain("owner");
      expect(await ownerRow.getByRole("button").count()).toBe(0);
      expect(await ownerRow.getByRole("combobox").count()).toBe(0);
    });
  });

  describe("C12, C14: settings are for admins", () => {
    test.each([["member" as const], ["viewer" as const]])("C12: a %s finds no Settings link, and the address says only admins, with no control", async (role) => {
      const { page } = await signedIn(at, role);
      expect(await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Settings" }).count()).toBe(0);
      for (const section of ["", "/members", "/keys", "/webhook", "/flows"]) {
        await settings(page, section);
        await alert(page, "Only admins see settings").waitFor({ timeout: LOAD_MS });
        const main = page.getByRole("main");
        expect(await main.getByRole("button").count()).toBe(0);
        expect(await main.getByRole("textbox").count()).toBe(0);
        expect(await main.getByRole("navigation", { name: "Settings" }).count()).toBe(0);
      }
      expect(await seriousFindings(page)).toEqual([]);
    });
  });

  describe("C13, C14: settings → API keys", () => {
    test("C13: a key made with the scopes ticked is shown once, works, and once revoked (after a confirmation) the API refuses it", async () => {
      const { page } = await signedIn(at, "admin");
      await settings(page, "/keys");
      await heading(page, "API keys");
      expect(await seriousFindings(page)).toEqual([]);
      const name = unique("Website form");
      const form = page.getByRole("form", { name: "Create a key" });
      await form.getByLabel("Name").fill(name);
      await form.getByLabel("flows:read").check();
      await form.getByLabel("Expires").fill("2099-12-31");
      await form.getByRole("button", { name: "Create key" }).click();
      const shown = shownOnce(page, `New key ${name}`);
      await shown.waitFor({ timeout: LOAD_MS });
      const key = await shown.inputValue();
      const row = page.getByRole("row").filter({ hasText: name });
      await row.waitFor({ timeout: LOAD_MS });
      expect(await row.innerText()).toContain("dossiers:read, flows:read");
      expect(await row.innerText()).toContain(key.slice(0, 12));
      await screenshot(page, "settings-keys");
      expect(await seriousFindings(page)).toEqual([]);

      const asKey = (path: string) => fetch(`${at.server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } }).then((answer) => answer.status);
      expect(await asKey("/flows")).toBe(200);
      expect(await asKey("/contacts")).toBe(403);
      const listed = ((await at.api("GET", "/keys")).json.data as { name: string; scopes: string[]; expires_at: string }[]).find((k) => k.name === name)!;
      expect(listed.scopes.sort()).toEqual(["dossiers:read", "flows:read"]);
      expect(listed.expires_at).toStartWith("2099-12-31T23:59:59");

      await page.getByRole("button", { name: "Done" }).click();
      await page.reload();
      await row.waitFor({ timeout: LOAD_MS });
      expect(await page.content()).not.toContain(key);

      // Revoking asks first; Cancel, or Escape, leaves the key as it was and the focus on the button.
      const revoke = row.getByRole("button", { name: `Revoke key ${name}` });
      await revoke.click();
      await row.getByRole("button", { name: "Cancel" }).click();
      await until(() => focused(revoke), "the focus back on Revoke");
      await page.keyboard.press("Enter");
      await row.getByRole("button", { name: "Yes, revoke" }).waitFor({ timeout: LOAD_MS });
      await page.keyboard.press("Escape");
      await until(() => focused(revoke), "the focus back on Revoke after Escape");
      expect(await asKey("/flows")).toBe(200);
      await revoke.click();
      await row.getByRole("button", { name: "Yes, revoke" }).click();
      await row.getByText(/^Revoked/).waitFor({ timeout: LOAD_MS });
      expect(await asKey("/flows")).toBe(401);
      expect(await row.getByRole("button").count()).toBe(0);
      expect(await refusedByPolicy(page)).toEqual([]);
    });

    test("C13: no scope ticked: the API's refusal is shown beside the scopes", async () => {
      const { page } = await signedIn(at, "admin");
      await settings(page, "/keys");
      const form = page.getByRole("form", { name: "Create a key" });
      await form.getByLabel("dossiers:read").uncheck();
      await form.getByRole("button", { name: "Create key" }).click();
      await alert(page, /scopes/i).waitFor({ timeout: LOAD_MS });
    });
  });

  describe("C7, C13, C14: settings → webhook", () => {
    test("C13: the endpoint is set (its secret shown once) and rotated; a delivery the receiver fails (500) shows in the log with its attempt, and Retry sends it again", async () => {
      const received: string[] = [];
      let answer = 500;
      const receiver = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        fetch: async (request) => {
          received.push(await request.text());
          return new Response(answer === 500 ? "receiver down" : "ok", { status: answer });
        },
      });
      afterAll(() => receiver.stop(true));
      const { page } = await signedIn(at, "admin");
      await settings(page, "/webhook");
      await heading(page, "Webhook");
      await page.getByText("No endpoint is set").waitFor({ timeout: LOAD_MS });
      expect(await seriousFindings(page)).toEqual([]);

      const url = `http://127.0.0.1:${receiver.port}/hook`;
      await page.getByLabel("URL").fill(url);
      await page.getByRole("button", { name: "Set endpoint" }).click();
      const secret = shownOnce(page, "Signing secret");
      await secret.waitFor({ timeout: LOAD_MS });
      const first = await secret.inputValue();
      expect(first).toStartWith("whsec_");
      await page.getByText(`Enabled: events go to ${url}.`).waitFor({ timeout: LOAD_MS });
      expect((await at.api("GET", "/webhook-endpoint")).json.data).toEqual({ url, enabled: true });

      await page.getByRole("button", { name: "Rotate secret of the webhook endpoint" }).click();
      await page.getByRole("button", { name: "Yes, rotate secret" }).click();
      await until(async () => (await secret.inputValue()) !== first, "the new secret");
      expect(await secret.inputValue()).toStartWith("whsec_");
      await page.getByRole("button", { name: "Done" }).click();

      const made = await at.api("POST", "/dossiers", { type: "candidate", name: unique("Hooked"), flow_id: at.flow.id });
      expect(made.status).toBe(201);
      await until(async () => received.length === 1, "the first attempt");
      const [delivery] = (await at.api("GET", "/webhook-deliveries?type=dossier.created&per_page=1")).json.data as { event_id: string }[];
      expect(JSON.parse(received[0]).id).toBe(delivery.event_id);

      // The log follows the dispatcher by itself: the delivery shows as failed, with its attempt.
      const retry = page.getByRole("button", { name: `Retry dossier.created ${delivery.event_id}` });
      await retry.waitFor({ timeout: LOAD_MS });
      const row = page.getByRole("row").filter({ has: page.getByRole("button", { name: `Attempts of dossier.created ${delivery.event_id}` }) });
      expect(await row.innerText()).toContain("Failed");
      expect(await row.innerText()).toContain("HTTP 500");
      await page.getByRole("button", { name: `Attempts of dossier.created ${delivery.event_id}` }).click();
      const attempts = page.getByRole("table", { name: "Attempts, oldest first" });
      await attempts.getByRole("cell", { name: "HTTP 500" }).waitFor({ timeout: LOAD_MS });
      expect(await attempts.innerText()).toContain("receiver down");
      await screenshot(page, "settings-webhook");
      expect(await seriousFindings(page)).toEqual([]);

      answer = 200;
      await retry.click();
      await until(async () => received.length === 2, "the retried attempt");
      expect(JSON.parse(received[1]).id).toBe(delivery.event_id);
      await attempts.getByRole("cell", { name: "HTTP 200" }).waitFor({ timeout: LOAD_MS });
      await row.getByText("Delivered").waitFor({ timeout: LOAD_MS });
      expect(await retry.count()).toBe(0);
      expect(await refusedByPolicy(page)).toEqual([]);
    });
  });

  describe("C4, C13, C14: settings → flows and stages", () => {
    const stagesOf = async (flowId: string) => ((await at.api("GET", `/flows/${flowId}/stages`)).json.data as { id: string; name: string }[]).map((s) => s.name);

    test("C13: a flow made with its stages; a stage added, renamed, moved up by keyboard (the focus stays with it), deleted after a confirmation; the flow renamed and made the default", async () => {
      const { page } = await signedIn(at, "admin");
      await settings(page, "/flows");
      await heading(page, "Flows and stages");
      expect(await seriousFindings(page)).toEqual([]);
      const name = unique("Hiring");
      const form = page.getByRole("form", { name: "Create a flow" });
      await form.getByLabel("Flow name").fill(name);
      await form.getByLabel("Type").selectOption("candidate");
      await form.getByLabel("Stages").fill("Applied\nInterview\n");
      await form.getByRole("button", { name: "Create flow" }).click();
      const section = page.getByRole("region", { name });
      await section.waitFor({ timeout: LOAD_MS });
      const flow = ((await at.api("GET", "/flows?type=candidate")).json.data as { id: string; name: string; is_default: boolean }[]).find((f) => f.name === name)!;
      expect(await stagesOf(flow.id)).toEqual(["Applied", "Interview"]);

      await section.getByLabel("New stage").fill("Offer");
      await section.getByRole("button", { name: "Add stage" }).click();
      await section.getByLabel("Name of stage Offer").waitFor({ timeout: LOAD_MS });
      await section.getByLabel("Name of stage Interview").fill("Interviews");
      await section.getByRole("button", { name: "Rename Interview" }).click();
      await section.getByLabel("Name of stage Interviews").waitFor({ timeout: LOAD_MS });
      expect(await stagesOf(flow.id)).toEqual(["Applied", "Interviews", "Offer"]);

      const up = section.getByRole("button", { name: "Move Offer up" });
      await up.focus();
      await page.keyboard.press("Enter");
      await until(async () => (await stagesOf(flow.id))[1] === "Offer", "the stage to move");
      await until(() => focused(up), "the focus to stay on the moved stage's button");
      await page.keyboard.press("Enter");
      await until(async () => (await stagesOf(flow.id))[0] === "Offer", "the stage to move again");
      // At the top its Up button is off, and Down has the focus.
      await until(() => focused(section.getByRole("button", { name: "Move Offer down" })), "the focus on Down");
      expect(await section.getByRole("listitem").allInnerTexts()).toHaveLength(3);
      await screenshot(page, "settings-flows");
      expect(await seriousFindings(page)).toEqual([]);

      await section.getByRole("button", { name: "Delete stage Applied" }).click();
      await section.getByRole("button", { name: "Yes, delete" }).click();
      await until(async () => !(await stagesOf(flow.id)).includes("Applied"), "the stage to go");
      await section.getByLabel("Name of stage Applied").waitFor({ state: "detached", timeout: LOAD_MS });

      const renamed = `${name} renamed`;
      await section.getByLabel("Name", { exact: true }).fill(renamed);
      await section.getByRole("button", { name: "Rename", exact: true }).click();
      const after = page.getByRole("region", { name: renamed });
      await after.waitFor({ timeout: LOAD_MS });
      await after.getByRole("button", { name: "Make default for candidate" }).click();
      await after.getByText("(candidate, default)").waitFor({ timeout: LOAD_MS });
      const now = ((await at.api("GET", "/flows?type=candidate")).json.data as { id: string; name: string; is_default: boolean }[]).find((f) => f.id === flow.id)!;
      expect(now).toMatchObject({ name: renamed, is_default: true });
      // The previous default is one again, for the other tests' boards.
      expect((await at.api("PATCH", `/flows/${at.flow.id}`, { is_default: true })).status).toBe(200);
      expect(await refusedByPolicy(page)).toEqual([]);
    });

    test("C13, C14: deleting a stage that holds a dossier is refused in the API's words, beside the stage", async () => {
      const { page } = await signedIn(at, "admin");
      const made = await at.api("POST", "/flows", { type: "sales", name: unique("Deals"), stages: [{ name: "Lead" }, { name: "Won" }] });
      expect(made.status).toBe(201);
      const flow = made.json.data as { id: string; name: string };
      expect((await at.api("POST", "/dossiers", { type: "sales", name: "Held", flow_id: flow.id })).status).toBe(201);
      await settings(page, "/flows");
      const section = page.getByRole("region", { name: flow.name });
      await section.getByRole("button", { name: "Delete stage Lead" }).click();
      await section.getByRole("button", { name: "Yes, delete" }).click();
      const stage = section.getByRole("listitem").filter({ has: page.getByLabel("Name of stage Lead") });
      await stage.getByRole("alert").waitFor({ timeout: LOAD_MS });
      expect(await stagesOf(flow.id)).toEqual(["Lead", "Won"]);
      expect(await seriousFindings(page)).toEqual([]);
    });
  });
}
