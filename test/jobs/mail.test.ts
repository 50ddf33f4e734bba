// C22's outgoing mail end to end: a real app on each engine (C19), its job runner, and a real SMTP
// server on 127.0.0.1 (test/mail/sink.ts) as the receiving end. Time is the app's injected clock:
// the tests move it and run the jobs (`runDue`), and no test waits for 08:00 or for a retry.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { MailSettings } from "../../src/mail/settings";
import type { Store } from "../../src/db/store";
import { call, makeOrg, tempDir, until, type Org } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";
import { signedInMember, type SignedInMember } from "../helpers/scenario";
import { parsed, rawHeader, silentServer, sinkSettings, smtpSink, type Received } from "../mail/sink";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("on %s", async (engine) => {
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  const BASE = "https://dossier.example.com";

  interface World {
    app: DossierApp<Store>;
    org: Org;
    clock: { now: number };
    mia: SignedInMember;
    /** Runs the jobs until what is due at the clock's now is done (the sender runs after commits too). */
    settle(): Promise<void>;
    log(): Promise<any[]>;
    task(body: Record<string, unknown>): Promise<any>;
  }

  async function world(mail: MailSettings | null, options: { start?: string; dataDir?: string; timeZone?: string | null } = {}): Promise<World> {
    const clock = { now: Date.parse(options.start ?? "2026-11-30T05:00:00.000Z") };
    const app = await appOn(engine, {
      dataDir: options.dataDir ?? tempDir(),
      jobs: true,
      now: () => new Date(clock.now),
      config: { jobScanMs: 3_600_000, mail, timeZone: options.timeZone ?? null, publicUrl: BASE },
    });
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    const mia = await signedInMember(app, org.id, "member");
    const settle = async () => {
      for (let i = 0; i < 3; i++) await app.jobs!.runDue();
    };
    return {
      app,
      org,
      clock,
      mia,
      settle,
      log: async () => (await call(app, "GET", "/mail-log?per_page=100", { key: org.key })).json.data,
      task: async (body) => {
        const answer = await call(app, "POST", "/tasks", { key: org.key, body: { title: "Call Zoë back", ...body } });
        expect(answer.status).toBe(201);
        return answer.json.data;
      },
    };
  }

  const header = (message: Received, name: string) => rawHeader(message.raw, name);

  describe("C22: reminders", () => {
    test("a task's remind_at sends its assignee one email then, with a plain-text part and List-Unsubscribe; the mail log shows it sent", async () => {
      const sink = await smtpSink();
      const w = await world(sinkSettings(sink.port));
      const dossier = (await call(w.app, "POST", "/dossiers", { key: w.org.key, body: { type: "candidate", name: "Zoë Martin" } })).json.data;
      const task = await w.task({ remind_at: new Date(w.clock.now + HOUR).toISOString(), due_at: new Date(w.clock.now + 2 * HOUR).toISOString(), assigned_to: w.mia.id, dossier_id: dossier.id, notes: "About the offer." });
      await w.settle();
      expect(sink.received).toHaveLength(0);

      w.clock.now += HOUR;
      await w.settle();
      expect(sink.received).toHaveLength(1);
      const [message] = sink.received;
      expect(message.rcptTo).toEqual([w.mia.email]);
      const email = await parsed(message);
      expect(email.subject).toBe("Reminder: Call Zoë back");
      expect(email.text).toContain("Dossier: Zoë Martin");
      expect(email.text).toContain("About the offer.");
      expect(email.text).toContain(`${BASE}/console/dossiers/${dossier.id}`);
      expect(email.html).toBeUndefined();
      expect(header(message, "List-Unsubscribe")).toMatch(new RegExp(`^<${BASE}/unsubscribe/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+>$`));
      expect(header(message, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");

      const [entry] = await w.log();
      expect(entry).toMatchObject({ kind: "reminder", recipient: w.mia.email, task_id: task.id, member_id: w.mia.id, status: "sent", attempts: 1, reply: expect.stringMatching(/^250 /), last_error: null });
      expect(email.messageId).toBe(`<${entry.id}@example.com>`);

      // Once: later runs send nothing more; a new remind_at sends a new reminder.
      w.clock.now += HOUR;
      await w.settle();
      expect(sink.received).toHaveLength(1);
      expect((await call(w.app, "PATCH", `/tasks/${task.id}`, { key: w.org.key, body: { remind_at: new Date(w.clock.now + MINUTE).toISOString() } })).status).toBe(200);
      w.clock.now += MINUTE;
      await w.settle();
      expect(sink.received).toHaveLength(2);
    });

    test("no reminder for a task done before its time, nor for one without an assignee", async () => {
      const sink = await smtpSink();
      const w = await world(sinkSettings(sink.port));
      const done = await w.task({ remind_at: new Date(w.clock.now + HOUR).toISOString(), assigned_to: w.mia.id });
      await w.task({ remind_at: new Date(w.clock.now + HOUR).toISOString() });
      expect((await call(w.app, "PATCH", `/tasks/${done.id}`, { key: w.org.key, body: { status: "done" } })).status).toBe(200);
      w.clock.now += 2 * HOUR;
      await w.settle();
      expect(sink.received).toHaveLength(0);
      expect(await w.log()).toEqual([]);
    });

    test("without DOSSIER_SMTP_URL nothing is queued: the reminder is left to the console", async () => {
      const w = await world(null);
      await w.task({ remind_at: new Date(w.clock.now + MINUTE).toISOString(), assigned_to: w.mia.id });
      w.clock.now += HOUR;
      await w.settle();
      expect(await w.log()).toEqual([]);
      expect(await queryRows(w.app, `SELECT id FROM outgoing_mail`)).toEqual([]);
    });
  });

  describe("C22: the morning digest", () => {
    test("08:00 in the member's time zone (Intl, not a fixed offset), tasks due that day and overdue, once a day; none when there is nothing to say", async () => {
      const sink = await smtpSink();
      // Monday 30 November 2026, 05:00 UTC: 06:00 in Paris (UTC+1 in winter).
      const w = await world(sinkSettings(sink.port));
      const bob = await signedInMember(w.app, w.org.id, "member"); // no tasks: no digest
      const zone = await call(w.app, "PATCH", "/session/member", { headers: w.mia.headers, body: { time_zone: "europe/paris" } });
      expect(zone.status).toBe(200);
      expect(zone.json.data).toMatchObject({ time_zone: "Europe/Paris", effective_time_zone: "Europe/Paris", digest: true });
      await w.task({ title: "Overdue call", due_at: "2026-11-27T10:00:00.000Z", assigned_to: w.mia.id });
      await w.task({ title: "Today's call", due_at: "2026-11-30T22:30:00.000Z", assigned_to: w.mia.id }); // 23:30 in Paris: still today
      await w.task({ title: "Tomorrow's call", due_at: "2026-11-30T23:30:00.000Z", assigned_to: w.mia.id }); // 00:30 tomorrow in Paris
      await w.task({ title: "Done already", due_at: "2026-11-30T09:00:00.000Z", assigned_to: w.mia.id, status: "done" });
      await w.task({ title: "Someone else's", due_at: "2026-11-30T09:00:00.000Z" });

      w.clock.now = Date.parse("2026-11-30T06:59:59.999Z");
      await w.settle();
      expect(sink.received).toHaveLength(0);

      w.clock.now = Date.parse("2026-11-30T07:00:00.000Z"); // 08:00 in Paris
      await w.settle();
      expect(sink.received).toHaveLength(1);
      const email = await parsed(sink.received[0]);
      expect(sink.received[0].rcptTo).toEqual([w.mia.email]);
      expect(email.subject).toBe("Your tasks for Mon 30 Nov: 1 overdue, 1 due today");
      expect(email.text).toContain("Overdue call");
      expect(email.text).toContain("Today's call (due 23:30");
      expect(email.text).not.toContain("Tomorrow's call");
      expect(email.text).not.toContain("Done already");
      expect(header(sink.received[0], "List-Unsubscribe")).toStartWith(`<${BASE}/unsubscribe/`);

      // Once that day; the next morning (Tomorrow's call is today then).
      w.clock.now += 12 * HOUR;
      await w.settle();
      expect(sink.received).toHaveLength(1);
      w.clock.now = Date.parse("2026-12-01T07:00:00.000Z");
      await w.settle();
      expect(sink.received).toHaveLength(2);
      expect((await parsed(sink.received[1])).subject).toBe("Your tasks for Tue 1 Dec: 2 overdue, 1 due today");
      expect(sink.received.some((m) => m.rcptTo.includes(bob.email))).toBe(false);
    });

    test("the server's DOSSIER_TIME_ZONE for members who chose none; summer time moves 08:00 in UTC", async () => {
      const sink = await smtpSink();
      // Monday 1 June 2026: New York is UTC-4, so 08:00 there is 12:00 UTC.
      const w = await world(sinkSettings(sink.port), { start: "2026-06-01T11:00:00.000Z", timeZone: "America/New_York" });
      expect((await call(w.app, "GET", "/session/member", { headers: w.mia.headers })).json.data).toMatchObject({ time_zone: null, effective_time_zone: "America/New_York" });
      await w.task({ title: "Call", due_at: "2026-06-01T20:00:00.000Z", assigned_to: w.mia.id });
      w.clock.now = Date.parse("2026-06-01T11:59:00.000Z");
      await w.settle();
      expect(sink.received).toHaveLength(0);
      w.clock.now = Date.parse("2026-06-01T12:00:00.000Z");
      await w.settle();
      expect(sink.received).toHaveLength(1);
    });

    test("digest: false sends none; the List-Unsubscribe link's page asks, its POST (RFC 8058) turns the digest off", async () => {
      const sink = await smtpSink();
      const w = await world(sinkSettings(sink.port));
      await w.task({ title: "Call", due_at: "2026-11-30T12:00:00.000Z", assigned_to: w.mia.id });
      w.clock.now = Date.parse("2026-11-30T08:00:00.000Z");
      await w.settle();
      expect(sink.received).toHaveLength(1);
      const link = header(sink.received[0], "List-Unsubscribe")!.slice(1, -1);
      const path = new URL(link).pathname;

      const asked = await w.app.handle(new Request(`http://localhost${path}`));
      expect(asked.status).toBe(200);
      expect(await asked.text()).toContain('<form method="post">');
      expect((await call(w.app, "GET", "/session/member", { headers: w.mia.headers })).json.data.digest).toBe(true); // a GET changes nothing
      const posted = await w.app.handle(
        new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" }),
      );
      expect(posted.status).toBe(200);
      expect((await call(w.app, "GET", "/session/member", { headers: w.mia.headers })).json.data.digest).toBe(false);
      const forged = await w.app.handle(new Request(`http://localhost${path.slice(0, -3)}xyz`, { method: "POST" }));
      expect(forged.status).toBe(404);

      w.clock.now = Date.parse("2026-12-01T08:00:00.000Z");
      await w.settle();
      expect(sink.received).toHaveLength(1);
      expect((await call(w.app, "PATCH", "/session/member", { headers: w.mia.headers, body: { digest: true } })).json.data.digest).toBe(true);
      w.clock.now = Date.parse("2026-12-02T08:00:00.000Z");
      await w.settle();
      expect(sink.received).toHaveLength(2);
    });
  });

  describe("C22: the sender's outcomes and retries", () => {
    test("a 4xx is tried again after 1 min, 5 min, 30 min and 2 h (each from the end of the attempt before), then failed with the reply", async () => {
      let tries = 0;
      const sink = await smtpSink({ rcpt: () => (tries++, [451, "4.3.0 Try again later"]) });
      const w = await world(sinkSettings(sink.port));
      await w.task({ remind_at: new Date(w.clock.now).toISOString(), assigned_to: w.mia.id });
      await w.settle();
      expect(tries).toBe(1);
      let [entry] = await w.log();
      expect(entry).toMatchObject({ status: "queued", attempts: 1, last_error: expect.stringContaining("451 4.3.0 Try again later"), next_attempt_at: new Date(w.clock.now + MINUTE).toISOString() });
      for (const [n, wait] of [[2, MINUTE], [3, 5 * MINUTE], [4, 30 * MINUTE], [5, 2 * HOUR]] as const) {
        w.clock.now += wait - 1;
        await w.settle();
        expect(tries).toBe(n - 1);
        w.clock.now += 1;
        await w.settle();
        expect(tries).toBe(n);
      }
      [entry] = await w.log();
      expect(entry).toMatchObject({ status: "failed", attempts: 5, next_attempt_at: null, last_error: expect.stringContaining("451") });
      w.clock.now += 24 * HOUR;
      await w.settle();
      expect(tries).toBe(5);
      expect(sink.received).toHaveLength(0);
    });

    test("a 5xx marks the message failed at once, with the server's reply", async () => {
      const sink = await smtpSink({ rcpt: () => [550, "5.1.1 No such user here"] });
      const w = await world(sinkSettings(sink.port));
      await w.task({ remind_at: new Date(w.clock.now).toISOString(), assigned_to: w.mia.id });
      await w.settle();
      expect(await w.log()).toEqual([expect.objectContaining({ status: "failed", attempts: 1, last_error: expect.stringContaining("550 5.1.1 No such user here"), next_attempt_at: null })]);
    });

    test("a server that never answers: the attempt ends by its timeout and is tried again; HTTP answers meanwhile", async () => {
      const silent = await silentServer();
      const w = await world(sinkSettings(silent.port));
      await w.task({ remind_at: new Date(w.clock.now + MINUTE).toISOString(), assigned_to: w.mia.id });
      w.clock.now += MINUTE;
      const running = w.settle();
      const sending = async () => (await queryRows<{ status: string }>(w.app, `SELECT status FROM outgoing_mail`))[0]?.status === "sending";
      await until(sending, 60_000, "the attempt under way");
      // While the server holds the attempt, requests are answered (the send is off the request's path).
      const answer = await call(w.app, "POST", "/tasks", { key: w.org.key, body: { title: "Meanwhile" } });
      expect(answer.status).toBe(201);
      expect(await sending()).toBe(true);
      await running;
      await until(async () => (await w.log())[0]?.status === "queued", 60_000, "the attempt recorded");
      const [entry] = await w.log();
      expect(entry).toMatchObject({ status: "queued", attempts: 1, last_error: expect.stringMatching(/timeout|ETIMEDOUT/i) });
      expect(silent.connections()).toBeGreaterThanOrEqual(1);
    });

    test("at most once: an attempt begun and never recorded (a crash) is sent again at the next start (on PostgreSQL, once a lease has passed), once, with the same Message-ID", async () => {
      const sink = await smtpSink();
      const dataDir = tempDir();
      const first = await world(null, { dataDir });
      // A message queued, its attempt recorded as begun, and the process gone before the outcome.
      const ctx = first.app.dossier;
      const at = new Date(first.clock.now);
      const id = crypto.randomUUID();
      await ctx.store.write(async () => {
        await ctx.store.mail.insert({
          id, organization_id: first.org.id, member_id: first.mia.id, task_id: null, kind: "reminder", to_address: first.mia.email, subject: "Reminder: x",
          message: JSON.stringify({ id, kind: "reminder", to: { name: "Mia", address: first.mia.email }, subject: "Reminder: x", text: "x\n", unsubscribeUrl: `${BASE}/unsubscribe/x`, createdAt: at.toISOString() }),
          next_attempt_at: at.getTime(), created_at: at.toISOString(),
        });
        await ctx.store.mail.begin(first.org.id, id, at.toISOString());
      });
      await first.app.close();

      const clock = first.clock;
      // The same store: the data folder's file, or the first app's PostgreSQL database.
      const env = engine === "postgres" ? { DOSSIER_DATABASE_URL: ctx.config.databaseUrl! } : {};
      const second = await appOn(engine, { dataDir, env, jobs: true, now: () => new Date(clock.now), config: { jobScanMs: 3_600_000, mail: sinkSettings(sink.port), publicUrl: BASE } });
      if (engine === "postgres") {
        // Several nodes share the database: an attempt begun less than a lease ago may be a live
        // node's send, left alone; a lease later it was a dead node's, sent again.
        for (let i = 0; i < 2; i++) await second.jobs!.runDue();
        expect(sink.received).toHaveLength(0);
        clock.now += second.dossier.config.leaseMs;
        await second.jobs!.runDue();
      }
      await until(() => sink.received.length === 1, 60_000, "the interrupted message sent at start");
      for (let i = 0; i < 3; i++) await second.jobs!.runDue();
      expect(sink.received).toHaveLength(1);
      expect((await parsed(sink.received[0])).messageId).toBe(`<${id}@example.com>`);
      const [entry] = (await call(second, "GET", "/mail-log", { key: first.org.key })).json.data;
      expect(entry).toMatchObject({ id, status: "sent", attempts: 2 });
    });
  });

  describe("C22: the mail log is for admins (mail:read)", () => {
    test("admin and a key with mail:read read it; member and viewer get 403; another organization sees none of it", async () => {
      const sink = await smtpSink();
      const w = await world(sinkSettings(sink.port));
      await w.task({ remind_at: new Date(w.clock.now).toISOString(), assigned_to: w.mia.id });
      await w.settle();
      const admin = await signedInMember(w.app, w.org.id, "admin");
      const viewer = await signedInMember(w.app, w.org.id, "viewer");
      expect((await call(w.app, "GET", "/mail-log", { headers: admin.headers })).json.meta.total).toBe(1);
      expect((await call(w.app, "GET", "/mail-log", { headers: w.mia.headers })).status).toBe(403);
      expect((await call(w.app, "GET", "/mail-log", { headers: viewer.headers })).status).toBe(403);
      const other = await makeOrg(w.app);
      expect((await call(w.app, "GET", "/mail-log", { key: other.key })).json).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 25 } });
      expect((await call(w.app, "GET", "/mail-log?per_page=0", { key: w.org.key })).status).toBe(400);
    });
  });
});
