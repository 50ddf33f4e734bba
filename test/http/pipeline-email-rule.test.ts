// C3 sets one rule for `email` ("must look like an email address (one @, a dot in the domain)";
// "stored as given"): the same table of addresses on every body that takes one, POST and PATCH of
// /contacts and of /dossiers (JSON and multipart), through the real app. Refused: 400 invalid_body
// naming the field, nothing written. Accepted: stored exactly as sent.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg, type Org } from "../helpers";
import { ENGINES, appOn, rowCountsOf } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const REFUSED: [string, string][] = [
  ["no @", "nobody.example.com"],
  ["two @", "a@b@c.com"],
  ["no dot in the domain", "a@localhost"],
  ["domain starting with a dot", "a@.b.c"],
  ["domain ending with a dot", "a@b.c."],
  ["empty label in the domain", "a@b..c"],
  ["empty domain", "a@"],
  ["empty local part", "@b.c"],
  ["a space in the local part", "a b@c.com"],
  ["a space in the domain", "a@b c.com"],
  ["a trailing space", "a@b.com "],
  ["a tab", "a\t@b.com"],
  ["a line break", "a@b.com\n"],
];

const ACCEPTED: [string, string][] = [
  ["the shortest", "a@b.c"],
  ["dots, plus and sub-domains", "first.last+tag@mail.sub.example.co.uk"],
  ["upper case, stored as given", "Grace.Hopper@Navy.EXAMPLE"],
  ["non-ASCII", "émile@exämple.com"],
  ["an apostrophe and a hyphen", "o'brien-smith@x-y.io"],
];

/** A route that takes an email; `target` makes the resource a PATCH changes (before counting rows). */
interface Route {
  name: string;
  ok: number;
  target?: (org: Org) => Promise<string>;
  send: (org: Org, email: string, target: string) => Promise<{ status: number; json: any }>;
  /** Where a PATCH's target can be read back. */
  read?: (target: string) => string;
}

describe.each(ENGINES)("email rule on %s", (engine) => {
  describe("C3: one email rule for contacts and dossiers, on create and on update", async () => {
    const app = await appOn(engine);
    const orgs = new Map<string, Org>();
    // Each route in its own organization, so that an address accepted on one route is not a duplicate (409) on another.
    const orgFor = async (route: string) => {
      if (!orgs.has(route)) orgs.set(route, (await makeOrg(app, { rateLimit: 1_000_000, name: route })));
      return orgs.get(route)!;
    };
    const multipart = (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.append(name, value);
      return data;
    };

    const ROUTES: Route[] = [
      { name: "POST /contacts", ok: 201,
        send: (org, email) => call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Someone", email } }) },
      { name: "PATCH /contacts/{id}", ok: 200,
        target: async (org) => (await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Target" } })).json.data.id,
        send: (org, email, id) => call(app, "PATCH", `/contacts/${id}`, { key: org.key, body: { email } }),
        read: (id) => `/contacts/${id}` },
      { name: "POST /dossiers (JSON)", ok: 201,
        send: (org, email) => call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Someone", email } }) },
      { name: "POST /dossiers (multipart)", ok: 201,
        send: (org, email) => call(app, "POST", "/dossiers", { key: org.key, raw: multipart({ type: "candidate", name: "Someone", email }) }) },
      { name: "PATCH /dossiers/{id}", ok: 200,
        target: async (org) => (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "sales", name: "Target" } })).json.data.id,
        send: (org, email, id) => call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { email } }),
        read: (id) => `/dossiers/${id}` },
    ];
    const route = (name: string) => ROUTES.find((r) => r.name === name)!;

    const refused = ROUTES.flatMap((r) => REFUSED.map(([why, email]) => [r.name, why, email] as const));
    test.each(refused)("C3: %s refuses an email with %s (%p) → 400 invalid_body naming email; nothing written", async (name, _why, email) => {
      const { target, send, read } = route(name);
      const org = await orgFor(name);
      const id = target ? await target(org) : "";
      const before = await rowCountsOf(app);
      const answer = await send(org, email, id);
      expect([answer.status, answer.json.error.code]).toEqual([400, "invalid_body"]);
      expect(answer.json.error.message).toContain("email");
      expect(await rowCountsOf(app)).toEqual(before);
      if (read) expect((await call(app, "GET", read(id), { key: org.key })).json.data.email).toBeNull();
    });

    const accepted = ROUTES.flatMap((r) => ACCEPTED.map(([why, email]) => [r.name, why, email] as const));
    test.each(accepted)("C3: %s accepts %s (%p) and stores it as given", async (name, _why, email) => {
      const { target, send, read, ok } = route(name);
      const org = await orgFor(name);
      const id = target ? await target(org) : "";
      const answer = await send(org, email, id);
      expect(answer.status).toBe(ok);
      expect(answer.json.data.email).toBe(email);
      if (read) expect((await call(app, "GET", read(id), { key: org.key })).json.data.email).toBe(email);
    });
  });
});
