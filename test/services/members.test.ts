// C12, C20: members, roles and who may give them, setup links; the services beneath the member
// routes. Rules are rows: each row gets its own organization with one member of each role.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { ApiError } from "../../src/errors";
import {
  ALL_SCOPES,
  createMember,
  disableMember,
  listMembers,
  newSetupLink,
  operator,
  ROLE_SCOPES,
  updateMember,
  type Actor,
  type Member,
  type Role,
} from "../../src/services/members";
import { redeemSetupLink, sessionOf, signIn } from "../../src/services/sessions";
import { makeOrg } from "../helpers";
import { ENGINES, queryRows, rowCountsOf, sharedApp } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BASE = "https://dossier.example";
// C12's table, with C22's tasks:read (viewer and up), tasks:write (member and up), mail:read (admins).
const VIEWER = ["dossiers:read", "contacts:read", "flows:read", "notes:read", "tasks:read"];
const MEMBER = [...VIEWER, "dossiers:write", "contacts:write", "notes:write", "tasks:write"];
const ADMIN = [...MEMBER, "flows:write", "members:manage", "keys:manage", "webhooks:manage", "events:read", "mail:read"];

test("C12: each role grants exactly its scopes", () => {
  const sorted = (scopes: Iterable<string>) => [...scopes].sort();
  expect(sorted(ROLE_SCOPES.viewer)).toEqual(sorted(VIEWER));
  expect(sorted(ROLE_SCOPES.member)).toEqual(sorted(MEMBER));
  expect(sorted(ROLE_SCOPES.admin)).toEqual(sorted(ADMIN));
  expect(sorted(ROLE_SCOPES.owner)).toEqual(sorted(ADMIN));
  expect(sorted(ALL_SCOPES)).toEqual(sorted(ADMIN));
});

let serial = 0;
const email = (what: string) => `${what}-${++serial}@members.example`;

/** An organization with one member of each role (and a second owner when asked). */
async function team(app: DossierApp<Store>, options: { owners?: number } = {}) {
  const org = await makeOrg(app);
  const ctx = app.dossier;
  const by = operator(org.id);
  const make = (role: Role, name: string = role) => createMember(ctx, by, { email: email(role), name, role }, BASE);
  const members: Record<Role, Member & { setup_url: string }> = {
    owner: await make("owner"),
    admin: await make("admin"),
    member: await make("member"),
    viewer: await make("viewer"),
  };
  const second = (options.owners ?? 1) > 1 ? await make("owner", "Second owner") : null;
  // A member of another organization, made with the fixtures so that a refusal's row counts hold.
  const elsewhere = await makeOrg(app);
  const stranger = await createMember(ctx, operator(elsewhere.id), { email: email("stranger"), name: "Stranger", role: "admin" }, BASE);
  return { org, members, second, stranger };
}

type Team = Awaited<ReturnType<typeof team>>;

/** Who acts in a row: a member of that role, a key with exactly these scopes, or the operator. */
type As = Role | string[] | "operator";

function actorOf(t: Team, as: As): Actor {
  if (as === "operator") return operator(t.org.id);
  if (Array.isArray(as)) return { kind: "key", organizationId: t.org.id, keyId: "key", scopes: new Set(as) };
  return { kind: "member", organizationId: t.org.id, memberId: t.members[as].id, role: as };
}

interface Row {
  name: string;
  as: As;
  owners?: number;
  act(app: DossierApp<Store>, actor: Actor, t: Team): Promise<unknown>;
  /** An error code, or "ok" with an optional partial match of the result. */
  expect: string;
  result?: (t: Team) => Record<string, unknown>;
}

