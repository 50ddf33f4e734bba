// Issue 8, "a document that cannot lie": GET /openapi.json, typed client generated from it,
// a scenario that uses every route type-checked against those types and run against a real server
// on 127.0.0.1, and every answer (status, body, headers) checked against the document with ajv
// (JSON Schema 2020-12, the dialect of OpenAPI 3.1). An undocumented status, a body or header that
// does not match, or a documented status that the scenario never saw fails the test. The server is
// the real one (src/server.ts's startServer, with its body limits and timeouts), and the app's own
// route table is compared with the document's paths, so that a route left out of it fails too.
import { SQL } from "bun";
import { spawnSync } from "node:child_process";
import SwaggerParser from "@apidevtools/swagger-parser";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Middleware } from "openapi-fetch";
import ts from "typescript";
import { startServer, type RunningServer } from "../../src/server";
import { intakeAddress } from "../../src/services/intake";
import { writeOwnerSetupLink } from "../../src/services/members";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { listFlows } from "../../src/services/flows";
import { makeKey, makeOrg, onCleanup, onSqlite, setUp, tempDir } from "../helpers";
import { postgresServer } from "../helpers/postgres";
import { migratedDatabase, type Engine } from "../helpers/stores";
import { isConsole } from "../reliability/fuzz-routes";
import { runScenario, type DatabaseControls, type Fixtures } from "./scenario";


type Schema = Record<string, unknown>;
type Header = { required?: boolean; schema: Schema };
type Response = { description: string; headers?: Record<string, Header>; content?: Record<string, { schema: Schema; example?: unknown; examples?: Record<string, { value: unknown }> }> };
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema; example?: unknown }> };
  responses: Record<string, Response>;
  security?: unknown;
  "x-scopes"?: string[];
  description?: string;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas?: Record<string, Schema> };
};

/** C22's links for calendar apps and mail programs, each opened by its own token (src/http/member-links.ts): not API calls. */
const isMemberLink = (path: string) => path.startsWith("/calendar/") || path.startsWith("/unsubscribe/");

/** The contract suite on `engine`: the document's own checks (`documentTests`, once is enough) and
 * the scenario of every route against a real server on that engine. */
