// C12, C20: signing in (argon2id, the throttle, the hashing gate), setup links, a session's life,
// signing out and the CSRF check; the services beneath the session routes. Time is the app's
// clock, moved by the tests: nothing waits.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { availableParallelism } from "node:os";
import { ApiError } from "../../src/errors";
import { createMember, listMembers, newSetupLink, operator, updateMember, writeOwnerSetupLink, type Role } from "../../src/services/members";
import { HashGate, standInHash, verificationsRun } from "../../src/services/passwords";
import {
  checkCsrf,
  csrfMatches,
  currentSession,
  IDLE_MS,
  LIFETIME_MS,
  redeemSetupLink,
  sessionOf,
  signIn,
  signOut,
  type SetupInput,
} from "../../src/services/sessions";
import { addressKey, SignInThrottle, WINDOW_MS } from "../../src/services/throttle";
import { makeOrg } from "../helpers";
import { ENGINES, appOn, queryRows, rowCountsOf, type Engine } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BASE = "http://127.0.0.1:8080";
const PASSWORD = "correct horse battery";
const HERE = "192.0.2.10";
const DAY = 86_400_000;
let serial = 0;

const tokenOf = (url: string) => url.slice(url.indexOf("#token=") + 7);

/** Its own app on `engine` on a clock the test moves (and its own sign-in throttle: each test is an
 * attack; on PostgreSQL the throttle counts in the database, so each test has a database of its
 * own), an organization, and a member of `role` whose password is PASSWORD (set through its setup
 * link). */
async function world(engine: Engine, role: Role = "member") {
  const clock = { now: Date.parse("2026-11-27T09:00:00.000Z") };
  const app = await appOn(engine, { now: () => new Date(clock.now) });
  const ctx = app.dossier;
  const org = await makeOrg(app);
  const made = await createMember(ctx, operator(org.id), { email: `Person-${++serial}@Sessions.Example`, name: "Person", role }, BASE);
  await redeemSetupLink(ctx, { token: tokenOf(made.setup_url), password: PASSWORD });
  const attempt = (password: string, address = HERE, email = made.email) => signIn(ctx, { email, password }, address);
  return { app, ctx, org, member: made, clock, attempt };
}

/** The error a promise is refused with (it must be refused with an ApiError). */
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal, got a success");
}

describe.each(ENGINES)("signIn: C12 on %s", (engine) => {
  test("the right password gives a session: cookie token and CSRF token of 32 random bytes, the role's scopes, the plan", async () => {
    const { app, ctx, org, member, attempt } = await world(engine, "admin");
    const signed = await attempt(PASSWORD);
    expect(signed.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signed.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signed.member).toMatchObject({ id: member.id, role: "admin", last_sign_in_at: "2026-11-27T09:00:00.000Z" });
    const session = (await sessionOf(ctx, signed.token))!;
    expect(session).toMatchObject({ kind: "member", memberId: member.id, organizationId: org.id, role: "admin", plan: "growth", csrfToken: signed.csrf_token });
    expect(session.scopes.has("members:manage")).toBe(true);
    expect((await currentSession(ctx, session))).toEqual({ member: expect.objectContaining({ id: member.id }), csrf_token: signed.csrf_token });
    // A session is an Actor of the member services as it is.
    expect((await listMembers(ctx, session)).map((m) => m.id)).toEqual([member.id]);
    // Only a hash of the cookie's token is stored.
    const stored = await queryRows(app, "SELECT * FROM sessions");
    expect(JSON.stringify(stored)).not.toContain(signed.token);
  });

  test("C20: the email is compared case-insensitively", async () => {
    const { member, attempt } = await world(engine);
    expect((await attempt(PASSWORD, HERE, member.email.toUpperCase())).member.id).toBe(member.id);
  });

  const refusals: [string, (w: Awaited<ReturnType<typeof world>>) => Promise<unknown>][] = [
    ["a wrong password", (w) => w.attempt("wrong password!")],
    ["an unknown email", (w) => w.attempt(PASSWORD, HERE, "nobody@sessions.example")],
    ["a password over 256 characters", (w) => w.attempt("x".repeat(300))],
    ["a disabled member's right password", async (w) => {
      await w.ctx.store.write(() => w.ctx.store.members.disable(w.org.id, w.member.id, "2026-11-27T09:00:00.000Z"));
      return w.attempt(PASSWORD);
    }],
    ["a member who never set a password", async (w) => {
      const fresh = await createMember(w.ctx, operator(w.org.id), { email: `fresh-${++serial}@sessions.example`, name: "Fresh", role: "viewer" }, BASE);
      return w.attempt("", HERE, fresh.email);
    }],
  ];
  test.each(refusals)("C12: %s → 401 invalid_credentials, the same answer, no session", async (_name, act) => {
    const w = await world(engine);
    const before = (await rowCountsOf(w.app)).sessions;
    const error = await refusal(act(w));
    expect({ code: error.code, status: error.status, message: error.message }).toEqual({ code: "invalid_credentials", status: 401, message: "wrong email or password" });
    expect((await rowCountsOf(w.app)).sessions).toBe(before);
  });

  // The answer takes as long for an unknown email as for a known one because the work is the same:
  // one argon2id verification, against a stand-in hash made with the member hashes' own costs.
  // (Counted, not timed: a clock in a test measures the machine's load, not the code.)
  test("C12: every refusal runs exactly one verification, against a hash of the same algorithm and costs as a member's", async () => {
    for (const [name, act] of refusals) {
      const w = await world(engine);
      const before = verificationsRun();
      await refusal(act(w));
      expect({ name, verifications: verificationsRun() - before }).toEqual({ name, verifications: 1 });
    }
    const { ctx, member } = await world(engine);
    const costs = (hash: string) => hash.split("$").slice(0, 4).join("$"); // "$argon2id$v=19$m=19456,t=2,p=1"
    const memberHash = (await ctx.store.members.byFoldedEmail(member.email.toLowerCase()))!.passwordHash!;
    expect(costs(memberHash)).toStartWith("$argon2id$v=19$m=19456,t=2");
    expect(costs(await standInHash())).toBe(costs(memberHash));
  });
});

