// Issue 8 logs: one line per request (JSON, or readable with DOSSIER_LOG=pretty), one per webhook
// attempt, one per unexpected error; never a key, a secret or a body. DOSSIER_LOG and
// DOSSIER_LOG_LEVEL are read from the environment (openApp's `env`, or a real process's).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Elysia } from "elysia";
import { openApp, type AppOptions, type DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { ApiError } from "../../src/errors";
import { errors } from "../../src/http/errors";
import { requestId } from "../../src/http/request-id";
import { noteOrganization, requestLog } from "../../src/http/request-log";
import { setEndpoint } from "../../src/services/webhooks";
import { call, makeKey, makeOrg, tempDir, until } from "../helpers";
import { ENGINES, appOn, migratedDatabase, queryRows, type Engine } from "../helpers/stores";
import { MAIN } from "../helpers/process";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** Collects what is written on stderr from start() to stop(), split into lines. */
function stderrCapture() {
  const chunks: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (chunks.push(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk)), true)) as typeof process.stderr.write;
  return {
    text: () => chunks.join(""),
    lines: () => chunks.join("").split("\n").filter((line) => line !== ""),
    json: () => chunks.join("").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, any>),
    stop: () => {
      process.stderr.write = write;
    },
  };
}

async function captureStderr(work: () => Promise<void>): Promise<string[]> {
  await Bun.sleep(20); // the lines of earlier requests are written after their responses: not ours
  const capture = stderrCapture();
  try {
    await work();
    await Bun.sleep(20); // the line is written after the response
  } finally {
    capture.stop();
  }
  return capture.lines();
}

// Apps whose settings come from an environment (openApp's `env`), not from test/helpers' config.
const opened: DossierApp<Store>[] = [];
afterAll(async () => {
  for (const app of opened.splice(0)) await app.close();
});
async function appWithEnv(engine: Engine, env: Record<string, string>, options: AppOptions = {}): Promise<DossierApp<Store>> {
  const store = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase(), DOSSIER_DATABASE_POOL: "3" } : {};
  const app = await openApp({ dataDir: tempDir(), webhooks: false, env: { ...store, ...env }, ...options });
  opened.push(app);
  return app;
}

const servers: { stop(force?: boolean): unknown }[] = [];
afterAll(() => {
  for (const server of servers.splice(0)) server.stop(true);
});
/** A real webhook receiver on 127.0.0.1 answering `status`. */
function receiver(status: number) {
  let count = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      await request.text();
      count++;
      return new Response(status === 200 ? "ok" : "nope", { status });
    },
  });
  servers.push(server);
  return { url: `http://127.0.0.1:${server.port}/hook`, count: () => count };
}

