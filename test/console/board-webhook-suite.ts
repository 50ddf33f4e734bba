// Issue 23's scenario, end to end (C7, C14): a member drags a card to the next stage in a real
// headless Chromium, and the `dossier.stage_changed` webhook arrives, signed, at a receiver on
// 127.0.0.1 set through PUT /webhook-endpoint. The signature is checked with node:crypto, not with
// our signing code. This file's server runs the webhook dispatcher (console.ts's does not).
// On either engine (C19): board-webhook.browser.test.ts (SQLite), board-webhook-postgres.browser.test.ts.
import { expect, test } from "bun:test";
import type { Engine } from "../helpers/stores";
import { verifySignature as verify, webhookReceiver as receiver } from "../helpers/webhooks";
import { column, consoleServer, LOAD_MS, openBoard, seriousFindings, signedIn } from "./console";

/** The suite on a server whose store is `engine`. */
export async function boardWebhookSuite(engine: Engine) {
  const at = await consoleServer({ webhooks: true, engine });
  const [first, second] = at.flow.stages;

  test(`C7, C14 (${engine}): a card dragged to the next stage sends dossier.stage_changed, signed, to the organization's endpoint`, async () => {
    const hook = receiver();
    const endpoint = await at.api("PUT", "/webhook-endpoint", { url: hook.url });
    expect(endpoint.status).toBe(200);
    const secret = endpoint.json.data.secret as string;

    const { page } = await signedIn(at, "member");
    const name = `Hooked ${crypto.randomUUID().slice(0, 8)}`;
    const made = await at.api("POST", "/dossiers", { type: "candidate", name, flow_id: at.flow.id });
    expect(made.status).toBe(201);
    const id = made.json.data.id as string;
    await openBoard(page, at);

    const card = column(page, first.name).getByRole("article", { name });
    const from = (await card.boundingBox())!;
    const to = (await column(page, second.name).boundingBox())!;
    await page.mouse.move(from.x + 20, from.y + 10);
    await page.mouse.down();
    await page.mouse.move(from.x + 40, from.y + 20, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 40, { steps: 10 });
    await page.mouse.up();
    await page.getByRole("status").filter({ hasText: `${name} moved to ${second.name}` }).waitFor({ timeout: LOAD_MS });

    const delivery = await hook.event("dossier.stage_changed", id, LOAD_MS);
    expect(verify(delivery.headers.get("x-service-signature")!, delivery.body, secret)).toBe(true);
    const event = JSON.parse(delivery.body);
    expect(event.organization_id).toBe(at.first.organizationId);
    expect(event.data).toEqual({ id, previous_stage_id: first.id, current_stage_id: second.id, status: "active" });
    expect(await seriousFindings(page)).toEqual([]);
  });
}
