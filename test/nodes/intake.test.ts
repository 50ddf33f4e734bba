// C15, C19: every node may run the SMTP listener; one message (one Message-ID) delivered to two
// nodes at the same moment, as a mail server that retries on another MX host may, makes one
// dossier, and both deliveries are answered 250. The same over HTTP (POST /intake/{token}).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { onCleanup } from "../helpers";
import { startCluster } from "../helpers/cluster";
import type { ServerProcess } from "../helpers/process";
import { compose } from "../intake/compose";

setDefaultTimeout(120_000);

const MESSAGES = 12;

const smtpPortOf = (node: ServerProcess) => Number(/"smtp":"127\.0\.0\.1:(\d+)"/.exec(node.stderr())![1]);

function client(port: number) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, ignoreTLS: true } as SMTPTransport.Options);
  onCleanup(() => transport.close());
  return transport;
}

describe("email intake across nodes", () => {
  test("one Message-ID sent to two nodes at once, over SMTP and over HTTP: one dossier each, every answer a success", async () => {
    const cluster = await startCluster({ args: ["--smtp-port", "0"] });
    try {
      const flows = (await (await cluster.fetch("/api/v1/flows?type=candidate")).json()) as { data: { id: string }[] };
      const intake = (await (await cluster.fetch(`/api/v1/flows/${flows.data[0].id}/intake`)).json()) as { data: { address: string } };
      const address = intake.data.address;
      const token = address.split("@")[0];
      const clients = cluster.nodes.map((node) => client(smtpPortOf(node)));

      for (let i = 0; i < MESSAGES; i++) {
        const raw = Buffer.from(
          await compose({ from: `"Grace ${i}" <grace${i}@example.com>`, to: address, subject: `Application ${i}`, text: "Hello", messageId: `<twin-${i}@example.com>` }),
        );
        const send = (node: number) => clients[node % 3].sendMail({ envelope: { from: `grace${i}@example.com`, to: [address] }, raw });
        const replies = await Promise.all([send(i), send(i + 1)]);
        for (const reply of replies) expect(reply.response).toStartWith("250");
      }

      for (let i = 0; i < MESSAGES; i++) {
        const raw = await compose({ from: `"Hedy ${i}" <hedy${i}@example.com>`, to: address, subject: `By HTTP ${i}`, text: "Hello", messageId: `<http-twin-${i}@example.com>` });
        const post = (node: number) => fetch(`${cluster.nodes[node % 3].url}/api/v1/intake/${token}`, { method: "POST", headers: { "content-type": "message/rfc822" }, body: raw });
        const answers = await Promise.all([post(i), post(i + 1)]);
        const seen = await Promise.all(answers.map(async (a) => ({ status: a.status, body: (await a.json()) as { data: { id: string } } })));
        expect(seen.map((a) => a.status).sort()).toEqual([200, 201]);
        expect(seen[0].body.data.id).toBe(seen[1].body.data.id);
      }

      const listed = (await (await cluster.fetch("/api/v1/dossiers?per_page=100")).json()) as { data: { name: string }[]; meta: { total: number } };
      expect(listed.meta.total).toBe(2 * MESSAGES);
      expect(new Set(listed.data.map((d) => d.name)).size).toBe(2 * MESSAGES);
    } finally {
      await cluster.stop();
    }
  });
});
