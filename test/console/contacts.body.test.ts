// The contact form's bodies (C6, C14 screen 6): a create sends the fields filled in; an edit sends
// only what changed from the contact as it was read (an emptied field clears it, full_name never
// becomes null); the talent-pool days become date-times at the day's start.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createBody, EMPTY, patchBody, typedOf } from "../../src/console/contacts/body";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const contact = {
  id: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  full_name: "Jane Doe",
  email: "jane@acme.example",
  phone: null,
  linkedin_url: null,
  company: "Acme",
  role: "Buyer",
  city: null,
  kind: ["prospect" as const],
  notes: null,
  dossier_count: 0,
  pool_added_at: "2026-01-10T09:30:00.000Z",
  pool_expires_at: null,
  created_at: "2026-11-22T04:21:26.123Z",
  updated_at: "2026-11-22T04:21:26.123Z",
  metadata: {},
};

describe("C14: the contact form's bodies", () => {
  test("C6: a create sends what was filled in, and no empty field", () => {
    expect(createBody({ ...EMPTY, full_name: "Nora", email: "nora@example.com", city: "  ", kind: ["client"], pool_expires_at: "2027-03-01" })).toEqual({
      full_name: "Nora",
      email: "nora@example.com",
      kind: ["client"],
      pool_expires_at: "2027-03-01T00:00:00.000Z",
    });
  });

  test("C6: an edit with nothing changed sends nothing", () => {
    const base = typedOf(contact);
    expect(patchBody(base, base)).toEqual({});
    expect(base.pool_added_at).toBe("2026-01-10");
  });

  test("C6: an edit sends only what changed: an emptied field is null, the kinds replace", () => {
    const base = typedOf(contact);
    expect(patchBody(base, { ...base, role: "CFO", company: "", kind: ["prospect", "client"], pool_added_at: "" })).toEqual({
      role: "CFO",
      company: null,
      kind: ["prospect", "client"],
      pool_added_at: null,
    });
  });

  test("C10: an emptied full name is sent as typed (the API refuses it beside the field), never as null", () => {
    const base = typedOf(contact);
    expect(patchBody(base, { ...base, full_name: "" })).toEqual({ full_name: "" });
  });
});
