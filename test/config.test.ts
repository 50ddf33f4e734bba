// C7 / C10 "Durations in env": DOSSIER_WEBHOOK_RETRY_SCHEDULE and DOSSIER_WEBHOOK_TIMEOUT are read
// by loadConfig as `<number><unit>` with unit ms, s, m, h or d; anything else is refused with a message
// naming the variable and the value. With an empty environment the defaults of C7 apply.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { DEFAULT_RETRY_SCHEDULE, listenAddress, loadConfig, parseDuration, printsStacks } from "../src/config";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const S = 1000;
const M = 60 * S;
const H = 60 * M;

/** The message loadConfig refuses `env` with (or "accepted"). */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
    return "accepted";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("C10 Durations in env: parseDuration", () => {
  test.each([
    ["250ms", 250],
    ["0ms", 0],
    ["1s", S],
    ["2s", 2 * S],
    ["1.5s", 1500],
    ["5m", 5 * M],
    ["30m", 30 * M],
    ["2h", 2 * H],
    ["24h", 24 * H],
    [" 10s ", 10 * S], // spaces around (as after a comma in a list) are ignored
    ["1d", 24 * H], // C20 adds days
    ["90d", 90 * 24 * H],
  ])("%p is %p ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test.each(["", "5", "s", "5 s", "5sec", "5S", "5M", "1D", "1w", "-1s", "+1s", "1e3ms", "1,5s", "ms5", "5s5", "0x10s", "Infinity s", "NaNs"])(
    "%p is refused with a message naming it and the units",
    (text) => {
      expect(() => parseDuration(text)).toThrow(`invalid duration "${text}": expected <number><unit> with unit ms, s, m, h or d`);
    },
  );
});

describe("C7 / C10 loadConfig: webhook settings from env", () => {
  test("an empty environment gives C7's defaults: time limit 10 s; retries after 5s, 5m, 30m, 2h, 5h, 10h, 14h, 20h, 24h", () => {
    const config = loadConfig({});
    expect(config.webhookTimeoutMs).toBe(10 * S);
    expect(config.webhookRetrySchedule).toEqual([5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H]);
    expect(DEFAULT_RETRY_SCHEDULE).toEqual(["5s", "5m", "30m", "2h", "5h", "10h", "14h", "20h", "24h"]);
    // "about 3 days in all" (C7): 75 h 35 min 5 s without jitter.
    expect(config.webhookRetrySchedule.reduce((a, b) => a + b, 0)).toBe(75 * H + 35 * M + 5 * S);
    // An empty value counts as unset.
    expect(loadConfig({ DOSSIER_WEBHOOK_TIMEOUT: "", DOSSIER_WEBHOOK_RETRY_SCHEDULE: "" })).toMatchObject({
      webhookTimeoutMs: 10 * S,
      webhookRetrySchedule: config.webhookRetrySchedule,
    });
  });

  test.each([
    ["500ms", 500],
    ["2s", 2 * S],
    ["1m", M],
    ["1h", H],
    ["0.5s", 500],
  ])("DOSSIER_WEBHOOK_TIMEOUT=%s replaces the time limit (%p ms)", (text, ms) => {
    expect(loadConfig({ DOSSIER_WEBHOOK_TIMEOUT: text }).webhookTimeoutMs).toBe(ms);
  });

  test.each([
    ["1s,2s,5s", [S, 2 * S, 5 * S]], // C7's example
    ["50ms", [50]],
    ["100ms, 1s ,2m,3h", [100, S, 2 * M, 3 * H]],
    ["0ms,0ms", [0, 0]],
  ])("DOSSIER_WEBHOOK_RETRY_SCHEDULE=%s replaces the schedule", (text, schedule) => {
    expect(loadConfig({ DOSSIER_WEBHOOK_RETRY_SCHEDULE: text }).webhookRetrySchedule).toEqual(schedule);
  });

  test.each([
    ["soon", "expected <number><unit> with unit ms, s, m, h or d"],
    ["10", "expected <number><unit> with unit ms, s, m, h or d"],
    ["10sec", "expected <number><unit> with unit ms, s, m, h or d"],
    ["1w", "expected <number><unit> with unit ms, s, m, h or d"],
    ["-2s", "expected <number><unit> with unit ms, s, m, h or d"],
    ["0s", "the time limit must be more than 0"],
    ["0ms", "the time limit must be more than 0"],
  ])("DOSSIER_WEBHOOK_TIMEOUT=%s is refused: the message names the variable, the value and the problem", (text, problem) => {
    expect(refusal({ DOSSIER_WEBHOOK_TIMEOUT: text })).toBe(
      `invalid DOSSIER_WEBHOOK_TIMEOUT "${text}": ${problem}${problem.startsWith("expected") ? ", e.g. 2s" : ""}`,
    );
  });

  test.each([
    ["1s,soon,5s", "soon"],
    ["1s,,5s", ""],
    ["1s,", ""],
    [",", ""],
    ["5", "5"],
    ["1s;2s", "1s;2s"],
    ["1s 2s", "1s 2s"],
    ["5s,1w", "1w"],
  ])("DOSSIER_WEBHOOK_RETRY_SCHEDULE=%p is refused: the message names the variable and the bad item %p", (text, item) => {
    expect(refusal({ DOSSIER_WEBHOOK_RETRY_SCHEDULE: text })).toBe(
      `invalid DOSSIER_WEBHOOK_RETRY_SCHEDULE "${text}": "${item}" is not a duration; expected durations like 5s,5m,2h (unit ms, s, m, h or d), comma separated`,
    );
  });
});

