// The dossier page's history in words (C18): one sentence per entry kind, ids told by name, and
// general words for an id nothing names.
import { describe as group, expect, setDefaultTimeout, test } from "bun:test";
import type { HistoryEntry } from "../../src/console/dossier/types";
import { describe, duration, type Names } from "../../src/console/dossier/words";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const names: Names = {
  stage: (id) => ({ s1: "Applied", s2: "Interview" })[id],
  member: (id) => ({ m1: "Ada Admin" })[id],
  contact: (id) => ({ c1: "Grace Hopper" })[id],
};

const member = { type: "member", id: "m1", name: "Ada Admin" } as const;
const entry = (kind: HistoryEntry["kind"], changes: HistoryEntry["changes"], actor: HistoryEntry["actor"] = member): HistoryEntry => ({
  at: "2026-11-22T04:21:26.123Z",
  kind,
  actor,
  changes,
});

group("C18: the history in words", () => {
  const rows: [string, HistoryEntry, string][] = [
    ["created in a stage, by a key", entry("created", { name: [null, "X"], current_stage_id: [null, "s1"] }, { type: "key", id: "k", name: "ATS sync" }), "The API key “ATS sync” created it in Applied."],
    ["created by email", entry("created", { name: [null, "X"] }, { type: "email", id: "jobs@example.org", name: null }), "An email from jobs@example.org created it."],
    ["created on the command line", entry("created", {}, { type: "cli", id: "root", name: null }), "root on the command line created it."],
    ["created on the command line by a user it could not tell (issue 39)", entry("created", {}, { type: "cli", id: "unknown", name: null }), "Someone on the server's command line created it."],
    ["no actor", entry("note_added", { note_id: [null, "n"] }, null), "Someone added a note."],
    ["a stage change", entry("stage_changed", { current_stage_id: ["s1", "s2"] }), "Ada Admin moved it from Applied to Interview."],
    ["a stage nothing names", entry("stage_changed", { current_stage_id: ["s1", "gone"] }), "Ada Admin moved it from Applied to another stage."],
    [
      "fields changed, an assignee by name",
      entry("updated", { company: [null, "Acme"], assigned_to: [null, "m1"], status: ["active", "won"] }),
      "Ada Admin changed company from nothing to “Acme”, assignee from nothing to Ada Admin and status from “active” to “won”.",
    ],
    ["a first CV", entry("cv_attached", { cv_url: [null, "a/cv.pdf"] }), "Ada Admin attached a CV."],
    ["a CV replaced", entry("cv_attached", { cv_url: ["a/cv.pdf", "a/cv.pdf"] }), "Ada Admin replaced the CV."],
    ["archived", entry("archived", { status: ["active", "archived"] }), "Ada Admin archived it."],
    ["a contact linked", entry("contact_linked", { contact_id: [null, "c1"], role_on_dossier: [null, "hiring_manager"], is_primary: [null, false] }), "Ada Admin linked Grace Hopper as hiring manager."],
    ["a contact linked as primary", entry("contact_linked", { contact_id: [null, "c1"], role_on_dossier: [null, "primary"], is_primary: [null, true] }), "Ada Admin linked Grace Hopper as primary, the primary contact."],
    ["made primary", entry("contact_linked", { contact_id: ["c1", "c1"], is_primary: [false, true] }), "Ada Admin made Grace Hopper the primary contact."],
    ["another role", entry("contact_linked", { contact_id: ["c1", "c1"], role_on_dossier: ["other", "champion"] }), "Ada Admin made Grace Hopper's role champion."],
    ["unlinked, a contact nothing names", entry("contact_unlinked", { contact_id: ["c9", null] }), "Ada Admin unlinked a contact."],
  ];
  for (const [name, given, words] of rows) test(name, () => expect(describe(given, names)).toBe(words));
});

test("C18: time in a stage in words", () => {
  expect(duration(0.001)).toBe("under an hour");
  expect(duration(0.125)).toBe("3 hours");
  expect(duration(1)).toBe("1 day");
  expect(duration(3.46)).toBe("3.5 days");
});
