// Writers for the multi-node tests: each makes dossiers (and a note on every other one) through
// the cluster's nodes in turn, and keeps what was acknowledged (a 2xx). A request that fails
// (a node killed under it, a refused connection) is counted, not retried: it may or may not have
// committed, and only acknowledged writes are promised.
import type { Cluster } from "../helpers/cluster";

export interface Written {
  /** The dossiers whose POST was answered 201. */
  dossiers: string[];
  /** Notes answered 201, by id. */
  notes: string[];
  /** Requests that got no answer or a 5xx (the node was gone). */
  failed: number;
}

/** An answer no writer should get (a 4xx): the test fails. */
class Refused extends Error {}

/** Node indexes a writer may use now (a test removes a killed node). */
export type Alive = () => number[];

/** `count` writes by writer `writer`, each on the next live node after the previous one's. */
export async function writer(cluster: Cluster, writer: number, count: number, alive: Alive = () => cluster.nodes.map((_, i) => i)): Promise<Written> {
  const written: Written = { dossiers: [], notes: [], failed: 0 };
  const headers = { authorization: `Bearer ${cluster.key}`, "content-type": "application/json" };
  let turn = writer;
  const node = () => {
    const live = alive();
    return cluster.nodes[live[turn++ % live.length]].url;
  };
  for (let i = 0; i < count; i++) {
    try {
      const made = await fetch(`${node()}/api/v1/dossiers`, { method: "POST", headers, body: JSON.stringify({ name: `W${writer}-${i}`, type: "candidate" }) });
      if (made.status !== 201) {
        if (made.status < 500) throw new Refused(`POST /dossiers answered ${made.status}: ${await made.text()}`);
        written.failed++;
        continue;
      }
      const { id } = ((await made.json()) as { data: { id: string } }).data;
      written.dossiers.push(id);
      if (i % 2 === 1) {
        const note = await fetch(`${node()}/api/v1/dossiers/${id}/notes`, { method: "POST", headers, body: JSON.stringify({ content: `note ${i}` }) });
        if (note.status === 201) written.notes.push(((await note.json()) as { data: { id: string } }).data.id);
        else if (note.status < 500) throw new Refused(`POST /notes answered ${note.status}: ${await note.text()}`);
        else written.failed++;
      }
    } catch (error) {
      if (error instanceof Refused) throw error;
      written.failed++; // fetch failed: the connection was refused or cut, no answer
    }
  }
  return written;
}
