// The people of an organization (C12, C20).
//   GET    /members                   every member, disabled ones too; not paginated
//   POST   /members                   add one: 201 with its setup_url
//   PATCH  /members/:id               name, role
//   DELETE /members/:id               disable: its sessions end at once
//   POST   /members/:id/setup-link    a new setup_url (a forgotten password)
// Who may give which role is the service's rule (src/services/members.ts).
import { Type as t } from "@sinclair/typebox";
import { closed, DateTime, List, Nullable, One, Uuid } from "../../schemas/common";
import { createMember, disableMember, listMembers, newSetupLink, updateMember } from "../../services/members";
import type { Site } from "../site";
import { defineRoute } from "../route";
import { all, one } from "../request";

// No schema in src/schemas describes a member yet: these are its shapes, here until one does.
export const MemberRole = t.Union([t.Literal("viewer"), t.Literal("member"), t.Literal("admin"), t.Literal("owner")], {
  description: "viewer: read; member: + write dossiers, contacts, notes; admin: + flows, members, keys, webhooks, events; owner: admin's, and only an owner makes, demotes or removes an owner",
});

const EXAMPLE = {
  id: "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
  organization_id: "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
  email: "ada@example.com",
  name: "Ada Lovelace",
  role: "admin",
  created_at: "2026-11-22T04:21:26.123Z",
  last_sign_in_at: null,
  disabled_at: null,
};

export const Member = t.Object(
  {
    id: Uuid,
    organization_id: Uuid,
    email: t.String({ description: "Unique in the installation, compared case-insensitively" }),
    name: t.String(),
    role: MemberRole,
    created_at: DateTime,
    last_sign_in_at: Nullable(DateTime),
    disabled_at: t.Union([DateTime, t.Null()], { description: "Set once the member is disabled (DELETE): it can no longer sign in" }),
  },
  { ...closed, examples: [EXAMPLE] },
);

const SetupUrl = t.String({
  description: "<base>/console/setup#token=...: sets the member's password; valid 7 days and for one use, voids the member's older links",
  examples: ["https://dossier.example.com/console/setup#token=q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0"],
});

export const NewMember = t.Object(
  { ...Member.properties, setup_url: SetupUrl },
  { ...closed, examples: [{ ...EXAMPLE, setup_url: "https://dossier.example.com/console/setup#token=q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0" }] },
);

export const SetupLink = t.Object({ setup_url: SetupUrl }, closed);

export const CreateMember = t.Object(
  {
    email: t.String({ description: "An email address no member of the installation has (case-insensitively)" }),
    name: t.String({ description: "1 to 200 characters after trimming" }),
    role: MemberRole,
  },
  { ...closed, examples: [{ email: "ada@example.com", name: "Ada Lovelace", role: "member" }] },
);

export const PatchMember = t.Object(
  { name: t.Optional(t.String({ description: "1 to 200 characters after trimming" })), role: t.Optional(MemberRole) },
  { ...closed, examples: [{ role: "admin" }] },
);

const aMember = "The member's id";
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
    handler: ({ ctx, principal }) => all(listMembers(ctx, principal)),
  }),
  defineRoute({
    id: "createMember",
    method: "POST",
    path: "/members",
    summary: "Add a member",
    tag: "Members",
    description: `The answer carries the member's setup_url, shown once (only its hash is kept). ${whoGives}`,
    scopes: ["members:manage"],
    body: CreateMember,
    responses: { 201: { schema: One(NewMember), description: "The member was added, with no password yet: its setup_url lets it choose one" } },
    errors: ["duplicate_member"],
    handler: async ({ ctx, principal, body }) => one(await createMember(ctx, principal, body, site.base)),
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
    responses: { 200: { schema: One(Member), description: "The member, disabled (disabling again changes nothing)" } },
    errors: ["last_owner"],
    handler: async ({ ctx, principal, params }) => one(await disableMember(ctx, principal, params.id)),
  }),
  defineRoute({
    id: "createSetupLink",
    method: "POST",
    path: "/members/:id/setup-link",
    summary: "Give a member a new setup link",
    tag: "Members",
    description: `For a forgotten password: the new link voids the member's older ones. ${whoGives}`,
    scopes: ["members:manage"],
    params: { id: aMember },
    responses: { 200: { schema: One(SetupLink), description: "The new setup_url, shown once" } },
    handler: async ({ ctx, principal, params }) => one(await newSetupLink(ctx, principal, params.id, site.base)),
  }),
];
