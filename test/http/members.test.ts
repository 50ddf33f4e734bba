// C12, C20 over HTTP: each role (signed in by the session cookie, with its CSRF header) and keys
// against each member route, and the role's scopes on the other routes, as rows.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createMember, operator, type Role } from "../../src/services/members";
import { call, makeOrg } from "../helpers";
import { refused, scenarios, signedInMember, type World } from "../helpers/scenario";
import { ENGINES, appOn, rowCountsOf } from "../helpers/stores";
import type { Store } from "../../src/db/store";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BASE = "http://127.0.0.1:8080";
let serial = 0;
const email = (what: string) => `${what}-${++serial}-${crypto.randomUUID().slice(0, 6)}@members.example`;

const memberOf = async ({ app, org }: World<Store>, role: Role) =>
  createMember(app.dossier, operator(org.id), { email: email(role), name: `The ${role}`, role }, BASE);

async function fixtures(world: World<Store>) {
  return {
    // A member and an owner besides the sender (so an owner sender is never the last owner).
    target: await memberOf(world, "member"),
    boss: await memberOf(world, "owner"),
    theirs: await createMember(world.app.dossier, operator(world.other.id), { email: email("theirs"), name: "Theirs", role: "member" }, BASE),
  };
}

const newMember = (role: Role) => () => ({ email: email("new"), name: "New one", role });
const MEMBER = { data: { id: expect.any(String), role: expect.any(String), disabled_at: null } };

