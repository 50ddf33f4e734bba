// Writes the console's API types (api/schema.d.ts) from the document the app serves, with
// openapi-typescript: `bun src/console/api/generate.ts`. The build runs it; a test fails when the
// file is stale.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { createApp } from "../../app";

export const SCHEMA_FILE = join(import.meta.dir, "schema.d.ts");

const HEADER = "// Generated from GET /openapi.json by `bun src/console/api/generate.ts` (openapi-typescript). Do not edit.\n\n";

/** The types of `document`: a file (`format: binary`) is a Blob, so that a File is taken as it is. */
export async function consoleTypes(document: object): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as never, {
    silent: true,
    alphabetize: false,
    transform: (schema) => (schema.format === "binary" ? ts.factory.createTypeReferenceNode("Blob") : undefined),
  });
  return HEADER + astToString(ast);
}

/** The document the app serves, from an app on a temporary data folder. */
export async function servedDocument(): Promise<object> {
  const dataDir = mkdtempSync(join(tmpdir(), "dossier-console-"));
  const app = createApp({ dataDir, webhooks: false, config: { log: "off" } });
  try {
    return (await (await app.handle(new Request("http://localhost/openapi.json"))).json()) as object;
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  await Bun.write(SCHEMA_FILE, await consoleTypes(await servedDocument()));
  console.log(`wrote ${SCHEMA_FILE}`);
}
