// Signed-in sessions (C12, C20): signing in with a password or a setup link, finding the session
// of a request's cookie, signing out, and the CSRF check of a cookie-authenticated change. The
// HTTP side (the cookie's attributes, the client address, Retry-After) is the routes'.
import { timingSafeEqual } from "node:crypto";
import { chain, type Awaitable } from "../awaitable";
import type { Context } from "../context";
import type { MemberRow } from "../db/schema";
import type { Store } from "../db/client";
import type { RateDecision, ReadAhead, SharedCounters } from "../db/store";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { checkEmail, checkName, foldEmail, memberView, newMemberRow, ROLE_SCOPES, type Member, type Role } from "./members";
import { checkPassword, hashPassword, hashToken, PASSWORD_MAX, randomToken, TOKEN_FORMAT, verifyPassword } from "./passwords";
import { SharedSignInThrottle, SignInThrottle, type Throttle } from "./throttle";

const DAY_MS = 86_400_000;
/** A session ends after 14 days without use or 30 days in all (C12). */
export const IDLE_MS = 14 * DAY_MS;
export const LIFETIME_MS = 30 * DAY_MS;
// last_used_at is written at most once a minute per session, so that reads stay reads.
const TOUCH_MS = 60_000;

/** What signing in gives: the member, the CSRF token, and `token`, the cookie's value (shown to
 * this answer alone: only its hash is stored). */
export interface SignedIn {
  member: Member;
  csrf_token: string;
  token: string;
}

/** A request's signed-in member, as the auth plugin needs it: a principal like a key's, with the
 * scopes of its role as of this request and its organization's plan and rate limit. It is also an
 * Actor of the member services. */
export interface SessionPrincipal {
  kind: "member";
  sessionId: string;
  memberId: string;
  organizationId: string;
  role: Role;
  scopes: ReadonlySet<string>;
  plan: "free" | "pro" | "growth";
  rateLimit: number;
  csrfToken: string;
}

const throttles = new WeakMap<Store, { local: SignInThrottle; shared?: SharedSignInThrottle }>();

/** The store's sign-in throttle: in the database its nodes share (C19), or in this process (SQLite,
 * or PostgreSQL while it refuses writes: src/db/pg/client.ts's counters). */
function throttleOf(ctx: Context): Throttle {
  let known = throttles.get(ctx.store);
  if (!known) throttles.set(ctx.store, (known = { local: new SignInThrottle() }));
  const counters = ctx.store.counters;
  if (!counters) return known.local;
  return (known.shared ??= new SharedSignInThrottle(counters));
}

const invalidCredentials = () => new ApiError("invalid_credentials", "wrong email or password");

/** Call inside a unit: a new session of the member, its sign-in time recorded. */
async function writeSession(ctx: Context, member: MemberRow): Promise<SignedIn> {
  const token = randomToken();
  const csrfToken = randomToken();
  const at = ctx.now().toISOString();
  await ctx.store.sessions.insert({
    id: newId(),
    organizationId: member.organizationId,
    memberId: member.id,
    tokenHash: hashToken(token),
    csrfToken,
    createdAt: at,
    lastUsedAt: at,
  });
  await ctx.store.members.recordSignIn(member.organizationId, member.id, at);
  return { member: memberView({ ...member, lastSignInAt: at }), csrf_token: csrfToken, token };
}

/**
 * POST /session `{email, password}` from the client `address`. 401 invalid_credentials for a
 * wrong email or password, alike and in about the same time; 429 rate_limited (with retryAfter)
 * while the throttle holds this address, even for the right password; 503 server_busy when too
 * many hashes wait.
 */
