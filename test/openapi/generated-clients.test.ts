// Issue 38 point 5 and 6: three generators that integrators use each make a client from the served
// document, and each client creates a dossier without a CV (JSON) and one with a CV (one multipart
// request) against a real server on 127.0.0.1. Each generator writes into a temporary folder
// (removed after, test/helpers' tempDir), beside a small program of ours that uses what it wrote;
// the programs and the generated code type-check (strict), then run.
//
// - openapi-typescript: types for openapi-fetch; a PDF (format binary) is a Blob, by its documented
//   transform (docs/openapi.md);
// - @hey-api/openapi-ts with its fetch client: it models one media type per operation and prefers
//   JSON, so `createDossier` sends JSON; the one-request multipart creation goes through the
//   client it generated, with its form serializer, typed by the generated `CreateDossierForm`;
// - orval (fetch client): an operation that takes two media types gets one function per media type
//   with orval's documented `override.splitByContentType` (`createDossierWithJson`,
//   `createDossierWithFormData`), each sending its own Content-Type. Without it orval writes one
//   function that sends a JSON string with no Content-Type (400, issue 38 point 6): a document
//   cannot choose for it while POST /dossiers takes both, as api-v1 says it does.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createClient as heyApi } from "@hey-api/openapi-ts";
import openapiTS, { astToString } from "openapi-typescript";
import { generate as orval } from "orval";
import ts from "typescript";
import { startServer, type RunningServer } from "../../src/server";
import { makeOrg, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROOT = join(import.meta.dir, "../..");
const OPENAPI_FETCH = join(ROOT, "node_modules/openapi-fetch/dist/index.mjs");
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

const server: RunningServer = await startServer({ host: "127.0.0.1", port: 0, dataDir: tempDir(), webhooks: false, config: { log: "off" } });
afterAll(() => server.stop());
const org = await makeOrg(server.app);
const dir = tempDir("dossier-clients-");
const documentFile = join(dir, "openapi.json");

beforeAll(async () => {
  await Bun.write(documentFile, await (await fetch(`${server.url}/openapi.json`)).text());
});

type Dossier = { id: string; name: string; cv_url: string | null; organization_id: string };
/** What each program exports: the two dossiers it made through its generated client. */
type Program = { createBoth: (baseUrl: string, key: string, cv: File) => Promise<[Dossier, Dossier]> };

/** Each client: how it is generated into `folder`, and the program of ours that uses it. */
const CLIENTS: Record<string, { generate: (folder: string) => Promise<void>; program: string; generated: string }> = {
  "openapi-typescript": {
    generated: "api.d.ts",
    async generate(folder) {
      const ast = await openapiTS(JSON.parse(await Bun.file(documentFile).text()), {
        silent: true,
        transform: (schema) => (schema.format === "binary" ? ts.factory.createTypeReferenceNode("Blob") : undefined),
      });
      await Bun.write(join(folder, "api.d.ts"), astToString(ast));
    },
    program: `
import createClient from ${JSON.stringify(OPENAPI_FETCH)};
import type { components, paths } from "./api";

type Dossier = components["schemas"]["Dossier"];

/** A form's members as the parts of a multipart body, a Blob as a file part. */
const form = (body: object): FormData => {
  const parts = new FormData();
  for (const [name, value] of Object.entries(body)) if (value !== undefined && value !== null) parts.append(name, value instanceof Blob ? value : String(value));
  return parts;
};

export async function createBoth(baseUrl: string, key: string, cv: File): Promise<[Dossier, Dossier]> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });
  const plain = await api.POST("/api/v1/dossiers", { body: { type: "candidate", name: "Plain, by openapi-typescript" } });
  const withCv = await api.POST("/api/v1/dossiers", { body: { type: "candidate", name: "With a CV, by openapi-typescript", cv }, bodySerializer: form });
  if (!plain.data || !withCv.data) throw new Error(JSON.stringify([plain.error, withCv.error]));
  return [plain.data.data, withCv.data.data];
}
`,
  },
  "@hey-api/openapi-ts": {
    generated: "hey/sdk.gen.ts",
    async generate(folder) {
      await heyApi({ input: documentFile, output: { path: join(folder, "hey") }, plugins: ["@hey-api/client-fetch"], logs: { level: "silent" } } as never);
    },
    program: `
import { formDataBodySerializer } from "./hey/client";
import { client } from "./hey/client.gen";
import { createDossier } from "./hey/sdk.gen";
import type { CreateDossierErrors, CreateDossierForm, CreateDossierResponses, Dossier } from "./hey/types.gen";

export async function createBoth(baseUrl: string, key: string, cv: File): Promise<[Dossier, Dossier]> {
  client.setConfig({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });
  const plain = await createDossier({ body: { type: "candidate", name: "Plain, by @hey-api/openapi-ts" } });
  const body: CreateDossierForm = { type: "candidate", name: "With a CV, by @hey-api/openapi-ts", cv };
  const withCv = await client.post<CreateDossierResponses, CreateDossierErrors>({
    url: "/api/v1/dossiers",
    body,
    ...formDataBodySerializer,
    headers: { "Content-Type": null },
  });
  if (!plain.data || !withCv.data) throw new Error(JSON.stringify([plain.error, withCv.error]));
  return [plain.data.data, withCv.data.data];
}
`,
  },
  orval: {
    generated: "orval/api.ts",
    async generate(folder) {
      await orval({
        input: { target: documentFile },
        output: { target: join(folder, "orval/api.ts"), client: "fetch", mode: "single", baseUrl: server.url, override: { splitByContentType: true } },
      });
    },
    program: `
import { createDossierWithFormData, createDossierWithJson, type Dossier } from "./orval/api";

export async function createBoth(baseUrl: string, key: string, cv: File): Promise<[Dossier, Dossier]> {
  const options = { headers: { Authorization: \`Bearer \${key}\` } };
  const plain = await createDossierWithJson({ type: "candidate", name: "Plain, by orval" }, options);
  const withCv = await createDossierWithFormData({ type: "candidate", name: "With a CV, by orval", cv }, options);
  if (plain.status !== 201 || withCv.status !== 201) throw new Error(JSON.stringify([plain.data, withCv.data]));
  return [plain.data.data, withCv.data.data];
}
`,
  },
};

const folderOf = (name: string) => join(dir, name.replace(/[^a-z]/g, ""));

describe("issue 38: clients generated from the document", () => {
  test.each(Object.keys(CLIENTS))("%s generates a client from the served document", async (name) => {
    const client = CLIENTS[name];
    const folder = folderOf(name);
    await client.generate(folder);
    expect(existsSync(join(folder, client.generated))).toBe(true);
    await Bun.write(join(folder, "program.ts"), client.program);
  });

  test("each program and the code it uses type-check, strict", () => {
    const programs = Object.keys(CLIENTS).map((name) => join(folderOf(name), "program.ts"));
    for (const file of programs) expect(existsSync(file), file).toBe(true);
    const program = ts.createProgram(programs, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      if (!d.file || d.start === undefined) return text;
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      return `${d.file.fileName.slice(dir.length + 1)}:${line + 1}:${character + 1} ${text}`;
    });
    expect(diagnostics).toEqual([]);
  });

  test.each(Object.keys(CLIENTS))("the %s client creates a dossier without a CV and one with a CV, on a real server", async (name) => {
    const file = join(folderOf(name), "program.ts");
    expect(existsSync(file), file).toBe(true);
    const { createBoth } = (await import(file)) as Program;
    const cv = new File([PDF], "cv.pdf", { type: "application/pdf" });
    const [plain, withCv] = await createBoth(server.url, org.key, cv);
    expect(plain.name).toBe(`Plain, by ${name}`);
    expect(plain.cv_url).toBeNull();
    expect(withCv.name).toBe(`With a CV, by ${name}`);
    expect(withCv.cv_url).toBe(`${org.id}/dossiers/${withCv.id}/cv.pdf`);
    // The server holds both, and the CV's bytes are the ones sent.
    const headers = { authorization: `Bearer ${org.key}` };
    for (const dossier of [plain, withCv]) expect((await fetch(`${server.url}/api/v1/dossiers/${dossier.id}`, { headers })).status).toBe(200);
    const download = await fetch(`${server.url}/api/v1/dossiers/${withCv.id}/cv`, { headers });
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PDF);
  });
});
