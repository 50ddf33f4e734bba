// C20: intake parsing runs off the thread that answers HTTP, on its worker thread.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { UnreadableMessage } from "../../src/intake/message";
import { MessageParser } from "../../src/intake/parser";
import { onCleanup } from "../helpers";
import { compose, pdf } from "./compose";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("MessageParser (the parsing thread)", () => {
  test("20 messages parsed at once each come back as their own application, CVs whole", async () => {
    const parser = new MessageParser();
    onCleanup(() => parser.close());
    const messages = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        compose({ from: `"Person ${i}" <p${i}@example.com>`, subject: `S${i}`, text: `body ${i}`, attachments: i % 2 ? [{ filename: "cv.pdf", content: Buffer.from(pdf(1000 + i)), contentType: "application/pdf" }] : [] }),
      ),
    );
    const apps = await Promise.all(messages.map((m) => parser.parse(m)));
    apps.forEach((app, i) => {
      expect(app.name).toBe(`Person ${i}`);
      expect(app.intake_notes).toBe(`S${i}\n\nbody ${i}`);
      expect(app.cv?.byteLength ?? null).toBe(i % 2 ? 1000 + i : null);
    });
  });

  test("an unreadable message rejects with UnreadableMessage across the thread", async () => {
    const parser = new MessageParser();
    onCleanup(() => parser.close());
    await expect(parser.parse(new TextEncoder().encode("Subject: nobody\r\n\r\nx"))).rejects.toBeInstanceOf(UnreadableMessage);
  });
});