describe.each(ENGINES)("the sign-in throttle: C12, C20 (each test is an attack) on %s", (engine) => {
  test("5 failures for one email from one address: 429 with Retry-After, even for the right password; free again after the window", async () => {
    const { clock, attempt } = await world(engine);
    const first = clock.now;
    for (let i = 0; i < 5; i++) {
      expect((await refusal(attempt(`guess number ${i}`))).code).toBe("invalid_credentials");
      clock.now += 1000;
    }
    const tripped = await refusal(attempt(PASSWORD));
    expect({ code: tripped.code, status: tripped.status }).toEqual({ code: "rate_limited", status: 429 });
    expect(tripped.retryAfter).toBe(Math.ceil((first + WINDOW_MS - clock.now) / 1000));
    clock.now = first + WINDOW_MS - 1;
    expect((await refusal(attempt(PASSWORD))).code).toBe("rate_limited");
    clock.now = first + WINDOW_MS;
    expect((await attempt(PASSWORD)).member).toBeDefined();
  });

  test("C20: an attempt answered 429 is not counted", async () => {
    const { clock, attempt } = await world(engine);
    const first = clock.now;
    for (let i = 0; i < 5; i++) await refusal(attempt(`guess number ${i}`));
    for (let i = 0; i < 10; i++) expect((await refusal(attempt(`more guesses ${i}`))).code).toBe("rate_limited");
    clock.now = first + WINDOW_MS;
    // The five failures left the window together; ten counted 429s would still hold it.
    expect((await attempt(PASSWORD)).member).toBeDefined();
  });

  test("guesses sent at once: no more than 5 are checked, the rest are 429", async () => {
    const { attempt } = await world(engine);
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => attempt(`parallel guess ${i}`)));
    const codes = results.map((r) => (r.status === "rejected" ? (r.reason as ApiError).code : "ok"));
    expect(codes.filter((c) => c === "invalid_credentials")).toHaveLength(5);
    expect(codes.filter((c) => c === "rate_limited")).toHaveLength(7);
  });

  test("a right password sent beside wrong ones is not counted as a failure", async () => {
    const { attempt } = await world(engine);
    const results = await Promise.allSettled([attempt("guess 1"), attempt(PASSWORD), attempt("guess 2"), attempt("guess 3"), attempt("guess 4")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled", "rejected", "rejected", "rejected"]);
    expect((await refusal(attempt("guess 5"))).code).toBe("invalid_credentials");
    expect((await refusal(attempt(PASSWORD))).code).toBe("rate_limited");
  });

  test("C20: a successful sign-in does not clear the count", async () => {
    const { attempt } = await world(engine);
    for (let i = 0; i < 4; i++) await refusal(attempt(`guess number ${i}`));
    await attempt(PASSWORD);
    await refusal(attempt("one more guess"));
    expect((await refusal(attempt(PASSWORD))).code).toBe("rate_limited");
  });

  test("C20 lock-out: failures from one address do not lock the member out from another, nor another member out from it", async () => {
    const { ctx, org, attempt } = await world(engine);
    for (let i = 0; i < 5; i++) await refusal(attempt(`guess number ${i}`));
    expect((await refusal(attempt(PASSWORD))).code).toBe("rate_limited");
    expect((await attempt(PASSWORD, "203.0.113.7")).member).toBeDefined();
    const colleague = await createMember(ctx, operator(org.id), { email: `colleague-${++serial}@sessions.example`, name: "Colleague", role: "viewer" }, BASE);
    await redeemSetupLink(ctx, { token: tokenOf(colleague.setup_url), password: PASSWORD });
    expect((await attempt(PASSWORD, HERE, colleague.email)).member.id).toBe(colleague.id);
  });

  test("30 failures from one address over many emails trip the address, for every email; another address is free", async () => {
    const { attempt } = await world(engine);
    for (let i = 0; i < 30; i++) expect((await refusal(attempt("wrong password!", HERE, `spray-${i}@sessions.example`))).code).toBe("invalid_credentials");
    expect((await refusal(attempt(PASSWORD))).code).toBe("rate_limited");
    expect((await refusal(attempt("wrong password!", HERE, "spray-new@sessions.example"))).code).toBe("rate_limited");
    expect((await attempt(PASSWORD, "203.0.113.7")).member).toBeDefined();
  });

  test("C20: IPv6 addresses count by their /64, in both counts", async () => {
    const { attempt } = await world(engine);
    for (let i = 1; i <= 5; i++) await refusal(attempt("wrong password!", `2001:db8:1:2::${i}`));
    expect((await refusal(attempt(PASSWORD, "2001:db8:1:2:ffff:ffff:ffff:ffff"))).code).toBe("rate_limited");
    expect((await attempt(PASSWORD, "2001:db8:1:3::1")).member).toBeDefined();
  });

  test.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["[2001:db8::1]", "2001:db8:0:0::/64"],
    ["2001:DB8:0:0:1:2:3:4", "2001:db8:0:0::/64"],
    ["2001:db8::1%eth0", "2001:db8:0:0::/64"],
    ["2001:0db8:0000:0001::", "2001:db8:0:1::/64"],
    ["::1", "0:0:0:0::/64"],
    ["64:ff9b::192.0.2.1", "64:ff9b:0:0::/64"],
  ])("addressKey(%p) = %p", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  test("the throttle alone: Retry-After is the wait until the oldest counted failure leaves the window, at least 1 s", () => {
    const throttle = new SignInThrottle();
    for (let t = 0; t < 5; t++) throttle.fail("a@x.example", HERE, t * 60_000);
    expect(throttle.retryAfter("a@x.example", HERE, 4 * 60_000)).toBe(11 * 60);
    expect(throttle.retryAfter("a@x.example", HERE, WINDOW_MS - 1)).toBe(1);
    expect(throttle.retryAfter("a@x.example", HERE, WINDOW_MS)).toBe(0);
    expect(throttle.retryAfter("b@x.example", HERE, 4 * 60_000)).toBe(0);
    // A failure taken back (the password was right) leaves the others counted.
    const other = new SignInThrottle();
    for (let t = 0; t < 4; t++) other.fail("a@x.example", HERE, t);
    other.fail("a@x.example", HERE, 10)();
    expect(other.retryAfter("a@x.example", HERE, 20)).toBe(0);
    other.fail("a@x.example", HERE, 30);
    expect(other.retryAfter("a@x.example", HERE, 40)).toBe(WINDOW_MS / 1000);
  });
});