describe.each(ENGINES)("members on %s", (engine) => {
  scenarios("C12 member routes: each role and key (allowed or 403)", fixtures, [
    // GET /members: any signed-in role; a key needs members:manage.
    ...(["viewer", "member", "admin", "owner"] as const).map((as) => ({
      name: `C12: GET /members as ${as} → 200, disabled members too, not paginated`,
      as,
      method: "GET" as const,
      path: "/members",
      status: 200,
      json: { data: expect.arrayContaining([expect.objectContaining({ role: "owner" })]), meta: { page: 1 } },
    })),
    { name: "C12: GET /members with a key lacking members:manage → 403", as: ["dossiers:read"], method: "GET", path: "/members", status: 403, json: refused("forbidden") },
    { name: "C12: GET /members with a key holding members:manage → 200", as: ["members:manage"], method: "GET", path: "/members", status: 200 },
    { name: "C3: GET /members without key or cookie → 401", as: "no key", method: "GET", path: "/members", status: 401, json: refused("unauthorized") },
    { name: "C12: GET /members of a free organization's session → 402", as: "free plan", method: "GET", path: "/members", status: 402, json: refused("plan_required") },

    // POST /members
    ...(["viewer", "member"] as const).map((as) => ({
      name: `C12: POST /members as ${as} → 403 forbidden`,
      as,
      method: "POST" as const,
      path: "/members",
      body: newMember("viewer"),
      status: 403,
      json: refused("forbidden"),
    })),
    { name: "C20: an admin makes an admin → 201 with setup_url", as: "admin", method: "POST", path: "/members", body: newMember("admin"), status: 201, json: { data: { role: "admin", setup_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8080\/console\/setup#token=[A-Za-z0-9_-]{43}$/) } } },
    { name: "C20: an admin cannot make an owner → 403", as: "admin", method: "POST", path: "/members", body: newMember("owner"), status: 403, json: refused("forbidden") },
    { name: "C20: an owner makes an owner → 201", as: "owner", method: "POST", path: "/members", body: newMember("owner"), status: 201, json: { data: { role: "owner" } } },
    { name: "C20: a key with every scope cannot make an owner → 403", method: "POST", path: "/members", body: newMember("owner"), status: 403, json: refused("forbidden") },
    { name: "C20 attack: a key with members:manage alone cannot make even a viewer → 403", as: ["members:manage"], method: "POST", path: "/members", body: newMember("viewer"), status: 403, json: refused("forbidden") },
    { name: "C20 attack: a key with members:manage and the viewer's scopes cannot make an admin → 403", as: ["members:manage", "dossiers:read", "contacts:read", "flows:read", "notes:read"], method: "POST", path: "/members", body: newMember("admin"), status: 403, json: refused("forbidden") },
    { name: "C20: the same email again, in another case → 409 duplicate_member", as: "admin", method: "POST", path: "/members", body: ({ theirs }) => ({ email: theirs.email.toUpperCase(), name: "Again", role: "viewer" }), status: 409, json: refused("duplicate_member") },
    { name: "C3: POST /members with an unknown field → 400 naming it", as: "admin", method: "POST", path: "/members", body: { email: "x@example.com", name: "X", role: "viewer", admin: true }, status: 400, json: refused("invalid_body", "admin") },
    { name: "C12: POST /members with an unknown role → 400", as: "admin", method: "POST", path: "/members", body: { email: "x@example.com", name: "X", role: "god" }, status: 400, json: refused("invalid_body", "role") },

    // PATCH /members/{id}
    ...(["viewer", "member"] as const).map((as) => ({
      name: `C12: PATCH /members/{id} as ${as} → 403`,
      as,
      method: "PATCH" as const,
      path: "/members/{target}",
      body: { name: "Renamed" },
      status: 403,
      json: refused("forbidden"),
    })),
    ...(["admin", "owner"] as const).map((as) => ({
      name: `C12: PATCH /members/{id} as ${as} → 200`,
      as,
      method: "PATCH" as const,
      path: "/members/{target}",
      body: { name: "Renamed", role: "admin" },
      status: 200,
      json: { data: { name: "Renamed", role: "admin" } },
    })),
    { name: "C20: an admin cannot demote an owner → 403", as: "admin", method: "PATCH", path: "/members/{boss}", body: { role: "member" }, status: 403, json: refused("forbidden") },
    { name: "C20: an admin cannot promote to owner → 403", as: "admin", method: "PATCH", path: "/members/{target}", body: { role: "owner" }, status: 403, json: refused("forbidden") },
    { name: "C20: an owner demotes another owner → 200", as: "owner", method: "PATCH", path: "/members/{boss}", body: { role: "admin" }, status: 200, json: { data: { role: "admin" } } },
    { name: "C20: a key cannot demote an owner, whatever its scopes → 403", method: "PATCH", path: "/members/{boss}", body: { role: "member" }, status: 403, json: refused("forbidden") },
    { name: "C3: another organization's member → 404", as: "admin", method: "PATCH", path: "/members/{theirs}", body: { name: "Mine" }, status: 404, json: refused("not_found") },
    { name: "C3: an unknown member with a bad body → 404 before 400", as: "admin", method: "PATCH", path: "/members/{theirs}", body: { name: 3 }, status: 404, json: refused("not_found") },
    { name: "C3: a malformed id → 404", as: "admin", method: "PATCH", path: "/members/nope", body: { name: "Mine" }, status: 404, json: refused("not_found") },
    { name: "Tenancy: another organization's member cannot be disabled → 404", as: "owner", method: "DELETE", path: "/members/{theirs}", status: 404, json: refused("not_found") },
    { name: "Tenancy: nor given a setup link → 404", as: "owner", method: "POST", path: "/members/{theirs}/setup-link", status: 404, json: refused("not_found") },
    { name: "Tenancy: nor by a key → 404", method: "PATCH", path: "/members/{theirs}", body: { role: "viewer" }, status: 404, json: refused("not_found") },
    {
      name: "Tenancy: GET /members lists only the organization's own",
      as: "viewer",
      method: "GET",
      path: "/members",
      status: 200,
      json: ({ org }) => ({ data: expect.not.arrayContaining([expect.not.objectContaining({ organization_id: org.id })]) }),
    },

    // DELETE /members/{id}
    ...(["viewer", "member"] as const).map((as) => ({
      name: `C12: DELETE /members/{id} as ${as} → 403`,
      as,
      method: "DELETE" as const,
      path: "/members/{target}",
      status: 403,
      json: refused("forbidden"),
    })),
    { name: "C12: DELETE /members/{id} as admin → 200, disabled", as: "admin", method: "DELETE", path: "/members/{target}", status: 200, json: { data: { disabled_at: expect.any(String) } } },
    { name: "C20: an admin cannot remove an owner → 403", as: "admin", method: "DELETE", path: "/members/{boss}", status: 403, json: refused("forbidden") },
    { name: "C20: an owner removes another owner → 200", as: "owner", method: "DELETE", path: "/members/{boss}", status: 200, json: { data: { role: "owner", disabled_at: expect.any(String) } } },

    // POST /members/{id}/setup-link
    ...(["viewer", "member"] as const).map((as) => ({
      name: `C12: POST /members/{id}/setup-link as ${as} → 403`,
      as,
      method: "POST" as const,
      path: "/members/{target}/setup-link",
      status: 403,
      json: refused("forbidden"),
    })),
    { name: "C20: POST /members/{id}/setup-link as admin → 200 {setup_url}", as: "admin", method: "POST", path: "/members/{target}/setup-link", status: 200, json: { data: { setup_url: expect.stringContaining("/console/setup#token=") } } },
    { name: "C20 attack: an admin cannot take an owner's account by a setup link → 403", as: "admin", method: "POST", path: "/members/{boss}/setup-link", status: 403, json: refused("forbidden") },
    { name: "C20 attack: a key cannot take an owner's account by a setup link → 403", method: "POST", path: "/members/{boss}/setup-link", status: 403, json: refused("forbidden") },
    { name: "C20: an owner gives an owner a setup link → 200", as: "owner", method: "POST", path: "/members/{boss}/setup-link", status: 200, json: { data: { setup_url: expect.any(String) } } },

    // The role's scopes on the other routes, checked exactly as a key's.
    { name: "C12: a viewer reads dossiers → 200", as: "viewer", method: "GET", path: "/dossiers", status: 200 },
    { name: "C12: a viewer cannot create a contact → 403", as: "viewer", method: "POST", path: "/contacts", body: { full_name: "Ada" }, status: 403, json: refused("forbidden") },
    { name: "C12: a member creates a contact → 201", as: "member", method: "POST", path: "/contacts", body: { full_name: "Ada" }, status: 201, json: { data: { full_name: "Ada" } } },
    { name: "C12: a viewer reads flows → 200", as: "viewer", method: "GET", path: "/flows", status: 200 },
    // Keys made by people (C13, C20): a role's scopes bound what it can grant, as a key's do.
    { name: "C13: an admin makes a key → 201, shown once", as: "admin", method: "POST", path: "/keys", body: { scopes: ["dossiers:read", "members:manage"] }, status: 201, json: { data: { key: expect.stringMatching(/^svc_live_/) } } },
    { name: "C13: a member (no keys:manage) cannot make a key → 403", as: "member", method: "POST", path: "/keys", body: { scopes: ["dossiers:read"] }, status: 403, json: refused("forbidden") },
    { name: "C20 attack: a key with keys:manage cannot make a key with a scope it lacks → 403", as: ["keys:manage", "dossiers:read"], method: "POST", path: "/keys", body: { scopes: ["dossiers:read", "members:manage"] }, status: 403, json: refused("forbidden") },
  ], { engine });

  describe("C12: an organization keeps an owner", async () => {
    const app = await appOn(engine);

    test("C12: the last owner cannot demote or remove itself (409 last_owner), and nothing changes", async () => {
      const org = await makeOrg(app);
      const owner = await signedInMember(app, org.id, "owner");
      const before = await rowCountsOf(app);
      const demote = await call(app, "PATCH", `/members/${owner.id}`, { headers: owner.headers, body: { role: "admin" } });
      expect(demote.status).toBe(409);
      expect(demote.json.error.code).toBe("last_owner");
      const remove = await call(app, "DELETE", `/members/${owner.id}`, { headers: owner.headers });
      expect(remove.status).toBe(409);
      expect(remove.json.error.code).toBe("last_owner");
      expect(await rowCountsOf(app)).toEqual(before);
      const still = await call(app, "GET", "/session", { headers: owner.headers });
      expect(still.json.data.member.role).toBe("owner");
    });

    test("C20: a key acting on the last owner gets 403 (the role is checked before last_owner)", async () => {
      const org = await makeOrg(app);
      const owner = await signedInMember(app, org.id, "owner");
      const answer = await call(app, "DELETE", `/members/${owner.id}`, { key: org.key });
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe("forbidden");
    });

    test("C20: a role change takes effect on the session's next request", async () => {
      const org = await makeOrg(app);
      const admin = await signedInMember(app, org.id, "admin");
      const other = await signedInMember(app, org.id, "member");
      expect((await call(app, "POST", "/contacts", { headers: other.headers, body: { full_name: "Before" } })).status).toBe(201);
      const demoted = await call(app, "PATCH", `/members/${other.id}`, { headers: admin.headers, body: { role: "viewer" } });
      expect(demoted.status).toBe(200);
      const after = await call(app, "POST", "/contacts", { headers: other.headers, body: { full_name: "After" } });
      expect(after.status).toBe(403);
      expect(after.json.error.code).toBe("forbidden");
    });
  });
});
