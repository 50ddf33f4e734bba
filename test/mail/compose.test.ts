// C22: the digest (tasks due that local day and overdue; none when there is nothing to say) and the
// reminder, as plain text with List-Unsubscribe; the MIME message they become, read back by
// postal-mime (another library than the one that wrote it): non-ASCII names and subjects encoded,
// no header injection, 7-bit clean.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import PostalMime from "postal-mime";
import { composeDigest, composeReminder, DIGEST_SECTION_LIMIT, digestSections, type MailTask } from "../../src/mail/compose";
import { headerText, messageId, renderMail, type OutgoingMail } from "../../src/mail/message";
import { createMailSender } from "../../src/mail/send";
import { rawHeader, sinkSettings, smtpSink } from "./sink";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const member = { name: "Zoë Ångström", email: "zoe@example.org", time_zone: "Europe/Paris" };
const links = { tasks: "https://dossier.example.com/tasks", unsubscribe: "https://dossier.example.com/unsubscribe/tok_123" };
const FROM = { name: "Dossier Équipe", address: "dossier@example.com" };

const task = (id: string, title: string, due_at: string | null, extra: Partial<MailTask> = {}): MailTask => ({ id, title, due_at, status: "open", ...extra });

// 2026-11-27 is a Friday; the digest is for Sunday 29 November (Europe/Paris, +01:00).
const tasks: MailTask[] = [
  task("t1", "Call Léa back", "2026-11-27T13:00:00.000Z", { dossier: { id: "d1", name: "Léa Martin" }, url: "https://dossier.example.com/dossiers/d1" }),
  task("t2", "Send the offer", "2026-11-29T09:30:00.000Z", { contact: { id: "c1", full_name: "Bob Stone" } }),
  task("t3", "Early one", "2026-11-28T23:00:00.000Z"), // 00:00 on the 29th in Paris: due today
  task("t4", "Late yesterday", "2026-11-28T22:59:00.000Z"), // 23:59 on the 28th: overdue
  task("t5", "Tomorrow", "2026-11-29T23:00:00.000Z"), // 00:00 on the 30th: not in this digest
  task("t6", "Done already", "2026-11-20T10:00:00.000Z", { status: "done" }),
  task("t7", "No due date", null),
];

