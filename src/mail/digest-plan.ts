// Which members' morning digests are due, for the job runner (C22). A member is due when their zone's
// 08:00 has come today and they have not had today's digest: so a server that was down at 08:00
// sends it when it is back that same local day, never a past day's, and never two for one day.
// "Had" includes a day with nothing to say: the runner records the day even when composeDigest gave
// null, or it would look again all day. Each distinct zone is worked out once per call, so a scan of
// 10,000 members costs a few hundred Intl calls, not tens of thousands. Pure: `now` is an argument.
import { dueDigest, memberTimeZone, nextDigestAt, type LocalDate } from "./digest-time";

export interface DigestMember {
  id: string;
  /** C22's `digest` setting: false turns it off. */
  digest: boolean;
  /** The member's `time_zone`, or null for the server's. */
  time_zone: string | null;
  /** The local day of the last digest made for them (sent or found empty), or null. */
  last_digest_date: LocalDate | null;
}

export interface DueDigest {
  memberId: string;
  /** The zone used (the member's, else the server's, else UTC). */
  zone: string;
  /** The local day the digest is for: its "due that day". */
  date: LocalDate;
  /** When it was due (08:00 local): now or earlier. */
  at: Date;
}

/** The digests due at `now`. `serverZone` is DOSSIER_TIME_ZONE (or null). */
export function digestsDue(members: readonly DigestMember[], now: Date, serverZone: string | null): DueDigest[] {
  const slots = new Map<string, ReturnType<typeof dueDigest>>();
  const due: DueDigest[] = [];
  for (const member of members) {
    if (!member.digest) continue;
    const zone = memberTimeZone(member.time_zone, serverZone);
    if (!slots.has(zone)) slots.set(zone, dueDigest(now, zone));
    const slot = slots.get(zone);
    // A later day only: a member who moved west is not sent the day they already had again.
    if (slot && (member.last_digest_date === null || member.last_digest_date < slot.date)) {
      due.push({ memberId: member.id, zone, date: slot.date, at: slot.at });
    }
  }
  return due;
}

/** The next instant after `now` at which a digest falls due for one of `members`, or null when none
 * takes one: when the runner should look again (besides its regular scan). */
export function nextDigestWakeUp(members: readonly DigestMember[], now: Date, serverZone: string | null): Date | null {
  const zones = new Set(members.filter((m) => m.digest).map((m) => memberTimeZone(m.time_zone, serverZone)));
  let next: Date | null = null;
  for (const zone of zones) {
    const { at } = nextDigestAt(now, zone);
    if (next === null || at < next) next = at;
  }
  return next;
}
