// Concurrent writers against a real server (issue 7 items 3 and 4): each writer works on its own
// dossiers, one request at a time, and records what the server acknowledged (a 2xx answer with its
// body) and what it sent without an answer (it may or may not have been committed).
import { Database } from "bun:sqlite";
import { expect } from "bun:test";
import { join } from "node:path";
import { pdf } from "./fixtures";

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** The value a field may hold now: the last acknowledged one, or any sent after it without answer. */
export interface Possible {
  acked: string | null; // null: nothing acknowledged yet
  since: string[]; // sent after the last acknowledgement, unanswered
}

export interface Tracked {
  id: string;
  name: Possible;
  /** CV hash, "none" for no CV yet. */
  cv: Possible;
  /** dossier.updated events the server acknowledged (each acked patch or CV upload changes the dossier). */
  updates: number;
  /** The bytes of every CV sent for this dossier, by hash. */
  cvBytes: Map<string, Uint8Array>;
}

export interface Ledger {
  dossiers: Map<string, Tracked>;
  notes: Set<string>;
  /** Acknowledged writes, in order, with the time of their answer (performance.now()). */
  acks: { at: number; kind: "dossier" | "note" | "patch" | "cv"; id: string }[];
  failures: number;
  answered: Record<string, number>;
}

export const newLedger = (): Ledger => ({ dossiers: new Map(), notes: new Set(), acks: [], failures: 0, answered: {} });

const accept = (p: Possible, value: string) => {
  p.acked = value;
  p.since = [];
};

export interface LoadOptions {
  url: string;
  key: string;
  writers: number;
  ledger: Ledger;
  /** Stops the writers when it returns true (checked before each request). */
  stop: () => boolean;
  /** Largest CV in bytes (default 200 KB). */
  maxCv?: number;
  /** Writer ops; default all. */
  ops?: Op[];
  /** Requests per writer at most (a bound for every loop). */
  maxRequests?: number;
}

export type Op = "create" | "createCv" | "patch" | "note" | "cvRaw" | "cvForm";
const ALL_OPS: Op[] = ["create", "createCv", "patch", "note", "cvRaw", "cvForm"];

let counter = 0;
const unique = () => `${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** Runs the writers until `stop()` or a network failure each; resolves when all have stopped. */
export async function runWriters(options: LoadOptions): Promise<void> {
  const { url, key, ledger } = options;
  const maxCv = options.maxCv ?? 200_000;
  const ops = options.ops ?? ALL_OPS;
  const api = `${url}/api/v1`;
  const auth = { authorization: `Bearer ${key}` };

  async function send(path: string, init: RequestInit): Promise<{ status: number; json: any } | null> {
    try {
      const response = await fetch(api + path, { ...init, headers: { ...auth, ...init.headers }, signal: AbortSignal.timeout(15_000) });
      const text = await response.text();
      ledger.answered[response.status] = (ledger.answered[response.status] ?? 0) + 1;
      return { status: response.status, json: JSON.parse(text) };
    } catch {
      ledger.failures++;
      return null;
    }
  }

  const cvOf = () => {
    const size = 1 + Math.floor(Math.random() * maxCv);
    const bytes = pdf(size, Math.floor(Math.random() * 1e9));
    return { bytes, hash: sha256(bytes) };
  };

  async function writer(index: number) {
    const mine: Tracked[] = [];
    for (let n = 0; n < (options.maxRequests ?? 10_000) && !options.stop(); n++) {
      let op = ops[Math.floor(Math.random() * ops.length)];
      if (mine.length === 0 || (op !== "create" && op !== "createCv" && Math.random() < 0.1)) op = ops.includes("createCv") ? "createCv" : "create";
      const target = mine[Math.floor(Math.random() * mine.length)];
      switch (op) {
        case "create":
        case "createCv": {
          const name = `w${index}-${unique()}`;
          let answer;
          const cv = op === "createCv" ? cvOf() : null;
          if (cv) {
            const form = new FormData();
            form.set("type", "candidate");
            form.set("name", name);
            form.set("cv", new File([cv.bytes], "cv.pdf", { type: "application/pdf" }));
            answer = await send("/dossiers", { method: "POST", body: form });
          } else {
            answer = await send("/dossiers", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "candidate", name }) });
          }
          if (answer?.status === 201) {
            const id = answer.json.data.id as string;
            const tracked: Tracked = { id, name: { acked: name, since: [] }, cv: { acked: cv ? cv.hash : "none", since: [] }, updates: 0, cvBytes: new Map() };
            if (cv) tracked.cvBytes.set(cv.hash, cv.bytes);
            mine.push(tracked);
            ledger.dossiers.set(id, tracked);
            ledger.acks.push({ at: performance.now(), kind: "dossier", id });
          } else if (answer) throw new Error(`create answered ${answer.status}: ${JSON.stringify(answer.json)}`);
          else return;
          break;
        }
        case "patch": {
          const name = `p${index}-${unique()}`;
          const answer = await send(`/dossiers/${target.id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) });
          if (answer?.status === 200) {
            accept(target.name, name);
            target.updates++;
            ledger.acks.push({ at: performance.now(), kind: "patch", id: target.id });
          } else if (answer) throw new Error(`patch answered ${answer.status}: ${JSON.stringify(answer.json)}`);
          else {
            target.name.since.push(name);
            return;
          }
          break;
        }
        case "note": {
          const answer = await send(`/dossiers/${target.id}/notes`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ content: `note ${unique()}` }) });
          if (answer?.status === 201) {
            ledger.notes.add(answer.json.data.id);
            ledger.acks.push({ at: performance.now(), kind: "note", id: answer.json.data.id });
          } else if (answer) throw new Error(`note answered ${answer.status}: ${JSON.stringify(answer.json)}`);
          else return;
          break;
        }
        case "cvRaw":
        case "cvForm": {
          const cv = cvOf();
          target.cvBytes.set(cv.hash, cv.bytes);
          let body: Uint8Array | FormData = cv.bytes;
          const headers: Record<string, string> = {};
          if (op === "cvForm") {
            const form = new FormData();
            form.set("cv", new File([cv.bytes], "cv.pdf", { type: "application/pdf" }));
            body = form;
          } else headers["content-type"] = "application/pdf";
          const answer = await send(`/dossiers/${target.id}/cv`, { method: "POST", headers, body });
          if (answer?.status === 200) {
            accept(target.cv, cv.hash);
            target.updates++;
            ledger.acks.push({ at: performance.now(), kind: "cv", id: target.id });
          } else if (answer) throw new Error(`cv answered ${answer.status}: ${JSON.stringify(answer.json)}`);
          else {
            target.cv.since.push(cv.hash);
            return;
          }
          break;
        }
      }
    }
  }

  await Promise.all(Array.from({ length: options.writers }, (_, i) => writer(i)));
}

export const possibleValues = (p: Possible) => [...(p.acked === null ? [] : [p.acked]), ...p.since];
export { sha256 };

/** The data folder's database after a restart: whole (integrity, foreign keys), then `more`, with
 * a label that names the round in every failure. */
export function checkRestartedDatabase(data: string, round: number, more: (db: Database, label: (what: string) => string) => void) {
  const label = (what: string) => `round ${round}: ${what}`;
  const db = new Database(join(data, "dossier.db"));
  try {
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all().map((r) => r.integrity_check), label("integrity")).toEqual(["ok"]);
    expect(db.query("PRAGMA foreign_key_check").all(), label("foreign keys")).toEqual([]);
    more(db, label);
  } finally {
    db.close();
  }
}