describe("digest", () => {
  test("sections: overdue (due before the local day began) and due today (within it), open tasks only, by due time", () => {
    const { overdue, today } = digestSections(tasks, "2026-11-29", "Europe/Paris");
    expect(overdue.map((t) => t.id)).toEqual(["t1", "t4"]);
    expect(today.map((t) => t.id)).toEqual(["t3", "t2"]);
    // The same instants in New York are another day's.
    const ny = digestSections(tasks, "2026-11-29", "America/New_York");
    expect(ny.overdue.map((t) => t.id)).toEqual(["t1", "t4", "t3"]);
    expect(ny.today.map((t) => t.id)).toEqual(["t2", "t5"]);
  });

  test("nothing overdue and nothing due that day: no digest", () => {
    const input = { id: "m1", member, date: "2026-11-29", now: new Date("2026-11-29T07:00:00.000Z"), links };
    expect(composeDigest({ ...input, tasks: [] })).toBeNull();
    expect(composeDigest({ ...input, tasks: tasks.filter((t) => ["t5", "t6", "t7"].includes(t.id)) })).toBeNull();
  });

  test("the whole message, as written", () => {
    const mail = composeDigest({ id: "m1", member, date: "2026-11-29", now: new Date("2026-11-29T07:00:00.000Z"), tasks, links })!;
    expect(mail).toEqual({
      id: "m1",
      kind: "digest",
      to: { name: "Zoë Ångström", address: "zoe@example.org" },
      subject: "Your tasks for Sun 29 Nov: 2 overdue, 2 due today",
      unsubscribeUrl: links.unsubscribe,
      createdAt: "2026-11-29T07:00:00.000Z",
      text: [
        "Good morning Zoë Ångström,",
        "",
        "Your tasks for Sunday 29 November 2026: 2 overdue, 2 due today.",
        "",
        "Overdue (2)",
        "- Call Léa back (due Fri 27 Nov 2026, 14:00; Léa Martin)",
        "  https://dossier.example.com/dossiers/d1",
        "- Late yesterday (due Sat 28 Nov 2026, 23:59)",
        "",
        "Due today (2)",
        "- Early one (due 00:00)",
        "- Send the offer (due 10:30; Bob Stone)",
        "",
        "All your tasks: https://dossier.example.com/tasks",
        "",
        "--",
        "Dossier sends a digest of your tasks at 08:00 (Europe/Paris) on days you have some due or overdue.",
        "Turn the digest off: https://dossier.example.com/unsubscribe/tok_123",
        "",
      ].join("\n"),
    });
  });

  test(`at most ${DIGEST_SECTION_LIMIT} tasks a section are listed; the rest are counted`, () => {
    const many = Array.from({ length: DIGEST_SECTION_LIMIT + 7 }, (_, i) => task(`x${i}`, `Task ${i}`, "2026-11-01T10:00:00.000Z"));
    const mail = composeDigest({ id: "m2", member, date: "2026-11-29", now: new Date("2026-11-29T07:00:00.000Z"), tasks: many, links })!;
    expect(mail.subject).toBe(`Your tasks for Sun 29 Nov: ${DIGEST_SECTION_LIMIT + 7} overdue`);
    expect(mail.text.split("\n").filter((l) => l.startsWith("- Task")).length).toBe(DIGEST_SECTION_LIMIT);
    expect(mail.text).toContain("- and 7 more\n");
  });

  test("titles with line breaks stay on one line", () => {
    const mail = composeDigest({ id: "m3", member, date: "2026-11-29", now: new Date(0), tasks: [task("a", "Line one\r\nBcc: x@evil.example", "2026-11-29T10:00:00.000Z")], links })!;
    expect(mail.text).toContain("- Line one Bcc: x@evil.example (due 11:00)\n");
  });
});

describe("reminder", () => {
  test("the whole message, times in the member's zone", () => {
    const mail = composeReminder({
      id: "r1",
      member: { ...member, time_zone: "Asia/Kolkata" },
      task: task("t1", "Call Léa back", "2026-11-27T13:00:00.000Z", { dossier: { id: "d1", name: "Léa Martin" }, notes: "Ask about\r\nthe notice period.", url: "https://dossier.example.com/tasks/t1" }),
      now: new Date("2026-11-27T12:00:00.000Z"),
      links,
    });
    expect(mail.subject).toBe("Reminder: Call Léa back");
    expect(mail.kind).toBe("reminder");
    expect(mail.createdAt).toBe("2026-11-27T12:00:00.000Z");
    expect(mail.text).toBe(
      [
        "Reminder: Call Léa back",
        "",
        "Due: Fri 27 Nov 2026, 18:30 (Asia/Kolkata)",
        "Dossier: Léa Martin",
        "Open: https://dossier.example.com/tasks/t1",
        "",
        "Ask about\nthe notice period.",
        "",
        "All your tasks: https://dossier.example.com/tasks",
        "",
        "--",
        "Dossier sends a digest of your tasks at 08:00 (Asia/Kolkata) on days you have some due or overdue.",
        "Turn the digest off: https://dossier.example.com/unsubscribe/tok_123",
        "",
      ].join("\n"),
    );
  });

  test("a 500-code-point title: the subject is cut to 150 with an ellipsis; no due date, no line for it", () => {
    const title = "é".repeat(500);
    const mail = composeReminder({ id: "r2", member, task: task("t", title, null), now: new Date(0), links });
    expect([...mail.subject].length).toBe(150);
    expect(mail.subject.endsWith("…")).toBe(true);
    expect(mail.text).not.toContain("Due:");
    expect(mail.text).toContain(title);
  });
});

