// Members: the people of an organization who sign in, their roles and setup links (C12, C20).
// The rules of who may do what live here; src/db/members.ts only reads and writes rows.
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import type { Role } from "../db/members";
import type { MemberRow } from "../db/schema";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { isEmailAddress } from "../schemas/contacts";
import type { Member as MemberSchema } from "../schemas/members";
import { SCOPES } from "./keys";
import { hashToken, randomToken } from "./passwords";

export type { Role };

export const ROLES: Role[] = ["viewer", "member", "admin", "owner"];

/** Every scope a role can hold: every scope a key can hold (C12: `--scopes all` includes them). */
export const ALL_SCOPES = SCOPES;

const VIEWER = ["dossiers:read", "contacts:read", "flows:read", "notes:read", "tasks:read"];
const MEMBER = [...VIEWER, "dossiers:write", "contacts:write", "notes:write", "tasks:write"];
const ADMIN = [...MEMBER, "flows:write", "members:manage", "keys:manage", "webhooks:manage", "events:read", "mail:read"];

/** C12's table: what each role grants, checked exactly as a key's scopes are. */
export const ROLE_SCOPES: Record<Role, ReadonlySet<string>> = {
  viewer: new Set(VIEWER),
  member: new Set(MEMBER),
  admin: new Set(ADMIN),
  owner: new Set(ADMIN),
};

/** Who asks for a change: an API key (its scopes), a signed-in member (its role, as of this
 * request), or the operator at the shell (the CLI, which may do anything in any organization). */
export type Actor =
  | { kind: "key"; organizationId: string; keyId: string; scopes: ReadonlySet<string> }
  | { kind: "member"; organizationId: string; memberId: string; role: Role }
  | { kind: "operator"; organizationId: string };

export const operator = (organizationId: string): Actor => ({ kind: "operator", organizationId });

const scopesOf = (actor: Actor): ReadonlySet<string> =>
  actor.kind === "key" ? actor.scopes : actor.kind === "member" ? ROLE_SCOPES[actor.role] : new Set(ALL_SCOPES);

/** C12's member record. No schema in src/schemas describes it yet: this is its one shape. */
/** C12's member record (src/schemas/members.ts). */
export type Member = Static<typeof MemberSchema>;

export const memberView = (row: MemberRow): Member => ({
  id: row.id,
  organization_id: row.organizationId,
  email: row.email,
  name: row.name,
  role: row.role,
  created_at: row.createdAt,
  last_sign_in_at: row.lastSignInAt,
  disabled_at: row.disabledAt,
});

/** Emails are stored as given and compared case-insensitively everywhere (C20). */
export const foldEmail = (email: string) => email.toLowerCase();

const SETUP_LINK_DAYS = 7;
const DAY_MS = 86_400_000;

const forbidden = (message: string) => new ApiError("forbidden", message);
const invalid = (message: string) => new ApiError("invalid_body", message);

function requireScope(actor: Actor, scope: string) {
  if (!scopesOf(actor).has(scope)) throw forbidden(`this ${actor.kind === "member" ? "role" : "key"} lacks the scope ${scope}`);
}

/** C20 "who may give a role": every scope of each role the change touches; an owner only by an
 * owner (the operator too: the CLI is the way back in). Keys never touch an owner. */
function requireMayGive(actor: Actor, ...roles: Role[]) {
  const held = scopesOf(actor);
  for (const role of roles) {
    if (role === "owner" && !(actor.kind === "operator" || (actor.kind === "member" && actor.role === "owner"))) {
      throw forbidden("only an owner may make, demote or remove an owner, or give an owner a setup link");
    }
    const missing = [...ROLE_SCOPES[role]].find((scope) => !held.has(scope));
    if (missing) throw forbidden(`the role ${role} grants ${missing}, which this ${actor.kind === "member" ? "role" : "key"} lacks`);
  }
}

export function checkEmail(email: unknown): string {
  if (typeof email !== "string") throw invalid("email: must be a string");
  if (email.length > 200 || !isEmailAddress(email)) throw invalid("email: must be an email address of at most 200 characters");
  return email;
}

export function checkName(name: unknown): string {
  if (typeof name !== "string") throw invalid("name: must be a string");
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (length < 1 || length > 200) throw invalid("name: must be 1 to 200 characters");
  return trimmed;
}

export function checkRole(role: unknown): Role {
  if (!ROLES.includes(role as Role)) throw invalid(`role: must be one of ${ROLES.join(", ")}`);
  return role as Role;
}

const duplicate = () => new ApiError("duplicate_member", "a member with this email already exists", undefined, "email");

/** `<base>/console/setup#token=...` (C12): the token travels in the fragment, which browsers do not
 * send to servers nor put in a Referer. */
export const setupUrl = (base: string, token: string) => `${base.replace(/\/+$/, "")}/console/setup#token=${token}`;

/** The member, or 404 (another organization's member is unknown here). */
async function target(ctx: Context, actor: Actor, id: string): Promise<MemberRow> {
  const row = await ctx.store.members.byId(actor.organizationId, id);
  if (!row) throw new ApiError("not_found", "member not found");
  return row;
}

/** 404 unless the organization has this member: a path's resource, checked before its body (C3). */
export async function requireMember(ctx: Context, organizationId: string, id: string): Promise<string> {
  if (!(await ctx.store.members.byId(organizationId, id))) throw new ApiError("not_found", "member not found");
  return id;
}