describe.each(ENGINES)("request log on %s", (engine) => {
  /** The engine's words for a missing table, as its error says them. */
  const noTable = (table: string) => (engine === "sqlite" ? `no such table: ${table}` : `relation "${table}" does not exist`);

  test("one JSON line per request with the route pattern, status, duration and organization", async () => {
    const app = await appOn(engine, { config: { log: "json" } });
    const org = await makeOrg(app);
    const wrongKey = org.key.slice(0, -1) + (org.key.endsWith("Z") ? "Y" : "Z"); // one character off
    const lines = await captureStderr(async () => {
      await call(app, "GET", "/flows/00000000-0000-4000-8000-000000000000/stages", { key: org.key, headers: { "x-request-id": "req-1" } });
      await call(app, "GET", "/flows?per_page=0", { key: org.key, headers: { "x-request-id": "req-2" } });
      await call(app, "GET", "/flows", { headers: { authorization: `Bearer ${wrongKey}`, "x-request-id": "req-3" } });
    });
    const entries = lines.map((line) => JSON.parse(line)).filter((e) => e.msg === "request");
    expect(entries.map((e) => [e.request_id, e.method, e.route, e.status, e.organization_id])).toEqual([
      ["req-1", "GET", "/api/v1/flows/:id/stages", 404, org.id],
      ["req-2", "GET", "/api/v1/flows", 400, org.id],
      ["req-3", "GET", "/api/v1/flows", 401, null],
    ]);
    for (const entry of entries) {
      expect(typeof entry.duration_ms).toBe("number");
      expect(entry.time).toMatch(/Z$/);
    }
    expect(lines.join("")).not.toContain(org.key.slice(9));
    expect(lines.join("")).not.toContain(org.key.slice(9, -1));
  });

  test("DOSSIER_LOG_LEVEL=warn silences request lines", async () => {
    const app = await appOn(engine, { config: { log: "json", logLevel: "warn" } });
    const lines = await captureStderr(async () => {
      await call(app, "GET", "/healthz");
    });
    expect(lines).toEqual([]);
  });

  test("DOSSIER_LOG=pretty from the environment gives one readable line per request", async () => {
    const app = await appWithEnv(engine, { DOSSIER_LOG: "pretty" });
    const org = await makeOrg(app);
    const lines = await captureStderr(async () => {
      await call(app, "GET", "/healthz", { headers: { "x-request-id": "pretty-1" } });
      await call(app, "GET", "/flows", { key: org.key, headers: { "x-request-id": "pretty-2" } });
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO request request_id=pretty-1 method=GET route=\/healthz status=200 duration_ms=[\d.]+ organization_id=null$/);
    expect(lines[1]).toMatch(
      new RegExp(`^\\S+Z INFO request request_id=pretty-2 method=GET route=/api/v1/flows status=200 duration_ms=[\\d.]+ organization_id=${org.id}$`),
    );
    expect(lines.join("")).not.toContain(org.key.slice(9));
  });

  test("DOSSIER_LOG=off from the environment writes nothing, not even a 500", async () => {
    const app = await appWithEnv(engine, { DOSSIER_LOG: "off", DOSSIER_LOG_LEVEL: "debug" });
    const org = await makeOrg(app);
    const lines = await captureStderr(async () => {
      await call(app, "GET", "/healthz");
      await call(app, "GET", "/flows", { key: org.key });
      await call(app, "GET", "/flows");
      await queryRows(app, "ALTER TABLE flows RENAME TO flows_gone");
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(500);
    });
    expect(lines).toEqual([]);
  });

  // Its listening line names SQLite's file; on PostgreSQL: test/cli/serve-postgres.test.ts.
  test.if(engine === "sqlite")("a real `dossier serve` with DOSSIER_LOG=pretty logs readable lines, with DOSSIER_LOG=off nothing", async () => {
    for (const mode of ["pretty", "off"] as const) {
      const port = await freePort();
      const proc = Bun.spawn([process.execPath, MAIN, "serve", "--port", String(port), "--no-bootstrap", "--data", tempDir()], {
        env: { ...process.env, DOSSIER_LOG: mode, DOSSIER_LOG_LEVEL: "info" },
        stdout: "ignore",
        stderr: "pipe",
      });
      let up = false;
      for (let i = 0; i < 300 && !up && proc.exitCode === null; i++) {
        up = (await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { "x-request-id": "proc-1" } }).catch(() => null))?.status === 200;
        if (!up) await Bun.sleep(50);
      }
      if (!up) {
        proc.kill(9);
        throw new Error(`serve (${mode}) did not answer: ${await new Response(proc.stderr as ReadableStream).text()}`);
      }
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      const text = await new Response(proc.stderr as ReadableStream).text();
      if (mode === "off") {
        expect(text).toBe("");
        continue;
      }
      const lines = text.split("\n").filter(Boolean);
      expect(lines[0]).toMatch(new RegExp(`^\\S+Z INFO listening url=http://127\\.0\\.0\\.1:${port} data=(\\S+) store="sqlite \\1/dossier\\.db" files="disk \\1/files"$`));
      expect(lines).toContainEqual(expect.stringMatching(/ INFO request request_id=proc-1 method=GET route=\/healthz status=200 duration_ms=[\d.]+ organization_id=null$/));
      expect(lines).toContainEqual(expect.stringMatching(/ INFO stopping signal=SIGTERM$/));
      for (const line of lines) expect(() => JSON.parse(line)).toThrow(); // not JSON
    }
  });

  test("each webhook attempt is logged once recorded: succeeded and retry at info, failed at warn; no secret, no body", async () => {
    const app = await appOn(engine, { webhooks: true, config: { log: "json", webhookRetrySchedule: [30], webhookTimeoutMs: 1000 } });
    const good = await makeOrg(app);
    const bad = await makeOrg(app);
    const goodHook = receiver(200);
    const badHook = receiver(500);
    const secrets = [(await setEndpoint(app.dossier, good.id, goodHook.url)).secret, (await setEndpoint(app.dossier, bad.id, badHook.url)).secret];
    const capture = stderrCapture();
    let attempts: Record<string, any>[];
    let created: { good: string; bad: string };
    try {
      const one = await call(app, "POST", "/dossiers", { key: good.key, body: { type: "candidate", name: "Marker-Webhook-Good" } });
      const two = await call(app, "POST", "/dossiers", { key: bad.key, body: { type: "candidate", name: "Marker-Webhook-Bad" } });
      expect([one.status, two.status]).toEqual([201, 201]);
      created = { good: one.json.data.id, bad: two.json.data.id };
      attempts = await until(() => {
        const lines = capture.json().filter((e) => e.msg === "webhook attempt");
        return lines.length >= 3 ? lines : undefined;
      }, 5000, "three webhook attempt lines");
      await Bun.sleep(50); // nothing more is attempted: the schedule has one retry
    } finally {
      capture.stop();
    }
    attempts = capture.json().filter((e) => e.msg === "webhook attempt");
    const shape = (e: Record<string, any>) => [e.level, e.organization_id, e.event_type, e.attempt, e.status_code, e.error, e.outcome];
    expect(attempts.filter((e) => e.organization_id === good.id).map(shape)).toEqual([["info", good.id, "dossier.created", 1, 200, null, "succeeded"]]);
    expect(attempts.filter((e) => e.organization_id === bad.id).map(shape)).toEqual([
      ["info", bad.id, "dossier.created", 1, 500, "HTTP 500", "retry"],
      ["warn", bad.id, "dossier.created", 2, 500, "HTTP 500", "failed"],
    ]);
    for (const entry of attempts) {
      expect(entry.event_id).toMatch(/^evt_/);
      expect(typeof entry.duration_ms).toBe("number");
      expect(entry.time).toMatch(/Z$/);
    }
    const retry = attempts.find((e) => e.outcome === "retry")!;
    expect(Date.parse(retry.next_attempt_at)).toBeGreaterThan(Date.parse(retry.time) - 1000);
    expect(goodHook.count()).toBe(1);
    expect(badHook.count()).toBe(2);
    const text = capture.text();
    for (const secret of secrets) expect(text).not.toContain(secret.slice(6));
    expect(text).not.toContain("Marker-Webhook");
    expect(text).not.toContain(created!.good); // the body (the dossier) is not logged, only its event's id
    expect(text).not.toContain(good.key.slice(9));
  });

  test("an unexpected error answers 500 without detail and logs one error line with the request id", async () => {
    const app = await appOn(engine, { config: { log: "json" } });
    const org = await makeOrg(app);
    const dossier = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada" } });
    await queryRows(app, "ALTER TABLE notes RENAME TO notes_gone");
    let answer: Awaited<ReturnType<typeof call>>;
    const lines = await captureStderr(async () => {
      answer = await call(app, "POST", `/dossiers/${dossier.json.data.id}/notes`, {
        key: org.key,
        body: { content: "Marker-Note-Body" },
        headers: { "x-request-id": "boom-1" },
      });
    });
    expect(answer!.status).toBe(500);
    expect(answer!.json).toEqual({ error: { code: "internal", message: "an unexpected error occurred; it is safe to retry", request_id: expect.any(String) } });
    expect(answer!.headers.get("x-request-id")).toBe("boom-1");
    expect(answer!.text).not.toContain("notes"); // no SQL, no table name, no stack

    const entries = lines.map((line) => JSON.parse(line));
    const failure = entries.filter((e) => e.msg === "unhandled error");
    expect(failure).toHaveLength(1);
    expect(failure[0]).toMatchObject({ level: "error", request_id: "boom-1", method: "POST", route: "/api/v1/dossiers/:id/notes" });
    expect(failure[0].error).toContain(noTable("notes"));
    expect(entries.filter((e) => e.msg === "request").map((e) => [e.request_id, e.status, e.organization_id])).toEqual([["boom-1", 500, org.id]]);
    expect(lines.join("")).not.toContain("Marker-Note-Body");
  });

  test("with DOSSIER_LOG=pretty a 500's record stays one line: its error and stack are quoted", async () => {
    const app = await appWithEnv(engine, { DOSSIER_LOG: "pretty" });
    const org = await makeOrg(app);
    await queryRows(app, "ALTER TABLE flows RENAME TO flows_gone");
    const lines = await captureStderr(async () => {
      expect((await call(app, "GET", "/flows", { key: org.key, headers: { "x-request-id": "boom-2" } })).status).toBe(500);
    });
    expect(lines).toHaveLength(2);
    const [failure, request] = lines;
    // The error and the stack are JSON strings (quotes inside them escaped).
    expect(failure).toMatch(/^\S+Z ERROR unhandled error request_id=boom-2 method=GET route=\/api\/v1\/flows error="(?:[^"\\]|\\.)*" stack="(?:[^"\\]|\\.)*"$/);
    expect(JSON.parse(/ error=(".*?") stack=/.exec(failure!)![1]!)).toContain(noTable("flows"));
    // The whole stack, in one JSON string. Bun's PostgreSQL driver makes its error without the
    // frames of the query's caller: its stack is its message alone.
    const stack = JSON.parse(/ stack=(".*")$/.exec(failure!)![1]!);
    if (engine === "sqlite") expect(stack).toContain("\n    at ");
    else expect(stack).toBe(`PostgresError: ${noTable("flows")}`);
    expect(request).toMatch(/ INFO request request_id=boom-2 method=GET route=\/api\/v1\/flows status=500 /);
  });

  test("a body's content and the bearer key never appear in the log, JSON or pretty, at debug", async () => {
    for (const mode of ["json", "pretty"]) {
      const app = await appWithEnv(engine, { DOSSIER_LOG: mode, DOSSIER_LOG_LEVEL: "debug" });
      const org = await makeOrg(app);
      const readOnly = await makeKey(app, org, ["flows:read"]);
      const marker = `Marker-${mode}-${crypto.randomUUID()}`;
      const dossier = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada" } })).json.data;
      const lines = await captureStderr(async () => {
        const statuses = [
          (await call(app, "POST", "/contacts", { key: org.key, body: { full_name: marker, notes: marker, email: `${mode}@example.org` } })).status,
          (await call(app, "POST", "/contacts", { key: org.key, body: { full_name: marker, [marker]: marker } })).status,
          (await call(app, "POST", "/contacts", { key: org.key, raw: `{"full_name":"${marker}"`, contentType: "application/json" })).status,
          (await call(app, "POST", "/contacts", { key: readOnly, body: { full_name: marker } })).status,
          (await call(app, "POST", "/contacts", { key: org.key.slice(0, -1) + (org.key.endsWith("0") ? "1" : "0"), body: { full_name: marker } })).status,
          (await call(app, "POST", `/dossiers/${dossier.id}/cv`, { key: org.key, raw: marker, contentType: "application/pdf" })).status,
          (await call(app, "GET", `/contacts?search=${marker}`, { key: org.key })).status,
        ];
        expect(statuses).toEqual([201, 400, 400, 403, 401, 400, 200]);
      });
      expect(lines).toHaveLength(7);
      const text = lines.join("\n");
      expect(text).not.toContain(marker);
      for (const key of [org.key, readOnly]) {
        expect(text).not.toContain(key.slice(9)); // the secret part
        expect(text).not.toContain(key.slice(9, 25)); // nor a good part of it
      }
      expect(text).not.toContain("svc_live_");
      expect(text).not.toContain("Bearer");
    }
  });

  test("request-log side: an organization noted by the auth check before it refuses is on the line (402, 403, 429)", async () => {
    const app = await appOn(engine, { config: { log: "json" } });
    const codes = { "/plan": "plan_required", "/scope": "forbidden", "/rate": "rate_limited" } as const;
    // The same plugins as the app, with a stand-in for the auth check that notes then refuses.
    const probe = new Elysia()
      .use(requestId)
      .use(requestLog(app.dossier))
      .use(errors(app.dossier))
      .get("/:what", ({ request, params }) => {
        noteOrganization(request, `org-${params.what}`);
        throw new ApiError(codes[`/${params.what}` as keyof typeof codes], "refused");
      });
    const lines = await captureStderr(async () => {
      for (const path of Object.keys(codes)) await probe.handle(new Request(`http://localhost${path}`));
    });
    expect(lines.map((line) => JSON.parse(line)).map((e) => [e.status, e.organization_id])).toEqual([
      [402, "org-plan"],
      [403, "org-scope"],
      [429, "org-rate"],
    ]);
  });

  test("402, 403 and 429 lines name the organization the key identified", async () => {
    const app = await appOn(engine, { config: { log: "json" } });
    const pro = await makeOrg(app, { plan: "pro" });
    const growth = await makeOrg(app, { rateLimit: 1 });
    const noScope = await makeKey(app, growth, []);
    const lines = await captureStderr(async () => {
      expect((await call(app, "GET", "/flows", { key: pro.key })).status).toBe(402);
      expect((await call(app, "GET", "/flows", { key: noScope })).status).toBe(403);
      expect((await call(app, "GET", "/flows", { key: growth.key })).status).toBe(429);
      expect((await call(app, "GET", "/flows", { headers: { authorization: "Bearer svc_live_" + "0".repeat(32) } })).status).toBe(401);
    });
    expect(lines.map((line) => JSON.parse(line)).map((e) => [e.status, e.organization_id])).toEqual([
      [402, pro.id],
      [403, growth.id],
      [429, growth.id],
      [401, null],
    ]);
  });
});

async function freePort(): Promise<number> {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
}