describe("the MIME message", () => {
  const mail: OutgoingMail = {
    id: "mail_01J",
    kind: "digest",
    to: { name: "Zoë \"Z\" Ångström, PhD", address: "zoe@example.org" },
    subject: "Überfällig: 2 tâches — 東京 ✓\r\nBcc: victim@example.org",
    text: `Bonjour Zoë,\n\n${"une ligne très longue ".repeat(80)}\n`, // one line of 1,760 characters
    unsubscribeUrl: "https://dossier.example.com/unsubscribe/tok 1<2>",
    createdAt: "2026-11-29T07:00:00.000Z",
  };

  test("headers and body read back by postal-mime as they were meant", async () => {
    const raw = await renderMail(mail, FROM, "example.com");
    const text = raw.toString("latin1");
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true); // 7-bit: any relay carries it
    expect(text.split("\r\n").every((line) => line.length <= 998)).toBe(true); // RFC 5322's line limit
    const email = await PostalMime.parse(raw);
    expect(email.subject).toBe("Überfällig: 2 tâches — 東京 ✓ Bcc: victim@example.org");
    expect(email.from).toEqual({ name: "Dossier Équipe", address: "dossier@example.com" });
    expect(email.to).toEqual([{ name: 'Zoë "Z" Ångström, PhD', address: "zoe@example.org" }]);
    expect(email.bcc).toBeUndefined();
    expect(email.text).toBe(mail.text);
    expect(email.html).toBeUndefined();
    expect(email.messageId).toBe("<mail_01J@example.com>");
    expect(email.date).toBe("2026-11-29T07:00:00.000Z");
    const header = (name: string) => email.headers.find((h) => h.key === name.toLowerCase())?.value;
    expect(header("List-Unsubscribe")).toBe("<https://dossier.example.com/unsubscribe/tok%201%3C2%3E>");
    expect(header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(header("Auto-Submitted")).toBe("auto-generated");
    expect(rawHeader(text, "Content-Type")).toMatch(/^text\/plain; charset=utf-8/i);
  });

  test("an HTML part, when given, comes as an alternative to the text", async () => {
    const email = await PostalMime.parse(await renderMail({ ...mail, html: "<p>Bonjour Zoë</p>" }, FROM, "example.com"));
    expect(email.text?.trimEnd()).toBe(mail.text.trimEnd());
    expect(email.html).toContain("<p>Bonjour Zoë</p>");
  });

  test("an unsubscribe link that is not http(s) is refused", async () => {
    expect(() => renderMail({ ...mail, unsubscribeUrl: "javascript:alert(1)" }, FROM, "example.com")).toThrow(/http/);
    expect(() => renderMail({ ...mail, unsubscribeUrl: "not a url" }, FROM, "example.com")).toThrow(/URL/);
  });

  test("Message-ID and header text", () => {
    expect(messageId({ id: "mail_1" }, "example.com")).toBe("<mail_1@example.com>");
    expect(messageId({ id: "a b<c>@d" }, "example.com")).toBe("<a-b-c--d@example.com>");
    expect(headerText(" a\r\n\tb\u2028c  d ")).toBe("a b c d");
  });

  test("a digest composed and sent arrives at a real SMTP server as written", async () => {
    const sink = await smtpSink();
    const digest = composeDigest({ id: "m1", member, date: "2026-11-29", now: new Date("2026-11-29T07:00:00.000Z"), tasks, links })!;
    expect(await createMailSender(sinkSettings(sink.port)).send(digest)).toMatchObject({ outcome: "sent" });
    const email = await PostalMime.parse(Buffer.from(sink.received[0].raw, "latin1"));
    expect(email.subject).toBe(digest.subject);
    expect(email.text).toBe(digest.text);
    expect(email.to).toEqual([{ name: "Zoë Ångström", address: "zoe@example.org" }]);
    expect(rawHeader(sink.received[0].raw, "List-Unsubscribe")).toBe(`<${links.unsubscribe}>`);
  });
});