/** Call inside a unit: voids the member's unused links and makes a new one; its setup_url. */
async function writeSetupLink(ctx: Context, organizationId: string, memberId: string | null, role: Role | null, base: string): Promise<string> {
  const token = randomToken();
  const now = ctx.now();
  if (memberId !== null) await ctx.store.members.voidSetupLinks(organizationId, memberId);
  await ctx.store.members.insertSetupLink({
    id: newId(),
    organizationId,
    memberId,
    role,
    tokenHash: hashToken(token),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SETUP_LINK_DAYS * DAY_MS).toISOString(),
  });
  return setupUrl(base, token);
}

/** Every member of the organization, disabled ones too (C20): any signed-in role may look, a key
 * needs members:manage. */
export async function listMembers(ctx: Context, actor: Actor): Promise<Member[]> {
  if (actor.kind === "key") requireScope(actor, "members:manage");
  return (await ctx.store.members.list(actor.organizationId)).map(memberView);
}

/** The member with this email in the whole installation, or null. */
export async function findMemberByEmail(ctx: Context, email: string): Promise<Member | null> {
  const row = await ctx.store.members.byFoldedEmail(foldEmail(email));
  return row ? memberView(row) : null;
}

export interface MemberInput {
  email: unknown;
  name: unknown;
  role: unknown;
}

/** A new member's row: never signed in, the digest on (C22), no time zone of their own. */
export const newMemberRow = (ctx: Context, organizationId: string, member: Pick<MemberRow, "email" | "name" | "role" | "passwordHash">): MemberRow => ({
  id: newId(),
  organizationId,
  ...member,
  emailFolded: foldEmail(member.email),
  createdAt: ctx.now().toISOString(),
  lastSignInAt: null,
  disabledAt: null,
  timeZone: null,
  digest: true,
  lastDigestDate: null,
  calendarTokenHash: null,
});

/** POST /members (C12): 201 with the member and its setup_url. */
export async function createMember(ctx: Context, actor: Actor, input: MemberInput, base: string): Promise<Member & { setup_url: string }> {
  requireScope(actor, "members:manage");
  const email = checkEmail(input.email);
  const name = checkName(input.name);
  const role = checkRole(input.role);
  requireMayGive(actor, role);
  return await ctx.store.write(async () => {
    const members = ctx.store.members;
    if ((await members.byFoldedEmail(foldEmail(email)))) throw duplicate();
    const row = newMemberRow(ctx, actor.organizationId, { email, name, role, passwordHash: null });
    await members.insert(row);
    return { ...memberView(row), setup_url: (await writeSetupLink(ctx, row.organizationId, row.id, null, base)) };
  });
}

/** Call inside a unit: 409 last_owner when taking `row` away from the owners would leave none. */
async function checkOwnersLeft(ctx: Context, row: MemberRow) {
  if (row.role === "owner" && row.disabledAt === null && (await ctx.store.members.activeOwners(row.organizationId)) <= 1) {
    throw new ApiError("last_owner", "the organization must keep at least one owner");
  }
}

/** PATCH /members/{id} `{name?, role?}`. A role change takes effect on the member's next request. */
export function updateMember(ctx: Context, actor: Actor, id: string, patch: { name?: unknown; role?: unknown }): Promise<Member> {
  requireScope(actor, "members:manage");
  return ctx.store.write(async () => {
    const row = await target(ctx, actor, id);
    const name = patch.name === undefined ? row.name : checkName(patch.name);
    const role = patch.role === undefined ? row.role : checkRole(patch.role);
    if (role !== row.role) {
      requireMayGive(actor, row.role, role);
      if (role !== "owner") await checkOwnersLeft(ctx, row);
    }
    if (name !== row.name || role !== row.role) await ctx.store.members.update(row.organizationId, row.id, name, role);
    return memberView({ ...row, name, role });
  });
}

/** DELETE /members/{id}: the member is disabled, its sessions end at once and its unused links go;
 * the row stays, so that `assigned_to` and history keep resolving. Disabling again changes nothing. */
export function disableMember(ctx: Context, actor: Actor, id: string): Promise<Member> {
  requireScope(actor, "members:manage");
  return ctx.store.write(async () => {
    const row = await target(ctx, actor, id);
    if (row.role === "owner") requireMayGive(actor, "owner");
    if (row.disabledAt !== null) return memberView(row);
    await checkOwnersLeft(ctx, row);
    const at = ctx.now().toISOString();
    await ctx.store.members.disable(row.organizationId, row.id, at);
    await ctx.store.sessions.deleteOfMember(row.organizationId, row.id);
    await ctx.store.members.voidSetupLinks(row.organizationId, row.id);
    return memberView({ ...row, disabledAt: at });
  });
}

/** POST /members/{id}/setup-link: a new link (for a forgotten password), which voids the older
 * ones. For an owner, only an owner over the API (C20); `dossier member setup-link` is the
 * operator's way back in. */
export async function newSetupLink(ctx: Context, actor: Actor, id: string, base: string): Promise<{ setup_url: string }> {
  requireScope(actor, "members:manage");
  return await ctx.store.write(async () => {
    const row = await target(ctx, actor, id);
    requireMayGive(actor, row.role);
    return { setup_url: (await writeSetupLink(ctx, row.organizationId, row.id, null, base)) };
  });
}

/** Call inside a unit: the first start's owner link (C2, C12), for an organization with no member
 * yet; whoever uses it chooses the owner's email, name and password. */
export const writeOwnerSetupLink = (ctx: Context, organizationId: string, base: string): Promise<string> =>
  writeSetupLink(ctx, organizationId, null, "owner", base);
