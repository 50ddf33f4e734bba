// Signing in and out (C12, C20).
//   POST   /session          {email, password}: the member, its CSRF token and the cookie
//   POST   /session/setup    {token, password, email?, name?}: a setup link sets the password, signs in
//   GET    /session          the cookie's member and CSRF token
//   DELETE /session          signs out
// The first two are the way in, so no principal guards them: they are plain Elysia routes with
// their own document entry. The other two are about the cookie's session: a key gets 401.
import { Elysia } from "elysia";
import type { Context } from "../../context";
import { ApiError } from "../../errors";
import { One } from "../../schemas/common";
import { currentSession, redeemSetupLink, signIn, signOut, type SignedIn } from "../../services/sessions";
import { Session, SetupPassword, SignedOut, SignIn } from "../../schemas/members";
import { cookieOf, SESSION_COOKIE, type Principal } from "../auth";
import { operation } from "../openapi-doc";
import { one, readJson } from "../request";
import { defineRoute, type Reply } from "../route";
import type { Site } from "../site";

const cookieText = (site: Site, request: Request, value: string, end = false) =>
  `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Lax; Path=/${end ? "; Max-Age=0" : ""}${site.secure(request) ? "; Secure" : ""}`;

/** The answer of a sign-in: the cookie carries the token, the body the rest (C12). */
function signedIn(site: Site, request: Request, set: Reply, { member, csrf_token, token }: SignedIn) {
  set.headers["set-cookie"] = cookieText(site, request, token);
  set.headers["cache-control"] = "no-store";
  return one({ member, csrf_token });
}

const SESSION_ANSWER = "You are signed in: Set-Cookie carries dossier_session (HttpOnly; SameSite=Lax; Path=/; Secure over HTTPS); the body the member and the CSRF token";

/** The way in: no principal, so no guard, no rate-limit headers and no 402 or 403. */
export function signInRoutes(ctx: Context, site: Site) {
  return new Elysia()
    .post(
      "/session",
      async ({ request, set }) => {
        const body = await readJson(request, SignIn);
        return signedIn(site, request, set as Reply, await signIn(ctx, body, site.clientAddress(request)));
      },
      {
        parse: "none",
        detail: operation({
          id: "signIn",
          summary: "Sign in",
          tag: "Session",
          auth: "none",
          description:
            "Wrong email or password: 401 invalid_credentials, alike for an unknown email. After 5 failures for one email from one address, or 30 from one address, in 15 minutes: 429 with Retry-After, the right password too, until the window frees.",
          scopes: [],
          body: SignIn,
          responses: { 200: { schema: One(Session), description: SESSION_ANSWER } },
          errors: ["invalid_body", "payload_too_large", "invalid_credentials", "rate_limited", "storage_unavailable", "server_busy"],
        }),
      },
    )
    .post(
      "/session/setup",
      async ({ request, set }) => {
        const body = await readJson(request, SetupPassword);
        return signedIn(site, request, set as Reply, await redeemSetupLink(ctx, body));
      },
      {
        parse: "none",
        detail: operation({
          id: "setUpPassword",
          summary: "Choose a password with a setup link, and sign in",
          tag: "Session",
          auth: "none",
          description:
            "The link works once, for 7 days. A refused password (400 invalid_body) leaves it usable. The first start's owner link also needs email and name. Every other session of the member ends.",
          scopes: [],
          body: SetupPassword,
          responses: { 200: { schema: One(Session), description: SESSION_ANSWER } },
          errors: ["invalid_body", "payload_too_large", "invalid_setup_link", "duplicate_member", "storage_unavailable", "server_busy"],
        }),
      },
    );
}

/** The signed-in member behind a request: a key is not a session (C20). */
function sessionPrincipal(principal: Principal) {
  if (principal.kind !== "member") throw new ApiError("unauthorized", "this call is about the session cookie's session; an API key has none");
  return principal;
}

export const sessionRoutes = (site: Site) => [
  defineRoute({
    id: "getSession",
    method: "GET",
    path: "/session",
    summary: "The signed-in member",
    tag: "Session",
    description: "With the session cookie only: an API key gets 401.",
    scopes: [],
    responses: { 200: { schema: One(Session), description: "The session's member and its CSRF token" } },
    handler: async ({ ctx, principal, set }) => {
      const session = await currentSession(ctx, sessionPrincipal(principal));
      set.headers["cache-control"] = "no-store";
      return one(session);
    },
  }),
  defineRoute({
    id: "signOut",
    method: "DELETE",
    path: "/session",
    summary: "Sign out",
    tag: "Session",
    description: "With the session cookie (and X-CSRF-Token) only: an API key gets 401. The cookie is cleared.",
    scopes: [],
    responses: { 200: { schema: One(SignedOut), description: "The session has ended; Set-Cookie clears dossier_session" } },
    handler: async ({ ctx, principal, request, set }) => {
      sessionPrincipal(principal);
      const answer = await signOut(ctx, cookieOf(request, SESSION_COOKIE));
      set.headers["set-cookie"] = cookieText(site, request, "", true);
      return one(answer);
    },
  }),
];
