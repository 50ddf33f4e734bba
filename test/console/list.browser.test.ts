// The dossiers list in a real Chromium on a server whose store is SQLite: see list-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { listSuite } from "./list-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await listSuite("sqlite");
