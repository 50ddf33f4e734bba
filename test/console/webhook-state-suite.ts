// Issue 39, point 4, in a real headless Chromium against a real server whose webhook dispatcher runs
// (C7): the receiver answers 410 Gone, the server disables the endpoint, and the settings page,
// left open and never reloaded, says so; Retry of the failed delivery is then not offered as if it
// could work, and says why. Saving the URL again enables the endpoint, and Retry works again.
import { afterAll, expect, test } from "bun:test";
import { consoleServer, LOAD_MS, seriousFindings, signedIn } from "./console";
import type { Engine } from "../helpers/stores";

/** The webhook state in the console on a server whose store is `engine` (C19). */
export async function webhookStateSuite(engine: Engine) {
  const at = await consoleServer({ engine, webhooks: true, config: { webhookRetrySchedule: [], webhookTimeoutMs: 2000 } });

  test("issue 39, point 4: after the receiver answers 410, the open settings page shows the endpoint disabled, and Retry says why it waits", async () => {
    const received: string[] = [];
    let answer = 410;
    const receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request) => {
        received.push(await request.text());
        return new Response(answer === 410 ? "gone" : "ok", { status: answer });
      },
    });
    afterAll(() => receiver.stop(true));
    const url = `http://127.0.0.1:${receiver.port}/hook`;
    expect((await at.api("PUT", "/webhook-endpoint", { url })).status).toBe(200);

    const { page } = await signedIn(at, "admin");
    await page.goto(`${at.server.url}/console/settings/webhook`);
    await page.getByText(`Enabled: events go to ${url}.`).waitFor({ timeout: LOAD_MS });

    const made = await at.api("POST", "/dossiers", { type: "candidate", name: "Gone Gina", flow_id: at.flow.id });
    expect(made.status).toBe(201);
    // The server disables the endpoint once the receiver said 410 (C7).
    for (let i = 0; i < 600 && (await at.api("GET", "/webhook-endpoint")).json.data?.enabled !== false; i++) await Bun.sleep(100);
    expect((await at.api("GET", "/webhook-endpoint")).json.data.enabled).toBe(false);

    // The page follows by itself: no reload.
    await page.getByText("Disabled: the receiver answered 410 Gone.", { exact: false }).waitFor({ timeout: LOAD_MS });
    expect(await page.getByText(/^Enabled:/).count()).toBe(0);
    const [delivery] = (await at.api("GET", "/webhook-deliveries?type=dossier.created&per_page=1")).json.data as { event_id: string }[];
    const retry = page.getByRole("button", { name: `Retry dossier.created ${delivery.event_id}` });
    await retry.waitFor({ timeout: LOAD_MS });
    expect(await retry.isDisabled()).toBe(true);
    expect(await page.getByText("The endpoint is disabled: save its URL again to retry.").count()).toBe(1);
    // The row leads with the event in words, not its id.
    const row = page.getByRole("row").filter({ has: page.getByRole("button", { name: `Attempts of dossier.created ${delivery.event_id}` }) });
    expect((await row.getByRole("rowheader").innerText()).split("\n")[0]).toBe("Dossier created");
    expect(await seriousFindings(page)).toEqual([]);

    // Saving the URL again enables it; Retry is offered and works.
    answer = 200;
    await page.getByRole("button", { name: "Save and enable" }).click();
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByText(`Enabled: events go to ${url}.`).waitFor({ timeout: LOAD_MS });
    await page.waitForFunction((el: any) => !el.disabled, await retry.elementHandle(), { timeout: LOAD_MS });
    const before = received.length;
    await retry.click();
    for (let i = 0; i < 600 && received.length === before; i++) await Bun.sleep(50);
    expect(received.length).toBeGreaterThan(before);
    await row.getByText("Delivered").waitFor({ timeout: LOAD_MS });
  });
}
