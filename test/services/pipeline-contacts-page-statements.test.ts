// api-v1 "Contacts", C6 ("dossier_count counts links"), issue 6: a GET /contacts page computes
// dossier_count in the same query as the page, never with a query per row. bun:sqlite has no
// statement counter, so this file counts the statements the service executes on the real database
// by wrapping the connection's query() and prepare() (and each statement they hand out) with a
// counter: every read still goes to SQLite. The count for a page of 100 must equal the count for a
// page of 1, on each way a page is read (kind filter or none, search of 3+ and of under 3
// characters, pool filter); a control shows that the counter does see a query per row.
import type { Database, Statement } from "bun:sqlite";
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createContact, getContact, listContacts, type ContactQuery, writeNewContact } from "../../src/services/contacts";
import { createDossier, type Dossier } from "../../src/services/dossiers";
import { linkContact, writeLink } from "../../src/services/links";
import { makeApp, makeOrg } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const EXECUTE = ["all", "get", "run", "values", "iterate"] as const;
const COUNTED = Symbol("counted");

/** Counts statement executions on `sqlite` until `stop()`; the connection is left as it was. */
function countStatements(sqlite: Database) {
  let executed = 0;
  const wrap = <T extends Statement<any, any>>(statement: T): T => {
    const marked = statement as T & { [COUNTED]?: Record<string, unknown> };
    if (!marked[COUNTED]) {
      const originals: Record<string, unknown> = {};
      for (const name of EXECUTE) {
        const original = (statement as any)[name];
        if (typeof original !== "function") continue;
        originals[name] = Object.getOwnPropertyDescriptor(statement, name);
        (statement as any)[name] = (...args: unknown[]) => {
          executed++;
          return original.apply(statement, args);
        };
      }
      marked[COUNTED] = originals;
    }
    return statement;
  };
  const wrapped: Statement<any, any>[] = [];
  const query = sqlite.query;
  const prepare = sqlite.prepare;
  (sqlite as any).query = (...args: unknown[]) => {
    const statement = wrap((query as any).apply(sqlite, args));
    wrapped.push(statement);
    return statement;
  };
  (sqlite as any).prepare = (...args: unknown[]) => wrap((prepare as any).apply(sqlite, args));
  return {
    get executed() {
      return executed;
    },
    stop() {
      delete (sqlite as any).query;
      delete (sqlite as any).prepare;
      // The cached statements that query() handed out get their own methods back.
      for (const statement of wrapped) {
        const marked = statement as Statement<any, any> & { [COUNTED]?: Record<string, PropertyDescriptor | undefined> };
        const originals = marked[COUNTED];
        if (!originals) continue;
        for (const name of EXECUTE) {
          const descriptor = originals[name];
          if (descriptor) Object.defineProperty(statement, name, descriptor);
          else delete (statement as any)[name];
        }
        delete marked[COUNTED];
      }
    },
  };
}

describe("C6: dossier_count comes with the page (statements per page do not grow with per_page)", async () => {
  // A clock that moves 1 ms a read: the contacts made last are the newest, whatever their ids.
  let clock = Date.parse("2026-06-01T12:00:00.000Z");
  const app = makeApp({ now: () => new Date(clock++) });
  const ctx = app.dossier;
  const org = await makeOrg(app);
  const sqlite = ctx.store.reader; // where reads run (src/db/scope.ts)
  let counter: ReturnType<typeof countStatements> | null = null;
  afterEach(() => {
    counter?.stop();
    counter = null;
  });

  const ready = await (async () => {
    // 100 contacts, each with a different number of links (0, 1 or 2), all in the pool, kind client.
    const dossiers: Dossier[] = [];
    for (let i = 0; i < 2; i++) dossiers.push(await createDossier(ctx, org.id, { type: "sales", name: `Deal ${i}` }));
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const contact = await ctx.store.write(() =>
        writeNewContact(ctx, org.id, {
          full_name: `Zebulon ${String(i).padStart(3, "0")}`, kind: ["client"],
          pool_added_at: "2026-01-01T00:00:00.000Z", pool_expires_at: "2027-01-01T00:00:00.000Z",
        }),
      );
      for (let l = 0; l < i % 3; l++) await ctx.store.write(() => writeLink(ctx, org.id, dossiers[l].id, contact.id, "other"));
      ids.push(contact.id);
    }
    return ids;
  })();

  /** Statements executed by one listContacts call, with its answer. */
  async function measured(query: ContactQuery) {
    counter = countStatements(sqlite);
    try {
      const answer = await listContacts(ctx, org.id, query);
      return { executed: counter.executed, answer };
    } finally {
      counter.stop();
      counter = null;
    }
  }

  // Each pair asks two questions never asked before: per_page is part of a remembered page's key,
  // and a remembered search is per term, so the two searches use two terms matching every contact.
  const ways: [string, Omit<ContactQuery, "page" | "perPage">, Omit<ContactQuery, "page" | "perPage">][] = [
    ["no filter", {}, {}],
    ["kind filter", { kinds: ["client"] }, { kinds: ["client"] }],
    ["search of 3+ characters (trigram index)", { search: "zebulon" }, { search: "ebulo" }],
    ["search of under 3 characters (scan)", { search: "ze" }, { search: "bu" }],
    ["pool filter", { pool: "in_pool" }, { pool: "in_pool" }],
  ];
  test.each(ways)("C6: %s: a page of 100 executes as many statements as a page of 1, and every dossier_count is right", async (_way, small, large) => {
    const ids = await ready;
    // The contacts' generation is read once per commit (the commit stamp): read it first, so that
    // neither measured page is the one that reads it.
    await listContacts(ctx, org.id, { page: 3, perPage: 2 });
    const one = await measured({ ...small, page: 1, perPage: 1 });
    const hundred = await measured({ ...large, page: 1, perPage: 100 });
    expect(one.answer.data).toHaveLength(1);
    expect(hundred.answer.data).toHaveLength(100);
    expect(one.executed).toBeGreaterThan(0);
    expect(hundred.executed).toBe(one.executed);
    for (const contact of hundred.answer.data) expect(contact.dossier_count).toBe(ids.indexOf(contact.id) % 3);
  });

  test("control: the counter sees a query per row (getContact for each contact of a page grows with the page)", async () => {
    const ids = await ready;
    counter = countStatements(sqlite);
    for (const id of ids.slice(0, 1)) await getContact(ctx, org.id, id);
    const forOne = counter.executed;
    for (const id of ids.slice(0, 100)) await getContact(ctx, org.id, id);
    expect(forOne).toBeGreaterThan(0);
    expect(counter.executed - forOne).toBe(100 * forOne);
  });
});
