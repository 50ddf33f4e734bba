// C15: intake addresses and what a message sent to one becomes, on a real database and files.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readApplication } from "../../src/intake/message";
import { giveFlowsAddresses, intakeAddress, intakeTarget, rotateIntakeAddress, takeIn } from "../../src/services/intake";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, makeOrg } from "../helpers";
import { ENGINES, appOn, queryRows, rowCountsOf, type Engine } from "../helpers/stores";
import { compose, pdf } from "../intake/compose";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** The test file's clock: it only moves forward (a test that waits days moves it for the next). */
const now = { t: Date.parse("2026-11-27T09:00:00Z") };
const apps = new Map<Engine, Promise<DossierApp<Store>>>();

/** A new organization on the test file's app on `engine` (one database per engine, C19). */
async function setup(engine: Engine) {
  let made = apps.get(engine);
  if (!made) apps.set(engine, (made = appOn(engine, { now: () => new Date(now.t) })));
  const app = await made;
  const org = await makeOrg(app);
  const flows = await queryRows<{ id: string; type: string }>(app, "SELECT id, type FROM flows WHERE organization_id = ? AND is_default", org.id);
  const candidateFlow = flows.find((f) => f.type === "candidate")!.id;
  return { app, org, ctx: app.dossier, candidateFlow, now };
}

const tokenOf = (address: string) => address.slice(0, address.indexOf("@"));