export async function signIn(ctx: Context, input: { email: unknown; password: unknown }, address: string): Promise<SignedIn> {
  if (typeof input.email !== "string") throw new ApiError("invalid_body", "email: must be a string");
  if (typeof input.password !== "string") throw new ApiError("invalid_body", "password: must be a string");
  const email = foldEmail(input.email);
  const attempt = await throttleOf(ctx).attempt(email, address, ctx.now().getTime());
  if (!("forgive" in attempt)) throw new ApiError("rate_limited", "too many failed sign-ins; try again later", attempt.wait);
  const { forgive } = attempt;
  const row = await ctx.store.members.byFoldedEmail(email);
  const usable = row !== null && row.disabledAt === null && row.passwordHash !== null;
  // A password longer than any we accept cannot match; it is checked against the stand-in hash
  // all the same, so that its answer takes as long as any other failure.
  const tooLong = [...input.password].length > PASSWORD_MAX;
  let matched: boolean;
  try {
    matched = await verifyPassword(input.password, usable && !tooLong ? row.passwordHash : null);
  } catch (error) {
    await forgive(); // never checked (503 server_busy): not a failure
    throw error;
  }
  if (!matched) throw invalidCredentials();
  await forgive();
  return ctx.store.write(async () => {
    // Disabled while the hash was checked: as if the password were wrong.
    const member = await ctx.store.members.byId(row!.organizationId, row!.id);
    if (!member || member.disabledAt !== null) throw invalidCredentials();
    const now = ctx.now().getTime();
    await ctx.store.sessions.deleteEnded(member.organizationId, member.id, new Date(now - IDLE_MS).toISOString(), new Date(now - LIFETIME_MS).toISOString());
    return writeSession(ctx, member);
  });
}

const invalidLink = () => new ApiError("invalid_setup_link", "this setup link is unknown, used or expired");

export interface SetupInput {
  token: unknown;
  password: unknown;
  email?: unknown;
  name?: unknown;
}

/**
 * POST /session/setup `{token, password, email?, name?}`: sets the password and signs in (C12,
 * C20). The link is checked before anything is hashed: 400 invalid_setup_link when it is unknown,
 * used, expired, voided or its member disabled. The first start's owner link also needs `email`
 * and `name` (other links ignore them). A refused password is 400 invalid_body and leaves the link
 * usable. Every other session of the member ends.
 */
export async function redeemSetupLink(ctx: Context, input: SetupInput): Promise<SignedIn> {
  if (typeof input.token !== "string" || !TOKEN_FORMAT.test(input.token)) throw invalidLink();
  const tokenHash = hashToken(input.token);
  const usable = async () => {
    const link = await ctx.store.members.setupLinkByHash(tokenHash);
    if (!link || link.usedAt !== null || Date.parse(link.expiresAt) <= ctx.now().getTime()) throw invalidLink();
    const member = link.memberId === null ? null : (await ctx.store.members.byId(link.organizationId, link.memberId));
    if (link.memberId !== null && (!member || member.disabledAt !== null)) throw invalidLink();
    return { link, member };
  };
  const { link } = await usable();
  const owner = link.memberId === null ? { email: checkEmail(input.email), name: checkName(input.name) } : null;
  const password = checkPassword(input.password);
  if (owner && (await ctx.store.members.byFoldedEmail(foldEmail(owner.email)))) throw new ApiError("duplicate_member", "a member with this email already exists", undefined, "email");
  const passwordHash = await hashPassword(password);
  return ctx.store.write(async () => {
    // Checked again in the unit: another request may have used the link while the hash was made.
    const { member } = await usable();
    if (!(await ctx.store.members.useSetupLink(link.organizationId, link.id, ctx.now().toISOString()))) throw invalidLink();
    let row: MemberRow;
    if (member) {
      row = { ...member, passwordHash };
      await ctx.store.members.setPassword(row.organizationId, row.id, passwordHash);
      await ctx.store.sessions.deleteOfMember(row.organizationId, row.id);
    } else {
      if ((await ctx.store.members.byFoldedEmail(foldEmail(owner!.email)))) throw new ApiError("duplicate_member", "a member with this email already exists", undefined, "email");
      row = newMemberRow(ctx, link.organizationId, { email: owner!.email, name: owner!.name, role: link.role ?? "owner", passwordHash });
      await ctx.store.members.insert(row);
    }
    return writeSession(ctx, row);
  });
}