describe("C2 serve's address: --host/--port, else DOSSIER_HOST/DOSSIER_PORT, else 127.0.0.1:8080", () => {
  test.each([
    ["nothing set", {}, {}, { host: "127.0.0.1", port: 8080 }],
    ["env only", {}, { DOSSIER_HOST: "127.0.0.2", DOSSIER_PORT: "9090" }, { host: "127.0.0.2", port: 9090 }],
    ["flags win over env", { host: "::1", port: "0" }, { DOSSIER_HOST: "127.0.0.2", DOSSIER_PORT: "9090" }, { host: "::1", port: 0 }],
    ["a valid flag wins over a bad env value", { port: "65535" }, { DOSSIER_PORT: "abc" }, { host: "127.0.0.1", port: 65535 }],
  ])("%s", (_name, flags, env, address) => {
    expect(listenAddress(flags, env)).toEqual(address);
  });

  test.each([
    ["--port abc", { port: "abc" }, {}, "abc"],
    ["DOSSIER_PORT=65536", {}, { DOSSIER_PORT: "65536" }, "65536"],
    ["DOSSIER_PORT=-1", {}, { DOSSIER_PORT: "-1" }, "-1"],
    ["DOSSIER_PORT=80.5", {}, { DOSSIER_PORT: "80.5" }, "80.5"],
    ["DOSSIER_PORT empty", {}, { DOSSIER_PORT: "" }, ""],
  ])("%s is refused, naming the value", (_name, flags, env, value) => {
    expect(() => listenAddress(flags, env)).toThrow(`--port must be an integer from 0 to 65535, not "${value}"`);
  });
});

describe("C2: a command's unexpected failure prints its stack only with DOSSIER_LOG_LEVEL=debug", () => {
  test.each([
    ["DOSSIER_LOG_LEVEL=debug", { DOSSIER_LOG_LEVEL: "debug" }, true],
    ["DOSSIER_LOG_LEVEL=info", { DOSSIER_LOG_LEVEL: "info" }, false],
    ["DOSSIER_LOG_LEVEL=DEBUG", { DOSSIER_LOG_LEVEL: "DEBUG" }, false],
    ["unset", {}, false],
  ])("%s → %p", (_name, env, prints) => {
    expect(printsStacks(env)).toBe(prints);
  });
});

describe("C17 / C20 DOSSIER_EVENT_RETENTION", () => {
  test("30 days when unset or empty; a duration with C20's `d` (e.g. 90d) replaces it", () => {
    expect(loadConfig({}).eventRetentionMs).toBe(30 * 24 * H);
    expect(loadConfig({ DOSSIER_EVENT_RETENTION: "" }).eventRetentionMs).toBe(30 * 24 * H);
    expect(loadConfig({ DOSSIER_EVENT_RETENTION: "90d" }).eventRetentionMs).toBe(90 * 24 * H);
    expect(loadConfig({ DOSSIER_EVENT_RETENTION: "36h" }).eventRetentionMs).toBe(36 * H);
  });

  test.each([
    ["30", "expected <number><unit> with unit ms, s, m, h or d, e.g. 90d"],
    ["1w", "expected <number><unit> with unit ms, s, m, h or d, e.g. 90d"],
    ["0d", "the retention must be more than 0"],
  ])("DOSSIER_EVENT_RETENTION=%s is refused, naming the variable and the value", (text, problem) => {
    expect(refusal({ DOSSIER_EVENT_RETENTION: text })).toBe(`invalid DOSSIER_EVENT_RETENTION "${text}": ${problem}`);
  });
});
