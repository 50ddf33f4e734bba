// C19 and C22 on three `dossier serve` nodes sharing one PostgreSQL database: outgoing mail made and
// sent once. Tasks whose reminders are due are made through all three nodes, then the three start
// again together, so that every node's job runner runs its reminders, digests and sender at once
// (each run at start): a real SMTP server on 127.0.0.1 (test/mail/sink.ts) gets each message once,
// one reminder per task and at most one digest per member, and the mail log says each was sent once.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { until } from "../helpers";
import { startCluster } from "../helpers/cluster";
import { smtpSink } from "../mail/sink";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const MEMBERS = 4;
const TASKS = 120;

interface LogEntry {
  id: string;
  kind: string;
  task_id: string | null;
  member_id: string | null;
  status: string;
  attempts: number;
}

describe("outgoing mail on three nodes", () => {
  test("each reminder and digest made once and sent once, whichever nodes run the jobs", async () => {
    const sink = await smtpSink();
    const cluster = await startCluster({
      env: { DOSSIER_SMTP_URL: `smtp://127.0.0.1:${sink.port}`, DOSSIER_MAIL_FROM: "Dossier <dossier@example.com>", DOSSIER_LEASE: "3s" },
    });
    const json = { "content-type": "application/json" };
    try {
      const members: string[] = [];
      for (let i = 0; i < MEMBERS; i++) {
        const answer = await cluster.fetch("/api/v1/members", { method: "POST", headers: json, body: JSON.stringify({ email: `m${i}@example.com`, name: `Member ${i}`, role: "member" }) });
        expect(answer.status).toBe(201);
        members.push(((await answer.json()) as { data: { id: string } }).data.id);
      }
      // Reminders due already, and tasks overdue: each member's digest has something to say.
      const past = new Date(Date.now() - 60_000).toISOString();
      const tasks = new Set<string>();
      for (let i = 0; i < TASKS; i++) {
        const body = { title: `Task ${i}`, assigned_to: members[i % MEMBERS], remind_at: past, due_at: past };
        const answer = await cluster.fetch("/api/v1/tasks", { method: "POST", headers: json, body: JSON.stringify(body) });
        expect(answer.status).toBe(201);
        tasks.add(((await answer.json()) as { data: { id: string } }).data.id);
      }
      // All three start together: each runs every job at once.
      await cluster.stop();
      await Promise.all(cluster.nodes.map((_, i) => cluster.restart(i)));

      const log = async (): Promise<LogEntry[]> => {
        const entries: LogEntry[] = [];
        for (let page = 1; page <= 10; page++) {
          const answer = await cluster.fetch(`/api/v1/mail-log?per_page=100&page=${page}`);
          const { data } = (await answer.json()) as { data: LogEntry[] };
          entries.push(...data);
          if (data.length < 100) break;
        }
        return entries;
      };
      const entries = await until(
        async () => {
          const found = await log();
          return found.filter((entry) => entry.kind === "reminder").length >= TASKS && found.every((entry) => entry.status === "sent") && found;
        },
        90_000,
        `${TASKS} reminders sent`,
      );
      await cluster.stop();

      // Made once: one reminder per task, at most one digest per member.
      const reminders = entries.filter((entry) => entry.kind === "reminder");
      expect(reminders).toHaveLength(TASKS);
      expect(new Set(reminders.map((entry) => entry.task_id))).toEqual(tasks);
      const digests = entries.filter((entry) => entry.kind === "digest");
      expect(new Set(digests.map((entry) => entry.member_id)).size).toBe(digests.length);
      // Sent once: one attempt each, and the sink got each message once.
      expect(entries.every((entry) => entry.attempts === 1)).toBe(true);
      expect(sink.received).toHaveLength(entries.length);
      const messageIds = sink.received.map((message) => /^message-id:\s*(.+)$/im.exec(message.raw)?.[1].trim());
      expect(new Set(messageIds).size).toBe(entries.length);
    } finally {
      await cluster.stop();
    }
  }, 240_000);
});