async function outcome(run: () => Promise<unknown>): Promise<{ code: string; status: number; value?: unknown }> {
  try {
    return { code: "ok", status: 200, value: await run() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { code: error.code, status: error.status };
  }
}

const STATUS: Record<string, number> = { ok: 200, invalid_body: 400, forbidden: 403, not_found: 404, duplicate_member: 409, last_owner: 409 };

/** One test per row, on a shared app: a refusal changes no row of any table. */
function rules(title: string, rows: Row[]) {
  describe.each(ENGINES)(`${title} on %s`, (engine) => {
    for (const row of rows) {
      test(row.name, async () => {
        const app = await sharedApp(engine);
        const t = await team(app, { owners: row.owners });
        const before = await rowCountsOf(app);
        const got = await outcome(() => row.act(app, actorOf(t, row.as), t));
        expect({ code: got.code, status: got.status }).toEqual({ code: row.expect, status: STATUS[row.expect] });
        if (row.expect !== "ok") expect(await rowCountsOf(app)).toEqual(before);
        if (row.result) expect(got.value).toMatchObject(row.result(t));
      });
    }
  });
}

const create = (role: unknown, mail?: string) => (app: DossierApp<Store>, actor: Actor) =>
  createMember(app.dossier, actor, { email: mail ?? email("new"), name: "New Person", role }, BASE);

rules("createMember: C12, C20 'who may give a role'", [
  { name: "an owner makes an owner", as: "owner", act: create("owner"), expect: "ok", result: () => ({ role: "owner", setup_url: expect.stringMatching(/^https:\/\/dossier\.example\/console\/setup#token=[A-Za-z0-9_-]{43}$/) }) },
  { name: "an admin makes an admin", as: "admin", act: create("admin"), expect: "ok" },
  { name: "an admin cannot make an owner: 403", as: "admin", act: create("owner"), expect: "forbidden" },
  { name: "a member (no members:manage) cannot make a viewer: 403", as: "member", act: create("viewer"), expect: "forbidden" },
  { name: "a viewer cannot make anyone: 403", as: "viewer", act: create("viewer"), expect: "forbidden" },
  { name: "a key with members:manage alone can make no member, not even a viewer: 403", as: ["members:manage"], act: create("viewer"), expect: "forbidden" },
  { name: "a key with members:manage and a viewer's scopes makes a viewer", as: ["members:manage", ...VIEWER], act: create("viewer"), expect: "ok" },
  { name: "the same key cannot make a member (it lacks dossiers:write): 403", as: ["members:manage", ...VIEWER], act: create("member"), expect: "forbidden" },
  { name: "a key with every scope makes an admin", as: [...ALL_SCOPES], act: create("admin"), expect: "ok" },
  { name: "a key with every scope cannot make an owner: 403", as: [...ALL_SCOPES], act: create("owner"), expect: "forbidden" },
  { name: "the operator makes an owner", as: "operator", act: create("owner"), expect: "ok" },
  { name: "an unknown role: 400", as: "owner", act: create("king"), expect: "invalid_body" },
  { name: "a malformed email: 400", as: "owner", act: create("viewer", "not-an-email"), expect: "invalid_body" },
  { name: "C3 order: without members:manage a bad body is still 403", as: "viewer", act: create("king"), expect: "forbidden" },
  { name: "C20: an email a member has, in another case: 409 duplicate_member", as: "owner", act: (app, actor, t) => create("viewer", t.members.viewer.email.toUpperCase())(app, actor), expect: "duplicate_member" },
  {
    name: "C20: an email a member of another organization has: 409 duplicate_member",
    as: "owner",
    act: (app, actor, t) => create("viewer", t.stranger.email)(app, actor),
    expect: "duplicate_member",
  },
]);

const patch = (who: Role | "second", change: { name?: unknown; role?: unknown }) => (app: DossierApp<Store>, actor: Actor, t: Team) =>
  updateMember(app.dossier, actor, who === "second" ? t.second!.id : t.members[who].id, change);

rules("updateMember: C12, C20", [
  { name: "an admin renames a viewer", as: "admin", act: patch("viewer", { name: "  Vera  " }), expect: "ok", result: () => ({ name: "Vera", role: "viewer" }) },
  { name: "an admin makes a member an admin", as: "admin", act: patch("member", { role: "admin" }), expect: "ok", result: () => ({ role: "admin" }) },
  { name: "an admin cannot make a member an owner: 403", as: "admin", act: patch("member", { role: "owner" }), expect: "forbidden" },
  { name: "an admin cannot demote an owner (one of two): 403", as: "admin", owners: 2, act: patch("owner", { role: "admin" }), expect: "forbidden" },
  { name: "C20: a non-owner acting on the last owner: 403 before last_owner", as: "admin", act: patch("owner", { role: "viewer" }), expect: "forbidden" },
  { name: "the last owner cannot demote itself: 409 last_owner", as: "owner", act: patch("owner", { role: "admin" }), expect: "last_owner" },
  { name: "the operator cannot demote the last owner either: 409 last_owner", as: "operator", act: patch("owner", { role: "member" }), expect: "last_owner" },
  { name: "one of two owners demotes the other", as: "owner", owners: 2, act: patch("second", { role: "admin" }), expect: "ok", result: () => ({ role: "admin" }) },
  { name: "an owner makes an admin an owner", as: "owner", act: patch("admin", { role: "owner" }), expect: "ok", result: () => ({ role: "owner" }) },
  { name: "a key with every scope cannot make an owner: 403", as: [...ALL_SCOPES], act: patch("admin", { role: "owner" }), expect: "forbidden" },
  { name: "a key with members:manage and a member's scopes cannot make a member an admin: 403", as: ["members:manage", ...MEMBER], act: patch("member", { role: "admin" }), expect: "forbidden" },
  { name: "a key with members:manage and a member's scopes cannot demote an admin to viewer: 403", as: ["members:manage", ...MEMBER], act: patch("admin", { role: "viewer" }), expect: "forbidden" },
  { name: "a member (no members:manage) cannot rename anyone: 403", as: "member", act: patch("viewer", { name: "X" }), expect: "forbidden" },
  { name: "an unknown role: 400", as: "owner", act: patch("viewer", { role: "king" }), expect: "invalid_body" },
  { name: "an empty name: 400", as: "owner", act: patch("viewer", { name: "   " }), expect: "invalid_body" },
  { name: "an unknown member: 404", as: "owner", act: (app, actor) => updateMember(app.dossier, actor, crypto.randomUUID(), { name: "X" }), expect: "not_found" },
  {
    name: "another organization's member: 404",
    as: "owner",
    act: (app, actor, t) => updateMember(app.dossier, actor, t.stranger.id, { name: "X" }),
    expect: "not_found",
  },
]);

const remove = (who: Role | "second") => (app: DossierApp<Store>, actor: Actor, t: Team) =>
  disableMember(app.dossier, actor, who === "second" ? t.second!.id : t.members[who].id);

rules("disableMember: C12, C20", [
  { name: "an admin disables a member", as: "admin", act: remove("member"), expect: "ok", result: () => ({ role: "member", disabled_at: expect.any(String) }) },
  { name: "a key with members:manage disables a viewer", as: ["members:manage"], act: remove("viewer"), expect: "ok" },
  { name: "an admin cannot remove an owner (one of two): 403", as: "admin", owners: 2, act: remove("owner"), expect: "forbidden" },
  { name: "a key with every scope cannot remove an owner: 403", as: [...ALL_SCOPES], owners: 2, act: remove("owner"), expect: "forbidden" },
  { name: "the last owner cannot be removed: 409 last_owner", as: "owner", act: remove("owner"), expect: "last_owner" },
  { name: "one of two owners removes the other", as: "owner", owners: 2, act: remove("second"), expect: "ok" },
  { name: "a viewer cannot remove anyone: 403", as: "viewer", act: remove("viewer"), expect: "forbidden" },
]);

const link = (who: Role) => (app: DossierApp<Store>, actor: Actor, t: Team) => newSetupLink(app.dossier, actor, t.members[who].id, BASE);

rules("newSetupLink: C20 'a setup link for an owner', 'who may give a role or a setup link'", [
  { name: "an admin gives a member a new link", as: "admin", act: link("member"), expect: "ok", result: () => ({ setup_url: expect.stringContaining(`${BASE}/console/setup#token=`) }) },
  { name: "an owner gives an owner a new link", as: "owner", act: link("owner"), expect: "ok" },
  { name: "an admin cannot give an owner a link (it would take the owner's account): 403", as: "admin", act: link("owner"), expect: "forbidden" },
  { name: "a key with every scope cannot give an owner a link: 403", as: [...ALL_SCOPES], act: link("owner"), expect: "forbidden" },
  { name: "a key with members:manage alone cannot give a viewer a link: 403", as: ["members:manage"], act: link("viewer"), expect: "forbidden" },
  { name: "the operator gives an owner a link (the CLI's way back in)", as: "operator", act: link("owner"), expect: "ok" },
]);

describe.each(ENGINES)("listMembers: C12, C20 on %s", (engine) => {
  test("any signed-in role lists every member, disabled ones too; a key needs members:manage", async () => {
    const app = await sharedApp(engine);
    const t = await team(app);
    await disableMember(app.dossier, operator(t.org.id), t.members.member.id);
    const listed = await listMembers(app.dossier, actorOf(t, "viewer"));
    expect(listed.map((m) => [m.role, m.disabled_at === null])).toEqual([["owner", true], ["admin", true], ["member", false], ["viewer", true]]);
    expect(Object.keys(listed[0]).sort()).toEqual(["created_at", "disabled_at", "email", "id", "last_sign_in_at", "name", "organization_id", "role"]);
    expect((await listMembers(app.dossier, actorOf(t, ["members:manage"])))).toHaveLength(4);
    expect(() => listMembers(app.dossier, actorOf(t, [...VIEWER]))).toThrow(ApiError);
    const other = await team(app);
    expect((await listMembers(app.dossier, actorOf(other, "owner"))).map((m) => m.id)).not.toContain(t.members.owner.id);
  });

  test("C20: emails are stored as given", async () => {
    const app = await sharedApp(engine);
    const org = await makeOrg(app);
    const made = await createMember(app.dossier, operator(org.id), { email: `Mixed.Case-${++serial}@Members.Example`, name: "Mixed", role: "viewer" }, BASE);
    expect(made.email).toMatch(/^Mixed\.Case-\d+@Members\.Example$/);
  });
});

describe.each(ENGINES)("disabling and links: what they do to sessions and older links on %s", (engine) => {
  const tokenOf = (url: string) => url.slice(url.indexOf("#token=") + 7);
  const PASSWORD = "correct horse battery";

  test("C12: disabling ends the member's sessions at once; the row stays; disabling again keeps the first time", async () => {
    const app = await sharedApp(engine);
    const t = await team(app);
    const ctx = app.dossier;
    const signedIn = await redeemSetupLink(ctx, { token: tokenOf(t.members.member.setup_url), password: PASSWORD });
    const again = await signIn(ctx, { email: t.members.member.email, password: PASSWORD }, "192.0.2.1");
    expect((await sessionOf(ctx, signedIn.token))?.memberId).toBe(t.members.member.id);
    const disabled = await disableMember(ctx, actorOf(t, "admin"), t.members.member.id);
    expect((await sessionOf(ctx, signedIn.token))).toBeNull();
    expect((await sessionOf(ctx, again.token))).toBeNull();
    expect(await queryRows(app, "SELECT id FROM sessions WHERE member_id = ?", t.members.member.id)).toEqual([]);
    expect((await ctx.store.members.byId(t.org.id, t.members.member.id))?.disabledAt).toBe(disabled.disabled_at);
    expect((await disableMember(ctx, actorOf(t, "admin"), t.members.member.id)).disabled_at).toBe(disabled.disabled_at);
    await expect(signIn(ctx, { email: t.members.member.email, password: PASSWORD }, "192.0.2.1")).rejects.toMatchObject({ code: "invalid_credentials" });
  });

  test("C20: a new link voids the member's older ones; a disabled member's link is invalid", async () => {
    const app = await sharedApp(engine);
    const t = await team(app);
    const ctx = app.dossier;
    const first = tokenOf(t.members.viewer.setup_url);
    const second = tokenOf((await newSetupLink(ctx, actorOf(t, "admin"), t.members.viewer.id, BASE)).setup_url);
    await expect(redeemSetupLink(ctx, { token: first, password: PASSWORD })).rejects.toMatchObject({ code: "invalid_setup_link", status: 400 });
    const third = tokenOf((await newSetupLink(ctx, actorOf(t, "admin"), t.members.viewer.id, BASE)).setup_url);
    await expect(redeemSetupLink(ctx, { token: second, password: PASSWORD })).rejects.toMatchObject({ code: "invalid_setup_link" });
    const memberLink = tokenOf(t.members.member.setup_url);
    await disableMember(ctx, actorOf(t, "admin"), t.members.member.id);
    await expect(redeemSetupLink(ctx, { token: memberLink, password: PASSWORD })).rejects.toMatchObject({ code: "invalid_setup_link" });
    expect((await redeemSetupLink(ctx, { token: third, password: PASSWORD })).member.id).toBe(t.members.viewer.id);
  });

  test("C12: a setup link is stored only as a hash", async () => {
    const app = await sharedApp(engine);
    const t = await team(app);
    const token = tokenOf(t.members.viewer.setup_url);
    const dump = await queryRows<{ token_hash: string }>(app, "SELECT * FROM setup_links");
    expect(JSON.stringify(dump)).not.toContain(token);
    expect(dump.map((r) => r.token_hash)).toContain(new Bun.CryptoHasher("sha256").update(token).digest("hex"));
  });
});
