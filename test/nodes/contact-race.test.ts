// C5, C15, C19 on three real `dossier serve` nodes on one PostgreSQL database: creates that link a
// contact by its email, racing on a new email over every node, all succeed and share one contact,
// as SQLite's one writer gives (before, one of them answered 409 duplicate_contact): POST /dossiers,
// and intake messages (different Message-IDs) from one new sender.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { startCluster } from "../helpers/cluster";
import { compose } from "../intake/compose";

setDefaultTimeout(120_000);

const RACERS = 20;

describe("find-or-create of a contact by email across nodes", () => {
  test(`${RACERS} POST /dossiers and ${RACERS} intake messages, each group with one new email, over three nodes at once: all succeed, one contact each`, async () => {
    const cluster = await startCluster({ files: "disk" });
    try {
      const json = async (answer: Promise<Response>) => {
        const response = await answer;
        return { status: response.status, body: (await response.json()) as any };
      };
      const contactsOf = async (email: string) => (await json(cluster.fetch(`/api/v1/contacts?search=${encodeURIComponent(email)}`))).body.data;

      const posted = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          json(
            cluster.fetch("/api/v1/dossiers", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ type: "candidate", name: `Racer ${i}`, email: i % 2 ? "Same.Person@Example.com" : "same.person@example.com" }),
            }),
          ),
        ),
      );
      for (const answer of posted) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const [contact, ...others] = await contactsOf("same.person@example.com");
      expect(others).toEqual([]);
      expect(contact.dossier_count).toBe(RACERS);
      expect(new Set(posted.map((a) => a.body.data.contact_id))).toEqual(new Set([contact.id]));

      const flows = (await json(cluster.fetch("/api/v1/flows?type=candidate"))).body;
      const address = (await json(cluster.fetch(`/api/v1/flows/${flows.data[0].id}/intake`))).body.data.address as string;
      const token = address.split("@")[0];
      const messages = await Promise.all(
        Array.from({ length: RACERS }, async (_, i) =>
          compose({ from: `"Hedy" <hedy.sender@example.com>`, to: address, subject: `Application ${i}`, text: "Hello", messageId: `<apply-${i}@example.com>` }),
        ),
      );
      const taken = await Promise.all(
        messages.map((raw, i) =>
          json(fetch(`${cluster.nodes[i % cluster.nodes.length].url}/api/v1/intake/${token}`, { method: "POST", headers: { "content-type": "message/rfc822" }, body: raw })),
        ),
      );
      for (const answer of taken) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const senders = await contactsOf("hedy.sender@example.com");
      expect(senders.length).toBe(1);
      expect(senders[0].dossier_count).toBe(RACERS);
    } finally {
      await cluster.stop();
    }
  });
});
