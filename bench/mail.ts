// `bun bench/mail.ts`: C22's mail figures (issue 37). An app of this process on a real SQLite file
// in a temp folder (removed after), with 10,000 members whose morning digests are due:
//   1. digests: the job runner's digest step (src/jobs/mail.ts) run once with the app's clock moved
//      to 10:00 UTC on a Monday, when 08:00 has passed in each member's zone: the time to compose
//      and queue every digest (target: 10,000 in under 30 s);
//   2. sender: the job runner's sender draining that queue to a local SMTP sink (the `smtp-server`
//      dependency on 127.0.0.1, in a child process so that it does not share this process's
//      thread): messages/s from the first claim to the last message recorded sent (target ≥ 50/s).
// Every member has three open tasks (one overdue with a dossier, one due that day, one next week)
// and a time zone among five (the server's, UTC; Europe/London, Europe/Paris, Asia/Kolkata,
// Asia/Tokyo). A bench, not a test: it prints figures and asserts nothing about time.
//
//   bun bench/mail.ts [--members 10000] [--orgs 20]
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app";
import type { MemberRow } from "../src/db/schema";
import { newId } from "../src/ids";
import { digestJob, senderJob } from "../src/jobs/mail";
import { JobRunner } from "../src/jobs/runner";
import { parseMailSettings } from "../src/mail/settings";
import { writeNewDossier } from "../src/services/dossiers";
import { writeOrg } from "../src/services/orgs";
import { writeTask } from "../src/services/tasks";

// The sink: a child process (`bun bench/mail.ts --sink`) that accepts every message and counts it.
if (process.argv.includes("--sink")) {
  const { SMTPServer } = await import("smtp-server");
  let received = 0;
  const server = new SMTPServer({
    disableReverseLookup: true,
    disabledCommands: ["STARTTLS"],
    hideSTARTTLS: true,
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        received++;
        callback(null, "2.0.0 queued as sink");
      });
    },
  });
  server.on("error", () => {});
  server.listen(0, "127.0.0.1", () => console.log(`port ${(server.server.address() as { port: number }).port}`));
  process.stdin.on("data", () => console.log(`received ${received}`));
  process.stdin.on("end", () => server.close(() => process.exit(0)));
} else {
  await bench();
}

