// The people of an organization (C12, C20).
//   GET    /members                   every member, disabled ones too; not paginated
//   POST   /members                   add one: 201 with its setup_url
//   PATCH  /members/:id               name, role
//   DELETE /members/:id               disable: its sessions end at once
//   POST   /members/:id/setup-link    a new setup_url (a forgotten password)
// Who may give which role is the service's rule (src/services/members.ts).
import { List, One } from "../../schemas/common";
import { createMember, disableMember, listMembers, newSetupLink, requireMember, updateMember } from "../../services/members";
import { CreateMember, Member, NewMember, PatchMember, SetupLink } from "../../schemas/members";
import { all, one } from "../request";
import { defineRoute, type Reply } from "../route";
import type { Site } from "../site";

const aMember = "The member's id (another organization's is unknown: 404)";

/** An answer that carries a setup_url, shown once: no cache keeps it. */
function secret<T>(set: Reply, data: T) {
  set.headers["cache-control"] = "no-store";
  return one(data);
}

const whoGives =
  "Giving a role or a setup link needs, besides `members:manage`, every scope of the member's current and new role; only an owner (not a key) makes, demotes, removes an owner or gives one a setup link: else 403 forbidden.";

export const memberRoutes = (site: Site) => [
  defineRoute({
    id: "listMembers",
    method: "GET",
    path: "/members",
    summary: "List the organization's members",
    tag: "Members",
    description: "Disabled members too, with disabled_at set. Not paginated: meta is {total: n, page: 1, per_page: n}. Any signed-in member may list; a key needs `members:manage`.",
    scopes: [],
    responses: { 200: { schema: List(Member), description: "Every member of the organization, disabled ones included" } },
    handler: async ({ ctx, principal }) => all((await listMembers(ctx, principal))),
  }),
  defineRoute({
    id: "createMember",
    location: (created) => `/members/${created.id}`,
    // The answer shows a secret once: never stored for a replay (C20), so Idempotency-Key is ignored.
    secret: true,
    method: "POST",
    path: "/members",
    summary: "Add a member",
    tag: "Members",
    description: `The answer carries the member's setup_url, shown once (only its hash is kept). ${whoGives}`,
    scopes: ["members:manage"],
    body: CreateMember,
    responses: { 201: { schema: One(NewMember), description: "The member was added, with no password yet: its setup_url lets it choose one" } },
    errors: ["duplicate_member"],
    handler: async ({ ctx, principal, body, set }) => secret(set, await createMember(ctx, principal, body, site.base)),
  }),
  defineRoute({
    id: "updateMember",
    method: "PATCH",
    path: "/members/:id",
    summary: "Rename a member or change its role",
    tag: "Members",
    description: `A new role takes effect on the member's next request. ${whoGives} The organization keeps an owner (409 last_owner).`,
    scopes: ["members:manage"],
    params: { id: aMember },
    load: ({ ctx, principal, params }) => requireMember(ctx, principal.organizationId, params.id),
    body: PatchMember,
    responses: { 200: { schema: One(Member), description: "The member as it now is" } },
    errors: ["last_owner"],
    handler: async ({ ctx, principal, params, body }) => one(await updateMember(ctx, principal, params.id, body)),
  }),
  defineRoute({
    id: "disableMember",
    method: "DELETE",
    path: "/members/:id",
    summary: "Disable a member",
    tag: "Members",
    description: `Its sessions end at once and its setup links stop working; the record stays, so that assigned_to and history keep resolving. ${whoGives} The organization keeps an owner (409 last_owner).`,
    scopes: ["members:manage"],
    params: { id: aMember },
    load: ({ ctx, principal, params }) => requireMember(ctx, principal.organizationId, params.id),
    responses: { 200: { schema: One(Member), description: "The member, disabled (disabling again changes nothing)" } },
    errors: ["last_owner"],
    handler: async ({ ctx, principal, params }) => one(await disableMember(ctx, principal, params.id)),
  }),
  defineRoute({
    id: "createSetupLink",
    // The answer shows a secret once: never stored for a replay (C20), so Idempotency-Key is ignored.
    secret: true,
    method: "POST",
    path: "/members/:id/setup-link",
    summary: "Give a member a new setup link",
    tag: "Members",
    description: `For a forgotten password: the new link voids the member's older ones. ${whoGives}`,
    scopes: ["members:manage"],
    params: { id: aMember },
    load: ({ ctx, principal, params }) => requireMember(ctx, principal.organizationId, params.id),
    responses: { 200: { schema: One(SetupLink), description: "The new setup_url, shown once" } },
    handler: async ({ ctx, principal, params, set }) => secret(set, await newSetupLink(ctx, principal, params.id, site.base)),
  }),
];
