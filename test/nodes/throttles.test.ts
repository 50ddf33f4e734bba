// C12, C15, C19, C20: the sign-in throttle and the intake limit count across nodes, as the rate
// limit does (rate-limits.test.ts): three real `dossier serve` processes on one PostgreSQL
// database, attempts spread over the nodes, at most the limit + the number of nodes let through.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { EMAIL_LIMIT } from "../../src/services/throttle";
import { startCluster } from "../helpers/cluster";

setDefaultTimeout(120_000);

const INTAKE_LIMIT = 5;

describe("throttles across three nodes", () => {
  test(`wrong passwords for one email from one address: ${EMAIL_LIMIT} refused as wrong (at most ${EMAIL_LIMIT} + 3), then 429 on every node`, async () => {
    const cluster = await startCluster();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 15; i++) {
        const answer = await fetch(`${cluster.nodes[i % 3].url}/api/v1/session`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "nobody@example.com", password: "a wrong but long password" }),
        });
        statuses.push(answer.status);
      }
      const wrong = statuses.filter((status) => status === 401).length;
      expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
      expect(wrong).toBeGreaterThanOrEqual(EMAIL_LIMIT);
      expect(wrong).toBeLessThanOrEqual(EMAIL_LIMIT + 3);
      expect(statuses.slice(-3)).toEqual([429, 429, 429]); // the last attempt on each node
    } finally {
      await cluster.stop();
    }
  });

  test(`an intake token limited to ${INTAKE_LIMIT} messages a minute: 15 spread over the nodes, at most ${INTAKE_LIMIT} + 3 taken in`, async () => {
    const cluster = await startCluster({ env: { DOSSIER_INTAKE_RATE_LIMIT: String(INTAKE_LIMIT) } });
    try {
      const flows = (await (await cluster.fetch("/api/v1/flows?type=candidate")).json()) as { data: { id: string }[] };
      const intake = (await (await cluster.fetch(`/api/v1/flows/${flows.data[0].id}/intake`)).json()) as { data: { address: string } };
      const token = intake.data.address.split("@")[0];
      const statuses: number[] = [];
      for (let i = 0; i < 15; i++) {
        const raw = `From: Grace ${i} <grace${i}@example.com>\r\nSubject: Application ${i}\r\nMessage-ID: <limit-${i}@example.com>\r\n\r\nHello.\r\n`;
        const answer = await fetch(`${cluster.nodes[i % 3].url}/api/v1/intake/${token}`, { method: "POST", headers: { "content-type": "message/rfc822" }, body: raw });
        statuses.push(answer.status);
      }
      const taken = statuses.filter((status) => status === 201).length;
      expect(statuses.every((status) => status === 201 || status === 429)).toBe(true);
      expect(taken).toBeGreaterThanOrEqual(INTAKE_LIMIT);
      expect(taken).toBeLessThanOrEqual(INTAKE_LIMIT + 3);
      const listed = (await (await cluster.fetch("/api/v1/dossiers")).json()) as { meta: { total: number } };
      expect(listed.meta.total).toBe(taken);
    } finally {
      await cluster.stop();
    }
  });
});