async function bench() {
  const argument = (name: string, fallback: number) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const MEMBERS = argument("--members", 10_000);
  const ORGS = argument("--orgs", 20);
  const DOSSIERS_PER_ORG = 50;
  const ZONES = [null, "Europe/London", "Europe/Paris", "Asia/Kolkata", "Asia/Tokyo"];
  const TARGET = { digestsMs: 30_000, perSecond: 50 };
  const DEADLINE_MS = 15 * 60_000;
  setTimeout(() => {
    console.error("bench: mail took longer than 15 minutes, stopping");
    process.exit(1);
  }, DEADLINE_MS).unref();

  // Monday 30 November 2026, 10:00 UTC: past 08:00 that day in every zone above (Tokyo: 19:00).
  const clock = { now: Date.parse("2026-11-30T10:00:00.000Z") };
  const DAY = 86_400_000;

  const sink = Bun.spawn([process.execPath, import.meta.path, "--sink"], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const lines = sinkLines(sink.stdout);
  const port = Number((await lines.next()).value?.replace("port ", ""));
  if (!Number.isInteger(port) || port <= 0) throw new Error("the SMTP sink did not start");
  const sinkCount = async () => {
    sink.stdin.write("count\n");
    sink.stdin.flush();
    return Number((await lines.next()).value?.replace("received ", ""));
  };

  const dir = mkdtempSync(join(tmpdir(), "dossier-bench-mail-"));
  try {
    const mail = parseMailSettings({ DOSSIER_SMTP_URL: `smtp://127.0.0.1:${port}`, DOSSIER_MAIL_FROM: "Dossier <dossier@example.com>" })!;
    const app = createApp({
      dataDir: dir,
      webhooks: false,
      jobs: false,
      imports: false,
      env: {},
      now: () => new Date(clock.now),
      config: { log: "off", mail, timeZone: null, jobScanMs: 3_600_000, publicUrl: "https://dossier.example.com" },
    });
    const ctx = app.dossier;
    const links = { base: () => "https://dossier.example.com" };
    try {
      // The seed, through the store's own writes (not timed).
      const seeded = performance.now();
      const perOrg = Math.ceil(MEMBERS / ORGS);
      let made = 0;
      for (let o = 0; o < ORGS && made < MEMBERS; o++) {
        const org = await ctx.store.write(() => writeOrg(ctx, { name: `Bench ${o}`, plan: "growth", rateLimit: 1_000_000 }));
        const dossiers = await ctx.store.write(async () => {
          const ids: string[] = [];
          for (let d = 0; d < DOSSIERS_PER_ORG; d++) ids.push((await writeNewDossier(ctx, org.id, { type: "candidate", name: `Candidate ${o}-${d}`, company: "Globex" })).id);
          return ids;
        });
        const count = Math.min(perOrg, MEMBERS - made);
        for (let start = 0; start < count; start += 250) {
          await ctx.store.write(async () => {
            for (let i = start; i < Math.min(start + 250, count); i++) {
              const n = made + i;
              const email = `member${n}@example.com`;
              const member: MemberRow = {
                id: newId(),
                organizationId: org.id,
                email,
                emailFolded: email,
                name: `Member ${n}`,
                role: "member",
                passwordHash: null,
                createdAt: new Date(clock.now - 30 * DAY).toISOString(),
                lastSignInAt: null,
                disabledAt: null,
                timeZone: null,
                digest: true,
                lastDigestDate: null,
                calendarTokenHash: null,
              };
              await ctx.store.members.insert(member);
              const zone = ZONES[n % ZONES.length];
              if (zone !== null) await ctx.store.members.setSettings(org.id, member.id, zone, true);
              const task = (title: string, due: number, dossierId: string | null) =>
                writeTask(ctx, {
                  id: newId(),
                  organization_id: org.id,
                  dossier_id: dossierId,
                  contact_id: null,
                  title,
                  notes: dossierId ? "Asked for the salary range first." : null,
                  due_at: new Date(due).toISOString(),
                  remind_at: null,
                  assigned_to: member.id,
                  status: "open",
                  done_at: null,
                  created_by: { kind: "member", id: member.id },
                  created_at: new Date(clock.now - 7 * DAY).toISOString(),
                  updated_at: new Date(clock.now - 7 * DAY).toISOString(),
                });
              await task(`Call back candidate ${n}`, clock.now - 2 * DAY, dossiers[n % dossiers.length]);
              await task(`Send the offer ${n}`, Date.parse("2026-11-30T16:00:00.000Z"), null);
              await task(`Plan the interview ${n}`, clock.now + 7 * DAY, null);
            }
          });
        }
        made += count;
      }
      const seedMs = performance.now() - seeded;

      // 1. The digests: the runner's digest step, run with the clock moved to 10:00 UTC.
      const loadBefore = loadavg()[0];
      const digests = new JobRunner(ctx, [digestJob(ctx, links)]);
      const d0 = performance.now();
      await digests.runDue();
      const digestsMs = performance.now() - d0;
      await digests.stop();
      const queued = ctx.store.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM outgoing_mail WHERE kind = 'digest' AND status = 'queued'`).get()!.n;
      if (queued !== MEMBERS) throw new Error(`${queued} digests queued, expected ${MEMBERS}`);
      const bytes = ctx.store.sqlite.query<{ n: number }, []>(`SELECT sum(length(message)) AS n FROM outgoing_mail`).get()!.n;

      // 2. The sender: the runner's sender job drains the queue to the sink.
      const sender = senderJob(ctx, mail);
      const sending = new JobRunner(ctx, [sender]);
      const left = () => ctx.store.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM outgoing_mail WHERE status <> 'sent'`).get()!.n;
      const s0 = performance.now();
      while (left() > 0 && performance.now() - s0 < DEADLINE_MS) {
        await sending.runDue();
        const failed = ctx.store.sqlite.query<{ n: number; e: string | null }, []>(`SELECT count(*) AS n, max(last_error) AS e FROM outgoing_mail WHERE status IN ('failed') OR last_error IS NOT NULL`).get()!;
        if (failed.n > 0) throw new Error(`${failed.n} messages not sent: ${failed.e}`);
      }
      const sendMs = performance.now() - s0;
      await sending.stop();
      sender.close();
      const received = await sinkCount();
      if (received !== MEMBERS) throw new Error(`the sink received ${received} messages, expected ${MEMBERS}`);

      const perSecond = MEMBERS / (sendMs / 1000);
      const verdict = (met: boolean) => (met ? "met" : "NOT MET");
      const figures = {
        measured_at: new Date().toISOString(),
        members: MEMBERS,
        organizations: ORGS,
        tasks: MEMBERS * 3,
        cpus: availableParallelism(),
        load_average: Math.round(loadBefore * 10) / 10,
        seed_s: Math.round(seedMs / 100) / 10,
        digests_queued: queued,
        digests_s: Math.round(digestsMs / 10) / 100,
        digests_per_s: Math.round(MEMBERS / (digestsMs / 1000)),
        queued_message_kb_mean: Math.round(bytes / MEMBERS / 100) / 10,
        sent: received,
        send_s: Math.round(sendMs / 10) / 100,
        sent_per_s: Math.round(perSecond),
      };
      console.log(JSON.stringify(figures, null, 2));
      console.log(`digests: ${MEMBERS.toLocaleString("en")} composed and queued in ${figures.digests_s} s (target < ${TARGET.digestsMs / 1000} s: ${verdict(digestsMs < TARGET.digestsMs)})`);
      console.log(`sender: ${MEMBERS.toLocaleString("en")} sent to the sink in ${figures.send_s} s, ${figures.sent_per_s} messages/s (target ≥ ${TARGET.perSecond}/s: ${verdict(perSecond >= TARGET.perSecond)})`);
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    sink.stdin.end();
    await sink.exited;
  }
}

/** The sink's answers, line by line. */
async function* sinkLines(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
    }
  }
}
