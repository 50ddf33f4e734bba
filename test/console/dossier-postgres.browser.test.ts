// The dossier page and the new-dossier form in a real Chromium on a server whose store is PostgreSQL: see dossier-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { dossierSuite } from "./dossier-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await dossierSuite("postgres");