describe.each(ENGINES)("the hashing gate: C20 'password hashing under load' on %s", (engine) => {
  test("one job per slot, a bounded line, and beyond it 503 server_busy with Retry-After 1", async () => {
    const gate = new HashGate(1, 2);
    const releases: (() => void)[] = [];
    const job = () => gate.run(() => new Promise<string>((resolve) => releases.push(() => resolve("done"))));
    const accepted = [job(), job(), job()];
    await Bun.sleep(0);
    expect(gate.busy).toEqual({ active: 1, waiting: 2 });
    const refused = await refusal(job());
    expect({ code: refused.code, status: refused.status, retryAfter: refused.retryAfter }).toEqual({ code: "server_busy", status: 503, retryAfter: 1 });
    for (let i = 0; i < 3; i++) {
      expect(releases).toHaveLength(i + 1); // one at a time
      releases[i]();
      await Bun.sleep(0);
    }
    expect(await Promise.all(accepted)).toEqual(["done", "done", "done"]);
    expect(gate.busy).toEqual({ active: 0, waiting: 0 });
  });

  test("sign-ins beyond one hash per core and 64 waiting are refused at once with 503 server_busy, and not counted", async () => {
    const { attempt } = await world(engine);
    const admitted = availableParallelism() + 64;
    const results = await Promise.allSettled(Array.from({ length: admitted + 5 }, (_, i) => attempt("wrong password!", `10.${i >> 8}.${i & 255}.1`)));
    const codes = results.map((r) => (r.status === "rejected" ? (r.reason as ApiError).code : "ok"));
    expect(codes.filter((c) => c === "invalid_credentials")).toHaveLength(admitted);
    // Which five: those that reach the gate last. On SQLite the member is read at once, so the
    // gate sees the attempts in the order they were made; on PostgreSQL in the order its reads end.
    expect(codes.filter((c) => c === "server_busy")).toHaveLength(5);
    if (engine === "sqlite") expect(codes.slice(admitted)).toEqual(Array(5).fill("server_busy"));
    const busy = codes.indexOf("server_busy");
    expect((results[busy] as PromiseRejectedResult).reason).toMatchObject({ status: 503, retryAfter: 1 });
    // A refused attempt's address has no failure counted: five more wrong guesses are all checked.
    for (let i = 0; i < 5; i++) expect((await refusal(attempt("wrong password!", `10.${busy >> 8}.${busy & 255}.1`))).code).toBe("invalid_credentials");
  });

  test("a job that fails frees its slot", async () => {
    const gate = new HashGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => 1)).toBe(1);
  });
});

