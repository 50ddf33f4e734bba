// Shared set-up of the reliability tests (issue 7): an organization with one of everything, made
// through the API so that it looks like real use.
import { STATUS_OF } from "../../src/errors";
import { expect } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, makeOrg, type Org } from "../helpers";

/** A small PDF: `%PDF-` then `size` bytes of pseudo-random content (distinct per `seed`). */
export function pdf(size = 256, seed = 1): Uint8Array {
  const head = new TextEncoder().encode(`%PDF-1.4\n% seed ${seed}\n`);
  const bytes = new Uint8Array(head.length + size);
  bytes.set(head);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = head.length; i < bytes.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

export interface Seeded extends Org {
  name: string;
  dossier: string; // candidate, with a CV, a note and two linked contacts
  sales: string; // sales dossier
  contact: string; // linked to `dossier` as primary
  linked: string; // linked to `dossier`, not primary
  loose: string; // a contact linked to nothing
  note: string;
  flow: string; // the default candidate flow
  salesFlow: string;
  stage: string; // a stage of `flow` (not the first)
  email: string; // the email of `loose`
}

/** An organization (rate limit out of the way) seeded with dossiers, contacts, links, a note and a CV. */
export async function seedOrg(app: DossierApp<Store>, name: string): Promise<Seeded> {
  const org = await makeOrg(app, { name, rateLimit: 1_000_000 });
  const ok = async (method: string, path: string, options: Parameters<typeof call>[3]) => {
    const answer = await call(app, method, path, { key: org.key, ...options });
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    return answer.json.data;
  };
  const tag = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  const form = new FormData();
  form.set("type", "candidate");
  form.set("name", `${name} candidate`);
  form.set("email", `candidate@${tag}.example`);
  form.set("cv", new File([pdf(512, name.length)], "cv.pdf", { type: "application/pdf" }));
  const dossier = await ok("POST", "/dossiers", { raw: form });
  const sales = await ok("POST", "/dossiers", { body: { type: "sales", name: `${name} deal`, deal_size: 1000, deal_currency: "EUR" } });
  const linked = await ok("POST", "/contacts", { body: { full_name: `${name} manager`, email: `manager@${tag}.example`, kind: ["client"] } });
  await ok("POST", `/dossiers/${dossier.id}/contacts`, { body: { contact_id: linked.id, role_on_dossier: "hiring_manager" } });
  const email = `loose@${tag}.example`;
  const loose = await ok("POST", "/contacts", { body: { full_name: `${name} loose`, email, kind: ["partner"] } });
  const note = await ok("POST", `/dossiers/${dossier.id}/notes`, { body: { content: `${name} note` } });
  const flows = await ok("GET", "/flows", {});
  const flow = flows.find((f: any) => f.type === "candidate" && f.is_default);
  const salesFlow = flows.find((f: any) => f.type === "sales" && f.is_default);
  return {
    ...org,
    name,
    dossier: dossier.id,
    sales: sales.id,
    contact: dossier.contact_id,
    linked: linked.id,
    loose: loose.id,
    note: note.id,
    flow: flow.id,
    salesFlow: salesFlow.id,
    stage: flow.stages[1].id,
    email,
  };
}

/** The documented status of each error code a hostile request may get (api-v1 "Errors", C9; every
 * code is in src/errors.ts): all but the server's own faults and a body that never comes. */
const NOT_FROM_INPUT = new Set(["internal", "storage_unavailable", "insufficient_storage", "server_busy", "request_timeout"]);
export const STATUS_OF_CODE: Record<string, number> = Object.fromEntries(Object.entries(STATUS_OF).filter(([code]) => !NOT_FROM_INPUT.has(code)));

/** Throws unless `text` is exactly the error envelope (`param` and `request_id` optional) with a
 * documented code for `status`. */
export function checkEnvelope(status: number, text: string): { code: string; message: string } {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`status ${status}: the body is not JSON: ${text.slice(0, 200)}`);
  }
  const keys = body && typeof body === "object" ? Object.keys(body) : [];
  if (keys.length !== 1 || keys[0] !== "error") throw new Error(`status ${status}: not the error envelope: ${text.slice(0, 200)}`);
  const { code, message, param, request_id } = body.error ?? {};
  // Beside the required code and message, the two optional members of issue 38: nothing else.
  const extra = Object.keys(body.error ?? {}).filter((key) => !["code", "message", "param", "request_id"].includes(key));
  if (typeof code !== "string" || typeof message !== "string" || extra.length > 0 || (param !== undefined && typeof param !== "string") || (request_id !== undefined && typeof request_id !== "string")) {
    throw new Error(`status ${status}: error must be {code, message} (and optionally param, request_id): ${text.slice(0, 200)}`);
  }
  if (STATUS_OF_CODE[code] !== status) throw new Error(`status ${status} with code "${code}" is not documented`);
  return body.error;
}
