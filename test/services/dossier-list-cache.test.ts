// GET /dossiers remembers whole answers until the organization's dossiers change (src/db/dossier-page.ts,
// issue 6): a repeated list is served from memory, yet every write (through this app, through
// another connection or process on the same file) shows in the very next list, and `overdue`,
// which changes with the clock alone, is never served from memory. Each answer is compared with
// listDossiers, which reads the database every time.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { openContext } from "../../src/context";
import { createContact, deleteContact, writeNewContact, writeContactDeletion } from "../../src/services/contacts";
import { archiveDossier, attachCv, createDossier, listDossiers, listDossiersJson, updateDossier, type ListDossiersQuery } from "../../src/services/dossiers";
import { linkContact, unlinkContact, writeLink, writeUnlink } from "../../src/services/links";
import { dossier as cli } from "../cli/helpers";
import { makeApp, makeOrg, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

async function setup() {
  let clock = Date.parse("2026-11-22T10:00:00.000Z");
  const dataDir = tempDir();
  const app = makeApp({ dataDir, now: () => new Date(clock) });
  const org = await makeOrg(app);
  return { app, ctx: app.dossier, org, dataDir, tick: (ms: number) => (clock += ms) };
}

/** The cached answer equals a fresh read of the database. */
async function expectFresh(ctx: Awaited<ReturnType<typeof setup>>["ctx"], orgId: string, query: ListDossiersQuery) {
  const answer = await listDossiersJson(ctx, orgId, query);
  const fresh = await listDossiers(ctx, orgId, query);
  expect(JSON.parse(answer.json)).toEqual(JSON.parse(JSON.stringify(fresh.data)));
  expect(answer.total).toBe(fresh.total);
  return answer;
}

const FIRST: ListDossiersQuery = { page: 1, perPage: 25 };

describe("remembered GET /dossiers answers", () => {
  test("a repeated list is the remembered answer; every kind of write shows in the next one", async () => {
    const { ctx, org, tick } = await setup();
    const first = await createDossier(ctx, org.id, { type: "candidate", name: "Ada" });
    const a = await expectFresh(ctx, org.id, FIRST);
    expect((await listDossiersJson(ctx, org.id, FIRST))).toBe(a); // served from memory
    expect((await listDossiersJson(ctx, org.id, { page: 1, perPage: 10 }))).not.toBe(a); // another question

    tick(1000);
    await createDossier(ctx, org.id, { type: "sales", name: "Deal" });
    expect((await expectFresh(ctx, org.id, FIRST)).total).toBe(2);
    await updateDossier(ctx, org.id, first.id, { name: "Ada Lovelace" });
    expect((await expectFresh(ctx, org.id, FIRST)).json).toContain("Ada Lovelace");
    await updateDossier(ctx, org.id, first.id, { status: "won" });
    expect((await expectFresh(ctx, org.id, { ...FIRST, status: "won" })).total).toBe(1);
    await archiveDossier(ctx, org.id, first.id);
    expect((await expectFresh(ctx, org.id, FIRST)).total).toBe(1);
    expect((await expectFresh(ctx, org.id, { ...FIRST, status: "won" })).total).toBe(0);
  });

  test("C5, C6, C10: link, unlink, contact delete and a CV upload show in the next list (contact_id, cv_url), though no event is emitted for the first three", async () => {
    const { ctx, org } = await setup();
    const made = await createDossier(ctx, org.id, { type: "candidate", name: "Linked" });
    const row = async () => {
      const answer = await expectFresh(ctx, org.id, FIRST);
      expect((await listDossiersJson(ctx, org.id, FIRST))).toBe(answer); // remembered until the next write
      return JSON.parse(answer.json).find((d: { id: string }) => d.id === made.id);
    };
    const firstContact = made.contact_id!;
    expect((await row()).contact_id).toBe(firstContact);

    const other = await ctx.store.write(() => writeNewContact(ctx, org.id, { full_name: "New primary" }));
    expect((await row()).contact_id).toBe(firstContact); // a new contact alone changes no dossier
    await ctx.store.write(() => writeLink(ctx, org.id, made.id, other.id, "hiring_manager", true));
    expect((await row()).contact_id).toBe(other.id);
    await ctx.store.write(() => writeUnlink(ctx, org.id, made.id, other.id));
    expect((await row()).contact_id).toBeNull();
    await ctx.store.write(() => writeLink(ctx, org.id, made.id, firstContact, "primary", true));
    expect((await row()).contact_id).toBe(firstContact);
    await ctx.store.write(() => writeContactDeletion(ctx, org.id, firstContact));
    expect((await row()).contact_id).toBeNull();

    expect((await row()).cv_url).toBeNull();
    await attachCv(ctx, org.id, made.id, new TextEncoder().encode("%PDF-1.4 cached"));
    expect((await row()).cv_url).toBe(`${org.id}/dossiers/${made.id}/cv.pdf`);
  });

  test("a write through another connection on the same file shows in the next list", async () => {
    const { ctx, org, dataDir } = await setup();
    const made = await createDossier(ctx, org.id, { type: "candidate", name: "Before" });
    await expectFresh(ctx, org.id, FIRST);
    const other = openContext({ dataDir, config: { log: "off" } });
    try {
      await updateDossier(other, org.id, made.id, { name: "After" });
      expect((await expectFresh(ctx, org.id, FIRST)).json).toContain('"name":"After"');
      await createDossier(other, org.id, { type: "candidate", name: "Second" });
      expect((await expectFresh(ctx, org.id, FIRST)).total).toBe(2);
    } finally {
      other.store.sqlite.close();
    }
  });

  test("a write by another process (the dossier CLI) shows in the next list", async () => {
    const { ctx, org, dataDir } = await setup();
    const made = await createDossier(ctx, org.id, { type: "candidate", name: "Flow" });
    const before = await expectFresh(ctx, org.id, FIRST);
    // A new default flow changes no dossier: the list, which reads none of it, stays remembered.
    expect(cli(dataDir, "flow", "create", "--org", org.id, "--type", "candidate", "--name", "New", "--stages", '[{"name":"Only"}]', "--json").code).toBe(0);
    expect((await listDossiersJson(ctx, org.id, FIRST))).toBe(before);
    expect(JSON.parse((await listDossiersJson(ctx, org.id, FIRST)).json)[0].id).toBe(made.id);
    // A dossier made by the CLI is in the very next list.
    expect(cli(dataDir, "seed", "--org", org.id, "--dossiers", "1", "--contacts", "1", "--seed", "1", "--json").code).toBe(0);
    const after = await expectFresh(ctx, org.id, FIRST);
    expect(after).not.toBe(before);
    expect(after.total).toBe(2);
  });

  test("a write in another organization leaves this organization's remembered answer in place", async () => {
    const { app, ctx, org } = await setup();
    await createDossier(ctx, org.id, { type: "candidate", name: "Mine" });
    const mine = await expectFresh(ctx, org.id, FIRST);
    const other = await makeOrg(app, { name: "Other" });
    const theirs = await createDossier(ctx, other.id, { type: "candidate", name: "Theirs" });
    expect((await listDossiersJson(ctx, org.id, FIRST))).toBe(mine);
    await updateDossier(ctx, other.id, theirs.id, { name: "Theirs, renamed" });
    expect((await listDossiersJson(ctx, org.id, FIRST))).toBe(mine);
    expect((await expectFresh(ctx, other.id, FIRST)).json).toContain("Theirs, renamed");
  });

  test("an answer too long to keep (a page of long intake notes) is read again each time, and is the same", async () => {
    const { ctx, org } = await setup();
    for (let i = 0; i < 15; i++) await createDossier(ctx, org.id, { type: "candidate", name: `Long ${i}`, intake_notes: "n".repeat(20_000) });
    const first = await expectFresh(ctx, org.id, FIRST);
    expect(first.json.length).toBeGreaterThan(256_000);
    const again = await expectFresh(ctx, org.id, FIRST);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect((await listDossiersJson(ctx, org.id, { ...FIRST, perPage: 1 }))).toBe((await listDossiersJson(ctx, org.id, { ...FIRST, perPage: 1 })));
  });

  test("overdue is answered from the clock every time, with no write in between", async () => {
    const { ctx, org, tick } = await setup();
    // The first stage of the default candidate flow has a deadline (C4 defaults): due in days.
    const made = await createDossier(ctx, org.id, { type: "candidate", name: "Late" });
    expect(made.stage_due_at).not.toBeNull();
    const query = { ...FIRST, overdue: true };
    expect((await expectFresh(ctx, org.id, query)).total).toBe(0);
    tick(Date.parse(made.stage_due_at!) - Date.parse(made.stage_entered_at!) + 1);
    expect((await expectFresh(ctx, org.id, query)).total).toBe(1);
    expect((await expectFresh(ctx, org.id, { ...FIRST, overdue: false })).total).toBe(0);
  });
});
