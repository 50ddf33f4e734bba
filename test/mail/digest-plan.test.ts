// C22: whose morning digest is due, at 08:00 in each member's zone (default the server's, then UTC),
// once a local day, also late after downtime that same day, never for a past day, none when off.
import { expect, setDefaultTimeout, test } from "bun:test";
import { digestsDue, nextDigestWakeUp, type DigestMember } from "../../src/mail/digest-plan";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const member = (id: string, time_zone: string | null, last_digest_date: string | null = null, digest = true): DigestMember => ({ id, time_zone, last_digest_date, digest });

const members = [
  member("paris", "Europe/Paris"),
  member("kolkata", "Asia/Kolkata"),
  member("ny", "America/New_York"),
  member("server", null), // DOSSIER_TIME_ZONE
  member("off", "Europe/Paris", null, false),
  member("had-it", "Europe/Paris", "2026-11-29"),
  member("unknown-zone", "Mars/Olympus"),
];

const due = (now: string, serverZone: string | null = "Asia/Tokyo", list = members) =>
  digestsDue(list, new Date(now), serverZone).map((d) => `${d.memberId} ${d.zone} ${d.date} ${d.at.toISOString()}`);

test("at 07:00Z on 29 November: Paris (08:00 local), Kolkata (12:30) and the server's zone, Tokyo (16:00), are due; New York (02:00) is not; off and already had: not", () => {
  expect(due("2026-11-29T07:00:00.000Z")).toEqual([
    "paris Europe/Paris 2026-11-29 2026-11-29T07:00:00.000Z",
    "kolkata Asia/Kolkata 2026-11-29 2026-11-29T02:30:00.000Z",
    "server Asia/Tokyo 2026-11-29 2026-11-28T23:00:00.000Z",
    "unknown-zone Asia/Tokyo 2026-11-29 2026-11-28T23:00:00.000Z", // a zone the runtime does not know: the server's
  ]);
});

test("a minute before Paris's 08:00, Paris is not due; a member whose zone is unknown falls back to the server's, then UTC", () => {
  expect(due("2026-11-29T06:59:00.000Z", null)).toEqual([
    "kolkata Asia/Kolkata 2026-11-29 2026-11-29T02:30:00.000Z",
  ]);
  expect(due("2026-11-29T08:00:00.000Z", null)).toContain("unknown-zone UTC 2026-11-29 2026-11-29T08:00:00.000Z");
  expect(due("2026-11-29T08:00:00.000Z", null)).toContain("server UTC 2026-11-29 2026-11-29T08:00:00.000Z");
});

test("after downtime: sent late that same local day, and only today's; never twice for a day", () => {
  const paris = [member("p", "Europe/Paris", "2026-11-26")];
  expect(due("2026-11-29T18:00:00.000Z", null, paris)).toEqual(["p Europe/Paris 2026-11-29 2026-11-29T07:00:00.000Z"]);
  expect(due("2026-11-29T18:00:00.000Z", null, [member("p", "Europe/Paris", "2026-11-29")])).toEqual([]);
  expect(due("2026-11-29T23:30:00.000Z", null, paris)).toEqual([]); // 00:30 on the 30th: the 29th's is past, the 30th's not yet come
});

test("a member who moved west is not sent a day they already had", () => {
  // Had the 30th's in Kolkata (at 02:30Z on the 30th), then moved to New York, where 14:00Z is 09:00 on the 30th.
  expect(due("2026-11-30T14:00:00.000Z", null, [member("m", "America/New_York", "2026-11-30")])).toEqual([]);
  expect(due("2026-11-30T14:00:00.000Z", null, [member("m", "America/New_York", "2026-11-29")])).toEqual(["m America/New_York 2026-11-30 2026-11-30T13:00:00.000Z"]);
});

test("the next wake-up: the earliest next 08:00 among the zones of members who take a digest", () => {
  // Next after 07:00Z: Paris 30th 07:00Z, Kolkata 30th 02:30Z, Tokyo 29th 23:00Z, New York 29th 13:00Z.
  expect(nextDigestWakeUp(members, new Date("2026-11-29T07:00:00.000Z"), "Asia/Tokyo")?.toISOString()).toBe("2026-11-29T13:00:00.000Z");
  expect(nextDigestWakeUp([member("ny", "America/New_York")], new Date("2026-11-29T07:00:00.000Z"), null)?.toISOString()).toBe("2026-11-29T13:00:00.000Z");
  expect(nextDigestWakeUp([member("off", "UTC", null, false)], new Date(0), null)).toBeNull();
});