export async function contractSuite(engine: Engine, { documentTests }: { documentTests: boolean }) {
  const database = engine === "postgres" ? await migratedDatabase() : null;
  const server: RunningServer = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataDir: tempDir(),
    webhooks: false,
    env: database ? { DOSSIER_DATABASE_URL: database } : {},
    // A body timeout shorter than C20's 30 s, so that the scenario's stalled bodies get their 408 soon.
    config: { log: "off", bodyTimeoutMs: 3_000, intakeRateLimit: 20 },
  });
  const app = server.app;
  const baseUrl = server.url;
  /** The document as served, with its `$ref`s to named components. */
  let served: Document;
  /** The same with every `$ref` replaced by what it names, for the checks below. */
  let document: Document;

  beforeAll(async () => {
    served = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Document;
    document = (await SwaggerParser.dereference(structuredClone(served) as never)) as unknown as Document;
  });

  /** A closed JSON body: no member the document does not name (directly, or in an `allOf` part). */
  const closed = (schema: Schema): boolean => schema.additionalProperties === false || ((schema.allOf as Schema[] | undefined) ?? []).some(closed);
  afterAll(() => server.stop());

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

  // allowUnionTypes: OpenAPI 3.1 (JSON Schema 2020-12) allows a list of types (metadata on a create: an object or "").
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat("binary", true);
  ajv.addKeyword({ keyword: "example" }); // OpenAPI's, allowed beside JSON Schema's `examples`
  const validators = new WeakMap<Schema, ValidateFunction>();
  function validatorOf(schema: Schema): ValidateFunction {
    let validate = validators.get(schema);
    if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
    return validate;
  }
  const problems = (validate: ValidateFunction) => ajv.errorsText(validate.errors, { separator: "; " });

  describe(`the OpenAPI document cannot lie (${engine})`, () => {
    test.if(documentTests)("every operation declares its parameters, bodies, scopes, security and exact answers", () => {
      const ops = operations().filter(({ path }) => path.startsWith("/api/v1/"));
      expect(ops.length).toBe(26 + 15 + 9 + 10 + 2 + 4); // + the settings calls of C13, the member and session calls of C12, the task, mail-log and my-settings calls of C22, the exports and imports of C21
      expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
      expect(document.components.securitySchemes.cookieAuth).toMatchObject({ type: "apiKey", in: "cookie", name: "dossier_session" });
      // Signing in is the way in: it needs neither a key nor a session (C12); an intake token is its own principal (C15).
      const open = ops.filter(({ op }) => Array.isArray(op.security) && op.security.length === 0);
      expect(open.map(({ op }) => op.operationId).sort()).toEqual(["receiveIntakeMessage", "setUpPassword", "signIn"]);
      for (const { path, method, op } of open.filter(({ path }) => path.startsWith("/api/v1/session"))) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op["x-scopes"], where).toBeUndefined();
        expect(op.responses["200"].headers?.["X-RateLimit-Limit"], where).toBeUndefined();
      }
      for (const { path, method, op } of ops.filter((o) => !open.includes(o) || o.path === "/api/v1/intake/{token}")) {
        const where = `${method.toUpperCase()} ${path}`;
        if (path === "/api/v1/intake/{token}") {
          // C15: the token in the path is the principal; no key, no scopes, no rate-limit headers.
          expect(op.security, where).toEqual([]);
          expect(op["x-scopes"], where).toBeUndefined();
          expect(Object.keys(op.responses).sort(), where).toEqual(["200", "201", "400", "402", "404", "408", "409", "413", "415", "422", "429", "500", "503"]);
          expect(op.responses["429"].headers?.["Retry-After"]?.required, where).toBe(true);
          expect(op.responses["201"].headers?.["X-RateLimit-Limit"], where).toBeUndefined();
          continue;
        }
        expect(op.security, where).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
        expect(Array.isArray(op["x-scopes"]), where).toBe(true);
        for (const scope of op["x-scopes"]!) expect(op.description, where).toContain(`\`${scope}\``);
        // Path parameters: each one of the path, required, a uuid (an event id: evt_...).
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        const declared = (op.parameters ?? []).filter((p) => p.in === "path");
        expect(declared.map((p) => p.name), where).toEqual(inPath);
        const id = path.startsWith("/api/v1/events/") || path.startsWith("/api/v1/webhook-deliveries/") ? { type: "string", pattern: "^evt_[0-9A-Za-z]{26,}$" } : { type: "string", format: "uuid" };
        for (const p of declared) expect(p, where).toMatchObject({ required: true, schema: id });
        // Bodies on the writes that read one.
        // (An action on a resource, such as a rotation, reads none.)
        if ((method === "post" || method === "patch") && !/\/(rotate|rotate-secret|retry|setup-link|calendar-link|revert)$/.test(path)) {
          expect(Object.keys(op.requestBody?.content ?? {}).length, where).toBeGreaterThan(0);
        }
        // Every answer: a description, X-Request-Id, and for JSON a closed schema.
        for (const status of ["401", "402", "403", "429", "500"]) expect(op.responses[status], `${where} ${status}`).toBeDefined();
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.description.length, `${where} ${status}`).toBeGreaterThan(0);
          expect(response.headers?.["X-Request-Id"]?.required, `${where} ${status}`).toBe(true);
          const json = response.content?.["application/json"];
          if (json) expect(closed(json.schema), `${where} ${status}`).toBe(true);
        }
        expect(op.responses["429"].headers?.["Retry-After"]?.required, where).toBe(true);
      }
      for (const { path, method, op } of open) expect(op.responses["429"]?.headers?.["Retry-After"]?.required ?? true, `${method} ${path}`).toBe(true);
      const list = (p: string) => document.paths[p].get.parameters!.map((q) => q.name);
      expect(list("/api/v1/dossiers")).toEqual(["type", "status", "stage_id", "overdue", "assigned_to", "flow_id", "q", "contact_id", "updated_since", "metadata", "task_assigned_to", "page", "per_page", "after"]);
      // Issue 38: `metadata[key]=value`, an object in OpenAPI's deepObject style.
      expect(document.paths["/api/v1/dossiers"].get.parameters!.find((q) => q.name === "metadata")).toMatchObject({ in: "query", style: "deepObject", explode: true });
      expect(list("/api/v1/dossiers/{id}/notes")).toEqual(["id", "page", "per_page", "after"]);
      expect(list("/api/v1/contacts")).toEqual(["kind", "pool", "search", "updated_since", "metadata", "page", "per_page", "after"]);
      expect(list("/api/v1/events")).toEqual(["after", "type", "dossier_id", "limit"]);
      expect(Object.keys(document.paths["/api/v1/dossiers"].post.requestBody!.content)).toEqual(["application/json", "multipart/form-data"]);
      expect(Object.keys(document.paths["/api/v1/dossiers/{id}/cv"].post.requestBody!.content)).toEqual(["multipart/form-data", "application/pdf"]);
      const download = document.paths["/api/v1/dossiers/{id}/cv"].get.responses["200"];
      expect(Object.keys(download.content!)).toEqual(["application/pdf"]);
      expect(download.headers!["Content-Disposition"].required).toBe(true);
    });

    test.if(documentTests)("every route the app serves is in the document, and nothing else is", () => {
      // The app's own route table: method + path, without the document's own pages and HEAD.
      const served = app.routes
        .filter((r) => r.method !== "HEAD" && r.path !== "/docs" && r.path !== "/openapi.json" && !r.path.startsWith("/docs/assets/") && !isConsole(r.path) && !isMemberLink(r.path))
        .map((r) => `${r.method.toUpperCase()} ${r.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`)
        .sort();
      const documented = operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`).sort();
      expect(served.length).toBeGreaterThan(19);
      expect(documented).toEqual(served);
    });

    test.if(documentTests)("every operation, /healthz included, declares X-Request-Id and closed JSON bodies on each answer", () => {
      for (const { path, method, op } of operations()) {
        for (const [status, response] of Object.entries(op.responses)) {
          const where = `${method.toUpperCase()} ${path} ${status}`;
          expect(response.headers?.["X-Request-Id"]?.required, where).toBe(true);
          // A 304 has no body (RFC 9110 §15.4.5).
          if (status !== "304") expect(Object.keys(response.content ?? {}).length, where).toBeGreaterThan(0);
          const json = response.content?.["application/json"];
          if (json) expect(closed(json.schema), where).toBe(true);
        }
      }
      const health = document.paths["/healthz"].get;
      expect(Object.keys(health.responses)).toEqual(["200", "503"]);
      expect(health.responses["503"].content!["application/json"].schema).toMatchObject({
        properties: { status: { type: "string", enum: ["unavailable", "storage_unavailable"] } },
      });
    });

    test.if(documentTests)("every success answer says what it means, not just OK or Created", () => {
      for (const { path, method, op } of operations()) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (!status.startsWith("2")) continue;
          const where = `${method.toUpperCase()} ${path} ${status}`;
          expect(["OK", "Created", "Success", "Successful response"], where).not.toContain(response.description);
          expect(response.description.length, where).toBeGreaterThan(20);
        }
      }
    });

    test.if(documentTests)("every request body of every media type, the CV's multipart and application/pdf too, has an example", () => {
      let bodies = 0;
      for (const { path, method, op } of operations()) {
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
          expect(media.example, `${method.toUpperCase()} ${path} ${type}`).toBeDefined();
          bodies++;
        }
      }
      expect(bodies).toBeGreaterThanOrEqual(9);
      expect(document.paths["/api/v1/dossiers/{id}/cv"].post.requestBody!.content["application/pdf"].example).toStartWith("%PDF-");
    });

    test.if(documentTests)("every example in the document matches its schema", () => {
      let checked = 0;
      const check = (schema: Schema, value: unknown, where: string) => {
        const validate = validatorOf(schema);
        if (!validate(value)) throw new Error(`${where}: the example does not match: ${problems(validate)}`);
        checked++;
      };
      const walk = (schema: unknown, where: string): void => {
        if (!schema || typeof schema !== "object") return;
        const s = schema as Schema;
        if (Array.isArray(s.examples) && (s.type !== undefined || s.anyOf !== undefined)) for (const e of s.examples) check(s, e, where);
        for (const value of Object.values(s)) if (value && typeof value === "object") walk(value, where);
      };
      for (const { path, method, op } of operations()) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
          if (media.example !== undefined) check(media.schema, media.example, `${where} ${type} body`);
          walk(media.schema, `${where} ${type} body`);
        }
        for (const [status, response] of Object.entries(op.responses)) {
          for (const media of Object.values(response.content ?? {})) {
            if (media.example !== undefined) check(media.schema, media.example, `${where} ${status}`);
            for (const [name, example] of Object.entries(media.examples ?? {})) check(media.schema, example.value, `${where} ${status} ${name}`);
            walk(media.schema, `${where} ${status}`);
          }
        }
      }
      // The named schemas too, the webhooks' event bodies among them.
      for (const [name, schema] of Object.entries(document.components.schemas ?? {})) walk(schema, `components.schemas.${name}`);
      expect(checked).toBeGreaterThan(100);
    });

    test.if(documentTests)("the scenario type-checks against the generated client types", () => {
      const root = join(import.meta.dir, "../..");
      const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
      const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
      const program = ts.createProgram([join(import.meta.dir, "scenario.ts")], { ...options, noEmit: true });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
        const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
        if (!d.file || d.start === undefined) return text;
        const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
        return `${d.file.fileName.slice(dirname(root).length + 1)}:${line + 1}:${character + 1} ${text}`;
      });
      expect(diagnostics).toEqual([]);
    });

    /** The token of the intake address of the organization's default flow of `type`. */
    async function intakeToken(organizationId: string, type: "candidate" | "sales"): Promise<string> {
      const flows = await listFlows(app.dossier, organizationId, { type, page: 1, perPage: 100 });
      const flow = flows.data.find((f) => f.is_default)!.id;
      const { address } = (await intakeAddress(app.dossier, organizationId, flow))!;
      return address.slice(0, address.indexOf("@"));
    }

    test("every route answers, for every status the scenario provokes, exactly what the document says", async () => {
      const org = await makeOrg(app);
      const proOrg = await makeOrg(app, { plan: "pro" });
      const fixtures: Fixtures = {
        baseUrl,
        intakeTokens: { pro: await intakeToken(proOrg.id, "candidate"), spare: await intakeToken(org.id, "sales") },
        keys: {
          all: org.key,
          none: (await makeKey(app, org, [])),
          pro: proOrg.key,
          limited: (await makeOrg(app, { rateLimit: 1 })).key,
        },
        ownerSetupToken: (await setUp(app.dossier, () => writeOwnerSetupLink(app.dossier, org.id, baseUrl))).split("#token=")[1],
        middleware: checker,
        ...(await databaseControls(app, org.id)),
        fillFilesDisk: () => (filesDiskFull = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", app.dossier.filesDir]).status === 0),
        freeFilesDisk: () => void spawnSync("umount", [app.dossier.filesDir]),
      };
      let filesDiskFull = false;
      try {
        await runScenario(fixtures);
      } finally {
        if (filesDiskFull) spawnSync("umount", [app.dossier.filesDir]);
      }
      expect(failures).toEqual([]);

      // Every documented (operation, status) was answered at least once: the document promises
      // nothing the service does not do. (507 needs a full disk: a tmpfs only root may mount. A CV's
      // download answers 503 only when its S3 bucket cannot be reached: test/files/s3.test.ts, "S3 down",
      // provokes it on both engines; this scenario's CVs are on disk.)
      if (!filesDiskFull) console.warn("507 insufficient_storage not provoked: mounting a tmpfs needs root");
      const documented = operations()
        .flatMap(({ path, method, op }) => Object.keys(op.responses).map((status) => `${method.toUpperCase()} ${path} ${status}`))
        .filter((entry) => filesDiskFull || !entry.endsWith(" 507"))
        .filter((entry) => entry !== "GET /api/v1/dossiers/{id}/cv 503");
      const missing = documented.filter((entry) => !seen.has(entry));
      expect(missing).toEqual([]);
      console.log(`checked ${answers} answers: ${operations().length} operations, ${seen.size} (operation, status) pairs, all documented pairs seen`);
    });
  });

  // ---- the checker: an openapi-fetch middleware that checks each answer against the document ----

  const failures: string[] = [];
  const seen = new Set<string>();
  let answers = 0;

  const checker: Middleware = {
    async onResponse({ request, response, schemaPath }) {
      const method = request.method.toLowerCase();
      const status = String(response.status);
      const where = `${request.method} ${schemaPath} ${status}`;
      answers++;
      seen.add(where);
      const documented = document.paths[schemaPath]?.[method]?.responses[status];
      if (!documented) {
        failures.push(`${where}: status not documented (${await response.clone().text()})`);
        return;
      }
      for (const [name, header] of Object.entries(documented.headers ?? {})) {
        const raw = response.headers.get(name);
        if (raw === null) {
          if (header.required) failures.push(`${where}: header ${name} missing`);
          continue;
        }
        const value = header.schema.type === "integer" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
        const validate = validatorOf(header.schema);
        if (!validate(value)) failures.push(`${where}: header ${name}: ${JSON.stringify(raw)}: ${problems(validate)}`);
      }
      if (response.status === 304) {
        if ((await response.clone().text()) !== "") failures.push(`${where}: a 304 with a body`);
        return;
      }
      const type = response.headers.get("content-type")?.split(";")[0].trim() ?? "";
      const media = documented.content?.[type];
      if (!media) {
        failures.push(`${where}: content type ${type} not documented (${Object.keys(documented.content ?? {}).join(", ")})`);
        return;
      }
      if (type === "application/json") {
        const body = await response.clone().json();
        const validate = validatorOf(media.schema);
        if (!validate(body)) failures.push(`${where}: body does not match: ${problems(validate)}: ${JSON.stringify(body).slice(0, 300)}`);
      } else if (type === "application/pdf") {
        const bytes = new Uint8Array(await response.clone().arrayBuffer());
        if (new TextDecoder().decode(bytes.subarray(0, 5)) !== "%PDF-") failures.push(`${where}: not a PDF`);
      } else if (type === "text/csv") {
        // C21: UTF-8 with a BOM, CRLF, a header row of the resource's fields.
        const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.clone().arrayBuffer());
        if (!text.startsWith("\uFEFFid,") || !text.endsWith("\r\n")) failures.push(`${where}: not a CSV export: ${JSON.stringify(text.slice(0, 40))}`);
      } else {
        failures.push(`${where}: no check for ${type}`);
      }
    },
  };

}

/** How the scenario breaks the server's database, on each engine. */
async function databaseControls(app: DossierApp<Store>, organizationId: string): Promise<DatabaseControls> {
  if (app.dossier.store.engine === "sqlite") {
    const { store } = onSqlite(app).dossier;
    return {
      // Every request reads a key, and every remembered answer (a key, a page of dossiers) is checked
      // against its generation: without either table, nothing can be answered.
      breakDatabase: () => {
        store.sqlite.run("ALTER TABLE api_keys RENAME TO api_keys_gone");
        store.sqlite.run("ALTER TABLE generations RENAME TO generations_gone");
        // Mail to an intake address reads no key: its address book goes too.
        store.sqlite.run("ALTER TABLE intake_addresses RENAME TO intake_addresses_gone");
        store.sqlite.run("ALTER TABLE members RENAME TO members_gone");
      },
      // After the scenario's failed write (fillDatabaseDisk): a database that does not answer is
      // `unavailable` whatever failed before.
      closeDatabase: () => {
        store.reader.close();
        store.sqlite.close();
      },
      // A closed handle is a bug of the server's, not an outage of the database.
      closedDatabaseAnswer: { status: 500, code: "internal" },
      failPendingDeliveries: () =>
        void store.sqlite.query(`UPDATE events SET status = 'failed', next_attempt_at = NULL WHERE organization_id = ? AND status = 'pending'`).run(organizationId),
      fillDatabaseDisk: () => {
        const { sqlite } = store;
        sqlite.run(`PRAGMA max_page_count = ${sqlite.query<{ page_count: number }, []>("PRAGMA page_count").get()!.page_count}`);
      },
    };
  }
  // PostgreSQL: the same outages, made by PostgreSQL itself from a superuser's session.
  const url = app.dossier.config.databaseUrl!;
  const name = new URL(url).pathname.slice(1);
  const target = new SQL(url, { max: 1 });
  const server = new SQL((await postgresServer()).url("postgres"), { max: 1 });
  onCleanup(async () => void (await Promise.all([target.close(), server.close()])));
  // The admin's own session stays read-write whatever the database's default becomes.
  const onTarget = async (statement: string, values: unknown[] = []) => {
    await target.unsafe("SET default_transaction_read_only = off");
    await target.unsafe(statement, values);
  };
  const endSessions = () => server.unsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
  return {
    breakDatabase: async () => {
      await onTarget("ALTER TABLE api_keys RENAME TO api_keys_gone");
      await onTarget("ALTER TABLE intake_addresses RENAME TO intake_addresses_gone");
      await onTarget("ALTER TABLE members RENAME TO members_gone");
    },
    closeDatabase: async () => {
      await server.unsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await endSessions();
    },
    // C19: a database that cannot be reached is an outage: 503, never a false 2xx.
    closedDatabaseAnswer: { status: 503, code: "storage_unavailable" },
    failPendingDeliveries: () => onTarget(`UPDATE events SET status = 'failed', next_attempt_at = NULL WHERE organization_id = $1 AND status = 'pending'`, [organizationId]),
    // A database that takes reads but refuses writes (a standby after a failover): every new session read-only.
    fillDatabaseDisk: async () => {
      await server.unsafe(`ALTER DATABASE "${name}" SET default_transaction_read_only = on`);
      await endSessions();
    },
  };
}
