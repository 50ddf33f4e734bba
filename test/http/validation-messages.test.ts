// What a 400 invalid_body says (C3: "400 invalid_body naming the field"): the field as the client
// wrote it, an enum's allowed values, a pattern in its own case.
import { describe, expect, test } from "bun:test";
import { call, makeApp, makeOrg } from "../helpers";

describe("validation messages", () => {
  const app = makeApp();
  const org = makeOrg(app);
  const ids = { dossier: "", contact: "" };
  const ready = (async () => {
    ids.dossier = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada" } })).json.data.id;
    ids.contact = (await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Grace" } })).json.data.id;
  })();

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
