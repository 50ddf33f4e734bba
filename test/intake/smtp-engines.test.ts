// C15 on both engines (C19): the SMTP listener in front of an app on SQLite and on PostgreSQL, a
// real SMTP client (nodemailer) over loopback: one message in → one dossier with its CV; the same
// Message-ID again → 250 and still one dossier. The listener's other rules: test/intake/smtp.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { IntakeDesk } from "../../src/intake/desk";
import { startSmtp } from "../../src/intake/smtp";
import { intakeAddress } from "../../src/services/intake";
import { makeOrg, onCleanup } from "../helpers";
import { ENGINES, appOn, queryRows, type Engine } from "../helpers/stores";
import { pdf } from "./compose";
import { smtpClient } from "./listen";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** An app on `engine` with a Growth organization, its candidate flow's intake address, and an SMTP
 * listener on 127.0.0.1 with a nodemailer client for it (as test/intake/listen.ts, on either engine). */
async function listenerOn(engine: Engine) {
  const app = await appOn(engine);
  const org = await makeOrg(app);
  // `AND is_default`: a flag both engines read as a condition (SQLite 1/0, PostgreSQL a boolean).
  const [{ id: flow }] = await queryRows<{ id: string }>(app, "SELECT id FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default", org.id);
  const address = (await intakeAddress(app.dossier, org.id, flow))!.address;
  const desk = new IntakeDesk(app.dossier);
  const smtp = await startSmtp(app.dossier, desk, { host: "127.0.0.1", port: 0, tls: null });
  onCleanup(async () => {
    await smtp.stop();
    desk.close();
  });
  const transport = smtpClient({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true });
  onCleanup(() => transport.close());
  return { app, address, transport };
}

const dossiersOf = (app: DossierApp<Store>) =>
  queryRows<{ id: string; name: string; email: string | null; cv_url: string | null }>(app, "SELECT id, name, email, cv_url FROM dossiers ORDER BY created_at");

describe.each(ENGINES)("SMTP intake on %s", (engine) => {
  test("C15: a message with a PDF becomes one dossier with its CV; 250 comes after it is stored", async () => {
    const { app, address, transport } = await listenerOn(engine);
    const cv = pdf(4_000);
    const info = await transport.sendMail({
      from: '"Grace Hopper" <grace@example.com>',
      to: address,
      subject: "Application",
      text: "Hello",
      attachments: [{ filename: "cv.pdf", content: Buffer.from(cv), contentType: "application/pdf" }],
    });
    expect(info.response).toStartWith("250");
    const dossiers = await dossiersOf(app);
    expect(dossiers).toEqual([expect.objectContaining({ name: "Grace Hopper", email: "grace@example.com", cv_url: expect.any(String) })]);
    expect(readFileSync(join(app.dossier.filesDir, dossiers[0].cv_url!))).toEqual(Buffer.from(cv));
  });

  test("C15: a duplicate Message-ID: 250 again, still one dossier", async () => {
    const { app, address, transport } = await listenerOn(engine);
    const mail = { from: "a@example.com", to: address, text: "x", messageId: "<dup@example.com>", attachments: [{ filename: "cv.pdf", content: Buffer.from(pdf(2_000)), contentType: "application/pdf" }] };
    expect((await transport.sendMail(mail)).response).toStartWith("250");
    const first = await dossiersOf(app);
    expect(first).toHaveLength(1);
    expect((await transport.sendMail(mail)).response).toStartWith("250");
    expect(await dossiersOf(app)).toEqual(first);
  });
});
