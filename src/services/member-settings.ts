// A member's own settings (C22): time zone and morning digest (PATCH /session/member), the private
// calendar link (POST /session/calendar-link: token shown once, only its hash kept, a new link voids
// the old one), and the digest's unsubscribe link (RFC 8058, no session: the token says whose).
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import type { MemberRow } from "../db/schema";
import { invalidBody, notFound } from "../errors";
import { unsubscribeKey } from "../jobs/mail";
import { checkTimeZone, memberTimeZone } from "../mail/digest-time";
import { readUnsubscribeToken } from "../mail/unsubscribe";
import type { MemberSettings, PatchMemberSettings } from "../schemas/mail";
import { hashToken, randomToken, TOKEN_FORMAT } from "./passwords";

export type Settings = Static<typeof MemberSettings>;

const settingsOf = (ctx: Context, row: MemberRow): Settings => ({
  time_zone: row.timeZone,
  effective_time_zone: memberTimeZone(row.timeZone, ctx.config.timeZone),
  digest: Boolean(row.digest),
  calendar_link: row.calendarTokenHash !== null,
});

export async function memberSettings(ctx: Context, organizationId: string, memberId: string): Promise<Settings> {
  const row = await ctx.store.members.byId(organizationId, memberId);
  if (!row) throw notFound("member not found");
  return settingsOf(ctx, row);
}

/** PATCH /session/member: an IANA zone name (kept in its canonical spelling) or null; digest on or off. */
export function updateMemberSettings(ctx: Context, organizationId: string, memberId: string, body: Static<typeof PatchMemberSettings>): Promise<Settings> {
  let zone: string | null | undefined = body.time_zone;
  if (typeof zone === "string") {
    try {
      zone = checkTimeZone(zone.trim());
    } catch {
      throw invalidBody("time_zone: must be an IANA time zone name such as Europe/Paris or UTC", "time_zone");
    }
  }
  return ctx.store.write(async () => {
    const row = await ctx.store.members.byId(organizationId, memberId);
    if (!row) throw notFound("member not found");
    const timeZone = zone === undefined ? row.timeZone : zone;
    const digest = body.digest ?? Boolean(row.digest);
    if (timeZone !== row.timeZone || digest !== Boolean(row.digest)) await ctx.store.members.setSettings(organizationId, memberId, timeZone, digest);
    return settingsOf(ctx, { ...row, timeZone, digest });
  });
}

/** POST /session/calendar-link: a new private feed URL; the old one stops working. */
export async function newCalendarLink(ctx: Context, organizationId: string, memberId: string, base: string): Promise<{ url: string }> {
  const token = randomToken();
  await ctx.store.write(() => ctx.store.members.setCalendarTokenHash(organizationId, memberId, hashToken(token)));
  return { url: `${base.replace(/\/+$/, "")}/calendar/${token}.ics` };
}

/** The member a calendar token opens, or null (unknown, replaced, or the member disabled). */
export async function calendarMember(ctx: Context, token: string): Promise<MemberRow | null> {
  if (!TOKEN_FORMAT.test(token)) return null;
  const row = await ctx.store.members.byCalendarTokenHash(hashToken(token));
  return row && row.disabledAt === null ? row : null;
}

/** The member an unsubscribe token names, or null. */
export async function unsubscribeMember(ctx: Context, token: string): Promise<MemberRow | null> {
  const memberId = readUnsubscribeToken(token, unsubscribeKey(ctx));
  if (!memberId) return null;
  const row = await ctx.store.members.byIdInAnyOrganization(memberId);
  return row ?? null;
}

/** Turns the member's digest off (RFC 8058's one-click POST). */
export async function unsubscribe(ctx: Context, member: MemberRow): Promise<void> {
  if (!member.digest) return;
  await ctx.store.write(() => ctx.store.members.setSettings(member.organizationId, member.id, member.timeZone, false));
}