describe.each(ENGINES)("on %s", (engine) => {
  describe("C15: intake addresses", () => {
    test("a flow's address is a random token of at least 20 characters at DOSSIER_INTAKE_DOMAIN, the same on every look", async () => {
      const { ctx, org, candidateFlow } = await setup(engine);
      const first = await intakeAddress(ctx, org.id, candidateFlow);
      expect(first!.address).toMatch(/^[a-z0-9]{20,}@localhost$/);
      expect(await intakeAddress(ctx, org.id, candidateFlow)).toEqual(first);
    });

    test("only the token's hash and a sealed copy are stored", async () => {
      const { app, ctx, org, candidateFlow } = await setup(engine);
      const token = tokenOf((await intakeAddress(ctx, org.id, candidateFlow))!.address);
      const [row] = await queryRows(app, "SELECT * FROM intake_addresses WHERE flow_id = ?", candidateFlow);
      expect(JSON.stringify(row)).not.toContain(token);
      expect((await intakeTarget(ctx, token))).toMatchObject({ organization_id: org.id, flow_id: candidateFlow, flow_type: "candidate", plan: "growth" });
    });

    test("rotation gives a new address; the old token is unknown at once", async () => {
      const { ctx, org, candidateFlow } = await setup(engine);
      const old = tokenOf((await intakeAddress(ctx, org.id, candidateFlow))!.address);
      const rotated = tokenOf((await rotateIntakeAddress(ctx, org.id, candidateFlow))!.address);
      expect(rotated).not.toBe(old);
      expect((await intakeTarget(ctx, old))).toBeNull();
      expect((await intakeTarget(ctx, rotated))).not.toBeNull();
      expect((await intakeAddress(ctx, org.id, candidateFlow))!.address).toStartWith(rotated);
    });

    test("an unknown flow, or another organization's, has no address", async () => {
      const { app, ctx, candidateFlow } = await setup(engine);
      const other = await makeOrg(app);
      expect(await intakeAddress(ctx, other.id, candidateFlow)).toBeNull();
      expect(await rotateIntakeAddress(ctx, other.id, candidateFlow)).toBeNull();
      expect(await intakeAddress(ctx, other.id, crypto.randomUUID())).toBeNull();
    });
  });

  describe("C15: addresses of older flows, and a lost master key", () => {
    test("a flow without an address (made before intake existed) gets one from giveFlowsAddresses, once", async () => {
      const { app, ctx, org, candidateFlow } = await setup(engine);
      await queryRows(app, "DELETE FROM intake_addresses WHERE flow_id = ?", candidateFlow);
      expect(await giveFlowsAddresses(ctx)).toBe(1);
      expect(await giveFlowsAddresses(ctx)).toBe(0);
      expect((await intakeAddress(ctx, org.id, candidateFlow))!.address).toMatch(/^[a-z0-9]{26}@localhost$/);
    });

    test("an address whose sealed copy no longer opens (a new master key) is replaced by a new one on reading", async () => {
      const { app, ctx, org, candidateFlow } = await setup(engine);
      const old = (await intakeAddress(ctx, org.id, candidateFlow))!.address;
      await queryRows(app, "UPDATE intake_addresses SET token_sealed = ? WHERE flow_id = ?", "v1.AAAA.AAAA.AAAA", candidateFlow);
      const renewed = (await intakeAddress(ctx, org.id, candidateFlow))!.address;
      expect(renewed).not.toBe(old);
      expect((await intakeTarget(ctx, tokenOf(old)))).toBeNull();
      expect((await intakeTarget(ctx, tokenOf(renewed)))).not.toBeNull();
    });
  });

  describe("C15: a message becomes a dossier", () => {
    test("of the flow's type in its first stage, name/email/intake_notes from the message, the PDF as CV, a contact linked, dossier.created recorded", async () => {
      const { app, ctx, org, candidateFlow } = await setup(engine);
      const token = tokenOf((await intakeAddress(ctx, org.id, candidateFlow))!.address);
      const cv = pdf(3_000);
      const message = await compose({
        from: '"Ada Lovelace" <ada@example.com>',
        subject: "Engineer",
        text: "Please find my CV.",
        messageId: "<a1@example.com>",
        attachments: [{ filename: "cv.pdf", content: Buffer.from(cv), contentType: "application/pdf" }],
      });
      const { id, created } = await takeIn(ctx, (await intakeTarget(ctx, token))!, await readApplication(message));
      expect(created).toBe(true);
      const got = await call(app, "GET", `/api/v1/dossiers/${id}`, { key: org.key });
      expect(got.json.data).toMatchObject({ type: "candidate", flow_id: candidateFlow, name: "Ada Lovelace", email: "ada@example.com", intake_notes: "Engineer\n\nPlease find my CV.", status: "active" });
      expect(got.json.data.current_stage_id).not.toBeNull();
      expect(readFileSync(join(ctx.filesDir, got.json.data.cv_url))).toEqual(Buffer.from(cv));
      const contact = await call(app, "GET", `/api/v1/contacts/${got.json.data.contact_id}`, { key: org.key });
      expect(contact.json.data).toMatchObject({ email: "ada@example.com", full_name: "Ada Lovelace" });
      const events = await queryRows<{ type: string }>(app, "SELECT type FROM events WHERE organization_id = ?", org.id);
      expect(events.map((e) => e.type)).toEqual(["dossier.created"]);
    });

    test("the same Message-ID on the same flow within 7 days creates nothing and gives the first id; after 7 days it is new again", async () => {
      const { app, ctx, org, candidateFlow, now } = await setup(engine);
      const target = (await intakeTarget(ctx, tokenOf((await intakeAddress(ctx, org.id, candidateFlow))!.address)))!;
      const application = await readApplication(
        await compose({ from: "b@example.com", text: "x", messageId: "<same@example.com>", attachments: [{ filename: "cv.pdf", content: Buffer.from(pdf()), contentType: "application/pdf" }] }),
      );
      const first = await takeIn(ctx, target, application);
      const before = await rowCountsOf(app);
      now.t += 6 * 86_400_000;
      const again = await takeIn(ctx, target, application);
      expect(again).toEqual({ id: first.id, created: false });
      expect(await rowCountsOf(app)).toEqual(before);
      now.t += 2 * 86_400_000;
      const later = await takeIn(ctx, target, application);
      expect(later.created).toBe(true);
      expect(later.id).not.toBe(first.id);
    });

    test("two deliveries of one message at the same moment make one dossier, and both get its id", async () => {
      const { app, ctx, org, candidateFlow } = await setup(engine);
      const target = (await intakeTarget(ctx, tokenOf((await intakeAddress(ctx, org.id, candidateFlow))!.address)))!;
      const application = await readApplication(await compose({ from: "c@example.com", text: "x", messageId: "<twice@example.com>" }));
      const [a, b] = await Promise.all([takeIn(ctx, target, application), takeIn(ctx, target, application)]);
      expect(a.id).toBe(b.id);
      expect([a.created, b.created].sort()).toEqual([false, true]);
      expect(await queryRows(app, "SELECT id FROM dossiers WHERE organization_id = ?", org.id)).toHaveLength(1);
    });

    test("a duplicate's CV leaves no file behind", async () => {
      const { app, ctx, org, candidateFlow } = await setup(engine);
      const target = (await intakeTarget(ctx, tokenOf((await intakeAddress(ctx, org.id, candidateFlow))!.address)))!;
      const application = await readApplication(
        await compose({ from: "d@example.com", text: "x", messageId: "<cv@example.com>", attachments: [{ filename: "cv.pdf", content: Buffer.from(pdf()), contentType: "application/pdf" }] }),
      );
      await takeIn(ctx, target, application);
      const again = await takeIn(ctx, target, application);
      const folders = await queryRows(app, "SELECT id FROM dossiers WHERE organization_id = ?", org.id);
      expect(folders.length).toBe(1);
      expect(existsSync(join(ctx.filesDir, org.id, "dossiers", again.id))).toBe(true);
      expect(readdirSync(join(ctx.filesDir, org.id, "dossiers"))).toEqual([again.id]);
    });
  });
});