/**
 * The session of a request's cookie token, or null when there is none: unknown, signed out, ended
 * (14 days unused, 30 in all) or its member disabled. The role and the organization's plan are read
 * on every call, so a change takes effect on the session's next request (C20).
 */
export function sessionOf(ctx: Context, token: string | null | undefined): Awaitable<SessionPrincipal | null> {
  if (!token || !TOKEN_FORMAT.test(token)) return null;
  // Chained, not awaited: a GET that SQLite answers stays free of promises (src/awaitable.ts).
  return chain(ctx.store.sessions.byTokenHash(hashToken(token)), (found) => sessionPrincipal(ctx, found));
}

/** sessionOf on a store whose nodes count together (C19): the session's principal and its
 * organization's count in one statement (src/db/pg/counters.ts), which also reads `ahead` for the
 * request; null, counted nowhere, when the cookie names no live session. */
export async function admitSession(
  ctx: Context,
  counters: SharedCounters,
  token: string | null | undefined,
  ahead?: ReadAhead,
): Promise<{ principal: SessionPrincipal; rate: RateDecision } | null> {
  if (!token || !TOKEN_FORMAT.test(token)) return null;
  const admitted = await counters.admitSession(hashToken(token), ctx.now().getTime(), { idleMs: IDLE_MS, lifetimeMs: LIFETIME_MS }, ahead);
  const principal = admitted && sessionPrincipal(ctx, admitted.found);
  return principal ? { principal, rate: admitted.rate } : null;
}

function sessionPrincipal(ctx: Context, found: Awaited<ReturnType<Context["store"]["sessions"]["byTokenHash"]>>): SessionPrincipal | null {
  if (!found || found.disabledAt !== null) return null;
  const now = ctx.now().getTime();
  const lastUsed = Date.parse(found.lastUsedAt);
  if (now - lastUsed >= IDLE_MS || now - Date.parse(found.createdAt) >= LIFETIME_MS) return null;
  if (now - lastUsed >= TOUCH_MS && ctx.store.failure === null) {
    // The request does not wait for it, and a failure is the store's (C11). At once when the store
    // is idle, so that the next request sees the session's new last use; else it joins the next group.
    const at = new Date(now).toISOString();
    ctx.store.write(() => ctx.store.sessions.touch(found.organizationId, found.id, at), { atOnce: true }).catch(() => {});
  }
  return {
    kind: "member",
    sessionId: found.id,
    memberId: found.memberId,
    organizationId: found.organizationId,
    role: found.role,
    scopes: ROLE_SCOPES[found.role],
    plan: found.plan,
    rateLimit: found.rateLimit,
    csrfToken: found.csrfToken,
  };
}

/** GET /session: the session's member and its CSRF token. */
export async function currentSession(ctx: Context, session: SessionPrincipal): Promise<{ member: Member; csrf_token: string }> {
  const row = (await ctx.store.members.byId(session.organizationId, session.memberId))!;
  return { member: memberView(row), csrf_token: session.csrfToken };
}

/** DELETE /session: the cookie's session ends (whether or not it still existed). */
export async function signOut(ctx: Context, token: string | null | undefined): Promise<{ signed_out: true }> {
  if (token && TOKEN_FORMAT.test(token)) {
    const tokenHash = hashToken(token);
    await ctx.store.write(() => ctx.store.sessions.deleteByTokenHash(tokenHash));
  }
  return { signed_out: true };
}

/** Whether a cookie-authenticated change carries the session's CSRF token (`X-CSRF-Token`);
 * compared in constant time. */
export function csrfMatches(session: SessionPrincipal, header: string | null | undefined): boolean {
  if (!header) return false;
  const given = Buffer.from(header);
  const expected = Buffer.from(session.csrfToken);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Throws 403 csrf_failed unless csrfMatches. */
export function checkCsrf(session: SessionPrincipal, header: string | null | undefined) {
  if (!csrfMatches(session, header)) throw new ApiError("csrf_failed", "a change made with the session cookie needs its X-CSRF-Token header");
}
