// C22: retries after 1 min, 5 min, 30 min, 2 h, then failed; each wait from the end of the attempt.
import { expect, setDefaultTimeout, test } from "bun:test";
import { MAIL_MAX_ATTEMPTS, MAIL_RETRY_SCHEDULE_MS, mailAttemptResult, nextMailAttemptAt } from "../../src/mail/schedule";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const END = Date.parse("2026-11-29T08:00:00.000Z");
const MIN = 60_000;

test("the schedule is C22's: 1 min, 5 min, 30 min, 2 h; five attempts in all", () => {
  expect(MAIL_RETRY_SCHEDULE_MS).toEqual([1 * MIN, 5 * MIN, 30 * MIN, 120 * MIN]);
  expect(MAIL_MAX_ATTEMPTS).toBe(5);
});

test("nextMailAttemptAt: from the end of the failed attempt, then null", () => {
  expect([1, 2, 3, 4, 5].map((n) => nextMailAttemptAt(n, END))).toEqual([END + MIN, END + 5 * MIN, END + 30 * MIN, END + 120 * MIN, null]);
  for (const n of [0, -1, 1.5, Number.NaN, 6, 100]) expect(nextMailAttemptAt(n, END)).toBeNull();
});

test("a message that always gets a 4xx: five attempts, the last 2 h 36 min after the first ended, then failed with the last reply", () => {
  const attempts: number[] = [];
  let at = END;
  let result = mailAttemptResult({ outcome: "retry", reply: "451 later" }, 1, at);
  attempts.push(at);
  for (let n = 2; result.status === "retry" && n <= 10; n++) {
    at = result.at; // the attempt takes no time here
    attempts.push(at);
    result = mailAttemptResult({ outcome: "retry", reply: `451 later ${n}` }, n, at);
  }
  expect(attempts.map((t) => (t - END) / MIN)).toEqual([0, 1, 6, 36, 156]);
  expect(result).toEqual({ status: "failed", error: "451 later 5" });
});

test("sent and failed end the message whatever the attempt", () => {
  expect(mailAttemptResult({ outcome: "sent", reply: "250 ok" }, 3, END)).toEqual({ status: "sent", reply: "250 ok" });
  expect(mailAttemptResult({ outcome: "failed", reply: "550 no" }, 1, END)).toEqual({ status: "failed", error: "550 no" });
  expect(mailAttemptResult({ outcome: "retry", reply: "ETIMEDOUT" }, 2, END)).toEqual({ status: "retry", at: END + 5 * MIN, error: "ETIMEDOUT" });
});

test("a schedule can be handed in (a test's, a setting's)", () => {
  expect(mailAttemptResult({ outcome: "retry", reply: "x" }, 1, END, [10])).toEqual({ status: "retry", at: END + 10, error: "x" });
  expect(mailAttemptResult({ outcome: "retry", reply: "x" }, 2, END, [10])).toEqual({ status: "failed", error: "x" });
});
