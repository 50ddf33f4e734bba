// Issue 39, point 5: the API's refusals in words for people. The test walks the error catalogue
// (src/errors.ts, every code the API answers, api-v1 "Errors") and fails on a code the console has
// no sentence for; a refusal about a field names the field by its label, never its API name, and a
// missing scope is said in words.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { STATUS_OF } from "../../src/errors";
import { ERROR_WORDS, explain, FIELD_LABELS, SCOPE_WORDS } from "../../src/console/ui/words";
import { SCOPES } from "../../src/console/settings/types";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("issue 39: every API error code has words for people", () => {
  test("each code of the catalogue has a sentence, and the console knows no code the catalogue lacks", () => {
    const catalogue = Object.keys(STATUS_OF).sort();
    const unmapped = catalogue.filter((code) => !(ERROR_WORDS as Record<string, string>)[code]);
    expect(unmapped).toEqual([]);
    expect(Object.keys(ERROR_WORDS).sort()).toEqual(catalogue);
    for (const [code, words] of Object.entries(ERROR_WORDS)) {
      // A sentence: a capital first, a full stop last, no API name in it.
      expect({ code, ok: /^[A-Z].*[.!]$/.test(words) && !/\b[a-z]+_[a-z_]+\b/.test(words) }).toEqual({ code, ok: true });
    }
  });

  test("each code's refusal without a field reads as its sentence, not the API's message", () => {
    for (const code of Object.keys(STATUS_OF)) {
      if (code === "invalid_body" || code === "not_found" || code === "forbidden") continue;
      expect(explain(code, "an API message", null)).toBe((ERROR_WORDS as Record<string, string>)[code]);
    }
  });

  test("every scope has words", () => {
    expect(SCOPES.filter((scope) => !SCOPE_WORDS[scope])).toEqual([]);
  });

  const rows: [string, [string, string, string | null], string][] = [
    ["a field named first in the message", ["invalid_body", "pool_expires_at: must be later than pool_added_at", null], "In the talent pool until: must be later than “In the talent pool from”."],
    ["a field named by param", ["invalid_body", "must be an email address", "email"], "Email: must be an email address."],
    ["a nested field", ["invalid_body", "stages[2].color: must be a #rrggbb colour", null], "Colour: must be a #rrggbb colour."],
    ["a 404 of an id in the body", ["not_found", "flow_id: flow not found", "flow_id"], "Flow: flow not found."],
    ["a duplicate email", ["duplicate_member", "a member with this email already exists", "email"], "Email: a member with this email already exists."],
    ["a missing scope", ["forbidden", "this member's role lacks the scope dossiers:write", null], "Your role does not allow this: it needs permission to change dossiers. Ask an admin if you need it."],
    ["a record gone", ["not_found", "member not found", null], "This member was not found: it may have been deleted."],
    ["wrong credentials", ["invalid_credentials", "wrong email or password", null], "The email or password is wrong."],
  ];
  for (const [what, [code, message, param], words] of rows) {
    test(`${what}: “${words}”`, () => {
      const said = explain(code, message, param);
      expect(said).toBe(words);
      // No API field name is left in the words.
      for (const name of Object.keys(FIELD_LABELS).filter((name) => name.includes("_"))) expect(said).not.toContain(name);
    });
  }
});

test("every query parameter the console sends has a label", async () => {
  const { FIELD_LABELS: labels } = await import("../../src/console/ui/words");
  for (const name of ["stage_id", "flow_id", "assigned_to", "status", "type", "q", "overdue", "updated_since", "contact_id", "page", "per_page"]) expect({ name, label: labels[name] ?? null }).not.toEqual({ name, label: null });
});
