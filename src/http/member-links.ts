// The two links C22 hands out that work without a session or a key, each opened by its own token:
//   GET  /calendar/<token>.ics   a member's private feed of open tasks with a due date (RFC 5545),
//                                with ETag and If-None-Match; unknown or replaced token: 404
//   GET  /unsubscribe/<token>    a page with one button that turns the member's digest off
//   POST /unsubscribe/<token>    turns it off (RFC 8058's one-click POST, which mail programs send)
// They are for calendar apps and mail programs, not for the API's clients: not in the OpenAPI
// document (docs/tasks.md describes them). A GET never changes anything: link checkers in mail
// systems follow links.
import { Elysia } from "elysia";
import { CALENDAR_CONTENT_TYPE, calendarETag, calendarFeed } from "../calendar/feed";
import type { Context } from "../context";
import { memberTimeZone } from "../mail/digest-time";
import { calendarMember, unsubscribe, unsubscribeMember } from "../services/member-settings";
import { ifNoneMatchHits } from "./etag";
import type { Site } from "./site";

/** Not API operations: left out of the OpenAPI document. */
const HIDDEN = { detail: { hide: true } };
/** An unknown, replaced or forged token: a calendar app gets a plain 404, a browser a page. */
const NO_FEED = () => new Response("no such calendar feed: the link may have been replaced by a newer one\n", { status: 404, headers: { "content-type": "text/plain;charset=utf-8" } });
const NO_LINK = () => page(404, "Link not found", "<p>This link is not valid.</p>");
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

const page = (status: number, title: string, body: string) =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title>` +
      `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style></head>` +
      `<body><main><h1>${title}</h1>${body}</main></body></html>`,
    { status, headers: { "content-type": "text/html;charset=utf-8", "content-security-policy": PAGE_CSP, "cache-control": "no-store", "referrer-policy": "no-referrer" } },
  );

export function memberLinks(ctx: Context, site: Site) {
  return new Elysia({ name: "member-links" })
    .get("/calendar/:file", async ({ params, request }) => {
      const match = /^([A-Za-z0-9_-]{43})\.ics$/.exec(params.file);
      const member = match ? await calendarMember(ctx, match[1]) : null;
      if (!member) return NO_FEED();
      const base = site.base;
      const tasks = await ctx.store.read(() => ctx.store.tasks.openOfMember(member.organizationId, member.id, null));
      const body = calendarFeed(
        tasks.map((task) => ({ ...task, url: task.dossier_id ? `${base}/console/dossiers/${task.dossier_id}` : `${base}/console/tasks` })),
        { timeZone: memberTimeZone(member.timeZone, ctx.config.timeZone), name: `Dossier: ${member.name}'s tasks`, uidDomain: new URL(base).hostname || "dossier" },
      );
      const etag = calendarETag(body);
      const headers = { etag, "cache-control": "private, no-cache", "referrer-policy": "no-referrer" };
      const none = request.headers.get("if-none-match");
      if (none !== null && ifNoneMatchHits(none, etag)) return new Response(null, { status: 304, headers });
      return new Response(body, { headers: { ...headers, "content-type": CALENDAR_CONTENT_TYPE } });
    }, HIDDEN)
    .get("/unsubscribe/:token", async ({ params }) => {
      const member = await unsubscribeMember(ctx, params.token);
      if (!member) return NO_LINK();
      if (!member.digest) return page(200, "Digest off", "<p>Your morning digest of tasks is off. Turn it on again in the console, under My settings.</p>");
      return page(
        200,
        "Turn the digest off?",
        `<p>Dossier sends you a digest of your tasks on mornings you have some due or overdue.</p><form method="post"><button type="submit">Turn the digest off</button></form>`,
      );
    }, HIDDEN)
    .post(
      "/unsubscribe/:token",
      async ({ params }) => {
        const member = await unsubscribeMember(ctx, params.token);
        if (!member) return NO_LINK();
        await unsubscribe(ctx, member);
        return page(200, "Digest off", "<p>Your morning digest of tasks is off. Turn it on again in the console, under My settings.</p>");
      },
      { parse: "none", ...HIDDEN },
    );
}
