// Issue 32: a message whose only part is deeply nested HTML ("<div>" × 10,000, or 30,000 unclosed
// "<b>", 90 KB) answered 500 internal ("Maximum call stack size exceeded") over HTTP and 451 over
// SMTP, so the sending server retried it for days. The HTML is now read as a stream (no tree, no
// recursion): such a message is an ordinary one. And whatever fails in reading a message is the
// message's fault (C20: 400 invalid_body, 554 over SMTP), never a 500: a fuzzed flood of tag soup
// and broken MIME gets 201, 200 or 400 and nothing else.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import fc from "fast-check";
import { HTML_CUT_NOTICE, readApplication } from "../../src/intake/message";
import { intakeAddress } from "../../src/services/intake";
import { call, makeApp, makeOrg } from "../helpers";
import { compose } from "./compose";
import { listener } from "./listen";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const deepDivs = "<div>".repeat(10_000) + "x" + "</div>".repeat(10_000);
const unclosedBolds = "<b>".repeat(30_000);

/** A message whose only part is `html`, as sent (8bit, one long line as some generators write). */
const htmlOnly = (html: string, subject = "Deep") =>
  new TextEncoder().encode(`From: "Deep Sender" <deep@example.com>\r\nSubject: ${subject}\r\nMessage-ID: <${crypto.randomUUID()}@example.com>\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${html}\r\n`);

async function intakeApp(config = {}) {
  const app = makeApp({ config: { intakeRateLimit: 100_000, ...config } });
  const org = await makeOrg(app);
  const flow = app.dossier.store.sqlite.query<{ id: string }, [string]>("SELECT id FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default = 1").get(org.id)!.id;
  const token = (await intakeAddress(app.dossier, org.id, flow))!.address.split("@")[0];
  const post = (raw: Uint8Array) => call(app, "POST", `/api/v1/intake/${token}`, { raw, contentType: "message/rfc822" });
  return { app, org, post };
}

describe("issue 32: deeply nested HTML-only mail", () => {
  test.each([
    ["10,000 nested <div>s around one word", deepDivs, "Deep\n\nx"],
    ["30,000 unclosed <b>s (90 KB) before the text", unclosedBolds + "bold to the end", "Deep\n\nbold to the end"],
    ["both, eight times over (1.6 MB)", (deepDivs + unclosedBolds).repeat(8) + "end", `Deep\n\n${Array(8).fill("x").join("\n")}\nend`],
  ])("POST /intake/{token}: %s → 201 and a dossier with the text (not 500)", async (_, html, notes) => {
    const { app, org, post } = await intakeApp();
    const answer = await post(htmlOnly(html));
    expect(answer.status).toBe(201);
    const dossier = await call(app, "GET", `/dossiers/${answer.json.data.id}`, { key: org.key });
    expect(dossier.json.data).toMatchObject({ name: "Deep Sender", email: "deep@example.com", intake_notes: notes });
  });

  test("over SMTP: 250, not 451 (the sender would retry for days), and the dossier is made", async () => {
    const { app, address, transport } = await listener();
    for (const html of [deepDivs, unclosedBolds + "bold"]) {
      const info = await transport.sendMail({ envelope: { from: "deep@example.com", to: [address] }, raw: Buffer.from(htmlOnly(html)) });
      expect(info.response).toStartWith("250");
    }
    const notes = app.dossier.store.sqlite.query<{ intake_notes: string }, []>("SELECT intake_notes FROM dossiers ORDER BY created_at").all();
    expect(notes.map((n) => n.intake_notes)).toEqual(["Deep\n\nx", "Deep\n\nbold"]);
  });

  test("HTML past 2 MB is not read, and the notes say so (the text before it is kept)", async () => {
    const markup = "<span></span>".repeat(250_000); // 3.25 MB of tags and no text
    const application = await readApplication(await compose({ from: "a@example.com", subject: "Big", html: `<p>Hello</p>${markup}<p>never read</p>` }));
    expect(application.intake_notes).toBe(`Big\n\nHello\n\n${HTML_CUT_NOTICE}`);
    const small = await readApplication(await compose({ from: "a@example.com", subject: "Small", html: `<p>Hello</p>${"<span></span>".repeat(100_000)}<p>read</p>` }));
    expect(small.intake_notes).toBe("Small\n\nHello\n\nread");
  });

  test("fuzz: tag soup, deep nesting and broken MIME over POST /intake/{token} get 201, 200 or 400, never 500", async () => {
    const { post } = await intakeApp();
    const tag = fc.constantFrom("div", "b", "p", "a href='x'", "li", "ul", "table", "td", "pre", "script", "style", "br", "img", "!--", "![CDATA[", "?x", "/div", "/p");
    const soup = fc.array(fc.oneof(tag.map((t) => `<${t}>`), fc.string({ maxLength: 12 }), fc.constantFrom("&amp;", "&#x1F600;", "&bogus;", "<", ">", "=\r\n", "=3D", "\r\n")), { maxLength: 60 });
    const html = fc.tuple(soup, fc.nat({ max: 40_000 }), tag).map(([pieces, depth, t]) => `<${t}>`.repeat(depth) + pieces.join(""));
    const encoding = fc.constantFrom("8bit", "quoted-printable", "base64", "x-unknown");
    const charset = fc.constantFrom("utf-8", "iso-8859-1", "windows-1252", "shift_jis", "bogus-charset", "");
    const message = fc.oneof(
      fc.tuple(html, encoding, charset).map(([body, enc, cs]) =>
        new TextEncoder().encode(`From: f@example.com\r\nSubject: s\r\nContent-Type: text/html; charset=${cs}\r\nContent-Transfer-Encoding: ${enc}\r\n\r\n${enc === "base64" ? Buffer.from(body).toString("base64") : body}`),
      ),
      // multipart with a boundary that may not match, parts that may not end
      fc.tuple(html, fc.constantFrom("b1", "b2"), fc.boolean()).map(([body, boundary, closed]) =>
        new TextEncoder().encode(`From: f@example.com\r\nContent-Type: multipart/alternative; boundary=b1\r\n\r\n--${boundary}\r\nContent-Type: text/html\r\n\r\n${body}\r\n${closed ? "--b1--\r\n" : ""}`),
      ),
      fc.uint8Array({ maxLength: 2_000 }),
    );
    await fc.assert(
      fc.asyncProperty(message, async (raw) => {
        const answer = await post(raw);
        expect([200, 201, 400]).toContain(answer.status);
      }),
      { numRuns: 150 },
    );
  });
});
