// C15, C20: what a message becomes, on messages as mail programs write them.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { intakeNotes, readApplication, UnreadableMessage } from "../../src/intake/message";
import { compose, pdf } from "./compose";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const text = (s: string) => new TextEncoder().encode(s);

describe("C15: the application in a message", () => {
  test("plain text: name from the display name, email from From, notes = subject, blank line, body", async () => {
    const app = await readApplication(
      await compose({ from: '"Jane Doe" <jane@example.com>', to: "tok@localhost", subject: "Application: nurse", text: "Hello,\nmy CV.\n", messageId: "<m1@example.com>" }),
    );
    expect(app).toMatchObject({ name: "Jane Doe", email: "jane@example.com", intake_notes: "Application: nurse\n\nHello,\nmy CV.", cv: null, messageId: "<m1@example.com>" });
  });

  test("HTML only: the body is turned into text", async () => {
    const app = await readApplication(await compose({ from: "jane@example.com", subject: "Hi", html: "<p>Dear team,</p><p>I am <b>interested</b>.</p>" }));
    expect(app.intake_notes).toStartWith("Hi\n\n");
    expect(app.intake_notes).toContain("Dear team,");
    expect(app.intake_notes).toContain("I am interested.");
    expect(app.intake_notes).not.toContain("<p>");
  });

  test("multipart/alternative: the plain-text part is taken", async () => {
    const app = await readApplication(await compose({ from: "a@example.com", subject: "S", text: "plain version", html: "<p>html version</p>" }));
    expect(app.intake_notes).toBe("S\n\nplain version");
  });

  test("the first PDF attachment is the CV; other attachments are ignored", async () => {
    const cv = pdf(5_000);
    const app = await readApplication(
      await compose({
        from: "a@example.com",
        subject: "CV",
        text: "attached",
        attachments: [
          { filename: "photo.png", content: Buffer.from([0x89, 0x50, 0x4e, 0x47]), contentType: "image/png" },
          { filename: "cv.pdf", content: Buffer.from(cv), contentType: "application/pdf" },
          { filename: "second.pdf", content: Buffer.from(pdf(100)), contentType: "application/pdf" },
        ],
      }),
    );
    expect(app.cv).toEqual(cv);
  });

  test("a non-PDF attachment alone gives no CV; a PDF over 10 MB is not the CV, the next PDF is", async () => {
    const none = await readApplication(await compose({ from: "a@example.com", text: "x", attachments: [{ filename: "cv.docx", content: "not a pdf" }] }));
    expect(none.cv).toBeNull();
    const small = pdf(2_000);
    const app = await readApplication(
      await compose({
        from: "a@example.com",
        text: "x",
        attachments: [
          { filename: "big.pdf", content: Buffer.from(pdf(10_485_761)), contentType: "application/pdf" },
          { filename: "small.pdf", content: Buffer.from(small), contentType: "application/pdf" },
        ],
      }),
    );
    expect(app.cv).toEqual(small);
  });

  test("a 12 MB message with a 9 MB PDF keeps the whole PDF", async () => {
    const cv = pdf(9 * 1024 * 1024);
    const app = await readApplication(
      await compose({ from: "a@example.com", text: "x", attachments: [{ filename: "cv.pdf", content: Buffer.from(cv), contentType: "application/pdf" }] }),
    );
    expect(app.cv?.byteLength).toBe(cv.byteLength);
    expect(app.cv).toEqual(cv);
  });

  test("RFC 2047: a non-ASCII display name and subject are decoded", async () => {
    const app = await readApplication(await compose({ from: { name: "Zoë Ørsted-Łukasiewicz", address: "zoe@example.com" }, subject: "Candidature — infirmière", text: "Bonjour" }));
    expect(app.name).toBe("Zoë Ørsted-Łukasiewicz");
    expect(app.intake_notes).toStartWith("Candidature — infirmière\n\n");
  });

  test("no display name: the name is the address's local part", async () => {
    const app = await readApplication(await compose({ from: "j.smith@example.com", text: "x" }));
    expect(app.name).toBe("j.smith");
  });

  test("Reply-To gives the email; From still gives the name", async () => {
    const app = await readApplication(await compose({ from: '"Recruiting Agency" <noreply@agency.example>', replyTo: "candidate@example.com", text: "x" }));
    expect(app).toMatchObject({ name: "Recruiting Agency", email: "candidate@example.com" });
  });

  test("C20: a From that is not an email address gives email null; a display name over 200 code points is cut to 200", async () => {
    const raw = text(`From: ${"é".repeat(250)} <not-an-address>\r\nSubject: x\r\n\r\nbody\r\n`);
    const app = await readApplication(raw);
    expect(app.email).toBeNull();
    expect([...app.name].length).toBe(200);
  });

  test("a message with no header section or no From cannot be read (554 / 400)", async () => {
    await expect(readApplication(text("just some words, no headers at all"))).rejects.toBeInstanceOf(UnreadableMessage);
    await expect(readApplication(text("Subject: no sender\r\n\r\nbody\r\n"))).rejects.toBeInstanceOf(UnreadableMessage);
  });
});

describe("C20: intake_notes", () => {
  test("line ends become \\n, trailing white space of each line and every trailing newline are trimmed", () => {
    expect(intakeNotes("Subject  ", "a \t\r\nb\rc\r\n\r\n\r\n")).toBe("Subject\n\na\nb\nc");
  });

  test("cut to 20,000 code points with no marker, counting astral characters once", () => {
    const notes = intakeNotes("S", "😀".repeat(25_000));
    expect([...notes].length).toBe(20_000);
    expect(notes.endsWith("😀")).toBe(true);
  });
});
