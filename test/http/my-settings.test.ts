// C22: a member's own settings (PATCH /session/member: time_zone, digest) and the private calendar
// feed (POST /session/calendar-link, GET /calendar/<token>.ics: RFC 5545, VTODO and VEVENT, ETag,
// a new link voids the old one), read back with node-ical, not with the library that wrote it.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import ical, { type VEvent, type VTodo } from "node-ical";
import { call, makeOrg } from "../helpers";
import { refused, scenarios, signedInMember } from "../helpers/scenario";
import { ENGINES, appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("my settings on %s", (engine) => {
  scenarios("GET/PATCH /session/member, POST /session/calendar-link: C22's rules", () => ({}), [
    { name: "C22: a member reads their settings: the server's zone (UTC) by default, digest on", as: "viewer", method: "GET", path: "/session/member", status: 200, json: { data: { time_zone: null, effective_time_zone: "UTC", digest: true, calendar_link: false } } },
    { name: "C22: an IANA zone, kept in its canonical spelling", as: "member", method: "PATCH", path: "/session/member", body: { time_zone: "america/new_york" }, status: 200, json: { data: { time_zone: "America/New_York", effective_time_zone: "America/New_York" } } },
    { name: "C22: digest false", as: "viewer", method: "PATCH", path: "/session/member", body: { digest: false }, status: 200, json: { data: { digest: false } } },
    { name: "C22: time_zone null is the server's", as: "member", method: "PATCH", path: "/session/member", body: { time_zone: null }, status: 200, json: { data: { time_zone: null } } },
    { name: "C22: a zone that is not an IANA name → 400 naming time_zone", as: "member", method: "PATCH", path: "/session/member", body: { time_zone: "Mars/Olympus" }, status: 400, json: refused("invalid_body", "time_zone") },
    { name: "C22: a fixed offset is not a zone name → 400 naming time_zone", as: "member", method: "PATCH", path: "/session/member", body: { time_zone: "+01:00" }, status: 400, json: refused("invalid_body", "time_zone") },
    { name: "C22: digest not a boolean → 400 naming digest", as: "member", method: "PATCH", path: "/session/member", body: { digest: "no" }, status: 400, json: refused("invalid_body", "digest") },
    { name: "C3: an unknown field → 400 naming it", as: "member", method: "PATCH", path: "/session/member", body: { email: "x@example.com" }, status: 400, json: refused("invalid_body", "email") },
    { name: "C20: with an API key → 401 (no member)", method: "PATCH", path: "/session/member", body: { digest: false }, status: 401, json: refused("unauthorized") },
    { name: "C20: GET with an API key → 401", method: "GET", path: "/session/member", status: 401, json: refused("unauthorized") },
    { name: "C22: a calendar link for a member → 201 with the URL", as: "viewer", method: "POST", path: "/session/calendar-link", status: 201, json: { data: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8080\/calendar\/[A-Za-z0-9_-]{43}\.ics$/) } } },
    { name: "C22: a calendar link with an API key → 401", method: "POST", path: "/session/calendar-link", status: 401, json: refused("unauthorized") },
  ], { engine });

  describe("C22: the calendar feed", async () => {
    const clock = { now: Date.parse("2026-11-30T09:00:00.000Z") };
    const app = await appOn(engine, { now: () => new Date(clock.now), config: { publicUrl: "https://dossier.example.com" } });
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    const mia = await signedInMember(app, org.id, "member");
    const bob = await signedInMember(app, org.id, "member");
    const make = async (body: Record<string, unknown>) => (await call(app, "POST", "/tasks", { key: org.key, body: { assigned_to: mia.id, ...body } })).json.data;
    const link = async (who = mia) => {
      const answer = await call(app, "POST", "/session/calendar-link", { headers: who.headers });
      expect(answer.status).toBe(201);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      return new URL(answer.json.data.url).pathname;
    };
    const feed = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost${path}`, { headers }));

    test("RFC 5545: a VTODO and a VEVENT per open task with a due date, the member's only; CRLF; ETag and If-None-Match", async () => {
      const timed = await make({ title: "Call Zoë, re: offer; \"urgent\"", due_at: "2026-12-01T14:30:00.000Z", notes: "Line one\nline two" });
      const allDay = await make({ title: "Send contract", due_at: "2026-12-02T00:00:00.000Z" }); // midnight in UTC, the member's zone
      await make({ title: "No date" });
      await make({ title: "Done", due_at: "2026-12-01T10:00:00.000Z", status: "done" });
      await make({ title: "Bob's", due_at: "2026-12-01T10:00:00.000Z", assigned_to: bob.id });
      const path = await link();
      const answer = await feed(path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      const body = await answer.text();
      expect(body.split("\r\n").every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
      expect(body.replaceAll("\r\n", "")).not.toContain("\n");
      const items = Object.values(ical.sync.parseICS(body));
      const todos = items.filter((item): item is VTodo => item?.type === "VTODO");
      const events = items.filter((item): item is VEvent => item?.type === "VEVENT");
      expect(todos.map((t) => t.summary).sort()).toEqual([timed.title, allDay.title].sort());
      expect(events).toHaveLength(2);
      const event = events.find((e) => e.summary === timed.title)!;
      expect(event.start.toISOString()).toBe("2026-12-01T14:30:00.000Z");
      expect(event.description).toContain("Line one\nline two");
      const day = events.find((e) => e.summary === allDay.title)!;
      expect(day.datetype).toBe("date");
      expect(todos.find((t) => t.summary === timed.title)!.uid).toBe(`${timed.id}@dossier.example.com`);

      const etag = answer.headers.get("etag")!;
      expect(etag).toMatch(/^"/);
      const again = await feed(path, { "if-none-match": etag });
      expect(again.status).toBe(304);
      // A change of a task changes the feed and its tag.
      expect((await call(app, "PATCH", `/tasks/${allDay.id}`, { key: org.key, body: { status: "done" } })).status).toBe(200);
      const changed = await feed(path, { "if-none-match": etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get("etag")).not.toBe(etag);
      expect(Object.values(ical.sync.parseICS(await changed.text())).filter((item) => item?.type === "VTODO")).toHaveLength(1);
    });

    test("a new link voids the old one; an unknown token, a disabled member: 404; GET /session/member says a link exists", async () => {
      const old = await link(bob);
      expect((await feed(old)).status).toBe(200);
      const fresh = await link(bob);
      expect(fresh).not.toBe(old);
      expect((await feed(old)).status).toBe(404);
      expect((await feed(fresh)).status).toBe(200);
      expect((await feed(`/calendar/${"A".repeat(43)}.ics`)).status).toBe(404);
      expect((await feed(fresh.replace(".ics", ".ical"))).status).toBe(404);
      expect((await call(app, "GET", "/session/member", { headers: bob.headers })).json.data.calendar_link).toBe(true);
      expect((await call(app, "DELETE", `/members/${bob.id}`, { key: org.key })).status).toBe(200);
      expect((await feed(fresh)).status).toBe(404);
    });
  });
});
