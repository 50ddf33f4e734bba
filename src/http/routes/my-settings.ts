// A member's own settings (C22), with the session cookie only (an API key has no member: 401).
//   GET   /session/member          time zone, digest, whether a calendar link exists
//   PATCH /session/member          {time_zone, digest}
//   POST  /session/calendar-link   a new private calendar feed URL (shown once; voids the old one)
import { ApiError } from "../../errors";
import { One } from "../../schemas/common";
import { CalendarLink, MemberSettings, PatchMemberSettings } from "../../schemas/mail";
import { memberSettings, newCalendarLink, updateMemberSettings } from "../../services/member-settings";
import type { Principal } from "../auth";
import { one } from "../request";
import { defineRoute } from "../route";
import type { Site } from "../site";

function member(principal: Principal) {
  if (principal.kind !== "member") throw new ApiError("unauthorized", "this call is about the session cookie's member; an API key has none");
  return principal;
}

export const mySettingsRoutes = (site: Site) => [
  defineRoute({
    id: "getMySettings",
    method: "GET",
    path: "/session/member",
    summary: "My settings",
    tag: "Session",
    description: "The signed-in member's time zone and morning digest (C22). With the session cookie only: an API key gets 401.",
    scopes: [],
    responses: { 200: { schema: One(MemberSettings), description: "The member's time zone (and the one in use) and whether the digest is sent" } },
    handler: async ({ ctx, principal }) => {
      const me = member(principal);
      return one(await memberSettings(ctx, me.organizationId, me.memberId));
    },
  }),
  defineRoute({
    id: "updateMySettings",
    method: "PATCH",
    path: "/session/member",
    summary: "Change my settings",
    tag: "Session",
    description:
      "`time_zone`: an IANA name (null: the server's DOSSIER_TIME_ZONE, else UTC); the digest comes at 08:00 there. `digest: false` turns the morning digest off. " +
      "With the session cookie (and X-CSRF-Token) only: an API key gets 401.",
    scopes: [],
    body: PatchMemberSettings,
    responses: { 200: { schema: One(MemberSettings), description: "The member's settings after the change" } },
    handler: async ({ ctx, principal, body }) => {
      const me = member(principal);
      return one(await updateMemberSettings(ctx, me.organizationId, me.memberId, body));
    },
  }),
  defineRoute({
    id: "createCalendarLink",
    method: "POST",
    path: "/session/calendar-link",
    summary: "A new private calendar link",
    tag: "Session",
    description:
      "An iCalendar feed (RFC 5545) of the member's open tasks with a due date, for Google Calendar, Apple Calendar or Outlook to subscribe to. " +
      "The URL is shown once; only a hash of its token is kept; a new link voids the old one. With the session cookie only.",
    scopes: [],
    secret: true,
    responses: { 201: { schema: One(CalendarLink), description: "The feed's URL, shown this once: the old link, if any, no longer works" } },
    handler: async ({ ctx, principal, set }) => {
      const me = member(principal);
      set.headers["cache-control"] = "no-store";
      return one(await newCalendarLink(ctx, me.organizationId, me.memberId, site.base));
    },
  }),
];
