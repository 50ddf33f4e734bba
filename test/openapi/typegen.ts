// TypeScript types of the served OpenAPI document, with openapi-typescript's programmatic API.
// test/openapi/generated/api.d.ts holds the types of the current document; the contract test fails
// when it is stale, and `bun test/openapi/generate.ts` rewrites it.
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";

export const GENERATED = join(import.meta.dir, "generated/api.d.ts");

const HEADER = "// Generated from GET /openapi.json by `bun test/openapi/generate.ts` (openapi-typescript). Do not edit.\n\n";

const BLOB = ts.factory.createTypeReferenceNode("Blob");

export async function generateTypes(document: object): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as never, {
    silent: true,
    alphabetize: false,
    // A file (`format: binary`: the CV, as a multipart part or a raw application/pdf body) is a
    // Blob, so that openapi-fetch takes a File without a cast: openapi-typescript's documented
    // transform for file uploads (docs/openapi.md says so to other client generators).
    transform: (schema) => (schema.format === "binary" ? BLOB : undefined),
  });
  return HEADER + astToString(ast);
}
