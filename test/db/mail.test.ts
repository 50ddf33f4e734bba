// Outgoing mail's query module (src/db/mail.ts, src/db/pg/mail.ts) on the store under test: the same
// answers on both engines (the same JSON: keys in the same order, epoch milliseconds as numbers),
// one organization's mail never another's, but in the sender's and the digest's scans across
// organizations. Members, dossiers and contacts are inserted as rows (insertRows).
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { MailRow, MailTaskRow, NewMail } from "../../src/db/mail";
import type { TaskRecord } from "../../src/db/tasks";
import { openPgStore } from "../../src/db/pg/client";
import { columnOf, ENGINES, insertRows, memberRow, migratedDatabase, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

// A PostgreSQL store keeps its pool of 10 connections open until it is closed, and the test server
// takes 300: each test's stores are closed after it (closing again after the file is harmless).
const opened: EngineStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
const T2 = "2026-01-03T00:00:00.000Z";
/** Epoch ms of T0: the queue's times. */
const MS0 = Date.parse(T0);

/** A new message of o1, due at MS0 + `dueIn`. */
const mail = (id: string, createdAt: string, dueIn = 0, changes: Partial<NewMail> = {}): NewMail => ({
  id, organization_id: "o1", member_id: "m1", task_id: null, kind: "reminder", to_address: "m1@x.example", subject: `Subject ${id}`,
  message: `{"id":"${id}"}`, next_attempt_at: MS0 + dueIn, created_at: createdAt, ...changes,
});

/** The message as the log shows it, just queued; keys in the order the store gives them. */
const queued = (m: NewMail, changes: Partial<MailRow> = {}): MailRow => ({
  id: m.id, organization_id: m.organization_id, member_id: m.member_id, task_id: m.task_id, kind: m.kind, to_address: m.to_address,
  subject: m.subject, message: m.message, status: "queued", attempts: 0, next_attempt_at: m.next_attempt_at, last_attempt_at: null,
  last_error: null, reply: null, sent_at: null, created_at: m.created_at, ...changes,
});

const task = (id: string, changes: Partial<TaskRecord> = {}): TaskRecord => ({
  id, organization_id: "o1", dossier_id: null, contact_id: null, title: `Task ${id}`, notes: null, due_at: null, remind_at: null,
  assigned_to: "m1", status: "open", done_at: null, created_by: { kind: "member", id: "m1" }, created_at: T0, updated_at: T0, ...changes,
});

/** o1 with members m1, m2 (disabled), m3 (no digest), m4 (Europe/Paris, a digest made), dossier d1
 * and contact c1; o2 with member m9, dossier d9, contact c9. */
async function withOrgs(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  opened.push(s);
  const member = (id: string, organizationId: string, name: string) => ({
    id, organization_id: organizationId, name, email: `${id}@x.example`, email_folded: `${id}@x.example`, role: "member", created_at: T0,
  });
  // Written out of their order (organization, then id).
  await insertRows(s, "members", [
    member("m9", "o2", "Nine"),
    { ...member("m4", "o1", "Dee"), time_zone: "Europe/Paris", last_digest_date: "2025-12-31" },
    member("m1", "o1", "Ada"),
    { ...member("m2", "o1", "Bob"), disabled_at: T1 },
    { ...member("m3", "o1", "Cy"), digest: false },
  ]);
  const dossier = { type: "candidate", status: "active", created_at: T0, updated_at: T0 };
  await insertRows(s, "dossiers", [
    { ...dossier, id: "d1", organization_id: "o1", name: "Dossier one" },
    { ...dossier, id: "d9", organization_id: "o2", name: "Dossier nine" },
  ]);
  const contact = { kind: '["candidate"]', kind_mask: 1, created_at: T0, updated_at: T0 };
  await insertRows(s, "contacts", [
    { ...contact, id: "c1", organization_id: "o1", full_name: "Carla" },
    { ...contact, id: "c9", organization_id: "o2", full_name: "Nine" },
  ]);
  return s;
}

/** o1's log: b and a share T1 (written b first), c is older, d newer; o2's x. */
const LOG = [mail("b", T1), mail("a", T1, 5), mail("c", T0, 10), mail("d", T2, 20, { kind: "digest", task_id: null, member_id: null })];
const X = mail("x", T1, 1, { organization_id: "o2", member_id: "m9", to_address: "m9@x.example" });

async function withLog(engine: Engine): Promise<EngineStore> {
  const s = await withOrgs(engine);
  await s.write(async () => {
    for (const m of [...LOG, X]) await s.mail.insert(m);
  });
  return s;
}

describe.each(ENGINES)("mail on %s", (engine) => {
  test("insert and the log: queued with no attempt, newest first, ties by id descending; the total; limit, offset, an offset past the end", async () => {
    const s = await withLog(engine);
    const [b, a, c, d] = LOG;
    const log = await s.read(() => s.mail.page("o1", 10, 0));
    expect(log).toEqual({ data: [queued(d), queued(b), queued(a), queued(c)], total: 4 });
    expect(JSON.stringify(log.data[1])).toBe(
      '{"id":"b","organization_id":"o1","member_id":"m1","task_id":null,"kind":"reminder","to_address":"m1@x.example","subject":"Subject b",' +
        `"message":"{\\"id\\":\\"b\\"}","status":"queued","attempts":0,"next_attempt_at":${MS0},"last_attempt_at":null,"last_error":null,` +
        '"reply":null,"sent_at":null,"created_at":"2026-01-02T00:00:00.000Z"}',
    );
    expect(await s.mail.page("o1", 2, 1)).toEqual({ data: [queued(b), queued(a)], total: 4 });
    expect(await s.mail.page("o1", 2, 3)).toEqual({ data: [queued(c)], total: 4 });
    expect(await s.mail.page("o1", 2, 4)).toEqual({ data: [], total: 4 });
    expect(await s.mail.page("o2", 10, 0)).toEqual({ data: [queued(X)], total: 1 });
  });

  test("due: queued messages due at now, across organizations, earliest first, ties by id; limit; nextDue", async () => {
    const s = await withLog(engine);
    const [b, a, c, d] = LOG;
    expect(await s.read(() => s.mail.due(MS0 + 10, 50))).toEqual([queued(b), queued(X), queued(a), queued(c)]);
    expect(await s.mail.due(MS0 + 10, 2)).toEqual([queued(b), queued(X)]);
    expect(await s.mail.due(MS0 - 1, 50)).toEqual([]);
    expect(await s.mail.due(MS0 + 20, 50)).toEqual([queued(b), queued(X), queued(a), queued(c), queued(d)]);
    expect(await s.read(() => s.mail.nextDue())).toBe(MS0);
    // A message being sent is not due; the next one is.
    expect(await s.write(() => s.mail.begin("o1", "b", T2))).toBe(true);
    expect((await s.mail.due(MS0 + 20, 50)).map((m) => m.id)).toEqual(["x", "a", "c", "d"]);
    expect(await s.mail.nextDue()).toBe(MS0 + 1);
  });

  test("an attempt: begin (once, not for another organization), then sent, failed or retried; the log shows each", async () => {
    const s = await withLog(engine);
    const [b, a, c] = LOG;
    await s.write(async () => {
      expect(await s.mail.begin("o2", "b", T2)).toBe(false);
      expect(await s.mail.begin("o1", "b", T2)).toBe(true);
      expect(await s.mail.begin("o1", "b", T2)).toBe(false);
      expect(await s.mail.begin("o1", "a", T2)).toBe(true);
      expect(await s.mail.begin("o1", "c", T2)).toBe(true);
    });
    const sending = { status: "sending" as const, attempts: 1, next_attempt_at: null, last_attempt_at: T2 };
    expect((await s.read(() => s.mail.page("o1", 10, 0))).data.slice(1)).toEqual([queued(b, sending), queued(a, sending), queued(c, sending)]);

    await s.write(async () => {
      await s.mail.sent("o1", "b", "2026-01-03T00:00:01.000Z", "250 OK");
      await s.mail.failed("o1", "a", "550 no such user");
      await s.mail.retry("o1", "c", MS0 + 60_000, "421 try later");
      // Another organization's: untouched.
      await s.mail.sent("o2", "d", T2, "250 OK");
      await s.mail.failed("o2", "d", "no");
      await s.mail.retry("o2", "d", 0, "no");
    });
    const [d, ...rest] = (await s.read(() => s.mail.page("o1", 10, 0))).data;
    expect(d).toEqual(queued(LOG[3]));
    expect(rest).toEqual([
      queued(b, { ...sending, status: "sent", sent_at: "2026-01-03T00:00:01.000Z", reply: "250 OK" }),
      queued(a, { ...sending, status: "failed", last_error: "550 no such user" }),
      queued(c, { ...sending, status: "queued", next_attempt_at: MS0 + 60_000, last_error: "421 try later" }),
    ]);
    // The retried message is due again at its time, a second attempt counted; a success clears the error.
    expect((await s.mail.due(MS0 + 60_000, 50)).map((m) => m.id)).toEqual(["x", "d", "c"]);
    await s.write(async () => {
      expect(await s.mail.begin("o1", "c", T2)).toBe(true);
      await s.mail.sent("o1", "c", T2, "250 Again");
    });
    expect((await s.mail.page("o1", 1, 3)).data).toEqual([
      queued(c, { status: "sent", attempts: 2, next_attempt_at: null, last_attempt_at: T2, sent_at: T2, reply: "250 Again", last_error: null }),
    ]);
  });

  test("interrupted: the attempts begun and never recorded, across organizations, oldest first, ties by id", async () => {
    const s = await withLog(engine);
    expect(await s.read(() => s.mail.interrupted())).toEqual([]);
    await s.write(async () => {
      for (const [org, id] of [["o1", "d"], ["o2", "x"], ["o1", "b"], ["o1", "a"]]) await s.mail.begin(org, id, T2);
      await s.mail.sent("o1", "d", T2, "250 OK");
    });
    const sending = { status: "sending" as const, attempts: 1, next_attempt_at: null, last_attempt_at: T2 };
    const [b, a] = LOG;
    expect(await s.read(() => s.mail.interrupted())).toEqual([queued(a, sending), queued(b, sending), queued(X, sending)]);
  });

  test("digestCandidates: members not disabled who take the digest, across organizations, by organization then id; digestMade", async () => {
    const s = await withOrgs(engine);
    const candidates = await s.read(() => s.mail.digestCandidates());
    expect(candidates).toEqual([
      { id: "m1", organization_id: "o1", email: "m1@x.example", name: "Ada", time_zone: null, digest: true, last_digest_date: null },
      { id: "m4", organization_id: "o1", email: "m4@x.example", name: "Dee", time_zone: "Europe/Paris", digest: true, last_digest_date: "2025-12-31" },
      { id: "m9", organization_id: "o2", email: "m9@x.example", name: "Nine", time_zone: null, digest: true, last_digest_date: null },
    ]);
    expect(JSON.stringify(candidates[1])).toBe(
      '{"id":"m4","organization_id":"o1","email":"m4@x.example","name":"Dee","time_zone":"Europe/Paris","digest":true,"last_digest_date":"2025-12-31"}',
    );
    await s.write(async () => {
      await s.mail.digestMade("o1", "m1", "2026-01-01");
      await s.mail.digestMade("o1", "m9", "2026-01-01"); // not o1's
      await s.members.setSettings("o1", "m4", "Europe/Paris", false);
    });
    expect((await s.mail.digestCandidates()).map((m) => [m.id, m.last_digest_date])).toEqual([
      ["m1", "2026-01-01"],
      ["m9", null],
    ]);
  });

  test("openTasksOf and task: a member's open tasks due before a time with their dossier's and contact's names, by due time then id; one task", async () => {
    const s = await withOrgs(engine);
    await s.write(async () => {
      await s.tasks.insert(task("t2", { due_at: T1, dossier_id: "d1", contact_id: "c1", notes: "Call", remind_at: T0 }));
      await s.tasks.insert(task("t1", { due_at: T1 }));
      await s.tasks.insert(task("t0", { due_at: T0, contact_id: "c9" })); // another organization's contact: no name
      await s.tasks.insert(task("t3", { due_at: T2 }));
      await s.tasks.insert(task("t4", { due_at: T0, status: "done", done_at: T1 }));
      await s.tasks.insert(task("t5"));
      await s.tasks.insert(task("t6", { due_at: T0, assigned_to: "m4" }));
      await s.tasks.insert(task("t9", { organization_id: "o2", due_at: T0, assigned_to: "m1", dossier_id: "d9" }));
    });
    const t2: MailTaskRow = {
      id: "t2", title: "Task t2", notes: "Call", due_at: T1, status: "open", dossier_id: "d1", dossier_name: "Dossier one", contact_id: "c1",
      contact_name: "Carla", assigned_to: "m1", remind_at: T0,
    };
    const open = await s.read(() => s.mail.openTasksOf("o1", "m1", T2));
    expect(open.map((t) => t.id)).toEqual(["t0", "t1", "t2"]);
    expect(open[0]).toEqual({
      id: "t0", title: "Task t0", notes: null, due_at: T0, status: "open", dossier_id: null, dossier_name: null, contact_id: "c9",
      contact_name: null, assigned_to: "m1", remind_at: null,
    });
    expect(open[2]).toEqual(t2);
    expect(JSON.stringify(open[2])).toBe(JSON.stringify(t2));
    expect((await s.mail.openTasksOf("o1", "m1", "2026-01-03T00:00:00.001Z")).map((t) => t.id)).toEqual(["t0", "t1", "t2", "t3"]);
    expect(await s.mail.openTasksOf("o1", "m1", T0)).toEqual([]);
    expect((await s.mail.openTasksOf("o2", "m1", T2)).map((t) => [t.id, t.dossier_name])).toEqual([["t9", "Dossier nine"]]);

    expect(await s.read(() => s.mail.task("o1", "t2"))).toEqual(t2);
    expect((await s.mail.task("o1", "t4"))?.status).toBe("done");
    expect(await s.mail.task("o2", "t2")).toBeNull();
    expect(await s.mail.task("o1", "t9")).toBeNull();
  });

  test("reminded: the task's reminder handled, in its organization only (it leaves the reminder scan)", async () => {
    const s = await withOrgs(engine);
    await s.write(async () => {
      await s.tasks.insert(task("t1", { remind_at: T0 }));
      await s.tasks.insert(task("t9", { organization_id: "o2", remind_at: T0 }));
    });
    await s.write(async () => {
      expect(await s.mail.reminded("o1", "t1", T1)).toBe(true);
      expect(await s.mail.reminded("o1", "t9", T1)).toBe(false);
    });
    expect(await s.read(() => s.tasks.dueReminders(T2, 50))).toEqual([{ organization_id: "o2", id: "t9", remind_at: T0 }]);
    // Claimed once: a second run finds it handled, and its time stays the first's.
    expect(await s.write(() => s.mail.reminded("o1", "t1", T2))).toBe(false);
    expect(await columnOf(s, "tasks", "reminded_at", "t1")).toBe(T1);
  });

  test("digestMade claims a member's day once: not the same day again, nor an earlier one; a later day, yes", async () => {
    const s = await withOrgs(engine);
    const claim = (memberId: string, date: string) => s.write(() => s.mail.digestMade("o1", memberId, date));
    expect(await claim("m1", "2026-01-01")).toBe(true);
    expect(await claim("m1", "2026-01-01")).toBe(false);
    expect(await claim("m4", "2025-12-31")).toBe(false); // m4's digest of that day is made
    expect(await claim("m4", "2025-12-30")).toBe(false);
    expect(await claim("m4", "2026-01-01")).toBe(true);
    expect((await s.mail.digestCandidates()).map((m) => [m.id, m.last_digest_date])).toEqual([
      ["m1", "2026-01-01"],
      ["m4", "2026-01-01"],
      ["m9", null],
    ]);
  });

  test("interrupted(begunBefore): only the attempts begun at or before that time", async () => {
    const s = await withLog(engine);
    await s.write(async () => {
      await s.mail.begin("o1", "a", T1);
      await s.mail.begin("o1", "b", T2);
    });
    expect((await s.read(() => s.mail.interrupted(T1))).map((row) => row.id)).toEqual(["a"]);
    expect((await s.read(() => s.mail.interrupted(T2))).map((row) => row.id)).toEqual(["a", "b"]);
    expect(await s.read(() => s.mail.interrupted("2026-01-01T23:59:59.999Z"))).toEqual([]);
  });
});

describe("mail on postgres: two nodes' runs at once", () => {
  test("a reminder or a digest claimed by one unit is not claimed by another running beside it (it waits, then finds it handled)", async () => {
    const url = await migratedDatabase();
    const [one, two] = [await openPgStore(url), await openPgStore(url)];
    try {
      await one.write(async () => {
        await one.orgs.insert({ id: "o1", name: "One", plan: "growth", rate_limit: 120, created_at: T0 });
        await one.members.insert(memberRow("m1", "o1"));
        await one.tasks.insert(task("t1", { remind_at: T0 }));
      });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let claimedFirst!: () => void;
      const firstClaimed = new Promise<void>((resolve) => (claimedFirst = resolve));
      const first = one.write(async () => {
        const claims = [await one.mail.reminded("o1", "t1", T1), await one.mail.digestMade("o1", "m1", "2026-01-01")];
        claimedFirst();
        await held;
        return claims;
      });
      await firstClaimed;
      const second = two.write(async () => [await two.mail.reminded("o1", "t1", T2), await two.mail.digestMade("o1", "m1", "2026-01-01")]);
      release();
      expect(await first).toEqual([true, true]);
      expect(await second).toEqual([false, false]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe("mail: the same JSON on both engines", () => {
  test("the log, the due scan, the interrupted attempts, the digest candidates and a member's tasks, serialised, are byte-identical", async () => {
    const answers: string[] = [];
    for (const engine of ENGINES) {
      const s = await withLog(engine);
      await s.write(async () => {
        await s.tasks.insert(task("t1", { due_at: T1, dossier_id: "d1", contact_id: "c1" }));
        await s.tasks.insert(task("t0", { due_at: T1 }));
        await s.mail.begin("o1", "a", T2);
        await s.mail.begin("o2", "x", T2);
        await s.mail.retry("o2", "x", MS0 + 3, "421");
        await s.mail.begin("o1", "c", T2);
        await s.mail.sent("o1", "c", T2, "250 OK");
      });
      answers.push(
        JSON.stringify({
          log: [await s.mail.page("o1", 3, 0), await s.mail.page("o1", 3, 3), await s.mail.page("o2", 3, 0)],
          due: await s.mail.due(MS0 + 100, 50),
          next: await s.mail.nextDue(),
          interrupted: await s.mail.interrupted(),
          candidates: await s.mail.digestCandidates(),
          tasks: await s.mail.openTasksOf("o1", "m1", T2),
          task: await s.mail.task("o1", "t1"),
        }),
      );
    }
    expect(answers[1]).toBe(answers[0]);
  });
});