describe.each(ENGINES)("a session's life: C12, C20 on %s", (engine) => {
  test("it ends after 14 days without use", async () => {
    const { ctx, clock, attempt } = await world(engine);
    const { token } = await attempt(PASSWORD);
    clock.now += IDLE_MS - 1;
    expect((await sessionOf(ctx, token))).not.toBeNull();
    await ctx.store.idle(); // the use above is recorded
    clock.now += IDLE_MS - 1;
    expect((await sessionOf(ctx, token))).not.toBeNull();
    await ctx.store.idle();
    clock.now += IDLE_MS;
    expect((await sessionOf(ctx, token))).toBeNull();
  });

  test("it ends 30 days after sign-in, however often it is used", async () => {
    const { ctx, clock, attempt } = await world(engine);
    const start = clock.now;
    const { token } = await attempt(PASSWORD);
    for (clock.now = start + 10 * DAY; clock.now < start + LIFETIME_MS; clock.now += 10 * DAY) {
      expect((await sessionOf(ctx, token))).not.toBeNull();
      await ctx.store.idle();
    }
    clock.now = start + LIFETIME_MS - 1;
    expect((await sessionOf(ctx, token))).not.toBeNull();
    clock.now = start + LIFETIME_MS;
    expect((await sessionOf(ctx, token))).toBeNull();
  });

  test("last_used_at is written at most once a minute", async () => {
    const { app, ctx, clock, attempt } = await world(engine);
    const { token } = await attempt(PASSWORD);
    const id = (await sessionOf(ctx, token))!.sessionId;
    const lastUsed = async () => (await queryRows<{ at: string }>(app, "SELECT last_used_at AS at FROM sessions WHERE id = ?", id))[0].at;
    const signedAt = await lastUsed();
    clock.now += 59_000;
    await sessionOf(ctx, token);
    await ctx.store.idle();
    expect(await lastUsed()).toBe(signedAt);
    clock.now += 1000;
    await sessionOf(ctx, token);
    await ctx.store.idle();
    expect(await lastUsed()).toBe(new Date(clock.now).toISOString());
  });

  test("C20: a role change takes effect on the session's next request", async () => {
    const { ctx, org, member, attempt } = await world(engine, "viewer");
    const { token } = await attempt(PASSWORD);
    expect((await sessionOf(ctx, token))!.scopes.has("dossiers:write")).toBe(false);
    await updateMember(ctx, operator(org.id), member.id, { role: "member" });
    expect((await sessionOf(ctx, token))).toMatchObject({ role: "member" });
    expect((await sessionOf(ctx, token))!.scopes.has("dossiers:write")).toBe(true);
  });

  test("a token that is malformed, unknown or signed out finds nothing; signing out twice is fine", async () => {
    const { ctx, attempt } = await world(engine);
    const { token } = await attempt(PASSWORD);
    expect((await sessionOf(ctx, null))).toBeNull();
    expect((await sessionOf(ctx, "short"))).toBeNull();
    expect((await sessionOf(ctx, "A".repeat(43)))).toBeNull();
    expect(await signOut(ctx, token)).toEqual({ signed_out: true });
    expect((await sessionOf(ctx, token))).toBeNull();
    expect(await signOut(ctx, token)).toEqual({ signed_out: true });
  });

  test("C12: the CSRF check wants the session's own token", async () => {
    const { ctx, attempt } = await world(engine);
    const signed = await attempt(PASSWORD);
    const other = await attempt(PASSWORD);
    const session = (await sessionOf(ctx, signed.token))!;
    expect(csrfMatches(session, signed.csrf_token)).toBe(true);
    expect(csrfMatches(session, other.csrf_token)).toBe(false);
    expect(csrfMatches(session, null)).toBe(false);
    expect(csrfMatches(session, "")).toBe(false);
    expect(csrfMatches(session, signed.csrf_token + "x")).toBe(false);
    const error = await refusal(Promise.resolve().then(() => checkCsrf(session, undefined)));
    expect({ code: error.code, status: error.status }).toEqual({ code: "csrf_failed", status: 403 });
  });
});

