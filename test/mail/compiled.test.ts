// The mail and calendar libraries work inside a `bun build --compile` executable (C1: one file), built
// with the flags of `npm run build`: a tiny program using src/mail and src/calendar is compiled in a
// temporary folder, run from there (no node_modules beside it), and sends over STARTTLS to a real SMTP
// server on loopback; the message arrives and the feed it writes parses.
import { expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { parsed, selfSignedCertificate, smtpSink } from "./sink";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const SRC = join(import.meta.dir, "../../src");

const PROGRAM = `
import { readFileSync } from "node:fs";
import { parseMailSettings } from ${JSON.stringify(join(SRC, "mail/settings.ts"))};
import { createMailSender } from ${JSON.stringify(join(SRC, "mail/send.ts"))};
import { composeReminder } from ${JSON.stringify(join(SRC, "mail/compose.ts"))};
import { calendarFeed, calendarETag } from ${JSON.stringify(join(SRC, "calendar/feed.ts"))};
const [url, caFile] = process.argv.slice(2);
const settings = parseMailSettings({ DOSSIER_SMTP_URL: url, DOSSIER_MAIL_FROM: "Dossier <dossier@example.com>" }, { ca: readFileSync(caFile, "utf8"), timeouts: { greetingMs: 5000 } });
const settingsRequired = { ...settings, starttls: "required", tls: { ...settings.tls, servername: "localhost" } };
const member = { name: "Zoë", email: "zoe@example.org", time_zone: "Europe/Paris" };
const task = { id: "tsk_1", title: "Call Léa back", notes: null, due_at: "2026-11-27T13:00:00.000Z", status: "open", created_at: "2026-11-01T09:00:00.000Z", updated_at: "2026-11-01T09:00:00.000Z" };
const mail = composeReminder({ id: "mail_1", member, task, now: new Date("2026-11-27T12:00:00.000Z"), links: { tasks: "https://d.example.com/tasks", unsubscribe: "https://d.example.com/u/1" } });
const outcome = await createMailSender(settingsRequired).send(mail);
const feed = calendarFeed([task], { timeZone: "Europe/Paris", name: "Tasks", uidDomain: "d.example.com" });
console.log(JSON.stringify({ outcome, feed, etag: calendarETag(feed) }));
`;

test("nodemailer and ical.js inside a compiled executable: a reminder sent over STARTTLS arrives; the feed is written", async () => {
  const dir = tempDir("dossier-mail-compiled-");
  const cert = selfSignedCertificate();
  writeFileSync(join(dir, "ca.pem"), cert.cert);
  writeFileSync(join(dir, "program.ts"), PROGRAM);
  const build = Bun.spawnSync(
    [process.execPath, "build", join(dir, "program.ts"), "--compile", "--bytecode", "--format=esm", "--minify-whitespace", "--minify-syntax", "--outfile", join(dir, "program")],
    { cwd: join(SRC, ".."), stdout: "pipe", stderr: "pipe" },
  );
  expect(build.stderr.toString()).not.toContain("error:");
  expect(build.exitCode).toBe(0);

  const sink = await smtpSink({ tls: cert });
  const child = Bun.spawn([join(dir, "program"), `smtp://127.0.0.1:${sink.port}`, join(dir, "ca.pem")], { cwd: dir, stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(err).toBe("");
  expect(code).toBe(0);
  const result = JSON.parse(out);
  expect(result.outcome).toEqual({ outcome: "sent", reply: expect.stringMatching(/^250 /) });
  expect(sink.received.map((r) => r.secure)).toEqual([true]);
  const email = await parsed(sink.received[0]);
  expect(email.subject).toBe("Reminder: Call Léa back");
  expect(email.to).toEqual([{ name: "Zoë", address: "zoe@example.org" }]);
  expect(result.feed).toContain("BEGIN:VTODO\r\nUID:tsk_1@d.example.com\r\n");
  expect(result.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
});
