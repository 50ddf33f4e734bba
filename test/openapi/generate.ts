// Rewrites test/openapi/generated/api.d.ts from the document the app serves:
//   bun test/openapi/generate.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { GENERATED, generateTypes } from "./typegen";

const dataDir = mkdtempSync(join(tmpdir(), "dossier-openapi-"));
const app = createApp({ dataDir, webhooks: false, config: { log: "off" } });
try {
  const document = (await (await app.handle(new Request("http://localhost/openapi.json"))).json()) as object;
  await Bun.write(GENERATED, await generateTypes(document));
  console.log(`wrote ${GENERATED}`);
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