describe.each(ENGINES)("redeemSetupLink: C12, C20 on %s", (engine) => {
  /** A member with a fresh link (no password yet), and the first start's owner link of a new organization. */
  async function links() {
    const w = await world(engine);
    const fresh = await createMember(w.ctx, operator(w.org.id), { email: `fresh-${++serial}@sessions.example`, name: "Fresh", role: "viewer" }, BASE);
    const firstOrg = await makeOrg(w.app);
    const ownerUrl = await w.ctx.store.write(() => writeOwnerSetupLink(w.ctx, firstOrg.id, BASE));
    return { ...w, fresh, token: tokenOf(fresh.setup_url), ownerToken: tokenOf(ownerUrl), firstOrg };
  }
  type Links = Awaited<ReturnType<typeof links>>;

  const refused: [string, ApiError["code"], (l: Links) => SetupInput | Promise<SetupInput>][] = [
    ["an unknown token", "invalid_setup_link", () => ({ token: "A".repeat(43), password: PASSWORD })],
    ["a malformed token", "invalid_setup_link", () => ({ token: "not a token", password: PASSWORD })],
    ["a token past its 7 days", "invalid_setup_link", (l) => {
      l.clock.now += 7 * DAY;
      return { token: l.token, password: PASSWORD };
    }],
    ["a used token", "invalid_setup_link", async (l) => {
      await redeemSetupLink(l.ctx, { token: l.token, password: PASSWORD });
      return { token: l.token, password: "another good password" };
    }],
    ["an unknown token with a short password (the link is checked first)", "invalid_setup_link", () => ({ token: "A".repeat(43), password: "short" })],
    ["a password of 9 characters", "invalid_body", (l) => ({ token: l.token, password: "123456789" })],
    ["a password of 257 characters", "invalid_body", (l) => ({ token: l.token, password: "p".repeat(257) })],
    ["a password that is not a string", "invalid_body", (l) => ({ token: l.token, password: 1234567890 })],
    ["the first start's link without email", "invalid_body", (l) => ({ token: l.ownerToken, password: PASSWORD, name: "Olga Owner" })],
    ["the first start's link without name", "invalid_body", (l) => ({ token: l.ownerToken, password: PASSWORD, email: "olga@sessions.example" })],
    ["the first start's link with a member's email", "duplicate_member", (l) => ({ token: l.ownerToken, password: PASSWORD, email: l.member.email.toUpperCase(), name: "Olga" })],
  ];
  test.each(refused)("%s → %s, nothing changed", async (_name, code, input) => {
    const l = await links();
    const body = await input(l);
    const before = await rowCountsOf(l.app);
    const error = await refusal(redeemSetupLink(l.ctx, body));
    expect(error.code).toBe(code);
    expect(await rowCountsOf(l.app)).toEqual(before);
  });

  test("C20: a refused password does not use the link up; 10 and 256 characters are accepted", async () => {
    const l = await links();
    await refusal(redeemSetupLink(l.ctx, { token: l.token, password: "too short" }));
    const signed = await redeemSetupLink(l.ctx, { token: l.token, password: "p".repeat(256) });
    expect(signed.member.id).toBe(l.fresh.id);
    expect((await l.attempt("p".repeat(256), HERE, l.fresh.email)).member.id).toBe(l.fresh.id);
    const again = tokenOf((await createMember(l.ctx, operator(l.org.id), { email: `ten-${++serial}@sessions.example`, name: "Ten", role: "viewer" }, BASE)).setup_url);
    expect((await redeemSetupLink(l.ctx, { token: again, password: "0123456789" })).member.role).toBe("viewer");
  });

  test("a link works until the end of its 7th day, once", async () => {
    const l = await links();
    l.clock.now += 7 * DAY - 1;
    const signed = await redeemSetupLink(l.ctx, { token: l.token, password: PASSWORD, email: "ignored@sessions.example", name: "Ignored" });
    expect(signed.member).toMatchObject({ id: l.fresh.id, email: l.fresh.email, name: "Fresh", last_sign_in_at: new Date(l.clock.now).toISOString() });
    expect((await sessionOf(l.ctx, signed.token))?.memberId).toBe(l.fresh.id);
    expect((await refusal(redeemSetupLink(l.ctx, { token: l.token, password: PASSWORD }))).code).toBe("invalid_setup_link");
  });

  test("C20: a password set from a setup link ends every other session of the member", async () => {
    const l = await links();
    const first = await l.attempt(PASSWORD);
    const second = await l.attempt(PASSWORD, "203.0.113.9");
    const url = (await newSetupLink(l.ctx, operator(l.org.id), l.member.id, BASE)).setup_url;
    const renewed = await redeemSetupLink(l.ctx, { token: tokenOf(url), password: "a brand new password" });
    expect((await sessionOf(l.ctx, first.token))).toBeNull();
    expect((await sessionOf(l.ctx, second.token))).toBeNull();
    expect((await sessionOf(l.ctx, renewed.token))?.memberId).toBe(l.member.id);
    expect((await refusal(l.attempt(PASSWORD, "203.0.113.20"))).code).toBe("invalid_credentials");
    expect((await l.attempt("a brand new password", "203.0.113.21")).member.id).toBe(l.member.id);
  });

  test("C12: the first start's owner link makes the organization's owner, who chooses email, name and password", async () => {
    const l = await links();
    const signed = await redeemSetupLink(l.ctx, { token: l.ownerToken, password: PASSWORD, email: "Olga@Sessions.Example", name: "  Olga Owner " });
    expect(signed.member).toMatchObject({ organization_id: l.firstOrg.id, email: "Olga@Sessions.Example", name: "Olga Owner", role: "owner", disabled_at: null });
    expect((await sessionOf(l.ctx, signed.token))).toMatchObject({ role: "owner", organizationId: l.firstOrg.id });
    expect((await refusal(redeemSetupLink(l.ctx, { token: l.ownerToken, password: PASSWORD, email: "other@sessions.example", name: "Other" }))).code).toBe("invalid_setup_link");
    expect((await l.attempt(PASSWORD, HERE, "olga@sessions.example")).member.role).toBe("owner");
  });

  test("two uses of one link at once: one signs in, the other is refused", async () => {
    const l = await links();
    const results = await Promise.allSettled([
      redeemSetupLink(l.ctx, { token: l.token, password: "first password!" }),
      redeemSetupLink(l.ctx, { token: l.token, password: "second password" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: "invalid_setup_link" });
  });
});
