// What a 400 invalid_body says (C3: "400 invalid_body naming the field"): the field as the client
// wrote it, an enum's allowed values, a pattern in its own case. A query parameter (C3, C10) is
// named bare, its allowed values unquoted; a path resource that does not exist is 404 before any
// query parameter is looked at (C3's order).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("messages on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app);
  const ids = { dossier: "", contact: "" };
  const ready = await (async () => {
    ids.dossier = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada" } })).json.data.id;
    ids.contact = (await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Grace" } })).json.data.id;
  })();

  describe("validation messages", () => {

    const rows: [string, string, string, Record<string, unknown>, string][] = [
      ["C10: a PATCH of `type` names the field `type` (not `type.0`)", "PATCH", "/dossiers/DOSSIER", { type: "sales" }, 'unknown field "type"'],
      ["C3: an unknown field is named as sent", "PATCH", "/dossiers/DOSSIER", { colour: "red" }, 'unknown field "colour"'],
      ["C3: an enum lists its allowed values", "PATCH", "/dossiers/DOSSIER", { status: "bogus" }, 'status: must be one of "active", "won", "lost", "archived"'],
      ["C3: an enum on create lists its allowed values", "POST", "/dossiers", { type: "bogus", name: "x" }, 'type: must be one of "candidate", "sales"'],
      ["C6: an array item is named with its index", "POST", "/contacts", { full_name: "x", kind: ["client", "bogus"] }, 'kind[1]: must be one of "candidate", "prospect", "client", "supplier", "partner"'],
      ["C10: a nullable field says what it takes, or null", "PATCH", "/dossiers/DOSSIER", { current_stage_id: "x" }, "current_stage_id: expected string to match 'uuid' format or null"],
      ["C3: a pattern keeps its case", "POST", "/dossiers/DOSSIER/contacts", { contact_id: "nope", role_on_dossier: "other" }, "contact_id: expected string to match '^[0-9a-fA-F]{8}-"],
    ];
    test.each(rows)("%s", async (_name, method, path, body, message) => {
      await ready;
      const answer = await call(app, method, path.replace("DOSSIER", ids.dossier), { key: org.key, body });
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe("invalid_body");
      expect(answer.json.error.message).toStartWith(message);
    });
  });

  describe("query parameter messages", () => {
    const MAX_PAGE = Number.MAX_SAFE_INTEGER;

    const rows: [string, string, number, string][] = [
      ["C3: an enum lists its allowed values, unquoted", "/dossiers?type=bogus", 400, "type must be one of candidate, sales"],
      ["C3: status lists archived too", "/dossiers?status=bogus", 400, "status must be one of active, won, lost, archived"],
      ["C10: a uuid filter that is not a uuid is 400", "/dossiers?stage_id=nope", 400, "stage_id must be a uuid"],
      ["C10: assigned_to is a uuid", "/dossiers?assigned_to=nope", 400, "assigned_to must be a uuid"],
      ["C10: flow_id is a uuid", "/dossiers?flow_id=1", 400, "flow_id must be a uuid"],
      ["C3: overdue is true or false", "/dossiers?overdue=yes", 400, "overdue must be true or false"],
      ["C3: page is a positive integer", "/dossiers?page=0", 400, `page must be an integer from 1 to ${MAX_PAGE}`],
      ["C3: page beyond 2^53 - 1", `/dossiers?page=${MAX_PAGE}0`, 400, `page must be an integer from 1 to ${MAX_PAGE}`],
      ["C3: page is no decimal", "/dossiers?page=1.5", 400, `page must be an integer from 1 to ${MAX_PAGE}`],
      ["C3: per_page is at most 100", "/dossiers?per_page=101", 400, "per_page must be an integer from 1 to 100"],
      ["C3: per_page is no sign", "/dossiers?per_page=+5", 400, "per_page must be an integer from 1 to 100"],
      ["C3: the first parameter in the route's order is named", "/dossiers?page=0&type=bogus", 400, "type must be one of candidate, sales"],
      ["C3: the first value of a repeated parameter counts", "/dossiers?type=sales&type=bogus", 200, ""],
      ["C3: an empty q is a filter, not an error", "/dossiers?q=", 200, ""],
      ["C10: an upper-case uuid filter is taken", "/dossiers?flow_id=2F6D8A1C-4B3E-4D5F-9A7B-8C9D0E1F2A3B", 200, ""],
      ["C6: every repeated kind must be known", "/contacts?kind=client&kind=bogus", 400, "kind must be one of candidate, prospect, client, supplier, partner"],
      ["C6: pool lists its values", "/contacts?pool=bogus", 400, "pool must be one of in_pool, expired"],
      ["C6: contacts page", "/contacts?per_page=0", 400, "per_page must be an integer from 1 to 100"],
      ["C4: flows type", "/flows?type=bogus", 400, "type must be one of candidate, sales"],
      ["C4: flows page", "/flows?page=-1", 400, `page must be an integer from 1 to ${MAX_PAGE}`],
      ["api-v1 Notes: notes page", "/dossiers/DOSSIER/notes?page=x", 400, `page must be an integer from 1 to ${MAX_PAGE}`],
      ["C3: an unknown dossier is 404 before its notes' query is read", "/dossiers/0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d/notes?page=x", 404, "dossier not found"],
      ["C3: unknown parameters are ignored", "/contacts?colour=red", 200, ""],
    ];
    test.each(rows)("%s", async (_name, path, status, message) => {
      await ready;
      const answer = await call(app, "GET", path.replace("DOSSIER", ids.dossier), { key: org.key });
      expect(answer.status).toBe(status);
      if (status >= 400) expect(answer.json.error).toMatchObject({ code: status === 404 ? "not_found" : "invalid_body", message });
    });
  });
});
